/**
 * Helm hooks in the charts of Argo CD Applications, as Argo CD syncs them (ADR 0419). Argo CD
 * templates the chart with `helm template` (hooks printed) and then reads `helm.sh/hook` by
 * gitops-engine's rules: pre-install/pre-upgrade are PreSync hooks, post-install/post-upgrade
 * PostSync hooks (names matched exactly, after splitting at commas and trimming); any other value
 * (test, delete, rollback hooks, a spelling Helm accepts but Argo CD does not) makes an object that
 * no sync creates. `argocd.argoproj.io/hook` wins over `helm.sh/hook` when it names a type Argo CD
 * knows. render --leaves wrote every object `helm template` prints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { parseYamlAll } from '../../src/yaml/index.js';
import { argoCdSyncCreates } from '../../src/render/leaves/argocd-hooks.js';

const pod = (name: string, annotations: Record<string, string>) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  annotations:\n${Object.entries(annotations)
    .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`)
    .join('')}spec:\n  restartPolicy: Never\n  containers:\n    - name: c\n      image: busybox\n`;

const templates: Record<string, Record<string, string>> = {
  'pre-install': { 'helm.sh/hook': 'pre-install', 'helm.sh/hook-weight': '-5', 'helm.sh/hook-delete-policy': 'hook-succeeded' },
  'post-upgrade': { 'helm.sh/hook': 'post-upgrade' },
  'install-and-upgrade': { 'helm.sh/hook': ' pre-install , pre-upgrade ' },
  'install-and-test': { 'helm.sh/hook': 'post-install,test' },
  'pre-delete': { 'helm.sh/hook': 'pre-delete' },
  'post-delete': { 'helm.sh/hook': 'post-delete' },
  'post-rollback': { 'helm.sh/hook': 'post-rollback' },
  'test-a': { 'helm.sh/hook': 'test' },
  'test-b': { 'helm.sh/hook': 'test-success' },
  // Helm lower-cases the event (and prints the hook); gitops-engine compares it as written.
  'upper-case': { 'helm.sh/hook': 'Pre-Install' },
  // argocd.argoproj.io/hook wins when it names a type gitops-engine knows.
  'test-as-sync': { 'helm.sh/hook': 'test', 'argocd.argoproj.io/hook': 'Sync' },
  'install-skipped': { 'helm.sh/hook': 'pre-install', 'argocd.argoproj.io/hook': 'Skip' },
  'on-failure': { 'argocd.argoproj.io/hook': 'SyncFail' },
  'argo-post-delete': { 'argocd.argoproj.io/hook': 'PostDelete' },
};

function repo(): string {
  const files: Record<string, string> = {
    'apps/shop.yaml': argoApplication('shop', '    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: charts/shop\n'),
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
    'charts/shop/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n  annotations:\n    helm.sh/hook-weight: "3"\n',
  };
  for (const [name, annotations] of Object.entries(templates)) files[`charts/shop/templates/${name}.yaml`] = pod(name, annotations);
  const dir = writeTree(files);
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

test('argoCdSyncCreates: gitops-engine reading of helm.sh/hook and argocd.argoproj.io/hook', () => {
  const o = (annotations: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', annotations } });
  assert.equal(argoCdSyncCreates({ kind: 'ConfigMap', metadata: { name: 'x' } }), true);
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'pre-upgrade' })), true);
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'post-install, post-upgrade' })), true);
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'crd-install' })), true, 'crd-install is no hook to gitops-engine: a manifest');
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'test' })), 'test');
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'test-success' })), 'test');
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'pre-delete' })), 'delete');
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'pre-rollback' })), 'rollback');
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'Post-Install' })), 'unknown');
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': '' })), 'unknown');
  assert.equal(argoCdSyncCreates(o({ 'argocd.argoproj.io/hook': 'PreSync' })), true);
  assert.equal(argoCdSyncCreates(o({ 'argocd.argoproj.io/hook': 'Skip' })), 'skip');
  assert.equal(argoCdSyncCreates(o({ 'argocd.argoproj.io/hook': 'Skip,PostSync' })), true, 'Skip with another type is no skip');
  assert.equal(argoCdSyncCreates(o({ 'argocd.argoproj.io/hook': 'SyncFail' })), 'syncfail');
  assert.equal(argoCdSyncCreates(o({ 'argocd.argoproj.io/hook': 'PreDelete' })), 'delete');
  assert.equal(argoCdSyncCreates(o({ 'argocd.argoproj.io/hook': 'Nonsense', 'helm.sh/hook': 'post-install' })), true, 'an Argo CD value it does not know falls back to the Helm hook');
  assert.equal(argoCdSyncCreates(o({ 'argocd.argoproj.io/hook': 'PostSync', 'helm.sh/hook': 'test' })), true);
  assert.equal(argoCdSyncCreates(o({ 'argocd.argoproj.io/hook': 'SyncFail', 'helm.sh/hook': 'pre-install' })), 'syncfail', 'the Argo CD type wins');
  assert.equal(argoCdSyncCreates(o({ 'helm.sh/hook': 'test', 'helm.sh/hook-weight': 2 })), true, 'a non-string annotation: Kubernetes unstructured reads no annotations at all');
});

test('render --leaves: an Argo CD chart source writes what a sync creates (PreSync/PostSync Helm hooks and manifests), with a note of the hooks left out and why', async () => {
  const dir = repo();
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 0, r.stderr);
    const base = join(out, 'in-cluster/manifests/shop');
    const docs = readdirSync(base).flatMap((f) => parseYamlAll(readFileSync(join(base, f), 'utf8')) as { metadata: { name: string; annotations?: Record<string, string> } }[]);
    assert.deepEqual(docs.map((d) => d.metadata.name).sort(), ['install-and-test', 'install-and-upgrade', 'plain', 'post-upgrade', 'pre-install', 'test-as-sync']);
    const pre = docs.find((d) => d.metadata.name === 'pre-install')!;
    assert.equal(pre.metadata.annotations?.['helm.sh/hook-delete-policy'], 'hook-succeeded', 'written as the chart gives it');
    const said = r.stdout + r.stderr;
    assert.match(said, /shop: 2 Helm test hooks left out: Argo CD gives test hooks no sync phase \(it never runs helm test\)/, said);
    assert.match(said, /shop: 3 delete hooks left out: Argo CD runs them only when the Application is deleted/, said);
    assert.match(said, /shop: 1 rollback hook left out: Argo CD does no Helm rollback/, said);
    assert.match(said, /shop: 1 hook left out: a hook annotation Argo CD does not read as a sync hook \(gitops-engine compares the helm\.sh\/hook events pre-install, pre-upgrade, post-install, post-upgrade as written\)/, said);
    assert.match(said, /shop: 1 object left out: argocd\.argoproj\.io\/hook: Skip/, said);
    assert.match(said, /shop: 1 SyncFail hook left out: Argo CD creates it only when a sync fails/, said);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
