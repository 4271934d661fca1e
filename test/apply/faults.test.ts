/**
 * Injected faults during `fleetplan bootstrap --cluster hub`: each one is survived (the run
 * converges), or, for readiness that never comes, the run fails naming the stuck objects.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree } from '../support/fleet-fixture.js';
import { runCli } from '../../src/cli/run.js';
import { LAB, simulatedCluster, type SimulatedCluster } from '../support/bootstrap-cluster.js';
import type { KubeServer } from '../support/kube-server/index.js';

interface FaultCase {
  name: string;
  inject(server: KubeServer): void;
  /** Requests answered by the fault (to check it was hit). */
  hit(server: KubeServer): number;
}

const faulted = (s: KubeServer, status: string) => s.log.filter((r) => r.fault === status).length;

const cases: FaultCase[] = [
  {
    name: 'survives 409 conflicts on writes (retried with backoff)',
    inject: (s) => s.faults.conflictNext(3, { resource: 'argocds' }),
    hit: (s) => faulted(s, '409'),
  },
  {
    name: 'survives 429 Too Many Requests, waiting as Retry-After says',
    inject: (s) => s.faults.throttleNext(2, 1, { verb: 'get' }),
    hit: (s) => faulted(s, '429'),
  },
  {
    name: 'survives 500 Internal Server Error on applies and lists',
    inject: (s) => {
      s.faults.errorNext(2, { verb: 'apply', resource: 'subscriptions' });
      s.faults.errorNext(2, { verb: 'list', resource: 'applications' });
    },
    hit: (s) => faulted(s, '500'),
  },
  {
    name: 'survives connections reset without an answer',
    inject: (s) => s.faults.resetNext(2, { verb: 'apply', resource: 'configmaps' }),
    hit: (s) => faulted(s, 'reset'),
  },
  {
    name: 'survives dropped watch connections, resuming where they stopped',
    inject: (s) => {
      s.faults.dropWatches(4, 1, { resource: 'applications' }, 'destroy');
      s.faults.dropWatches(2, 0, { resource: 'deployments' }, 'end');
    },
    hit: (s) => s.faults.watchDrops.reduce((n, d) => n + (d.remaining === 0 ? 1 : 0), 0),
  },
];

describe('bootstrap under injected faults', () => {
  let c: SimulatedCluster | undefined;
  afterEach(async () => {
    await c?.close();
    c = undefined;
  });
  const run = (args: string[]) => cli(['bootstrap', '--repo', LAB, '--cluster', 'hub', ...args], process.cwd(), { KUBECONFIG: c!.kubeconfig, HOME: c!.dir });

  for (const fc of cases) {
    test(fc.name, async () => {
      c = await simulatedCluster();
      fc.inject(c.server);
      const r = await run(['--timeout', '60s']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^hub: converged in .*: 7 created, 1 configured, 0 unchanged$/m);
      assert.ok(fc.hit(c.server) > 0, 'the fault was injected');
    });
  }

  test('readiness that never comes fails at the timeout, naming every stuck object with its state', async () => {
    c = await simulatedCluster();
    c.server.controllers.hold({ kind: 'Application', namespace: 'openshift-gitops', name: 'acm-instance' });
    c.server.controllers.hold({ kind: 'Application', namespace: 'openshift-gitops', name: 'mtv-configuration' });
    const r = await run(['--timeout', '4s']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /timed out after 4\.0s in stage "wave 15": 2 objects not ready:/);
    assert.match(r.stderr, /^ {2}Application\/openshift-gitops\/acm-instance: (does not exist yet|Unknown, Unknown|OutOfSync)/m);
    assert.match(r.stderr, /^ {2}Application\/openshift-gitops\/mtv-configuration: /m);
    assert.match(r.stderr, /rerun to resume/);
    // What was applied stays applied.
    assert.ok(c.server.object('argoproj.io/v1alpha1', 'Application', 'root-applications', 'openshift-gitops'));
  });

  test('a stuck operator install names the Subscription and its CSV phase', async () => {
    c = await simulatedCluster();
    c.server.controllers.hold({ kind: 'ClusterServiceVersion', namespace: 'openshift-operators', name: 'openshift-gitops-operator.v1.14.0' });
    const r = await run(['--timeout', '3s']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /in stage "gitops-operator"/);
    assert.match(r.stderr, /Subscription\/openshift-operators\/openshift-gitops-operator: CSV openshift-gitops-operator\.v1\.14\.0 (Pending|Installing)/);
  });

  test('a Manual InstallPlan is awaited with the command that approves it, and the run goes on once approved', async () => {
    c = await simulatedCluster();
    const events: string[] = [];
    const approve = () => {
      const rt = c!.server.typeFor('operators.coreos.com/v1alpha1', 'InstallPlan')!;
      const ip = c!.server.store.list(rt, 'openshift-operators', () => true).items[0]!;
      events.push('approved');
      c!.server.store.patch(rt, 'openshift-operators', String(ip.metadata.name), 'merge', { spec: { approved: true } }, { fieldManager: 'a-person' });
    };
    // Manual approval through the fleet spec: a copy of the lab with installPlanApproval: Manual.
    const { cpSync, mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'fleetplan-manual-'));
    cpSync(LAB, dir, { recursive: true });
    const fleetFile = join(dir, 'fleet.yaml');
    writeFileSync(fleetFile, readFileSync(fleetFile, 'utf8').replace('    namespace: openshift-gitops\n', '    namespace: openshift-gitops\n    operator:\n      installPlanApproval: Manual\n'));
    // A person approves once fleetplan says it waits for that.
    let stderr = '';
    let stdout = '';
    const code = await runCli(['bootstrap', '--repo', dir, '--cluster', 'hub', '--timeout', '60s', '--no-wait'], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: {
        write: (t: string) => {
          stderr += t;
          if (t.includes('waits for manual approval') && events.length === 0) approve();
        },
      },
      env: { KUBECONFIG: c.kubeconfig, HOME: c.dir },
      cwd: process.cwd(),
    });
    const r = { code, stdout, stderr };
    removeTree(dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(events, ['approved']);
    assert.match(r.stdout, /^hub: applied \(not waiting for the waves\)/m);
    assert.match(r.stderr, /waiting {4}Subscription\/openshift-operators\/openshift-gitops-operator: InstallPlan openshift-operators\/install-\w+ waits for manual approval \(oc -n openshift-operators patch installplan install-\w+ --type merge -p '\{"spec":\{"approved":true\}\}'\)/);
  });

  test('a field owned by another manager fails naming field and manager; --force-conflicts takes it', async () => {
    c = await simulatedCluster();
    c.server.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'openshift-gitops' } }], 'test-setup');
    c.server.seed([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'environment-variables', namespace: 'openshift-gitops' }, data: { CLUSTER_NAME: 'someone-else' } }], 'kubectl-edit');
    const r = await run(['--timeout', '30s']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /ConfigMap\/openshift-gitops\/environment-variables: server-side apply conflict: \.data\.CLUSTER_NAME is owned by field manager "kubectl-edit" \(rerun with --force-conflicts to take these fields; they then belong to fleetplan\)/);
    // Nothing of that stage was written: the dry-run failed first.
    assert.equal(c.server.object('v1', 'Secret', 'cluster-hub', 'openshift-gitops'), undefined);
    const forced = await run(['--timeout', '60s', '--force-conflicts']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(c.server.object('v1', 'ConfigMap', 'environment-variables', 'openshift-gitops')?.data.CLUSTER_NAME, 'hub');
    assert.match(forced.stdout, /^ {2}configured +ConfigMap\/openshift-gitops\/environment-variables$/m);
  });
});
