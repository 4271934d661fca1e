/** Provisioning generation: installer variants, credential references, and the hub's apps. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsYaml from 'js-yaml';
import { loadFleet } from '../../src/index.js';
import { provisionBundle, provisionBundlesFor } from '../../src/generate/provision/index.js';
import { resolveCluster } from '../../src/layering/resolve.js';
import type { K8sObject } from '../../src/model/k8s.js';
import type { ProvisionSpec } from '../../src/model/spec.js';
import type { Fleet } from '../../src/model/fleet.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

function withFleet(spokes: Record<string, { provision: ProvisionSpec; hub?: string; platform?: string }>, hubApps: Record<string, unknown> = {}, run: (f: Fleet) => void): void {
  const files: Record<string, string> = {
    'fleet.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: t\nspec:\n  repoURL: https://git.example.com/fleet.git\n  revision: main\n',
    'clusters/hub/cluster.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name: 'hub' }, spec: { role: 'hub', apps: hubApps } }),
    'clusters/hub2/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: hub2\nspec:\n  role: hub\n',
  };
  for (const [name, s] of Object.entries(spokes)) {
    const spec: Record<string, unknown> = { role: 'spoke', hub: s.hub ?? 'hub', provision: s.provision };
    if (s.platform) spec.platform = s.platform;
    files[`clusters/${name}/cluster.yaml`] = jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec });
  }
  const dir = writeTree(files);
  try {
    const { fleet, findings } = loadFleet(dir);
    assert.deepEqual(findings, []);
    run(fleet);
  } finally {
    removeTree(dir);
  }
}

const kinds = (objs: K8sObject[]) => objs.map((o) => `${o.kind}/${o.metadata.name}`);
const find = (objs: K8sObject[], kind: string, name?: string) => objs.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name))!;

const hive: ProvisionSpec = {
  installer: 'hive-aws',
  version: '4.19',
  baseDomain: 'example.com',
  region: 'eu-west-1',
  credentials: { store: { name: 'vault' }, cloud: { key: 'aws' }, pullSecret: { key: 'pull' } },
};

test('hive-aws reads a stored install-config through an ExternalSecret instead of generating one', () => {
  withFleet({ a: { provision: { ...hive, credentials: { ...hive.credentials, installConfig: { key: 'clusters/a', property: 'install-config' } } } } }, {}, (fleet) => {
    const b = provisionBundle(fleet, 'a');
    assert.deepEqual(b.files, []);
    assert.deepEqual(b.secretGenerators, []);
    const es = find(b.objects, 'ExternalSecret', 'install-config');
    assert.deepEqual((es.spec as { data: unknown }).data, [{ secretKey: 'install-config.yaml', remoteRef: { key: 'clusters/a', property: 'install-config' } }]);
  });
});

test('credentials given as existing Secrets produce no ExternalSecret and are referenced by name', () => {
  withFleet({ a: { provision: { ...hive, credentials: { cloud: { secretName: 'my-aws' }, pullSecret: { secretName: 'my-pull' } } } } }, {}, (fleet) => {
    const b = provisionBundle(fleet, 'a');
    assert.equal(b.objects.filter((o) => o.kind === 'ExternalSecret').length, 0);
    const cd = find(b.objects, 'ClusterDeployment').spec as { platform: { aws: { credentialsSecretRef: { name: string } } }; pullSecretRef: { name: string } };
    assert.equal(cd.platform.aws.credentialsSecretRef.name, 'my-aws');
    assert.equal(cd.pullSecretRef.name, 'my-pull');
  });
});

test('a single-node agent install has no VIPs and platform None; static networking becomes NMStateConfig', () => {
  const provision: ProvisionSpec = {
    installer: 'agent',
    version: '4.20',
    baseDomain: 'example.com',
    networks: { machine: '10.1.0.0/24' },
    credentials: { store: { name: 'vault' }, pullSecret: { key: 'pull' }, bmc: { key: 'bmc' } },
    hosts: [{ name: 'sno', role: 'master', bootMACAddress: 'AA:BB:CC:DD:EE:01', bmc: { address: 'idrac-virtualmedia://10.1.0.2/redfish/v1/Systems/System.Embedded.1' }, network: { interface: 'eno1', address: '10.1.0.10/24', gateway: '10.1.0.1', dns: ['10.1.0.1'] } }],
  };
  withFleet({ a: { provision } }, {}, (fleet) => {
    const b = provisionBundle(fleet, 'a');
    const aci = find(b.objects, 'AgentClusterInstall').spec as Record<string, unknown>;
    assert.equal(aci.platformType, 'None');
    assert.equal(aci.apiVIPs, undefined);
    assert.deepEqual(aci.provisionRequirements, { controlPlaneAgents: 1, workerAgents: 0 });
    const nm = find(b.objects, 'NMStateConfig', 'sno').spec as { config: { interfaces: { ipv4: unknown }[]; routes: unknown }; interfaces: unknown };
    assert.deepEqual(nm.interfaces, [{ name: 'eno1', macAddress: 'AA:BB:CC:DD:EE:01' }]);
    assert.deepEqual(nm.config.interfaces[0]!.ipv4, { enabled: true, dhcp: false, address: [{ ip: '10.1.0.10', 'prefix-length': 24 }] });
    const infraEnv = find(b.objects, 'InfraEnv').spec as { nmStateConfigLabelSelector: unknown };
    assert.deepEqual(infraEnv.nmStateConfigLabelSelector, { matchLabels: { 'infraenvs.agent-install.openshift.io': 'a' } });
  });
});

test('the hub gets one app per provisioned spoke and the wiring app; its own entries merge over them', () => {
  withFleet(
    {
      a: { provision: hive },
      b: { provision: { ...hive, wave: 12 } },
      c: { provision: hive, hub: 'hub2' },
    },
    { a: { needs: ['acm'], wave: 30 }, acm: { path: 'components/acm', wave: 5 } },
    (fleet) => {
      const hub = resolveCluster(fleet, 'hub').cluster;
      const apps = Object.fromEntries(hub.apps.map((x) => [x.name, x]));
      assert.deepEqual(Object.keys(apps).sort(), ['a', 'acm', 'b', 'gitops-bootstrap-policy']);
      assert.deepEqual([apps.a!.wave, apps.a!.needs, apps.a!.source.path, apps.a!.destination.namespace], [30, ['acm'], 'rendered/hub/provision/a', 'a']);
      assert.deepEqual([apps.b!.wave, apps.b!.from], [12, 'clusters/b/cluster.yaml']);
      assert.equal(apps['gitops-bootstrap-policy']!.wave, 12, 'the wiring comes with the earliest provisioning app');
      const hub2 = resolveCluster(fleet, 'hub2').cluster;
      assert.deepEqual(hub2.apps.map((x) => x.name).sort(), ['c', 'gitops-bootstrap-policy']);
    },
  );
});

test('EKS spokes get no GitOps operator policy; OpenShift spokes get their root Application through a policy', () => {
  withFleet(
    {
      e: { provision: { installer: 'capi-eks', version: '1.30', region: 'us-west-2', clusterSet: 'eks' }, platform: 'kubernetes' },
      o: { provision: { ...hive, clusterSet: 'ocp' } },
    },
    {},
    (fleet) => {
      const bundles = provisionBundlesFor(fleet, 'hub');
      assert.deepEqual(bundles.map((b) => b.installer), ['capi-eks', 'hive-aws', 'acm-gitops']);
      assert.ok(!kinds(bundles[0]!.objects).includes('Policy/e-gitops-root'));
      const root = find(bundles[1]!.objects, 'Policy', 'o-gitops-root');
      const templates = ((root.spec as { 'policy-templates': { objectDefinition: { spec: { 'object-templates': { objectDefinition: K8sObject }[] } } }[] })['policy-templates'][0]!.objectDefinition.spec['object-templates']).map((t) => t.objectDefinition);
      const app = find(templates, 'Application', 'root-applications').spec as { source: { path: string; targetRevision: string } };
      assert.deepEqual([app.source.path, app.source.targetRevision], ['rendered/o', 'main']);
      assert.ok(!templates.some((t) => t.kind === 'Subscription'), 'the operator comes from the OperatorPolicy');
      assert.equal(templates.find((t) => t.kind === 'ClusterVersion'), undefined, 'no channel given, none set');
      const wiring = kinds(bundles[2]!.objects);
      assert.ok(wiring.includes('ManagedClusterSet/eks') && wiring.includes('ManagedClusterSet/ocp'));
      assert.ok(wiring.includes('Policy/gitops-operator-ocp'));
      assert.ok(!wiring.includes('Policy/gitops-operator-eks'));
      assert.ok(wiring.includes('GitOpsCluster/eks') && wiring.includes('GitOpsCluster/ocp'));
    },
  );
});

test('ACM\'s own cluster sets are bound, not created', () => {
  withFleet({ a: { provision: { ...hive, clusterSet: 'default' } } }, {}, (fleet) => {
    const wiring = kinds(provisionBundlesFor(fleet, 'hub').at(-1)!.objects);
    assert.ok(!wiring.includes('ManagedClusterSet/default'));
    assert.ok(wiring.includes('ManagedClusterSetBinding/default'));
  });
});

test('variables in provision: are substituted per cluster; one without a value is an error at its field', () => {
  const provision = { ...hive, baseDomain: '${DOMAIN}', region: '${CLUSTER_REGION:-eu-west-1}', labels: { team: '${TEAM}' } } as ProvisionSpec;
  withFleet({ a: { provision } }, {}, (fleet) => {
    fleet.vars.DOMAIN = 'example.org';
    const r = resolveCluster(fleet, 'a');
    assert.deepEqual(r.findings.map((f) => [f.code, f.path, f.message]), [['undefined-variable', 'spec.provision.labels.team', '${TEAM} has no value on cluster a']]);
    const cd = find(provisionBundle(fleet, 'a').objects, 'ClusterDeployment').spec as { baseDomain: string; platform: { aws: { region: string } } };
    assert.deepEqual([cd.baseDomain, cd.platform.aws.region], ['example.org', 'eu-west-1']);
  });
});

test('the update channel is set on the spoke\'s ClusterVersion through its root policy; a bare channel gets the minor', () => {
  for (const [channel, want] of [['stable', 'stable-4.19'], ['fast-4.19', 'fast-4.19']] as const) {
    withFleet({ a: { provision: { ...hive, channel } } }, {}, (fleet) => {
      const root = find(provisionBundle(fleet, 'a').objects, 'Policy', 'a-gitops-root');
      const templates = (root.spec as { 'policy-templates': { objectDefinition: { spec: { 'object-templates': { objectDefinition: K8sObject }[] } } }[] })['policy-templates'][0]!.objectDefinition.spec['object-templates'];
      assert.deepEqual(templates[0]!.objectDefinition, { apiVersion: 'config.openshift.io/v1', kind: 'ClusterVersion', metadata: { name: 'version' }, spec: { channel: want } });
    });
  }
});
