/**
 * Rules for `provision:` sections: required fields per installer, addresses and networks, host
 * identity across the fleet, BMC address schemes, and known platform versions. Each rule is a
 * small function `(ctx) → Finding[]` (see src/validate/index.ts); findings point at the field.
 */
import type { Finding } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { locateOrigin } from '../model/fleet.js';
import type { CredentialRef, NetworksSpec, ProvisionSpec } from '../model/spec.js';
import { DEFAULT_NETWORKS } from '../generate/provision/common.js';
import { formatPath } from '../model/source.js';
import type { Cidr } from './cidr.js';
import { cidrContains, cidrsOverlap, parseCidr, parseIp } from './cidr.js';
import type { Rule } from './engine.js';
import type { RuleContext } from './context.js';

type Path = (string | number)[];
type NetworkKey = 'machine' | 'pod' | 'service';

interface Provisioned {
  def: ResolvedCluster;
  /** With variables substituted. */
  spec: ProvisionSpec;
}

/** The selected clusters that have a provision section. */
function provisioned(ctx: RuleContext): Provisioned[] {
  return ctx.clusters.filter((c) => c.provision).map((def) => ({ def, spec: def.provision! }));
}

function finding(fleet: Fleet, def: { file: string; name: string }, path: Path, f: Omit<Finding, 'file' | 'line' | 'column' | 'path' | 'cluster'>): Finding {
  const full = ['spec', 'provision', ...path];
  const loc = locateOrigin(fleet, { file: def.file, path: full });
  return { ...f, ...loc, path: formatPath(full), cluster: def.name };
}

/** Fields each installer cannot do without. */
export const provisionRequiredRule: Rule = (ctx) => {
  const out: Finding[] = [];
  for (const { def, spec } of provisioned(ctx)) {
    const missing = (path: Path, why: string, hint: string) =>
      out.push(finding(ctx.fleet, def, path, { severity: 'error', code: 'provision-missing-field', message: `${spec.installer}: ${formatPath(['provision', ...path])} is required (${why})`, hint }));
    if (def.hub === undefined) {
      out.push(finding(ctx.fleet, def, [], {
        severity: 'error',
        code: 'provision-without-hub',
        message: `cluster ${def.name} has provision: but no hub to provision it`,
        hint: 'set spec.hub to the cluster that runs ACM and creates this one',
      }));
    }
    if (spec.version === undefined) missing(['version'], 'it selects the release image', spec.installer === 'capi-eks' ? 'e.g. version: "1.30"' : 'e.g. version: "4.20"');
    if (spec.baseDomain === undefined && spec.installer !== 'capi-eks') missing(['baseDomain'], 'the cluster is reached at api.<name>.<baseDomain>', 'e.g. baseDomain: example.com');
    if (spec.installer !== 'agent' && spec.region === undefined && def.region === undefined) missing(['region'], 'the AWS region to create the cluster in', 'set provision.region or the cluster\'s spec.region');
    const creds = spec.credentials ?? {};
    if (spec.installer !== 'agent' && creds.cloud === undefined) missing(['credentials', 'cloud'], 'the AWS credentials the installer uses', 'e.g. cloud: { key: aws-credentials } in the secret store');
    if (spec.installer !== 'capi-eks' && creds.pullSecret === undefined) missing(['credentials', 'pullSecret'], 'OpenShift images need a pull secret', 'e.g. pullSecret: { key: pull-secret }');
    if (spec.installer === 'agent') {
      const hosts = spec.hosts ?? [];
      if (hosts.length === 0) missing(['hosts'], 'the bare-metal hosts to install on', 'list each host with its BMC address and boot MAC');
      if (spec.networks?.machine === undefined) missing(['networks', 'machine'], 'the hosts\' network', 'e.g. machine: 192.168.135.0/24');
      const masters = hosts.filter((h) => h.role === 'master').length;
      const sno = masters === 1 && hosts.length === 1;
      if (hosts.length > 0 && !sno) {
        if (!spec.networks?.apiVIPs?.length) missing(['networks', 'apiVIPs'], 'a multi-node cluster needs an API VIP', 'an unused address in the machine network');
        if (!spec.networks?.ingressVIPs?.length) missing(['networks', 'ingressVIPs'], 'a multi-node cluster needs an ingress VIP', 'an unused address in the machine network');
      }
      if (hosts.length > 0 && masters !== 1 && masters < 3) {
        out.push(finding(ctx.fleet, def, ['hosts'], {
          severity: 'error',
          code: 'provision-control-plane-size',
          message: `agent: ${masters} master host${masters === 1 ? '' : 's'}; OpenShift needs 3 (or 1 for single-node)`,
          hint: 'give three hosts role: master',
        }));
      }
      hosts.forEach((h, i) => {
        if (h.bmc.credentials === undefined && creds.bmc === undefined) {
          missing(['hosts', i, 'bmc', 'credentials'], `host ${h.name} needs BMC credentials`, 'set credentials.bmc for every host, or bmc.credentials on this host');
        }
      });
    }
    // A stored reference needs a store.
    const refs: [Path, CredentialRef | undefined][] = [
      [['credentials', 'pullSecret'], creds.pullSecret],
      [['credentials', 'cloud'], creds.cloud],
      [['credentials', 'bmc'], creds.bmc],
      [['credentials', 'installConfig'], creds.installConfig],
      ...(spec.hosts ?? []).map((h, i): [Path, CredentialRef | undefined] => [['hosts', i, 'bmc', 'credentials'], h.bmc.credentials]),
    ];
    for (const [path, ref] of refs) {
      if (!ref) continue;
      if (ref.key === undefined && ref.secretName === undefined) {
        out.push(finding(ctx.fleet, def, path, { severity: 'error', code: 'provision-missing-field', message: 'a credential reference needs key (in a secret store) or secretName (an existing Secret)', hint: 'e.g. { key: pull-secret }' }));
      } else if (ref.key !== undefined && ref.secretName !== undefined) {
        out.push(finding(ctx.fleet, def, path, { severity: 'error', code: 'provision-ambiguous-credential', message: 'a credential reference has both key and secretName', hint: 'keep one: key reads the store through an ExternalSecret, secretName uses an existing Secret' }));
      } else if (ref.key !== undefined && ref.store === undefined && creds.store === undefined) {
        out.push(finding(ctx.fleet, def, path, { severity: 'error', code: 'provision-missing-field', message: `key "${ref.key}" is read from a secret store, but no store is given`, hint: 'set provision.credentials.store: { name: <ClusterSecretStore> }' }));
      }
    }
  }
  return out;
};

