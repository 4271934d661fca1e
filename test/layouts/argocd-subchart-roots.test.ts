/**
 * A chart's subchart (DIR/charts/NAME with its own Chart.yaml) is rendered by `helm template DIR`:
 * it is part of its parent's root, never a guessed root of its own (ADR 0407). Guessed apart, its
 * Applications were reached twice and reported as duplicate-app errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string) => argoPathApplication({ name, path: name, namespace: name });
const CM = (n: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\n`;

test('a subchart that writes Applications is rendered with its parent chart, not guessed as a root of its own', async () => {
  const dir = writeTree({
    'parent/Chart.yaml': 'apiVersion: v2\nname: parent\nversion: 0.1.0\n',
    'parent/templates/top.yaml': app('top'),
    'parent/charts/child/Chart.yaml': 'apiVersion: v2\nname: child\nversion: 0.1.0\n',
    'parent/charts/child/templates/inner.yaml': app('inner'),
    'top/cm.yaml': CM('top'),
    'inner/cm.yaml': CM('inner'),
  });
  try {
    const p = await cli(['plan', '--repo', dir], process.cwd(), {});
    assert.equal(p.code, 0, p.stdout + p.stderr);
    assert.match(p.stdout, /\): helm template parent\n/);
    assert.doesNotMatch(p.stdout, /helm template parent\/charts\/child/);
    assert.match(p.stdout, /wave 0 {2}inner, top\n/);
    assert.doesNotMatch(p.stdout + p.stderr, /duplicate-app/);
  } finally {
    removeTree(dir);
  }
});
