/**
 * An app-of-apps directory or a root that holds a Namespace, a ConfigMap or a ClusterRole beside
 * its Applications: Argo CD (or kubectl apply of the root) applies them with the Applications, in
 * the order of their sync-wave and kind. render named them in a note and wrote only the
 * Applications and AppProjects, so `render | kubectl apply -f -` gave a cluster without them, and
 * the plan did not count them (ADR 0398).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const NS = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  annotations:\n    argocd.argoproj.io/sync-wave: "-1"\n';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  k: v\n';
const ROLE = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules: []\n';
const WEB = argoPathApplication({ name: 'web', path: 'web', namespace: 'web' }).replace('metadata:\n', 'metadata:\n  annotations:\n    argocd.argoproj.io/sync-wave: "2"\n');

interface Item { kind: string; metadata: { name: string; namespace?: string } }
const ref = (o: Item): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

test('render writes what an app-of-apps applies besides its Applications, by sync-wave and kind, in its destination namespace', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': argoPathApplication({ name: 'root', path: 'apps', namespace: 'argocd' }),
    'apps/web.yaml': WEB,
    'apps/ns.yaml': NS,
    'apps/cm.yaml': CM,
    'apps/role.yaml': ROLE,
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  k: v\n',
  });
  try {
    const r = await cli(['render', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const items = (JSON.parse(r.stdout) as { items: (Item & Record<string, unknown>)[] }).items;
    // Wave -1 first; in wave 0 the listed kinds (ConfigMap before ClusterRole) before Applications; web's wave 2 last.
    assert.deepEqual(items.map(ref), ['Namespace//team-a', 'ConfigMap/argocd/settings', 'ClusterRole//reader', 'Application/argocd/root', 'Application/argocd/web']);
    // Argo CD puts a namespaced object without a namespace in the app's destination namespace; the rest is as written.
    assert.deepEqual(items[1], { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'argocd' }, data: { k: 'v' } });
    assert.deepEqual(items[0], { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', annotations: { 'argocd.argoproj.io/sync-wave': '-1' } } });
    const out = `${dir}/out`;
    const w = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(w.code, 0, w.stderr);
    assert.match(readFileSync(`${out}/in-cluster/objects/configmap-argocd-settings.yaml`, 'utf8'), /kind: ConfigMap\nmetadata:\n {2}name: settings\n {2}namespace: argocd\n/);
    assert.match(readFileSync(`${out}/in-cluster/objects/clusterrole-reader.yaml`, 'utf8'), /kind: ClusterRole/);
    const p = await cli(['plan', '--repo', dir]);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /Application root \(an app-of-apps\) also applies 3 objects that are not Argo CD's: ClusterRole reader; ConfigMap argocd\/settings; Namespace team-a \(render writes them under objects\/; namespaced objects without a namespace land in argocd, the app's destination namespace\)/);
    assert.match(p.stdout, /2 apps in 2 waves, and 3 other objects\n/);
    const j = await cli(['plan', '--repo', dir, '-o', 'json']);
    const cluster = (JSON.parse(j.stdout) as { clusters: { objects?: { kind: string; name: string; namespace?: string; wave: number; via: string }[] }[] }).clusters[0]!;
    assert.deepEqual(cluster.objects, [
      { kind: 'Namespace', name: 'team-a', via: 'Application root', wave: -1 },
      { kind: 'ConfigMap', name: 'settings', namespace: 'argocd', via: 'Application root', wave: 0 },
      { kind: 'ClusterRole', name: 'reader', via: 'Application root', wave: 0 },
    ]);
  } finally {
    removeTree(dir);
  }
});

test('render writes the objects a root kustomization or a root file applies, as built', async () => {
  const dir = writeTree({
    'clusters/east/kustomization.yaml': 'resources:\n  - namespace.yaml\n  - apps.yaml\n',
    'clusters/east/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-b\n',
    'clusters/east/apps.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web' }),
    'bootstrap/root.yaml': `${CM}---\n${argoPathApplication({ name: 'other', path: 'web', namespace: 'other' })}`,
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  k: v\n',
  });
  try {
    const r = await cli(['render', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const items = (JSON.parse(r.stdout) as { items: Item[] }).items;
    // Two roots, two guessed clusters (bootstrap, east). kubectl apply -f of the root file puts the
    // ConfigMap in the current namespace: it is written as the file has it.
    assert.deepEqual(items.map(ref), ['ConfigMap//settings', 'Application/argocd/other', 'Namespace//team-b', 'Application/argocd/web']);
    const p = await cli(['plan', '--repo', dir]);
    assert.match(p.stdout, /the root kustomize build clusters\/east also applies 1 object that is not Argo CD's: Namespace team-b \(render writes them under objects\/\)/);
    assert.match(p.stdout, /the root bootstrap\/root.yaml also applies 1 object that is not Argo CD's: ConfigMap settings \(render writes them under objects\/; kubectl apply puts a namespaced object without a namespace in the current namespace\)/);
  } finally {
    removeTree(dir);
  }
});

test('a fleet without such objects renders and plans as before: no objects/ and no count', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': argoPathApplication({ name: 'root', path: 'apps', namespace: 'argocd' }),
    'apps/web.yaml': WEB,
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  k: v\n',
  });
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    assert.equal((JSON.parse(p.stdout) as { clusters: Record<string, unknown>[] }).clusters[0]!.objects, undefined);
    const t = await cli(['plan', '--repo', dir]);
    assert.match(t.stdout, /2 apps in 2 waves\n/);
  } finally {
    removeTree(dir);
  }
});
