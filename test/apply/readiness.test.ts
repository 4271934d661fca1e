/** Readiness conditions, change detection and durations: pure functions, named table tests. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, type LiveObject } from '../../src/apply/readiness.js';
import { changeAction } from '../../src/apply/changes.js';
import { parseDuration } from '../../src/cli/actions/bootstrap.js';
import { UsageError } from '../../src/errors/index.js';
import type { ReadyCondition } from '../../src/model/bootstrap.js';
import type { ObjectKey } from '../../src/model/k8s.js';

const ns = 'openshift-operators';
const sub: ObjectKey = { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', namespace: ns, name: 'op' };
const ip = (approved: boolean): LiveObject => ({ kind: 'InstallPlan', metadata: { name: 'install-1', namespace: ns }, spec: { approved }, status: { phase: approved ? 'Installing' : 'RequiresApproval' } });
const csv = (phase: string): LiveObject => ({ kind: 'ClusterServiceVersion', metadata: { name: 'op.v1', namespace: ns }, status: { phase, reason: 'InstallWaiting', message: 'waiting for deployment' } });
const subscription = (status: object): LiveObject => ({ kind: 'Subscription', metadata: { name: 'op', namespace: ns }, status });
const deploy = (o: { gen?: number; observed?: number; available?: number; cond?: string; replicas?: number }): LiveObject => ({
  kind: 'Deployment', metadata: { name: 'd', generation: o.gen ?? 1 }, spec: { replicas: o.replicas ?? 1 },
  status: { observedGeneration: o.observed, availableReplicas: o.available, conditions: o.cond ? [{ type: 'Available', status: o.cond, reason: 'R', message: 'm' }] : [] },
});

interface Case {
  name: string;
  condition: ReadyCondition;
  key?: ObjectKey;
  objects: LiveObject[];
  ready: boolean;
  message?: RegExp;
}

const key = (kind: string, name: string, namespace?: string): ObjectKey => ({ apiVersion: 'v1', kind, name, ...(namespace ? { namespace } : {}) });

const cases: Case[] = [
  { name: 'a missing object is not ready', condition: 'exists', key: key('Namespace', 'x'), objects: [], ready: false, message: /does not exist yet/ },
  { name: 'a terminating Namespace is not ready', condition: 'exists', key: key('Namespace', 'x'), objects: [{ kind: 'Namespace', metadata: { name: 'x' }, status: { phase: 'Terminating' } }], ready: false, message: /Terminating/ },
  { name: 'an active Namespace exists', condition: 'exists', key: key('Namespace', 'x'), objects: [{ kind: 'Namespace', metadata: { name: 'x' }, status: { phase: 'Active' } }], ready: true },
  { name: 'a CRD without Established is not ready', condition: 'established', key: key('CustomResourceDefinition', 'c'), objects: [{ kind: 'CustomResourceDefinition', metadata: { name: 'c' }, status: { conditions: [{ type: 'NamesAccepted', status: 'True' }] } }], ready: false },
  { name: 'an Established CRD is ready', condition: 'established', key: key('CustomResourceDefinition', 'c'), objects: [{ kind: 'CustomResourceDefinition', metadata: { name: 'c' }, status: { conditions: [{ type: 'Established', status: 'True' }] } }], ready: true },
  { name: 'a Deployment whose generation is not observed is not ready', condition: 'available', key: key('Deployment', 'd'), objects: [deploy({ gen: 2, observed: 1, available: 1, cond: 'True' })], ready: false, message: /generation 2 not observed/ },
  { name: 'a Deployment short of replicas is not ready', condition: 'available', key: key('Deployment', 'd'), objects: [deploy({ observed: 1, available: 1, replicas: 3, cond: 'True' })], ready: false, message: /1\/3/ },
  { name: 'an available Deployment is ready', condition: 'available', key: key('Deployment', 'd'), objects: [deploy({ observed: 1, available: 1, cond: 'True' })], ready: true },
  { name: 'a Subscription without InstallPlan is not ready', condition: 'operator-installed', key: sub, objects: [subscription({})], ready: false, message: /no InstallPlan yet/ },
  { name: 'a Manual InstallPlan waits for approval and says how to give it', condition: 'operator-installed', key: sub, objects: [subscription({ installPlanRef: { name: 'install-1' }, currentCSV: 'op.v1' }), ip(false)], ready: false, message: /waits for manual approval \(oc -n openshift-operators patch installplan install-1/ },
  { name: 'an installing CSV is not ready and says why', condition: 'operator-installed', key: sub, objects: [subscription({ installPlanRef: { name: 'install-1' }, currentCSV: 'op.v1' }), ip(true), csv('Installing')], ready: false, message: /CSV op\.v1 Installing \(InstallWaiting: waiting for deployment\)/ },
  { name: 'a Succeeded CSV makes the Subscription ready', condition: 'operator-installed', key: sub, objects: [subscription({ installPlanRef: { name: 'install-1' }, installedCSV: 'op.v1' }), ip(true), csv('Succeeded')], ready: true },
  { name: 'an OutOfSync Application is not ready and shows its operation', condition: 'synced-healthy', key: key('Application', 'a', 'gitops'), objects: [{ kind: 'Application', metadata: { name: 'a', namespace: 'gitops' }, spec: { syncPolicy: { automated: {} } }, status: { sync: { status: 'OutOfSync' }, health: { status: 'Progressing' }, operationState: { phase: 'Running', message: 'waiting for healthy state of wave 1' } } }], ready: false, message: /^OutOfSync, Progressing: Running waiting for healthy state of wave 1$/ },
  { name: 'an Application without automated sync says it waits for a manual sync', condition: 'synced-healthy', key: key('Application', 'a', 'gitops'), objects: [{ kind: 'Application', metadata: { name: 'a', namespace: 'gitops' }, spec: {}, status: { sync: { status: 'OutOfSync' }, health: { status: 'Missing' } } }], ready: false, message: /no automated sync policy.*argocd app sync a/ },
  { name: 'a Synced and Healthy Application is ready', condition: 'synced-healthy', key: key('Application', 'a', 'gitops'), objects: [{ kind: 'Application', metadata: { name: 'a', namespace: 'gitops' }, status: { sync: { status: 'Synced' }, health: { status: 'Healthy' } } }], ready: true },
  { name: 'a store with Ready=False is not ready', condition: 'ready-condition', key: key('ClusterSecretStore', 's'), objects: [{ kind: 'ClusterSecretStore', metadata: { name: 's' }, status: { conditions: [{ type: 'Ready', status: 'False', message: 'invalid token' }] } }], ready: false, message: /invalid token/ },
  { name: 'an installing ClusterDeployment is not ready', condition: 'cluster-installed', key: key('ClusterDeployment', 'c', 'c'), objects: [{ kind: 'ClusterDeployment', metadata: { name: 'c', namespace: 'c' }, spec: {} }], ready: false, message: /installing/ },
  { name: 'a failed ClusterDeployment says so', condition: 'cluster-installed', key: key('ClusterDeployment', 'c', 'c'), objects: [{ kind: 'ClusterDeployment', metadata: { name: 'c', namespace: 'c' }, spec: {}, status: { conditions: [{ type: 'ProvisionFailed', status: 'True', message: 'no quota' }] } }], ready: false, message: /provisioning failed: no quota/ },
  { name: 'a ManagedCluster the hub did not accept is not ready', condition: 'cluster-available', key: key('ManagedCluster', 'c'), objects: [{ kind: 'ManagedCluster', metadata: { name: 'c' }, spec: {} }], ready: false, message: /hubAcceptsClient/ },
  { name: 'an available ManagedCluster is ready', condition: 'cluster-available', key: key('ManagedCluster', 'c'), objects: [{ kind: 'ManagedCluster', metadata: { name: 'c' }, spec: { hubAcceptsClient: true }, status: { conditions: [{ type: 'ManagedClusterConditionAvailable', status: 'True' }] } }], ready: true },
];

for (const c of cases) {
  test(c.name, () => {
    const k = c.key!;
    const lookup = (q: ObjectKey) => c.objects.find((o) => o.kind === q.kind && o.metadata?.name === q.name);
    const r = evaluate({ object: k, condition: c.condition, text: '' }, lookup);
    assert.equal(r.ready, c.ready, r.message);
    if (c.message) assert.match(r.message, c.message);
  });
}

test('conditions are listed for a timeout message', () => {
  const r = evaluate({ object: key('Deployment', 'd'), condition: 'available', text: '' }, () => deploy({ observed: 1, available: 0, cond: 'False' }));
  assert.deepEqual(r.conditions, ['Available=False (R): m']);
});

const live = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n', uid: 'u1', resourceVersion: '7', generation: 1, creationTimestamp: 't', managedFields: [{ manager: 'fleetplan' }] }, data: { a: '1' } };
const changeCases = [
  { name: 'no live object: created', dry: live, live: undefined, want: 'created' },
  { name: 'only server-kept fields differ: unchanged', dry: { ...live, metadata: { ...live.metadata, resourceVersion: '8', managedFields: [] } }, live, want: 'unchanged' },
  { name: 'status differences are ignored: unchanged', dry: { ...live, status: { x: 1 } }, live, want: 'unchanged' },
  { name: 'a data change: configured', dry: { ...live, data: { a: '2' } }, live, want: 'configured' },
  { name: 'a new label: configured', dry: { ...live, metadata: { ...live.metadata, labels: { x: 'y' } } }, live, want: 'configured' },
] as const;
for (const c of changeCases) test(`change detection: ${c.name}`, () => assert.equal(changeAction(c.dry, c.live), c.want));

const durations: Array<[string, number | undefined]> = [['90s', 90_000], ['20m', 1_200_000], ['1h30m', 5_400_000], ['500ms', 500], ['45', 45_000], ['1.5s', 1500], ['', undefined], ['10x', undefined], ['m5', undefined], ['0s', undefined]];
for (const [text, want] of durations) {
  test(`--timeout "${text}" ${want === undefined ? 'is refused' : `is ${want} ms`}`, () => {
    if (want === undefined) assert.throws(() => parseDuration(text), UsageError);
    else assert.equal(parseDuration(text), want);
  });
}
