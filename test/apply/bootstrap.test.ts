/**
 * `fleetplan bootstrap` against the Kubernetes API test server, through the real client library
 * over HTTP: convergence, idempotence, dry-run, conflicts, timeouts.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from '../support/fleet-fixture.js';
import { LAB, simulatedCluster, storeIndex, type SimulatedCluster } from '../support/bootstrap-cluster.js';

interface JsonEvent {
  type: string;
  stage?: string;
  ref?: string;
  action?: string;
  result?: { outcome: string; changes: Array<{ ref: string; action: string; stage: string }>; timings: Array<{ stage: string; durationMs: number }> };
  notReady?: Array<{ ref: string; message: string }>;
}

function events(stdout: string): JsonEvent[] {
  return stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as JsonEvent);
}

function resultOf(stdout: string): NonNullable<JsonEvent['result']> {
  const done = events(stdout).find((e) => e.type === 'done');
  assert.ok(done?.result, `no done event in:\n${stdout}`);
  return done.result;
}

describe('fleetplan bootstrap against the test server', () => {
  let c: SimulatedCluster | undefined;
  afterEach(async () => {
    await c?.close();
    c = undefined;
  });

  const run = (args: string[]) => cli(['bootstrap', '--repo', LAB, ...args], process.cwd(), { KUBECONFIG: c!.kubeconfig, HOME: c!.dir });

  test('the lab hub converges, and a second run reports every object unchanged and writes nothing', async () => {
    c = await simulatedCluster();
    const first = await run(['--cluster', 'hub', '-o', 'json', '--timeout', '60s']);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const r1 = resultOf(first.stdout);
    assert.equal(r1.outcome, 'converged');
    const applied = r1.changes.filter((x) => x.action !== 'skipped');
    assert.ok(applied.length >= 7, JSON.stringify(applied));
    // The operator makes its default ArgoCD instance, which fleetplan then configures.
    assert.deepEqual(applied.filter((x) => x.action !== 'created').map((x) => `${x.action} ${x.ref}`), ['configured ArgoCD/openshift-gitops/openshift-gitops']);
    for (const ref of ['Namespace/openshift-gitops', 'ConfigMap/openshift-gitops/fleetplan-cmp-plugin', 'Subscription/openshift-operators/openshift-gitops-operator', 'ArgoCD/openshift-gitops/openshift-gitops',
      'ConfigMap/openshift-gitops/environment-variables', 'Secret/openshift-gitops/cluster-hub', 'Application/openshift-gitops/root-applications']) {
      assert.ok(applied.some((x) => x.ref === ref), `${ref} applied`);
    }
    // Every wave was awaited, in order.
    assert.deepEqual(r1.timings.filter((t) => t.stage.startsWith('wave')).map((t) => t.stage), ['wave 5', 'wave 15', 'wave 20', 'wave 25', 'wave 30']);
    const argocd = c.server.object('argoproj.io/v1beta1', 'ArgoCD', 'openshift-gitops', 'openshift-gitops');
    assert.equal(argocd?.spec.repo.sidecarContainers[0].image, 'registry.example.com/platform/fleetplan-cmp:0.1.0');
    const secret = c.server.object('v1', 'Secret', 'cluster-hub', 'openshift-gitops');
    assert.equal(secret?.metadata.labels['argocd.argoproj.io/secret-type'], 'cluster');
    assert.deepEqual([secret?.metadata.labels.role, secret?.metadata.labels.sector, secret?.metadata.labels.region], ['hub', 'lab', 'rdu2']);
    assert.equal(secret?.metadata.annotations.git_revision, 'main');
    const fields = secret?.metadata.managedFields as Array<{ manager: string; operation: string }>;
    assert.ok(fields.some((f) => f.manager === 'fleetplan' && f.operation === 'Apply'));

    const before = storeIndex(c.server);
    const writesBefore = c.server.requests({ verb: ['apply', 'patch', 'create', 'update', 'delete'] }).filter((r) => !r.query.includes('dryRun')).length;
    const second = await run(['--cluster', 'hub', '-o', 'json']);
    assert.equal(second.code, 0, second.stderr);
    const r2 = resultOf(second.stdout);
    assert.deepEqual(r2.changes.filter((x) => x.action !== 'skipped').map((x) => `${x.action} ${x.ref}`), applied.map((x) => `unchanged ${x.ref}`));
    const writesAfter = c.server.requests({ verb: ['apply', 'patch', 'create', 'update', 'delete'] }).filter((r) => !r.query.includes('dryRun')).length;
    assert.equal(writesAfter, writesBefore, 'the second run wrote nothing');
    for (const [ref, v] of before) assert.equal(storeIndex(c.server).get(ref)?.uid, v.uid, `${ref} kept its uid`);
  });

  test('--dry-run writes nothing and prints the change set', async () => {
    c = await simulatedCluster();
    const before = JSON.stringify(c.server.store.snapshot());
    const r = await run(['--cluster', 'hub', '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.stringify(c.server.store.snapshot()), before);
    assert.match(r.stdout, /^hub: dry run done in .*: 3 created, 0 configured, 0 unchanged, 5 skipped$/m);
    assert.match(r.stdout, /^ {2}created +Subscription\/openshift-operators\/openshift-gitops-operator$/m);
    assert.match(r.stdout, /^ {2}skipped +ArgoCD\/openshift-gitops\/openshift-gitops {2}\(dry run: ArgoCD \(argoproj\.io\/v1beta1\) is not served yet; an earlier stage installs it\)$/m);
  });
});
