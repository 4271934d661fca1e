/**
 * A chart root whose templates hold an Application syncing the same chart (a self-managed
 * app-of-apps) reaches each of its Applications twice: from the root applied by hand and from that
 * Application's sync. Argo CD creates each once; a template with a random function (randAlpha) renders
 * other text each time, which is the same Application, not a second one. Two templates that write one
 * name with other content stay a duplicate-app error (ADR 0412).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, path: string, values = '') =>
  argoPathApplication({ name, path, namespace: 'argocd', repoURL: 'https://github.com/acme/platform' }).replace(`    path: ${path}\n`, `    path: ${path}\n${values}`);
const RANDOM = '    helm:\n      values: |\n        image:\n          tag: {{ .Values.tag }}\n        suffix: {{ randAlpha 10 | lower }}\n';

function repo(extra: Record<string, string> = {}): string {
  return writeTree({
    'parent/Chart.yaml': 'apiVersion: v2\nname: parent\nversion: 0.1.0\n',
    'parent/values.yaml': 'tag: "1.0"\n',
    'parent/templates/level-1.yaml': app('level-1', 'parent'),
    'parent/templates/level-2.yaml': app('level-2', 'child', RANDOM),
    'child/Chart.yaml': 'apiVersion: v2\nname: child\nversion: 0.1.0\n',
    'child/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  suffix: {{ .Values.suffix | quote }}\n',
    ...extra,
  });
}

test('argocd: an Application rendered with a random value, reached from the root and its own sync, is one Application', async () => {
  const dir = repo();
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json'], process.cwd(), {});
    assert.equal(p.code, 0, p.stdout + p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { apps: { name: string }[]; notes: string[] }[]; findings?: { code: string; message: string }[] };
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)).sort(), ['level-1', 'level-2']);
    assert.doesNotMatch(p.stdout, /duplicate-app/);
    assert.ok(plan.clusters[0]!.notes.some((n) => /Application level-2 .*changes at every render.*spec\.source\.helm\.values/.test(n)), JSON.stringify(plan.clusters[0]!.notes, null, 1));
  } finally {
    removeTree(dir);
  }
});

test('argocd: one Application rendered with other values by the root and by its own sync stays a duplicate-app error naming its template', async () => {
  // The root renders the subchart with the parent's global tag; level-2's sync renders it alone, with its own.
  const values = '    helm:\n      values: |\n        tag: {{ .Values.global.tag }}\n        suffix: {{ randAlpha 10 | lower }}\n';
  const dir = writeTree({
    'parent/Chart.yaml': 'apiVersion: v2\nname: parent\nversion: 0.1.0\n',
    'parent/values.yaml': 'global:\n  tag: "1.0"\n',
    'parent/charts/child/Chart.yaml': 'apiVersion: v2\nname: child\nversion: 0.1.0\n',
    'parent/charts/child/values.yaml': 'global:\n  tag: "2.0"\n',
    'parent/charts/child/templates/level-2.yaml': app('level-2', 'parent/charts/child'),
    'parent/charts/child/templates/level-3.yaml': app('level-3', 'child', values),
    'child/Chart.yaml': 'apiVersion: v2\nname: child\nversion: 0.1.0\n',
    'child/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
  });
  try {
    const p = await cli(['plan', '--repo', dir], process.cwd(), {});
    assert.match(p.stdout + p.stderr, /error: parent\/charts\/child\/templates\/level-3\.yaml metadata\.name: two Applications named level-3 .*Application level-2 \(template parent\/charts\/child\/templates\/level-3\.yaml\) and helm template parent \(template parent\/charts\/child\/templates\/level-3\.yaml\) \(they differ in spec\.source\.helm\.values\).*\[duplicate-app\]/);
  } finally {
    removeTree(dir);
  }
});
