/**
 * `gitops.bootstrapRunner` (ADR 0239): the hub-side Job or Tekton objects that bootstrap each
 * provisioned spoke, their least-privilege RBAC, the gate on the ManagedCluster, and that they
 * replace the root-application policy. Structure only; the real suite validates the Tekton
 * objects against Tekton's CRDs (test/real/generate/bootstrap-runner-crds.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsYaml from 'js-yaml';
import { loadFleet } from '../../src/index.js';
import { provisionBundle, provisionBundlesFor } from '../../src/generate/provision/index.js';
import { renderFleet } from '../../src/render/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { bootstrapCommand } from '../../src/cli/commands/bootstrap.js';
import { WAIT_AVAILABLE_SCRIPT } from '../../src/generate/bootstrap-runner.js';
import type { K8sObject } from '../../src/model/k8s.js';
import type { Fleet } from '../../src/model/fleet.js';
import type { Finding } from '../../src/model/finding.js';
import type { ProvisionSpec } from '../../src/model/spec.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const hive: ProvisionSpec = {
  installer: 'hive-aws',
  version: '4.19',
  baseDomain: 'example.com',
  region: 'eu-west-1',
  credentials: { store: { name: 'vault' }, cloud: { key: 'aws' }, pullSecret: { key: 'pull' } },
};
const eks: ProvisionSpec = { installer: 'capi-eks', version: '1.30', region: 'us-west-2' };

function fleetFiles(gitops: Record<string, unknown>): Record<string, string> {
  return {
    'fleet.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Fleet', metadata: { name: 't' }, spec: { repoURL: 'https://git.example.com/fleet.git', revision: 'main', gitops } }),
    'clusters/hub/cluster.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name: 'hub' }, spec: { role: 'hub' } }),
    'clusters/ocp1/cluster.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name: 'ocp1' }, spec: { role: 'spoke', hub: 'hub', provision: hive } }),
    'clusters/eks1/cluster.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name: 'eks1' }, spec: { role: 'spoke', hub: 'hub', platform: 'kubernetes', provision: eks } }),
  };
}

function withFleet(gitops: Record<string, unknown>, run: (f: Fleet, findings: Finding[]) => void): void {
  const dir = writeTree(fleetFiles(gitops));
  try {
    const { fleet, findings } = loadFleet(dir);
    run(fleet, findings);
  } finally {
    removeTree(dir);
  }
}

const IMAGE = 'registry.example.com/platform/fleetplan:0.2.0';
const find = (objs: K8sObject[], kind: string, name?: string) => objs.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
type Container = { image: string; command?: string[]; args: string[]; env: { name: string; value: string }[]; volumeMounts?: { name: string; mountPath: string }[] };
const envOf = (c: { env?: { name: string; value: string }[] }) => Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));

/** Every value of `--flag` in the args, checked against the options `fleetplan bootstrap` takes. */
function assertBootstrapArgs(args: string[]): void {
  assert.equal(args[0], 'bootstrap');
  for (const a of args.filter((x) => x.startsWith('--'))) assert.ok(a.slice(2) in bootstrapCommand.options, `fleetplan bootstrap takes ${a}`);
}

