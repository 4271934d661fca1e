/** The bootstrap plan (pure): stages, objects and readiness conditions per kind of cluster. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../src/index.js';
import { resolveCluster } from '../../src/layering/resolve.js';
import { planBootstrap, parseSecretRef, type BootstrapPlanOptions } from '../../src/order/bootstrap-plan.js';
import { refOf } from '../../src/model/k8s.js';
import { UsageError } from '../../src/errors/index.js';
import type { BootstrapPlan } from '../../src/model/bootstrap.js';
import type { K8sObject } from '../../src/model/k8s.js';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

function labPlan(cluster: string, options: BootstrapPlanOptions = {}, files?: Record<string, string>): BootstrapPlan {
  const dir = files ? writeTree(files) : 'examples/lab';
  try {
    const { fleet } = loadFleet(dir);
    const { cluster: c } = resolveCluster(fleet, cluster);
    return planBootstrap(fleet, c!, options);
  } finally {
    if (files) removeTree(dir);
  }
}

const names = (p: BootstrapPlan) => p.stages.map((s) => s.name);
const stage = (p: BootstrapPlan, name: string) => p.stages.find((s) => s.name === name)!;
const refs = (objs: K8sObject[]) => objs.map((o) => refOf({ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}) }));

const kubernetesFleet = (extra: Record<string, string> = {}) => baseFleet({
  'fleet.yaml': baseFleet()['fleet.yaml']!.replace('  revision: main\n', '  revision: main\n  platform: kubernetes\n'),
  ...extra,
});

const installManifests: K8sObject[] = [
  { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'applications.argoproj.io' } },
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'argocd-server' } },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'argocd-server' } },
  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'argocd-server' } },
];

const secretStore: K8sObject = { apiVersion: 'external-secrets.io/v1', kind: 'ClusterSecretStore', metadata: { name: 'vault' }, spec: {} };

const cases: Array<{ name: string; check: () => void }> = [
  {
    name: 'the lab hub: namespaces, operator, cluster config, Argo CD, root Application, then one stage per wave',
    check: () => {
      const p = labPlan('hub');
      assert.deepEqual(names(p), ['namespaces', 'gitops-operator', 'cluster-config', 'argocd', 'root-application', 'wave 5', 'wave 15', 'wave 20', 'wave 25', 'wave 30']);
      assert.deepEqual(stage(p, 'gitops-operator').waits.map((w) => w.condition), ['operator-installed', 'available', 'established', 'established', 'established']);
      assert.deepEqual(refs(stage(p, 'cluster-config').objects), ['ConfigMap/openshift-gitops/environment-variables', 'ConfigMap/openshift-gitops/fleetplan-cmp-plugin', 'Secret/openshift-gitops/cluster-hub']);
      assert.deepEqual(stage(p, 'argocd').waits.map((w) => refOf(w.object)), [
        'Deployment/openshift-gitops/openshift-gitops-server', 'Deployment/openshift-gitops/openshift-gitops-repo-server', 'StatefulSet/openshift-gitops/openshift-gitops-application-controller',
      ]);
      assert.deepEqual(stage(p, 'wave 15').waits.map((w) => w.object.name), ['acm-instance', 'mtv-configuration']);
      assert.equal(stage(p, 'wave 30').waits.at(-1)?.object.name, 'root-applications', 'the last wave also waits for the root');
      assert.ok(p.stages.filter((s) => s.kind === 'wave').every((s) => s.optional && s.objects.length === 0));
    },
  },
  {
    name: 'the objects come from bootstrapFor, file by file',
    check: () => {
      const p = labPlan('hub');
      assert.deepEqual(p.stages.flatMap((s) => s.files), ['00-gitops-operator.yaml', '15-plugin.yaml', '10-rbac.yaml', '20-argocd.yaml', '90-root-application.yaml']);
      const argocd = stage(p, 'argocd').objects.find((o) => o.kind === 'ArgoCD')!;
      assert.ok(JSON.stringify(argocd).includes('sidecarContainers'));
    },
  },
  {
    name: 'a spoke starts with its provisioning, awaited on the hub',
    check: () => {
      const p = labPlan('etl4');
      assert.equal(p.stages[0]?.kind, 'spoke-provisioning');
      assert.deepEqual(p.stages[0]?.waits.map((w) => `${refOf(w.object)} ${w.condition}`), ['ClusterDeployment/etl4/etl4 cluster-installed', 'ManagedCluster/etl4 cluster-available']);
    },
  },
  {
    name: 'a spoke the fleet does not provision (imported) waits for its ManagedCluster only, no ClusterDeployment',
    check: () => {
      const p = labPlan('edge', {}, baseFleet({
        'clusters/edge/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: edge\nspec:\n  role: spoke\n  hub: one\n  sector: canary\n  groups: [base]\n',
      }));
      assert.equal(p.stages[0]?.kind, 'spoke-provisioning');
      assert.deepEqual(p.stages[0]?.waits.map((w) => `${refOf(w.object)} ${w.condition}`), ['ManagedCluster/edge cluster-available']);
      assert.match(p.stages[0]!.description, /not provisioned by the fleet/);
    },
  },
  {
    name: 'a hub has no provisioning stage',
    check: () => assert.ok(!names(labPlan('hub')).includes('spoke-provisioning')),
  },
  {
    name: 'kubernetes without manifests says how to pass them',
    check: () => {
      const p = labPlan('one', {}, kubernetesFleet());
      assert.deepEqual(stage(p, 'gitops-operator').objects, []);
      assert.match(stage(p, 'gitops-operator').notes.join('\n'), /--argocd-manifests FILE\|DIR/);
    },
  },
  {
    name: 'kubernetes with manifests: CRDs and the namespace first (awaited Established), the rest next in the Argo CD namespace',
    check: () => {
      const p = labPlan('one', { argocdManifests: installManifests }, kubernetesFleet());
      assert.deepEqual(refs(stage(p, 'namespaces').objects), ['Namespace/argocd', 'CustomResourceDefinition/applications.argoproj.io']);
      assert.deepEqual(stage(p, 'namespaces').waits.map((w) => w.condition), ['exists', 'established']);
      assert.deepEqual(refs(stage(p, 'gitops-operator').objects), ['ServiceAccount/argocd/argocd-server', 'ClusterRole/argocd-server', 'Deployment/argocd/argocd-server']);
      assert.deepEqual(stage(p, 'argocd').waits.map((w) => w.object.name), ['argocd-server', 'argocd-repo-server', 'argocd-application-controller']);
    },
  },
  {
    name: 'a Manual InstallPlan approval is part of what the operator stage waits for',
    check: () => {
      const files = baseFleet();
      files['fleet.yaml'] = files['fleet.yaml']!.replace('  revision: main\n', '  revision: main\n  gitops:\n    operator:\n      installPlanApproval: Manual\n');
      const p = labPlan('one', {}, files);
      assert.match(stage(p, 'gitops-operator').waits[0]!.text, /^InstallPlan approved \(Manual: by a person\), CSV of Subscription/);
    },
  },
  {
    name: 'the secret store is gated on its CRD and awaits its credentials Secret and Ready',
    check: () => {
      const p = labPlan('hub', { secretStore, secretStoreCredentials: { namespace: 'external-secrets', name: 'vault-token' } });
      const s = stage(p, 'secret-store');
      assert.deepEqual(s.gate, { crd: 'clustersecretstores.external-secrets.io' });
      assert.deepEqual(s.waits.map((w) => `${refOf(w.object)} ${w.condition}`), ['Secret/external-secrets/vault-token exists', 'ClusterSecretStore/vault ready-condition']);
      assert.ok(names(p).indexOf('secret-store') < names(p).indexOf('root-application'));
    },
  },
  {
    name: 'applicationset delivery: the identity Secret and root ApplicationSet come from bootstrapFor; its Applications are not awaited',
    check: () => {
      const files = baseFleet();
      files['fleet.yaml'] = files['fleet.yaml']!.replace('  revision: main\n', '  revision: main\n  gitops:\n    delivery: applicationset\n');
      files['clusters/one/cluster.yaml'] = files['clusters/one/cluster.yaml']!.replace('  sector: canary\n', '  sector: canary\n  region: eu-west-1\n');
      const p = labPlan('one', {}, files);
      assert.deepEqual(stage(p, 'cluster-config').files, ['30-cluster-identity.yaml']);
      assert.deepEqual(stage(p, 'root-application').objects.map((o) => o.kind), ['ApplicationSet']);
      assert.ok(!p.stages.some((s) => s.kind === 'wave'));
      assert.match(p.notes.join('\n'), /Applications of the root ApplicationSet are not awaited/);
    },
  },
  {
    name: 'credentials without a store are a usage error',
    check: () => assert.throws(() => labPlan('hub', { secretStoreCredentials: { namespace: 'a', name: 'b' } }), UsageError),
  },
  {
    name: 'a store that is not a ClusterSecretStore is a usage error',
    check: () => assert.throws(() => labPlan('hub', { secretStore: { ...secretStore, kind: 'SecretStore' } }), /must hold an external-secrets\.io ClusterSecretStore/),
  },
];

for (const c of cases) test(c.name, c.check);

const refCases: Array<{ text: string; want?: { namespace: string; name: string } }> = [
  { text: 'secret/external-secrets/vault-token', want: { namespace: 'external-secrets', name: 'vault-token' } },
  { text: 'secrets/ns/name.v1', want: { namespace: 'ns', name: 'name.v1' } },
  { text: 'ns/name' },
  { text: 'secret/name' },
  { text: 'secret/NS/name' },
  { text: 'configmap/ns/name' },
];
for (const c of refCases) {
  test(`--secret-store-credentials ${c.text} ${c.want ? 'names a Secret' : 'is refused'}`, () => {
    if (c.want) assert.deepEqual(parseSecretRef(c.text), c.want);
    else assert.throws(() => parseSecretRef(c.text), UsageError);
  });
}

test('fleetplan plan --cluster etl4 prints the bootstrap stages with what each waits for', async () => {
  const r = await cli(['plan', '--repo', 'examples/lab', '--cluster', 'etl4']);
  assert.equal(r.code, 0, r.stderr);
  const stagesBlock = r.stdout.slice(r.stdout.indexOf('  bootstrap\n'), r.stdout.indexOf('  wave '));
  assert.deepEqual([...stagesBlock.matchAll(/^ {4}(\S+) /gm)].map((m) => m[1]), ['spoke-provisioning', 'namespaces', 'gitops-operator', 'cluster-config', 'argocd', 'root-application']);
  assert.match(stagesBlock, /wait: ClusterDeployment etl4\/etl4 installed/);
  assert.match(stagesBlock, /wait: StatefulSet openshift-gitops\/openshift-gitops-application-controller ready/);
  assert.match(r.stdout, /each wave waits: every Application Synced and Healthy/);
  const json = JSON.parse((await cli(['plan', '--repo', 'examples/lab', '--cluster', 'etl4', '-o', 'json'])).stdout) as { clusters: Array<{ stages: Array<{ name: string; wait: string[]; wave?: number }> }> };
  const stages = json.clusters[0]!.stages;
  assert.deepEqual(stages.filter((s) => s.wave !== undefined).map((s) => s.wave), [5, 15, 16, 20, 21, 25, 30]);
  assert.ok(stages.every((s) => Array.isArray(s.wait)));
});
