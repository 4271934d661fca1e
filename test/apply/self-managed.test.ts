/**
 * Argo CD manages itself after the hand-off (ADR 0240): the Application `gitops-self` reads the
 * bootstrap files, so the objects Argo CD syncs from it are the objects bootstrap applied, field
 * for field; and a bootstrap run after Argo CD took them over (server-side apply as
 * `argocd-controller`, as Argo CD with ServerSideApply=true does) changes nothing and takes no
 * field from Argo CD's field manager. If Git moved on and Argo CD applied other values, a
 * bootstrap from the old checkout stops at the conflict, naming Argo CD, and writes nothing.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import jsYaml from 'js-yaml';
import { loadFleet, planBootstrap } from '../../src/index.js';
import { renderFleet } from '../../src/render/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { SELF_APPLICATION } from '../../src/generate/argocd-self.js';
import { connectKube } from '../../src/adapters/kube.js';
import type { K8sObject } from '../../src/model/k8s.js';
import type { RenderedFile } from '../../src/render/files.js';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { LAB, simulatedCluster, type SimulatedCluster } from '../support/bootstrap-cluster.js';

const ARGOCD_MANAGER = 'argocd-controller';
const key = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Argo CD's directory include: a name or `{a,b,c}` of names (what fleetplan writes). */
function included(include: string, name: string): boolean {
  const m = /^\{(.*)\}$/.exec(include);
  return (m ? m[1]!.split(',') : [include]).includes(name);
}

/** What Argo CD renders from the self-managing Application: its directory's included files, parsed from their text. */
function selfAppObjects(files: RenderedFile[], cluster: string): { app: K8sObject; objects: K8sObject[] } {
  const appFile = files.find((f) => f.path === `${cluster}/apps/${SELF_APPLICATION}.yaml`);
  assert.ok(appFile, `${cluster}/apps/${SELF_APPLICATION}.yaml rendered (the root Application syncs apps/*.yaml)`);
  const app = jsYaml.load(appFile.content) as K8sObject;
  const src = (app.spec as { source: { path: string; directory: { include: string } } }).source;
  assert.equal(src.path, `rendered/${cluster}/bootstrap`);
  const dir = files.filter((f) => f.path.startsWith(`${cluster}/bootstrap/`) && included(src.directory.include, f.path.slice(`${cluster}/bootstrap/`.length)));
  return { app, objects: dir.flatMap((f) => (jsYaml.loadAll(f.content) as K8sObject[]).filter((o) => o !== null)) };
}

function assertIdentical(repo: string, cluster: string, expectKinds: string[]): void {
  const { fleet } = loadFleet(repo);
  const resolved = resolveFleet(fleet, { clusters: [cluster] });
  const { app, objects } = selfAppObjects(renderFleet(resolved).files, cluster);
  assert.deepEqual(objects.map((o) => o.kind).sort(), [...expectKinds].sort());
  const plan = planBootstrap(fleet, resolved.clusters[0]!, {});
  const applied = plan.stages.flatMap((s) => s.objects);
  for (const o of objects) {
    const mine = applied.find((x) => key(x) === key(o));
    assert.ok(mine, `bootstrap applies ${key(o)}`);
    assert.deepEqual(o, mine, `${key(o)}: the self-managed app's object is the bootstrap's, field for field`);
  }
  // And what bootstrap applies from those steps is all in the app: nothing of Argo CD's configuration is left out.
  const appFiles = new Set(plan.stages.flatMap((s) => s.files).filter((f) => included((app.spec as { source: { directory: { include: string } } }).source.directory.include, f)));
  const fromThoseFiles = plan.stages.filter((s) => s.files.some((f) => appFiles.has(f))).flatMap((s) => s.objects).filter((o) => ['Subscription', 'ClusterRoleBinding', 'ArgoCD', 'ConfigMap'].includes(o.kind));
  for (const o of fromThoseFiles) assert.ok(objects.some((x) => key(x) === key(o)), `${key(o)} is self-managed`);
  // Never prunes Argo CD, never cascades a delete into it.
  assert.deepEqual((app.spec as { syncPolicy: { automated: { prune: boolean } } }).syncPolicy.automated.prune, false);
  assert.equal(app.metadata.finalizers, undefined);
}

test('OpenShift (examples/lab hub): the self-managed app\'s objects are the bootstrap\'s — operator Subscription, RBAC, plugin ConfigMaps, ArgoCD instance', () => {
  assertIdentical(LAB, 'hub', ['Subscription', 'ClusterRoleBinding', 'ConfigMap', 'ConfigMap', 'ArgoCD']);
});

test('a provisioned OpenShift spoke (examples/lab etl4) leaves the operator Subscription to its ACM OperatorPolicy', () => {
  assertIdentical(LAB, 'etl4', ['ClusterRoleBinding', 'ConfigMap', 'ConfigMap', 'ArgoCD']);
});

test('upstream Argo CD (platform kubernetes): RBAC and argocd-cm', () => {
  const dir = writeTree({
    'fleet.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: t\nspec:\n  repoURL: https://git.example.com/fleet.git\n  platform: kubernetes\n',
    'clusters/k1/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: k1\nspec:\n  role: standalone\n',
  });
  try {
    assertIdentical(dir, 'k1', ['ClusterRoleBinding', 'ConfigMap']);
  } finally {
    removeTree(dir);
  }
});

