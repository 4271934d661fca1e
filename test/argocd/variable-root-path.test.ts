/**
 * A root Application whose path holds a variable filled in when the file is applied
 * (`path: clusters/${CLUSTER_NAME}`, applied with envsubst, as gitops-standards-like bootstraps
 * do). The follower says it did not follow it (not-read, info); validate also reported
 * `missing-path` as an error for the literal path, an error Argo CD never hits, since it gets the
 * substituted path (issue #12 part 5, mmwillingham/gitops-standards-repo). A path without a
 * variable that does not exist stays an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, path: string) => argoPathApplication({ name, path, namespace: 'argocd' });

type Found = { severity: string; code: string; file?: string; message: string };

test('a root path with ${VAR} filled in on apply: not-read info, no missing-path error; a plain missing path is still an error', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': app('root', 'clusters/${CLUSTER_NAME}'),
    'bootstrap/other.yaml': app('other', 'clusters/nowhere'),
    'clusters/a/kustomization.yaml': 'resources:\n  - web.yaml\n',
    'clusters/a/web.yaml': app('web', 'web'),
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    const planned = (JSON.parse(p.stdout) as { findings: Found[] }).findings;
    assert.ok(planned.some((f) => f.code === 'not-read' && f.severity === 'info' && f.message.includes('clusters/${CLUSTER_NAME}')), JSON.stringify(planned));
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: Found[] }).findings;
    const missing = findings.filter((f) => f.code === 'missing-path' || f.code === 'app-path-missing');
    assert.ok(missing.every((f) => !f.message.includes('${CLUSTER_NAME}')), JSON.stringify(missing));
    assert.ok(missing.some((f) => f.severity === 'error' && f.message.includes('clusters/nowhere')), JSON.stringify(missing));
  } finally {
    removeTree(dir);
  }
});