function effectiveNetworks(spec: ProvisionSpec): NetworksSpec {
  return { ...DEFAULT_NETWORKS[spec.installer], ...(spec.networks ?? {}) };
}

/** API and ingress VIPs: valid addresses, inside the machine network, distinct. */
export const provisionVipRule: Rule = (ctx) => {
  const out: Finding[] = [];
  for (const { def, spec } of provisioned(ctx)) {
    const net = spec.networks ?? {};
    const machine = net.machine !== undefined ? parseCidr(net.machine) : undefined;
    const seen = new Map<string, string>();
    for (const field of ['apiVIPs', 'ingressVIPs'] as const) {
      (net[field] ?? []).forEach((vip, i) => {
        const path: Path = ['networks', field, i];
        const ip = parseIp(vip);
        if (!ip) {
          out.push(finding(ctx.fleet, def, path, { severity: 'error', code: 'invalid-address', message: `"${vip}" is not an IP address`, hint: 'write an IPv4 or IPv6 address without a prefix' }));
          return;
        }
        if (machine && !cidrContains(machine, ip)) {
          out.push(finding(ctx.fleet, def, path, {
            severity: 'error',
            code: 'vip-outside-machine-network',
            message: `${field === 'apiVIPs' ? 'API' : 'ingress'} VIP ${vip} is not in the machine network ${net.machine}`,
            hint: 'the VIPs must be unused addresses of the machine network',
          }));
        }
        const other = seen.get(vip);
        if (other) {
          out.push(finding(ctx.fleet, def, path, { severity: 'error', code: 'vip-conflict', message: `VIP ${vip} is also ${other}`, hint: 'give the API and the ingress VIP different addresses' }));
        }
        seen.set(vip, `${field}[${i}]`);
      });
    }
    (spec.hosts ?? []).forEach((h, i) => {
      if (!h.network || !machine) return;
      const ip = parseIp(h.network.address.split('/')[0] ?? '');
      if (ip && !cidrContains(machine, ip)) {
        out.push(finding(ctx.fleet, def, ['hosts', i, 'network', 'address'], {
          severity: 'error',
          code: 'host-outside-machine-network',
          message: `host ${h.name} address ${h.network.address} is not in the machine network ${net.machine}`,
          hint: 'static addresses must be in the machine network',
        }));
      }
    });
  }
  return out;
};

