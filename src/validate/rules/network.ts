/**
 * Network across the fleet (Cluster `spec.network`): clusters on one mesh or routed network must
 * not overlap in pod, service or machine CIDRs and must have distinct cluster IDs; API and
 * ingress VIPs must lie inside the cluster's machine network and must not be shared by two
 * clusters. Malformed addresses are errors too.
 */
import type { Finding } from '../../model/finding.js';
import type { ClusterDef } from '../../model/fleet.js';
import type { ClusterNetwork } from '../../model/spec.js';
import type { RuleDefinition } from '../engine.js';
import { place } from '../context.js';

export interface Cidr {
  text: string;
  v6: boolean;
  start: bigint;
  end: bigint;
}

function parseIp(s: string): { v6: boolean; n: bigint } | undefined {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(s)) {
    const parts = s.split('.').map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return { v6: false, n: parts.reduce((a, p) => (a << 8n) + BigInt(p), 0n) };
  }
  if (!s.includes(':') || !/^[0-9a-fA-F:]+$/.test(s)) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => g.length === 0 || g.length > 4)) return undefined;
  return { v6: true, n: groups.reduce((a, g) => (a << 16n) + BigInt(parseInt(g, 16)), 0n) };
}

export function parseCidr(text: string): Cidr | undefined {
  const [ip, len, extra] = text.trim().split('/');
  if (extra !== undefined || ip === undefined || len === undefined || !/^\d+$/.test(len)) return undefined;
  const a = parseIp(ip);
  if (!a) return undefined;
  const bits = a.v6 ? 128 : 32;
  const l = Number(len);
  if (l > bits) return undefined;
  const host = (1n << BigInt(bits - l)) - 1n;
  const start = a.n & ~host;
  return { text, v6: a.v6, start, end: start | host };
}

export function overlaps(a: Cidr, b: Cidr): boolean {
  return a.v6 === b.v6 && a.start <= b.end && b.start <= a.end;
}

