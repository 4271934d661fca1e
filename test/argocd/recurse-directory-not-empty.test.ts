/**
 * A directory source with `directory.recurse: true` reads the YAML files of its subdirectories:
 * a root whose Applications are all in subfolders is not an empty source. Files that hold no
 * Kubernetes object (Helm values beside the Applications) are skipped by the repo-server, so a
 * directory holding only those is still empty.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const recursing = (name: string, path: string) => argoPathApplication({ name, path, namespace: 'argocd' }).replace(`    path: ${path}\n`, `    path: ${path}\n    directory:\n      recurse: true\n`);

test('validate: a recursing directory source whose objects are in subfolders is not empty', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': recursing('root', 'apps'),
    'apps/web/app.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web' }),
    'apps/web/values/values.yaml': 'replicas: 2\n',
    'bootstrap/values-only.yaml': recursing('values-only', 'settings'),
    'settings/a/values.yaml': 'replicas: 2\n',
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: w\n',
  });
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: { code: string; message: string }[] }).findings.filter((f) => f.code === 'empty-source');
    assert.deepEqual(findings.map((f) => f.message), ['app "values-only" path "settings" has no kustomization, chart or YAML files']);
  } finally {
    removeTree(dir);
  }
});