/** Machine, pod and service networks: valid CIDRs that do not overlap (defaults included). */
export const provisionCidrRule: Rule = (ctx) => {
  const out: Finding[] = [];
  for (const { def, spec } of provisioned(ctx)) {
    const net = effectiveNetworks(spec);
    const given = spec.networks ?? {};
    const parsed: { key: NetworkKey; cidr: Cidr }[] = [];
    for (const key of ['machine', 'pod', 'service'] as const) {
      const text = net[key];
      if (text === undefined) continue;
      const cidr = parseCidr(text);
      if (!cidr) {
        out.push(finding(ctx.fleet, def, ['networks', key], { severity: 'error', code: 'invalid-cidr', message: `"${text}" is not a CIDR block`, hint: 'write address/prefix, e.g. 10.128.0.0/14' }));
        continue;
      }
      parsed.push({ key, cidr });
    }
    for (let i = 0; i < parsed.length; i++) {
      for (let j = i + 1; j < parsed.length; j++) {
        const a = parsed[i]!;
        const b = parsed[j]!;
        if (!cidrsOverlap(a.cidr, b.cidr)) continue;
        // Report at a field the user wrote; mention when the other one is a default.
        const at = given[b.key] !== undefined ? b.key : a.key;
        const dflt = (k: NetworkKey) => (given[k] === undefined ? ' (default)' : '');
        out.push(finding(ctx.fleet, def, ['networks', at], {
          severity: 'error',
          code: 'cidr-overlap',
          message: `the ${a.key} network ${net[a.key]}${dflt(a.key)} overlaps the ${b.key} network ${net[b.key]}${dflt(b.key)}`,
          hint: 'machine, pod and service networks must be disjoint',
        }));
      }
    }
  }
  return out;
};

/** The same boot MAC or BMC address on two hosts anywhere in the fleet. */
export const duplicateHostRule: Rule = (ctx) => {
  const out: Finding[] = [];
  const selected = new Set(ctx.clusters.map((c) => c.name));
  const macs = new Map<string, string>();
  const bmcs = new Map<string, string>();
  for (const d of ctx.fleet.clusters) {
    if (!d.spec.provision) continue;
    const def = ctx.cluster(d.name);
    (def.provision?.hosts ?? []).forEach((h, i) => {
      const where = `${def.name}/${h.name}`;
      const mac = h.bootMACAddress.toLowerCase();
      const bmc = normalizeBmc(h.bmc.address);
      const macFirst = macs.get(mac);
      const bmcFirst = bmcs.get(bmc);
      if (macFirst && selected.has(def.name)) {
        out.push(finding(ctx.fleet, def, ['hosts', i, 'bootMACAddress'], { severity: 'error', code: 'duplicate-mac', message: `boot MAC ${h.bootMACAddress} of ${where} is also the boot MAC of ${macFirst}`, hint: 'each host has its own NIC; copy the MAC from the host' }));
      }
      if (bmcFirst && selected.has(def.name)) {
        out.push(finding(ctx.fleet, def, ['hosts', i, 'bmc', 'address'], { severity: 'error', code: 'duplicate-bmc-address', message: `BMC address of ${where} is also the BMC address of ${bmcFirst}`, hint: 'two hosts would be powered by the same BMC; fix the system path or host' }));
      }
      if (!macFirst) macs.set(mac, where);
      if (!bmcFirst) bmcs.set(bmc, where);
    });
  }
  return out;
};

