/**
 * Application templates kept beside a bootstrap (`templates/TEMPLATE-operator-app.yaml` with
 * `name: OPERATOR_NAME-operator`, `project: PROJECT`, a placeholder path) were guessed roots (no
 * --root): fleetplan followed them, validate gave invalid-name and app-path-missing errors on
 * them, and render refused to write anything (mmwillingham/gitops-standards-repo). The API server
 * refuses an object whose name is not an RFC 1123 subdomain, so such a file cannot be applied as
 * written: it is a template, not a root. It is listed as not read, with why; given with --root
 * (a person says it is applied) it is judged as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, project: string, path: string) => argoPathApplication({ name, project, path, namespace: 'web' });

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: v\n';

function repo(): string {
  return writeTree({
    'bootstrap/root.yaml': app('root', 'default', 'apps'),
    'apps/web.yaml': app('web', 'default', 'web'),
    'web/cm.yaml': CM,
    'templates/TEMPLATE-operator-app.yaml': app('OPERATOR_NAME-operator', 'PROJECT', 'clusters/CLUSTER-NAME/patches/OPERATOR_NAME'),
  });
}

type Found = { severity: string; code: string; file?: string; message: string };

test('guessed roots: an Application whose name the API server refuses is a template, not a root: listed as not read, no errors, render writes', async () => {
  const dir = repo();
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: Found[] }).findings;
    assert.deepEqual(findings.filter((f) => f.severity === 'error'), []);
    assert.equal(v.code, 0);
    const info = findings.find((f) => f.code === 'not-read' && f.file === 'templates/TEMPLATE-operator-app.yaml');
    assert.ok(info, JSON.stringify(findings));
    assert.equal(info.severity, 'info');
    assert.match(info.message, /OPERATOR_NAME-operator/);
    assert.match(info.message, /not a valid Application name/);
    assert.match(info.message, /template/);
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    const plan = JSON.parse(p.stdout) as { clusters: { apps: { name: string }[] }[] };
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)).sort(), ['root', 'web']);
    const r = await cli(['render', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    removeTree(dir);
  }
});

test('--root naming the template: a person says it is applied, so its names are judged', async () => {
  const dir = repo();
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json', '--root', 'templates/TEMPLATE-operator-app.yaml']);
    const findings = (JSON.parse(v.stdout) as { findings: Found[] }).findings;
    assert.ok(findings.some((f) => f.severity === 'error' && f.code === 'invalid-name'), JSON.stringify(findings));
    assert.equal(v.code, 1);
  } finally {
    removeTree(dir);
  }
});