function list(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

type CidrField = 'podCIDR' | 'serviceCIDR' | 'machineCIDR';
const CIDR_FIELDS: CidrField[] = ['podCIDR', 'serviceCIDR', 'machineCIDR'];
type VipField = 'apiVIP' | 'ingressVIP';

interface Entry {
  cluster: ClusterDef;
  field: CidrField;
  index: number | undefined;
  cidr: Cidr;
}

export const networkRule: RuleDefinition = {
  name: 'network',
  codes: {
    'invalid-network': {
      severity: 'error',
      summary: 'malformed CIDR or address',
      help: 'Write CIDRs as address/prefix (10.128.0.0/14, fd01::/48) and VIPs as single addresses.',
    },
    'cidr-overlap': {
      severity: 'error',
      summary: 'clusters on one mesh or network overlap in pod, service or machine CIDRs',
      help: 'Clusters connected by a mesh (Submariner, Cilium ClusterMesh, Istio multi-network) or a routed network need disjoint pod, service and machine networks, or traffic goes to the wrong cluster.',
    },
    'duplicate-cluster-id': {
      severity: 'error',
      summary: 'two clusters share a cluster ID',
      help: 'Mesh cluster IDs (ClusterMesh, Submariner) must be unique on a mesh.',
    },
    'vip-outside-machine-network': {
      severity: 'error',
      summary: 'API or ingress VIP outside the machine network',
      help: 'The API and ingress VIPs must be addresses of the machine network, or keepalived cannot hold them on the nodes.',
    },
    'shared-vip': {
      severity: 'error',
      summary: 'two clusters use the same VIP',
      help: 'An API or ingress VIP held by two clusters breaks both. Give each cluster its own addresses.',
    },
  },
  run(ctx) {
    const { fleet } = ctx;
    const out: Finding[] = [];
    const selected = new Set(ctx.clusters.map((c) => c.name));
    const defs = fleet.clusters.filter((d) => selected.has(d.name) && d.spec.network);
    const origin = (d: ClusterDef, field: string, index?: number) => ({ file: d.file, path: ['spec', 'network', field, ...(index === undefined ? [] : [index])] });
    const entries: Entry[] = [];
    const vips = new Map<string, { d: ClusterDef; field: VipField; text: string }>();
    const ids = new Map<string, ClusterDef>();
    for (const d of defs) {
      const net: ClusterNetwork = d.spec.network!;
      for (const field of CIDR_FIELDS) {
        const raw = net[field];
        list(raw).forEach((text, i) => {
          const cidr = parseCidr(text);
          const index = Array.isArray(raw) ? i : undefined;
          if (!cidr) {
            out.push(place(fleet, origin(d, field, index), { severity: 'error', code: 'invalid-network', message: `${field} "${text}" is not a CIDR`, hint: 'write address/prefix, e.g. 10.128.0.0/14', cluster: d.name }));
          } else entries.push({ cluster: d, field, index, cidr });
        });
      }
      const machine = entries.filter((e) => e.cluster === d && e.field === 'machineCIDR').map((e) => e.cidr);
      for (const field of ['apiVIP', 'ingressVIP'] as const) {
        const raw = net[field];
        list(raw).forEach((text, i) => {
          const index = Array.isArray(raw) ? i : undefined;
          const ip = parseCidr(`${text}/${text.includes(':') ? 128 : 32}`);
          if (!ip) {
            out.push(place(fleet, origin(d, field, index), { severity: 'error', code: 'invalid-network', message: `${field} "${text}" is not an IP address`, hint: 'write a single address, e.g. 192.168.10.5', cluster: d.name }));
            return;
          }
          const same = machine.filter((m) => m.v6 === ip.v6);
          if (same.length > 0 && !same.some((m) => overlaps(m, ip))) {
            out.push(place(fleet, origin(d, field, index), {
              severity: 'error',
              code: 'vip-outside-machine-network',
              message: `${field} ${text} of cluster ${d.name} is outside its machine network ${same.map((m) => m.text).join(', ')}`,
              hint: 'pick a free address inside the machine network',
              cluster: d.name,
            }));
          }
          const key = ip.start.toString() + (ip.v6 ? '/6' : '/4');
          const prev = vips.get(key);
          if (prev && prev.d !== d) {
            out.push(place(fleet, origin(d, field, index), {
              severity: 'error',
              code: 'shared-vip',
              message: `${field} ${text} of cluster ${d.name} is also the ${prev.field} of cluster ${prev.d.name}`,
              hint: 'give each cluster its own VIPs',
              cluster: d.name,
            }));
          } else if (!prev) vips.set(key, { d, field, text });
        });
      }
      if (net.clusterID !== undefined) {
        const idKey = `${net.mesh ?? ''}\0${net.clusterID}`;
        const prev = ids.get(idKey);
        if (prev) {
          out.push(place(fleet, origin(d, 'clusterID'), {
            severity: 'error',
            code: 'duplicate-cluster-id',
            message: `cluster ID "${net.clusterID}" of cluster ${d.name} is also used by cluster ${prev.name}${net.mesh ? ` on mesh ${net.mesh}` : ''}`,
            hint: 'give every cluster of a mesh its own ID',
            cluster: d.name,
          }));
        } else ids.set(idKey, d);
      }
    }
    // Overlaps between clusters that share a mesh/network (any field against any field).
    const byMesh = new Map<string, Entry[]>();
    for (const e of entries) {
      const mesh = e.cluster.spec.network?.mesh;
      if (mesh === undefined) continue;
      (byMesh.get(mesh) ?? byMesh.set(mesh, []).get(mesh)!).push(e);
    }
    for (const [mesh, es] of byMesh) {
      for (let i = 0; i < es.length; i++) {
        for (let j = 0; j < i; j++) {
          const a = es[i]!;
          const b = es[j]!;
          if (a.cluster === b.cluster || !overlaps(a.cidr, b.cidr)) continue;
          out.push(place(fleet, origin(a.cluster, a.field, a.index), {
            severity: 'error',
            code: 'cidr-overlap',
            message: `${a.field} ${a.cidr.text} of cluster ${a.cluster.name} overlaps ${b.field} ${b.cidr.text} of cluster ${b.cluster.name} on mesh ${mesh}`,
            hint: 'give the clusters of one mesh disjoint pod, service and machine networks',
            cluster: a.cluster.name,
          }));
        }
      }
    }
    return out;
  },
};
