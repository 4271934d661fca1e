/**
 * Network across the fleet (Cluster `spec.network`, else `spec.provision.networks`): clusters on one mesh or routed network must
 * not overlap in pod, service or machine CIDRs and must have distinct cluster IDs; API and
 * ingress VIPs must lie inside the cluster's machine network and must not be shared by two
 * clusters. Malformed addresses are errors too.
 */
import type { Finding } from '../../model/finding.js';
import type { ClusterDef, Origin } from '../../model/fleet.js';
import type { ClusterNetwork } from '../../model/spec.js';
import type { RuleDefinition } from '../engine.js';
import { place } from '../context.js';
import { parseCidr as parseBlock } from '../cidr.js';

export interface Cidr {
  text: string;
  v6: boolean;
  start: bigint;
  end: bigint;
}

/** A block as the range of addresses it covers (for a sweep over sorted ranges). */
export function parseCidr(text: string): Cidr | undefined {
  const c = parseBlock(text.trim());
  if (!c) return undefined;
  const host = (1n << BigInt((c.family === 6 ? 128 : 32) - c.prefix)) - 1n;
  const start = c.value & ~host;
  return { text, v6: c.family === 6, start, end: start | host };
}

export function overlaps(a: Cidr, b: Cidr): boolean {
  return a.v6 === b.v6 && a.start <= b.end && b.start <= a.end;
}