function normalizeBmc(address: string): string {
  return address.trim().replace(/\/+$/, '').toLowerCase();
}

/** BMC drivers the Metal3 baremetal-operator knows, and which of them can boot an ISO. */
export const BMC_SCHEMES: Record<string, 'virtualmedia' | 'other'> = {
  'redfish-virtualmedia': 'virtualmedia',
  'idrac-virtualmedia': 'virtualmedia',
  'ilo5-virtualmedia': 'virtualmedia',
  'ilo4-virtualmedia': 'virtualmedia',
  'irmc-virtualmedia': 'virtualmedia',
  redfish: 'other',
  'redfish-uefihttp': 'other',
  idrac: 'other',
  'idrac-redfish': 'other',
  ipmi: 'other',
  ilo4: 'other',
  ilo5: 'other',
  'ilo5-redfish': 'other',
  irmc: 'other',
};

/** BMC addresses: a known driver scheme and a host; virtual media for agent installs. */
export const bmcSchemeRule: Rule = (ctx) => {
  const out: Finding[] = [];
  for (const { def, spec } of provisioned(ctx)) {
    (spec.hosts ?? []).forEach((h, i) => {
      const path: Path = ['hosts', i, 'bmc', 'address'];
      const m = /^([a-z0-9-]+)(\+(https?))?:\/\/([^/]+)/.exec(h.bmc.address);
      const scheme = m?.[1];
      const kind = scheme !== undefined ? BMC_SCHEMES[scheme] : undefined;
      if (!m || kind === undefined || (m[2] !== undefined && !scheme!.startsWith('redfish') && !scheme!.startsWith('idrac'))) {
        out.push(finding(ctx.fleet, def, path, {
          severity: 'error',
          code: 'bmc-address-scheme',
          message: `BMC address "${h.bmc.address}" of host ${h.name} does not start with a known driver (${Object.keys(BMC_SCHEMES).slice(0, 3).join('://, ')}://, ...)`,
          hint: 'e.g. redfish-virtualmedia://10.0.0.1:8000/redfish/v1/Systems/<id> or ipmi://10.0.0.1:623',
        }));
      } else if (kind === 'other' && spec.installer === 'agent') {
        out.push(finding(ctx.fleet, def, path, {
          severity: 'warning',
          code: 'bmc-no-virtual-media',
          message: `host ${h.name}: "${scheme}" cannot attach the discovery ISO that an agent install boots from`,
          hint: `use the virtual-media driver, e.g. ${scheme!.startsWith('idrac') ? 'idrac-virtualmedia' : 'redfish-virtualmedia'}://`,
        }));
      }
    });
  }
  return out;
};

/** Versions fleetplan knows to exist: OpenShift minors for Hive and agent installs, EKS minors. */
export const KNOWN_VERSIONS: Record<'openshift' | 'eks', string[]> = {
  openshift: ['4.12', '4.13', '4.14', '4.15', '4.16', '4.17', '4.18', '4.19', '4.20', '4.21'],
  eks: ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34'],
};

export const platformVersionRule: Rule = (ctx) => {
  const out: Finding[] = [];
  for (const { def, spec } of provisioned(ctx)) {
    if (spec.version === undefined) continue;
    const family = spec.installer === 'capi-eks' ? 'eks' : 'openshift';
    const minor = spec.version.replace(/^v/, '').split('.').slice(0, 2).join('.');
    const known = KNOWN_VERSIONS[family];
    if (!known.includes(minor)) {
      out.push(finding(ctx.fleet, def, ['version'], {
        severity: 'warning',
        code: 'unknown-platform-version',
        message: `${family === 'eks' ? 'EKS Kubernetes' : 'OpenShift'} version ${spec.version} is not one fleetplan knows (${known[0]}–${known[known.length - 1]})`,
        hint: 'check the version; a ClusterImageSet or EKS release must exist for it',
      }));
    }
  }
  return out;
};

export const provisionRules: Rule[] = [provisionRequiredRule, provisionVipRule, provisionCidrRule, duplicateHostRule, bmcSchemeRule, platformVersionRule];


