/**
 * The validation rules of `provision:` sections, one named table: for each rule a failing case
 * and a passing case. A case lists the findings it expects as `severity code path`; a passing
 * case expects none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsYaml from 'js-yaml';
import { loadFleet, validateFleet } from '../../src/index.js';
import type { ProvisionSpec } from '../../src/model/spec.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const store = { name: 'vault' };

function agent(n: number): ProvisionSpec {
  return {
    installer: 'agent',
    version: '4.20',
    baseDomain: 'example.com',
    networks: { machine: `192.168.${n}.0/24`, apiVIPs: [`192.168.${n}.5`], ingressVIPs: [`192.168.${n}.6`] },
    credentials: { store, pullSecret: { key: 'pull' }, bmc: { key: 'bmc' } },
    hosts: [0, 1, 2].map((i) => ({
      name: `m${i}`,
      role: 'master' as const,
      bootMACAddress: `52:54:00:00:0${n}:0${i}`,
      bmc: { address: `redfish-virtualmedia://10.0.0.1:8000/redfish/v1/Systems/c${n}-m${i}` },
      network: { interface: 'enp1s0', address: `192.168.${n}.1${i}/24`, gateway: `192.168.${n}.1` },
    })),
  };
}

const hive = (): ProvisionSpec => ({
  installer: 'hive-aws',
  version: '4.19',
  baseDomain: 'example.com',
  region: 'us-east-1',
  credentials: { store, cloud: { key: 'aws' }, pullSecret: { key: 'pull' } },
});

const eks = (): ProvisionSpec => ({ installer: 'capi-eks', version: '1.30', region: 'us-west-2', credentials: { store, cloud: { key: 'aws' } } });

interface Spoke {
  provision: ProvisionSpec;
  hub?: string | null;
}

function fleetFiles(spokes: Record<string, Spoke>): Record<string, string> {
  const files: Record<string, string> = {
    'fleet.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: t\nspec:\n  repoURL: https://git.example.com/fleet.git\n',
    'clusters/hub/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: hub\nspec:\n  role: hub\n',
  };
  for (const [name, s] of Object.entries(spokes)) {
    const spec: Record<string, unknown> = { role: 'spoke', provision: s.provision };
    if (s.hub !== null) spec.hub = s.hub ?? 'hub';
    files[`clusters/${name}/cluster.yaml`] = jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec });
  }
  return files;
}

function findingsOf(spokes: Record<string, Spoke>): string[] {
  const dir = writeTree(fleetFiles(spokes));
  try {
    const { fleet } = loadFleet(dir);
    return validateFleet(fleet).map((f) => `${f.severity} ${f.code} ${f.file}${f.path ? ' ' + f.path : ''}`);
  } finally {
    removeTree(dir);
  }
}

const with_ = <T>(v: T, edit: (v: T) => void): T => {
  edit(v);
  return v;
};

interface Case {
  name: string;
  spokes: Record<string, Spoke>;
  expect: string[];
}

const A = 'clusters/a/cluster.yaml';
const B = 'clusters/b/cluster.yaml';

const cases: Case[] = [
  // provision-missing-field and friends (provisionRequiredRule)
  {
    name: 'accepts complete agent, hive-aws and capi-eks specs',
    spokes: { a: { provision: agent(1) }, b: { provision: hive() }, c: { provision: eks() } },
    expect: [],
  },
  {
    name: 'requires the machine network, the VIPs and BMC credentials of a multi-node agent install',
    spokes: { a: { provision: with_(agent(1), (p) => { p.networks = {}; delete p.credentials!.bmc; p.hosts!.forEach((h) => { delete h.network; }); }) } },
    expect: [
      `error provision-missing-field ${A} spec.provision.hosts[0].bmc.credentials`,
      `error provision-missing-field ${A} spec.provision.hosts[1].bmc.credentials`,
      `error provision-missing-field ${A} spec.provision.hosts[2].bmc.credentials`,
      `error provision-missing-field ${A} spec.provision.networks.apiVIPs`,
      `error provision-missing-field ${A} spec.provision.networks.ingressVIPs`,
      `error provision-missing-field ${A} spec.provision.networks.machine`,
    ],
  },
  {
    name: 'accepts a single-node agent install without VIPs',
    spokes: { a: { provision: with_(agent(1), (p) => { p.hosts = p.hosts!.slice(0, 1); delete p.networks!.apiVIPs; delete p.networks!.ingressVIPs; }) } },
    expect: [],
  },
  {
    name: 'requires cloud credentials, a pull secret, a region and a version for hive-aws',
    spokes: { b: { provision: { installer: 'hive-aws', baseDomain: 'example.com' } } },
    expect: [
      `error provision-missing-field ${B} spec.provision.credentials.cloud`,
      `error provision-missing-field ${B} spec.provision.credentials.pullSecret`,
      `error provision-missing-field ${B} spec.provision.region`,
      `error provision-missing-field ${B} spec.provision.version`,
    ],
  },
  {
    name: 'requires a secret store for a credential kept in one',
    spokes: { b: { provision: with_(hive(), (p) => { delete p.credentials!.store; }) } },
    expect: [`error provision-missing-field ${B} spec.provision.credentials.cloud`, `error provision-missing-field ${B} spec.provision.credentials.pullSecret`],
  },
  {
    name: 'accepts an existing Secret by name without a store',
    spokes: { b: { provision: with_(hive(), (p) => { p.credentials = { cloud: { secretName: 'aws' }, pullSecret: { secretName: 'pull' } }; }) } },
    expect: [],
  },
  {
    name: 'rejects a credential reference with both a store key and a Secret name, or neither',
    spokes: { b: { provision: with_(hive(), (p) => { p.credentials!.cloud = { key: 'aws', secretName: 'aws' }; p.credentials!.pullSecret = { property: 'x' }; }) } },
    expect: [`error provision-ambiguous-credential ${B} spec.provision.credentials.cloud`, `error provision-missing-field ${B} spec.provision.credentials.pullSecret`],
  },
  {
    name: 'rejects a provision section without a hub',
    spokes: { b: { provision: hive(), hub: null } },
    expect: [`error provision-without-hub ${B} spec.provision`],
  },
  {
    name: 'rejects an agent install with two masters',
    spokes: { a: { provision: with_(agent(1), (p) => { p.hosts = p.hosts!.slice(0, 2); }) } },
    expect: [`error provision-control-plane-size ${A} spec.provision.hosts`],
  },
  // provisionVipRule
  {
    name: 'rejects an API VIP outside the machine network',
    spokes: { a: { provision: with_(agent(1), (p) => { p.networks!.apiVIPs = ['192.168.2.5']; }) } },
    expect: [`error vip-outside-machine-network ${A} spec.provision.networks.apiVIPs[0]`],
  },
  {
    name: 'rejects the same address as API and ingress VIP',
    spokes: { a: { provision: with_(agent(1), (p) => { p.networks!.ingressVIPs = ['192.168.1.5']; }) } },
    expect: [`error vip-conflict ${A} spec.provision.networks.ingressVIPs[0]`],
  },
  {
    name: 'rejects a VIP that is not an address and a host address outside the machine network',
    spokes: { a: { provision: with_(agent(1), (p) => { p.networks!.apiVIPs = ['192.168.1.300']; p.hosts![2]!.network!.address = '10.1.1.1/24'; }) } },
    expect: [`error host-outside-machine-network ${A} spec.provision.hosts[2].network.address`, `error invalid-address ${A} spec.provision.networks.apiVIPs[0]`],
  },
  {
    name: 'accepts IPv6 VIPs inside an IPv6 machine network',
    spokes: { a: { provision: with_(agent(1), (p) => { p.networks = { machine: 'fd00:1::/64', pod: 'fd01::/48', hostPrefix: 64, service: 'fd02::/112', apiVIPs: ['fd00:1::5'], ingressVIPs: ['fd00:1::6'] }; p.hosts!.forEach((h, i) => { h.network!.address = `fd00:1::1${i}/64`; }); }) } },
    expect: [],
  },
  // provisionCidrRule
  {
    name: 'rejects a machine network that overlaps the default pod network',
    spokes: { a: { provision: with_(agent(1), (p) => { p.networks = { ...p.networks, machine: '10.128.4.0/24', apiVIPs: ['10.128.4.5'], ingressVIPs: ['10.128.4.6'] }; p.hosts!.forEach((h, i) => { h.network!.address = `10.128.4.1${i}/24`; }); }) } },
    expect: [`error cidr-overlap ${A} spec.provision.networks.machine`],
  },
  {
    name: 'rejects a service network inside the pod network, and a CIDR that does not parse',
    spokes: { b: { provision: with_(hive(), (p) => { p.networks = { pod: '10.128.0.0/14', service: '10.130.0.0/16', machine: '10.0.0.0/33' }; }) } },
    expect: [`error cidr-overlap ${B} spec.provision.networks.service`, `error invalid-cidr ${B} spec.provision.networks.machine`],
  },
  {
    name: 'accepts disjoint machine, pod and service networks',
    spokes: { b: { provision: with_(hive(), (p) => { p.networks = { machine: '10.0.0.0/16', pod: '10.128.0.0/14', service: '172.30.0.0/16' }; }) } },
    expect: [],
  },
  // duplicateHostRule
  {
    name: 'rejects a boot MAC and a BMC address used on two clusters',
    spokes: {
      a: { provision: agent(1) },
      b: { provision: with_(agent(2), (p) => { p.hosts![0]!.bootMACAddress = '52:54:00:00:01:00'; p.hosts![1]!.bmc.address = 'redfish-virtualmedia://10.0.0.1:8000/redfish/v1/Systems/c1-m0/'; }) },
    },
    expect: [`error duplicate-bmc-address ${B} spec.provision.hosts[1].bmc.address`, `error duplicate-mac ${B} spec.provision.hosts[0].bootMACAddress`],
  },
  {
    name: 'accepts two clusters with their own hosts',
    spokes: { a: { provision: agent(1) }, b: { provision: agent(2) } },
    expect: [],
  },
  // bmcSchemeRule
  {
    name: 'rejects a BMC address without a known driver',
    spokes: { a: { provision: with_(agent(1), (p) => { p.hosts![0]!.bmc.address = 'https://10.0.0.1:8000/redfish/v1/Systems/x'; p.hosts![1]!.bmc.address = 'ipmi+https://10.0.0.9'; }) } },
    expect: [`error bmc-address-scheme ${A} spec.provision.hosts[0].bmc.address`, `error bmc-address-scheme ${A} spec.provision.hosts[1].bmc.address`],
  },
  {
    name: 'warns that ipmi:// cannot boot the discovery ISO of an agent install',
    spokes: { a: { provision: with_(agent(1), (p) => { p.hosts![0]!.bmc.address = 'ipmi://10.0.0.7:623'; }) } },
    expect: [`warning bmc-no-virtual-media ${A} spec.provision.hosts[0].bmc.address`],
  },
  {
    name: 'accepts redfish-virtualmedia+http:// and idrac-virtualmedia:// addresses',
    spokes: { a: { provision: with_(agent(1), (p) => { p.hosts![0]!.bmc.address = 'redfish-virtualmedia+http://10.0.0.1:8000/redfish/v1/Systems/1'; p.hosts![1]!.bmc.address = 'idrac-virtualmedia://10.0.0.8/redfish/v1/Systems/System.Embedded.1'; }) } },
    expect: [],
  },
  // platformVersionRule
  {
    name: 'warns about an OpenShift and an EKS version it does not know',
    spokes: { a: { provision: with_(agent(1), (p) => { p.version = '4.9'; }) }, c: { provision: with_(eks(), (p) => { p.version = '1.99'; }) } },
    expect: ['warning unknown-platform-version clusters/a/cluster.yaml spec.provision.version', 'warning unknown-platform-version clusters/c/cluster.yaml spec.provision.version'],
  },
  {
    name: 'accepts known versions with a patch level or a leading v',
    spokes: { a: { provision: with_(agent(1), (p) => { p.version = '4.18.12'; }) }, c: { provision: with_(eks(), (p) => { p.version = 'v1.31'; }) } },
    expect: [],
  },
  // schema (load)
  {
    name: 'rejects a malformed boot MAC when loading',
    spokes: { a: { provision: with_(agent(1), (p) => { p.hosts![0]!.bootMACAddress = '52:54:00:00:01'; }) } },
    expect: [`error schema ${A} spec.provision.hosts[0].bootMACAddress`],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(findingsOf(c.spokes).sort(), [...c.expect].sort());
  });
}
