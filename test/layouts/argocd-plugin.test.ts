/**
 * Argo CD config-management plugins (docs/adr/0284-config-management-plugins-not-run.md): an app whose
 * Application names `source.plugin` is built by commands the repository's Argo CD supplies, which
 * fleetplan never runs. The plan lists each such app in its notes and `render --leaves` writes no
 * leaves for it, even when its directory holds a kustomization that kustomize alone could build
 * (those objects would not be what the plugin gives).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

function application(name: string, source: string): string {
  return argoApplication(name, `    repoURL: https://github.com/acme/platform\n    targetRevision: main\n${source}`);
}

function repo(): string {
  const dir = writeTree({
    'apps/vault.yaml': application('vault-app', '    path: secrets\n    plugin:\n      name: argocd-vault-plugin\n      env:\n        - name: AVP_TYPE\n          value: vault\n'),
    'apps/discovered.yaml': application('discovered-app', '    path: secrets\n    plugin: {}\n'),
    'apps/plain.yaml': application('plain-app', '    path: plain\n'),
    // A kustomization kustomize alone would build: the plugin's output would differ (placeholders filled from Vault).
    'secrets/kustomization.yaml': 'resources:\n- secret.yaml\n',
    'secrets/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  annotations:\n    avp.kubernetes.io/path: secret/data/db\nstringData:\n  password: <password>\n',
    'plain/kustomization.yaml': 'resources:\n- cm.yaml\n',
    'plain/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

test('plan lists every app built by a config-management plugin as not run, by plugin name', async () => {
  const dir = repo();
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /note: vault-app: built by plugin argocd-vault-plugin: not run/);
    assert.match(r.stdout, /note: discovered-app: built by a plugin chosen by discovery \(source\.plugin without a name\): not run/);
    assert.doesNotMatch(r.stdout, /plain-app: built by/);
    const json = JSON.parse((await cli(['plan', '--repo', dir, '-o', 'json'])).stdout) as { clusters: { notes: string[] }[] };
    assert.equal(json.clusters[0]!.notes.filter((n) => n.includes(': not run')).length, 2);
  } finally {
    removeTree(dir);
  }
});

test('render --leaves builds no leaves for a plugin app and says why; other apps still build', async () => {
  const dir = repo();
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /note: in-cluster\/vault-app not rendered: built by plugin argocd-vault-plugin: not run/);
    assert.match(r.stderr, /note: in-cluster\/discovered-app not rendered: built by a plugin chosen by discovery/);
    // The summary counts them: rendered + not built is every app.
    assert.match(r.stderr, /\nleaves: 1 of 3 apps rendered, .*; 2 not built \(config-management plugin: 2\)\n/);
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'vault-app')), false, 'no pretended leaves');
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'discovered-app')), false);
    // In its destination namespace, as the sync places it (ADR 0420).
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'plain-app', '01-configmap-plain-app-plain.yaml')), true);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