function list(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

interface Entry {
  cluster: ClusterDef;
  field: string;
  origin: Origin;
  cidr: Cidr;
}

export const networkRule: RuleDefinition = {
  name: 'network',
  codes: {
    'invalid-cidr': {
      severity: 'error',
      summary: 'malformed CIDR block',
      help: 'Write CIDRs as address/prefix (10.128.0.0/14, fd01::/48).',
    },
    'invalid-address': {
      severity: 'error',
      summary: 'malformed IP address',
      help: 'Write VIPs as single IPv4 or IPv6 addresses, without a prefix.',
    },
    'mesh-cidr-overlap': {
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
    const entries: Entry[] = [];
    const vips = new Map<string, { d: ClusterDef; field: string; text: string }>();
    const ids = new Map<string, ClusterDef>();
    for (const d of fleet.clusters) {
      if (!selected.has(d.name)) continue;
      const values = networkValues(d);
      if (values.length === 0) continue;
      const machine: Cidr[] = [];
      for (const v of values.filter((x) => x.kind === 'cidr')) {
        const cidr = parseCidr(v.text);
        if (!cidr) {
          if (v.own) out.push(place(fleet, v.origin, { severity: 'error', code: 'invalid-cidr', message: `${v.field} "${v.text}" is not a CIDR block`, hint: 'write address/prefix, e.g. 10.128.0.0/14', cluster: d.name }));
          continue;
        }
        entries.push({ cluster: d, field: v.field, origin: v.origin, cidr });
        if (v.field === 'machineCIDR') machine.push(cidr);
      }
      for (const v of values.filter((x) => x.kind === 'vip')) {
        const ip = parseCidr(`${v.text}/${v.text.includes(':') ? 128 : 32}`);
        if (!ip) {
          if (v.own) out.push(place(fleet, v.origin, { severity: 'error', code: 'invalid-address', message: `${v.field} "${v.text}" is not an IP address`, hint: 'write a single address, e.g. 192.168.10.5', cluster: d.name }));
          continue;
        }
        const same = machine.filter((m) => m.v6 === ip.v6);
        // Provisioning checks its own VIPs against its own machine network (provision rules).
        if (v.own && same.length > 0 && !same.some((m) => overlaps(m, ip))) {
          out.push(place(fleet, v.origin, {
            severity: 'error',
            code: 'vip-outside-machine-network',
            message: `${v.field} ${v.text} of cluster ${d.name} is outside its machine network ${same.map((m) => m.text).join(', ')}`,
            hint: 'pick a free address inside the machine network',
            cluster: d.name,
          }));
        }
        const key = ip.start.toString() + (ip.v6 ? '/6' : '/4');
        const prev = vips.get(key);
        if (prev && prev.d !== d) {
          out.push(place(fleet, v.origin, {
            severity: 'error',
            code: 'shared-vip',
            message: `${v.field} ${v.text} of cluster ${d.name} is also the ${prev.field} of cluster ${prev.d.name}`,
            hint: 'give each cluster its own VIPs',
            cluster: d.name,
          }));
        } else if (!prev) vips.set(key, { d, field: v.field, text: v.text });
      }
      const net = d.spec.network;
      if (net?.clusterID !== undefined) {
        const idKey = `${net.mesh ?? ''}\0${net.clusterID}`;
        const prev = ids.get(idKey);
        if (prev) {
          out.push(place(fleet, { file: d.file, path: ['spec', 'network', 'clusterID'] }, {
            severity: 'error',
            code: 'duplicate-cluster-id',
            message: `cluster ID "${net.clusterID}" of cluster ${d.name} is also used by cluster ${prev.name}${net.mesh ? ` on mesh ${net.mesh}` : ''}`,
            hint: 'give every cluster of a mesh its own ID',
            cluster: d.name,
          }));
        } else ids.set(idKey, d);
      }
    }
    // Overlaps between clusters that share a mesh/network (any field against any field),
    // as a sweep over the ranges sorted by start: linear in clusters plus overlaps found.
    const byMesh = new Map<string, Entry[]>();
    for (const e of entries) {
      const mesh = e.cluster.spec.network?.mesh;
      if (mesh === undefined) continue;
      (byMesh.get(mesh) ?? byMesh.set(mesh, []).get(mesh)!).push(e);
    }
    for (const [mesh, es] of byMesh) {
      const sorted = [...es].sort((a, b) => (a.cidr.v6 !== b.cidr.v6 ? (a.cidr.v6 ? 1 : -1) : a.cidr.start < b.cidr.start ? -1 : a.cidr.start > b.cidr.start ? 1 : 0));
      const open: Entry[] = [];
      for (const a of sorted) {
        for (let i = open.length - 1; i >= 0; i--) if (open[i]!.cidr.v6 !== a.cidr.v6 || open[i]!.cidr.end < a.cidr.start) open.splice(i, 1);
        for (const b of open) {
          if (b.cluster === a.cluster) continue;
          out.push(place(fleet, a.origin, {
            severity: 'error',
            code: 'mesh-cidr-overlap',
            message: `${a.field} ${a.cidr.text} of cluster ${a.cluster.name} overlaps ${b.field} ${b.cidr.text} of cluster ${b.cluster.name} on mesh ${mesh}`,
            hint: 'give the clusters of one mesh disjoint pod, service and machine networks',
            cluster: a.cluster.name,
          }));
        }
        open.push(a);
      }
    }
    return out;
  },
};

interface NetworkValue {
  kind: 'cidr' | 'vip';
  field: string;
  text: string;
  origin: Origin;
  /** From spec.network (checked here in full), not from spec.provision.networks (checked by the provision rules). */
  own: boolean;
}

/**
 * A cluster's networks: spec.network, else what spec.provision.networks declares for the same
 * network (machine, pod, service, apiVIPs, ingressVIPs) — one place per CIDR, never two.
 */
export function networkValues(d: ClusterDef): NetworkValue[] {
  const out: NetworkValue[] = [];
  const net: ClusterNetwork = d.spec.network ?? {};
  const prov = d.spec.provision && typeof d.spec.provision.networks === 'object' && d.spec.provision.networks !== null ? (d.spec.provision.networks as Record<string, unknown>) : {};
  const pairs: [keyof ClusterNetwork, string, 'cidr' | 'vip'][] = [
    ['podCIDR', 'pod', 'cidr'],
    ['serviceCIDR', 'service', 'cidr'],
    ['machineCIDR', 'machine', 'cidr'],
    ['apiVIP', 'apiVIPs', 'vip'],
    ['ingressVIP', 'ingressVIPs', 'vip'],
  ];
  for (const [own, provKey, kind] of pairs) {
    const raw = net[own] as string | string[] | undefined;
    if (raw !== undefined) {
      list(raw).forEach((text, i) => out.push({ kind, field: own, text, own: true, origin: { file: d.file, path: ['spec', 'network', own, ...(Array.isArray(raw) ? [i] : [])] } }));
      continue;
    }
    const p = prov[provKey];
    const texts = typeof p === 'string' ? [p] : Array.isArray(p) ? p.filter((x): x is string => typeof x === 'string') : [];
    texts.forEach((text, i) => out.push({ kind, field: own, text, own: false, origin: { file: d.file, path: ['spec', 'provision', 'networks', provKey, ...(Array.isArray(p) ? [i] : [])] } }));
  }
  return out;
}
