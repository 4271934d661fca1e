/**
 * Phase 2 under `bootstrap --all` (ADR 0264): each cluster's phase 2 runs once its own bootstrap
 * converged, with the client that reached that cluster (a spoke's own, not its hub's), and its
 * failure is that cluster's, reported with the others' — as for phase 1. A hub whose phase 1
 * converged serves its spokes even when its phase 2 failed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeSet, OperationError, bootstrapFleet } from '../../src/index.js';
import type { AfterBootstrap, BootstrapPlan, ClusterRun, KubeClient, MirrorResult } from '../../src/index.js';
import type { KubeObject } from '../../src/ports/kube.js';
import { systemClock } from '../../src/adapters/clock.js';

/** A cluster that serves every kind and whose watches report `objects` (here: spokes already joined). */
function fakeCluster(name: string, objects: KubeObject[] = []): KubeClient {
  return {
    context: name,
    server: `https://api.${name}.example.com:6443`,
    apply: (o) => Promise.resolve(o),
    get: () => Promise.resolve(undefined),
    list: () => Promise.resolve({ items: [], resourceVersion: '1' }),
    delete: () => Promise.resolve(false),
    watch(query, onEvent) {
      let stop = () => {};
      const done = new Promise<void>((resolve) => (stop = resolve));
      for (const o of objects.filter((x) => x.kind === query.kind)) setImmediate(() => onEvent({ type: 'ADDED', object: o }));
      return { stop, done, resourceVersion: undefined };
    },
    resource: () => Promise.resolve({ plural: 'things', namespaced: true }),
    close: () => {},
  };
}

const joined = (name: string): KubeObject => ({
  apiVersion: 'cluster.open-cluster-management.io/v1', kind: 'ManagedCluster', metadata: { name },
  spec: { hubAcceptsClient: true }, status: { conditions: [{ type: 'ManagedClusterConditionAvailable', status: 'True' }] },
});

function plan(cluster: string, spoke: boolean): BootstrapPlan {
  return {
    cluster, platform: 'openshift', gitopsNamespace: 'openshift-gitops', notes: [],
    stages: spoke ? [{
      name: 'spoke-provisioning', kind: 'spoke-provisioning', description: '', objects: [], files: [], notes: [],
      waits: [{ object: { apiVersion: 'cluster.open-cluster-management.io/v1', kind: 'ManagedCluster', name: cluster }, condition: 'cluster-available', text: '' }],
    }] : [],
  };
}

function phaseTwo(cluster: string): MirrorResult {
  return {
    cluster, outcome: 'converged', changes: new ChangeSet(), timings: [], durationMs: 1, commit: 'c0ffee', push: 'pushed',
    remote: { url: 'https://gitea.example.com/fleet.git', branch: 'main', revision: 'main', before: undefined }, notAwaited: [],
  };
}

const runs: ClusterRun[] = [{ plan: plan('hub', false) }, { plan: plan('etl4', true), hub: 'hub' }, { plan: plan('etl6', true), hub: 'hub' }];

async function runAll(failOn: string): Promise<{ outcomes: Awaited<ReturnType<typeof bootstrapFleet>>; reached: Map<string, string | undefined> }> {
  const hub = fakeCluster('hub', [joined('etl4'), joined('etl6')]);
  const reached = new Map<string, string | undefined>();
  const then: AfterBootstrap = async (run, client) => {
    reached.set(run.plan.cluster, client?.context);
    if (run.plan.cluster === failOn) throw new OperationError(`phase 2: commit c0ffee does not hold the phase-2 tree of ${failOn}`, { code: 'mirror-tree' });
    return Promise.resolve(phaseTwo(run.plan.cluster));
  };
  const outcomes = await bootstrapFleet(runs, {
    client: hub,
    connectKubeconfig: () => Promise.reject(new Error('not used')),
    spokeKubeconfig: (cluster) => Promise.resolve(fakeCluster(cluster)),
  }, { clock: systemClock, reporter: { event: () => {} }, timeoutMs: 10_000 }, then);
  return { outcomes, reached };
}

test('each cluster\'s phase 2 runs with the client that reached it; one failing spoke does not hide the others', async () => {
  const { outcomes, reached } = await runAll('etl4');
  assert.deepEqual([...reached].sort(), [['etl4', 'etl4'], ['etl6', 'etl6'], ['hub', 'hub']], 'a spoke\'s phase 2 talks to the spoke, not to its hub');
  const by = new Map(outcomes.map((o) => [o.cluster, o]));
  assert.equal(by.get('hub')?.ok, true);
  assert.equal(by.get('hub')?.phaseTwo?.push, 'pushed');
  assert.equal(by.get('etl6')?.ok, true);
  assert.equal(by.get('etl6')?.phaseTwo?.cluster, 'etl6');
  const failed = by.get('etl4')!;
  assert.equal(failed.ok, false);
  assert.equal(failed.result?.outcome, 'converged', 'phase 1 of etl4 is still reported');
  assert.match(failed.error?.message ?? '', /phase 2: .* phase-2 tree of etl4/);
});

test('a hub whose phase 2 failed still serves its spokes (their phase 1 needs only the hub\'s)', async () => {
  const { outcomes } = await runAll('hub');
  const by = new Map(outcomes.map((o) => [o.cluster, o]));
  assert.equal(by.get('hub')?.ok, false);
  assert.equal(by.get('hub')?.result?.outcome, 'converged');
  assert.equal(by.get('etl4')?.ok, true);
  assert.equal(by.get('etl6')?.ok, true);
});