test('gitops.selfManaged: false renders no self-managing app', () => {
  const dir = writeTree({
    'fleet.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: t\nspec:\n  repoURL: https://git.example.com/fleet.git\n  gitops:\n    selfManaged: false\n',
    'clusters/c1/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: c1\nspec:\n  role: standalone\n',
  });
  try {
    const { fleet } = loadFleet(dir);
    const files = renderFleet(resolveFleet(fleet)).files;
    assert.ok(files.some((f) => f.path === 'c1/bootstrap/20-argocd.yaml'));
    assert.equal(files.find((f) => f.path.endsWith(`/${SELF_APPLICATION}.yaml`)), undefined);
  } finally {
    removeTree(dir);
  }
});

interface Managed { manager: string; operation: string; fieldsV1?: unknown }

describe('bootstrap after the hand-off, against the test server', () => {
  let c: SimulatedCluster | undefined;
  afterEach(async () => {
    await c?.close();
    c = undefined;
  });

  /** Argo CD syncing gitops-self: server-side apply of the app's objects as its field manager, forced, with its tracking annotation. */
  async function argoCdSyncs(objects: K8sObject[]): Promise<void> {
    const argo = await connectKube({ kubeconfig: c!.kubeconfig, env: {}, fieldManager: ARGOCD_MANAGER });
    try {
      for (const o of objects) {
        const tracked = { ...o, metadata: { ...o.metadata, annotations: { ...(o.metadata.annotations ?? {}), 'argocd.argoproj.io/tracking-id': `${SELF_APPLICATION}:${o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : ''}/${o.kind}:${o.metadata.namespace ?? ''}/${o.metadata.name}` } } };
        await argo.apply(tracked as never, { force: true });
      }
    } finally {
      argo.close();
    }
  }

  function argoFields(objects: K8sObject[]): Map<string, Managed[]> {
    const out = new Map<string, Managed[]>();
    for (const o of objects) {
      const live = c!.server.object(o.apiVersion, o.kind, o.metadata.name, o.metadata.namespace);
      assert.ok(live, `${key(o)} exists`);
      out.set(key(o), (live.metadata.managedFields as Managed[]).filter((m) => m.manager === ARGOCD_MANAGER));
    }
    return out;
  }

  const run = (args: string[]) => cli(['bootstrap', '--repo', LAB, '--cluster', 'hub', '-o', 'json', '--timeout', '60s', ...args], process.cwd(), { KUBECONFIG: c!.kubeconfig, HOME: c!.dir });
  const writes = () => c!.server.requests({ verb: ['apply', 'patch', 'create', 'update', 'delete'] }).filter((r) => !r.query.includes('dryRun')).length;

  test('a second bootstrap after Argo CD took over its configuration changes nothing and takes no field from Argo CD', async () => {
    c = await simulatedCluster();
    const first = await run([]);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const { fleet } = loadFleet(LAB);
    const { objects } = selfAppObjects(renderFleet(resolveFleet(fleet, { clusters: ['hub'] })).files, 'hub');
    await argoCdSyncs(objects);
    const owned = argoFields(objects);
    for (const [ref, entries] of owned) assert.equal(entries.length, 1, `${ref}: Argo CD's field manager owns fields after the hand-off`);
    // Argo CD co-owns what fleetplan applied (equal values): e.g. the Application health check of the ArgoCD instance.
    assert.match(JSON.stringify(owned.get('ArgoCD/openshift-gitops/openshift-gitops')![0]!.fieldsV1), /resourceHealthChecks/);

    const before = writes();
    const second = await run([]);
    assert.equal(second.code, 0, second.stderr + second.stdout);
    const done = second.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; result?: { changes: { ref: string; action: string }[] } }).find((e) => e.type === 'done');
    const changed = done!.result!.changes.filter((x) => x.action !== 'unchanged' && x.action !== 'skipped');
    assert.deepEqual(changed, [], 'nothing changed');
    assert.equal(writes(), before, 'the second run wrote nothing');
    assert.deepEqual(argoFields(objects), owned, 'Argo CD keeps every field it owned');
  });

  test('when Git moved on and Argo CD applied other values, bootstrap from the old checkout stops at the conflict naming Argo CD, and writes nothing', async () => {
    c = await simulatedCluster();
    const first = await run([]);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const { fleet } = loadFleet(LAB);
    const { objects } = selfAppObjects(renderFleet(resolveFleet(fleet, { clusters: ['hub'] })).files, 'hub');
    const moved = objects.map((o) => (o.kind === 'ArgoCD' ? { ...o, spec: { ...(o.spec as object), rbac: { defaultPolicy: 'role:readonly', policy: 'g, platform-admins, role:admin\n', scopes: '[groups]' } } } : o));
    await argoCdSyncs(moved);
    const owned = argoFields(objects);
    const before = writes();
    const second = await run([]);
    assert.notEqual(second.code, 0);
    assert.match(second.stderr, new RegExp(`ArgoCD/openshift-gitops/openshift-gitops: server-side apply conflict: .*"${ARGOCD_MANAGER}"`));
    assert.equal(writes(), before, 'nothing written');
    assert.deepEqual(argoFields(objects), owned);
    const live = c.server.object('argoproj.io/v1beta1', 'ArgoCD', 'openshift-gitops', 'openshift-gitops');
    assert.equal((live!.spec as { rbac: { defaultPolicy: string } }).rbac.defaultPolicy, 'role:readonly', 'Argo CD\'s value stays');
  });
});