test('job: a Hive spoke gets a ServiceAccount, read-only RBAC limited to its namespace and ManagedCluster, and a Job running fleetplan bootstrap', () => {
  withFleet({ plugin: { image: 'registry.example.com/platform/fleetplan-cmp:0.1.0' }, bootstrapRunner: { type: 'job', image: IMAGE } }, (fleet, findings) => {
    assert.deepEqual(findings, []);
    const objs = provisionBundle(fleet, 'ocp1').objects;
    const mine = objs.filter((o) => o.metadata.labels?.['app.kubernetes.io/name'] === 'fleetplan-bootstrap');
    assert.deepEqual(mine.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`), [
      'ServiceAccount/ocp1/fleetplan-bootstrap',
      'ClusterRole//fleetplan-bootstrap-ocp1',
      'ClusterRoleBinding//fleetplan-bootstrap-ocp1',
      'Role/ocp1/fleetplan-bootstrap',
      'RoleBinding/ocp1/fleetplan-bootstrap',
      'Job/ocp1/fleetplan-bootstrap',
    ]);
    // Least privilege: reads only; the ManagedCluster by name; nothing cluster-wide beyond it.
    const clusterRules = find(objs, 'ClusterRole')!.rules as Rule[];
    assert.deepEqual(clusterRules, [{ apiGroups: ['cluster.open-cluster-management.io'], resources: ['managedclusters'], resourceNames: ['ocp1'], verbs: ['get', 'list', 'watch'] }]);
    const roleRules = find(objs, 'Role')!.rules as Rule[];
    for (const r of [...clusterRules, ...roleRules]) {
      assert.ok(r.verbs.every((v) => ['get', 'list', 'watch'].includes(v)), JSON.stringify(r));
      assert.ok(![...r.resources, ...r.apiGroups, ...r.verbs].includes('*'), JSON.stringify(r));
    }
    assert.deepEqual(roleRules.map((r) => r.resources[0]), ['clusterdeployments', 'secrets']);
    for (const b of [find(objs, 'ClusterRoleBinding')!, find(objs, 'RoleBinding')!]) {
      assert.deepEqual(b.subjects, [{ kind: 'ServiceAccount', name: 'fleetplan-bootstrap', namespace: 'ocp1' }]);
    }
    const job = find(objs, 'Job')!;
    const pod = (job.spec as { template: { spec: { serviceAccountName: string; containers: Container[] } } }).template.spec;
    assert.equal(pod.serviceAccountName, 'fleetplan-bootstrap');
    const c = pod.containers[0]!;
    assert.equal(c.image, IMAGE, 'the runner image wins over the plugin image');
    assert.deepEqual(c.command, ['fleetplan-bootstrap-job']);
    assert.deepEqual(c.args, ['bootstrap', '--cluster', 'ocp1', '--timeout', '2h']);
    assertBootstrapArgs(c.args);
    assert.deepEqual(envOf(c), { FLEETPLAN_REPO_URL: 'https://git.example.com/fleet.git', FLEETPLAN_REVISION: 'main', HOME: '/workspace' });
    // The runner replaces the root-application policy, and the operator policy of the spoke's set
    // (fleetplan bootstrap installs the operator: one owner of the Subscription).
    assert.equal(find(objs, 'Policy', 'ocp1-gitops-root'), undefined);
    const wiring = provisionBundlesFor(fleet, 'hub').find((b) => b.installer === 'acm-gitops')!.objects;
    assert.ok(find(wiring, 'GitOpsCluster'), 'the ACM–GitOps registration stays');
    assert.equal(wiring.find((o) => o.kind === 'Policy' && o.metadata.name.startsWith('gitops-operator-')), undefined);
  });
});

test('without bootstrapRunner the spoke keeps its root-application policy and gets no runner', () => {
  withFleet({}, (fleet) => {
    const objs = provisionBundle(fleet, 'ocp1').objects;
    assert.ok(find(objs, 'Policy', 'ocp1-gitops-root'));
    const wiring = provisionBundlesFor(fleet, 'hub').find((b) => b.installer === 'acm-gitops')!.objects;
    assert.ok(wiring.find((o) => o.kind === 'Policy' && o.metadata.name.startsWith('gitops-operator-')));
    assert.equal(find(objs, 'Job'), undefined);
    assert.equal(find(objs, 'ServiceAccount', 'fleetplan-bootstrap'), undefined);
  });
});

test('job: a Cluster API (EKS) spoke has no Hive objects to read; Cluster API\'s kubeconfig Secret is mounted and passed as --spoke-kubeconfig', () => {
  withFleet({ bootstrapRunner: { type: 'job', image: IMAGE, timeout: '90m' } }, (fleet) => {
    const objs = provisionBundle(fleet, 'eks1').objects;
    assert.equal(find(objs, 'Role'), undefined);
    const pod = (find(objs, 'Job')!.spec as { template: { spec: { containers: Container[]; volumes: { name: string; secret?: { secretName: string } }[] } } }).template.spec;
    assert.deepEqual(pod.containers[0]!.args, ['bootstrap', '--cluster', 'eks1', '--timeout', '90m', '--spoke-kubeconfig', '/var/run/fleetplan/spoke-kubeconfig/value']);
    assertBootstrapArgs(pod.containers[0]!.args);
    assert.equal(pod.volumes.find((v) => v.secret)?.secret?.secretName, 'eks1-kubeconfig');
    assert.ok(pod.containers[0]!.volumeMounts!.some((m) => m.mountPath === '/var/run/fleetplan/spoke-kubeconfig'));
  });
});

test('tekton: a Task gated on ManagedCluster availability, a Pipeline running it and the spoke\'s PipelineRun, whose parameters line up', () => {
  withFleet({ plugin: { image: 'registry.example.com/platform/fleetplan-cmp:0.1.0' }, bootstrapRunner: 'tekton' }, (fleet, findings) => {
    assert.deepEqual(findings, []);
    const objs = provisionBundle(fleet, 'ocp1').objects;
    assert.equal(find(objs, 'Job'), undefined);
    const task = find(objs, 'Task', 'fleetplan-bootstrap')!;
    const pipeline = find(objs, 'Pipeline', 'fleetplan-bootstrap')!;
    const run = find(objs, 'PipelineRun', 'fleetplan-bootstrap-ocp1')!;
    for (const o of [task, pipeline, run]) {
      assert.equal(o.apiVersion, 'tekton.dev/v1');
      assert.equal(o.metadata.namespace, 'ocp1');
    }
    const ts = task.spec as { params: { name: string; default?: string }[]; steps: (Container & { name: string; script?: string })[] };
    assert.deepEqual(ts.steps.map((s) => s.name), ['wait-available', 'bootstrap']);
    const gate = ts.steps[0]!;
    assert.equal(gate.script, WAIT_AVAILABLE_SCRIPT);
    assert.match(gate.script!, /kubectl wait "managedcluster\/\$CLUSTER" --for=condition=ManagedClusterConditionAvailable --timeout="\$TIMEOUT"/);
    assert.doesNotMatch(gate.script!, /\$\(params\./, 'parameters reach the script through the environment, not spliced into it');
    assert.deepEqual(envOf(gate), { CLUSTER: '$(params.cluster)', TIMEOUT: '$(params.timeout)' });
    const boot = ts.steps[1]!;
    assert.equal(boot.image, 'registry.example.com/platform/fleetplan-cmp:0.1.0', 'the plugin image by default');
    assertBootstrapArgs(boot.args);
    // The Pipeline declares and passes every Task parameter; the run sets every Pipeline parameter.
    const ps = pipeline.spec as { params: { name: string }[]; tasks: { taskRef: { name: string }; params: { name: string; value: string }[] }[] };
    assert.deepEqual(ps.tasks[0]!.taskRef.name, task.metadata.name);
    assert.deepEqual(ps.tasks[0]!.params.map((p) => p.name).sort(), ts.params.map((p) => p.name).sort());
    assert.deepEqual(ps.tasks[0]!.params.map((p) => p.value), ps.params.map((p) => `$(params.${p.name})`));
    const rs = run.spec as { pipelineRef: { name: string }; params: { name: string; value: string }[]; taskRunTemplate: { serviceAccountName: string }; timeouts: { pipeline: string } };
    assert.equal(rs.pipelineRef.name, pipeline.metadata.name);
    assert.deepEqual(Object.fromEntries(rs.params.map((p) => [p.name, p.value])), { cluster: 'ocp1', 'repo-url': 'https://git.example.com/fleet.git', revision: 'main', timeout: '2h' });
    assert.equal(rs.taskRunTemplate.serviceAccountName, find(objs, 'ServiceAccount')!.metadata.name);
    assert.equal(rs.timeouts.pipeline, '4h0m0s', 'the wait and the bootstrap each get the timeout');
  });
});

test('bootstrapRunner without an image and no plugin image is an error at its line', () => {
  withFleet({ bootstrapRunner: 'job' }, (fleet, findings) => {
    assert.equal(fleet.bootstrapRunner, undefined);
    const f = findings.find((x) => x.code === 'bootstrap-runner-image');
    assert.ok(f, JSON.stringify(findings));
    assert.equal(f.severity, 'error');
    assert.equal(f.file, 'fleet.yaml');
    assert.equal(f.path, 'spec.gitops.bootstrapRunner');
    assert.ok((f.line ?? 0) > 1);
  });
});

test('the schema rejects an unknown runner, naming the field', () => {
  const dir = writeTree(fleetFiles({ bootstrapRunner: 'cron' }));
  try {
    assert.throws(() => loadFleet(dir), (e: unknown) => /fleet\.yaml:\d+:\d+ spec\.gitops\.bootstrapRunner/.test(String((e as { hint?: string }).hint)));
  } finally {
    removeTree(dir);
  }
});

test('render writes the runner into the spoke\'s provisioning directory on the hub, listed in its kustomization', () => {
  withFleet({ bootstrapRunner: { type: 'tekton', image: IMAGE } }, (fleet) => {
    const files = renderFleet(resolveFleet(fleet, { clusters: ['hub'] })).files;
    const dir = files.filter((f) => f.path.startsWith('hub/provision/ocp1/'));
    const k = jsYaml.load(dir.find((f) => f.path.endsWith('/kustomization.yaml'))!.content) as { resources: string[] };
    for (const name of ['task-fleetplan-bootstrap.yaml', 'pipeline-fleetplan-bootstrap.yaml', 'pipelinerun-fleetplan-bootstrap-ocp1.yaml', 'serviceaccount-fleetplan-bootstrap.yaml']) {
      assert.ok(k.resources.includes(name), `${name} in ${k.resources.join(', ')}`);
      assert.ok(dir.some((f) => f.path === `hub/provision/ocp1/${name}`));
    }
  });
});
