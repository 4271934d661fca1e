/**
 * `--root FILE` through the real program (dist/src/cli/main.js, ADR 0345): the flag is parsed,
 * repeatable, reaches the argocd layout, and its errors exit 2 with the file named on stderr.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const MAIN = resolve('dist/src/cli/main.js');

function application(n: string): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: demo-${n}
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/demos.git
    targetRevision: main
    path: demos/${n}/app
  destination:
    server: https://kubernetes.default.svc
    namespace: demo-${n}
`;
}

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

test('fleetplan plan --root FILE (real main): only the given root is followed; a missing root exits 2 naming it', () => {
  const dir = writeTree({
    'demos/a/root.yaml': application('a'),
    'demos/a/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    'demos/b/root.yaml': application('b'),
    'demos/b/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
  });
  try {
    execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
    const guessed = run(['plan', '--repo', dir]);
    assert.equal(guessed.code, 0, guessed.stderr);
    assert.match(guessed.stdout, /demo-a/);
    assert.match(guessed.stdout, /demo-b/);
    const given = run(['plan', '--repo', dir, '--root', 'demos/b/root.yaml']);
    assert.equal(given.code, 0, given.stderr);
    assert.match(given.stdout, /note: roots \(given with --root[^)]*\): demos\/b\/root\.yaml/);
    assert.match(given.stdout, /wave 0 {2}demo-b\n/);
    assert.doesNotMatch(given.stdout, /demo-a/);
    const missing = run(['plan', '--repo', dir, '--root', 'demos/c/root.yaml']);
    assert.equal(missing.code, 2, missing.stdout + missing.stderr);
    assert.match(missing.stderr, /^fleetplan plan: --root demos\/c\/root\.yaml: no such file or directory in the repository /m);
    const help = run(['help', 'validate']);
    assert.match(help.stdout, /\[--root FILE\]\.\.\./);
    assert.match(help.stdout, /--root FILE {2}\(repeatable\)/);
  } finally {
    removeTree(dir);
  }
});
