/**
 * An Application of the repository whose path does not exist is reported once: the reader's
 * app-path-missing (with Argo CD's words), not again by validate's missing-path rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { argoListApplicationSet, argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

test('validate: a missing Application path is one finding, not two', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': argoPathApplication({ name: 'root', path: 'apps', namespace: 'argocd' }),
    'apps/web.yaml': argoPathApplication({ name: 'web', path: 'overlays/in-cluster', namespace: 'web' }),
    'apps/set.yaml': argoListApplicationSet({ name: 'set', apps: ['api'], path: 'overlays/{{.app}}' }),
  });
  // A clone of the repository the Applications name: their sources are this repository's.
  execFileSync('git', ['-C', dir, 'init', '-q']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: { code: string; app?: string }[] }).findings;
    for (const app of ['web', 'api']) assert.equal(findings.filter((f) => f.app === app && /path/.test(f.code)).length, 1, JSON.stringify(findings, null, 1));
  } finally {
    removeTree(dir);
  }
});
