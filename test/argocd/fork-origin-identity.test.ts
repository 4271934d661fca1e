/**
 * A fork whose Applications name both the upstream repository and the fork (the clone's origin):
 * the plan follows the origin's sources as this repository, and `render --leaves` must build the
 * same ones. It built the upstream's (the most frequent URL) from this clone and said the origin's
 * own sources were "another repository" (found on a real fork). The fleet's identity is now the
 * origin when an Application names it; the upstream's sources are the ones not built here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const UPSTREAM = 'https://github.com/upstream/examples.git';
const ORIGIN = 'https://github.com/fork/examples.git';
const source = (url: string, path: string): string => `    repoURL: ${url}\n    targetRevision: main\n    path: ${path}\n`;

function repo(): string {
  const dir = writeTree({
    'apps/a.yaml': argoApplication('upstream-a', source(UPSTREAM, 'a')),
    'apps/b.yaml': argoApplication('upstream-b', source(UPSTREAM, 'b')),
    'apps/c.yaml': argoApplication('fork-c', source(ORIGIN, 'c')),
    'a/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    'b/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
    'c/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', ORIGIN]);
  return dir;
}

test('render --leaves builds the sources at the clone\'s origin and names the upstream\'s as another repository', async () => {
  const dir = repo();
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-out-'));
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    const text = r.stdout + r.stderr;
    assert.doesNotMatch(text, /fork-c not rendered/);
    assert.match(text, /upstream-a not rendered: source https:\/\/github\.com\/upstream\/examples\.git is another repository/);
    assert.match(text, /leaves: 1 of 3 apps rendered, .*; 2 not built \(source in another repository: 2\)/);
  } finally {
    removeTree(dir);
    rmSync(out, { recursive: true, force: true });
  }
});
