/**
 * An ApplicationSet whose generator asks a service when Argo CD runs it (pullRequest, scmProvider,
 * plugin, clusterDecisionResource) is valid for Argo CD; fleetplan does not ask the service, so it
 * cannot list the Applications it generates. That is said (an apps-not-read warning naming the file
 * and the generator's field, and a note in the plan), not reported as an error in the repository.
 * A generator Argo CD does not know stays an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoListApplicationSet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const LIST = '    - list:\n        elements:\n          - app: one\n';
/** An ApplicationSet of Applications of apps/web whose generators are `generator`. */
const appSet = (name: string, generator: string) => argoListApplicationSet({ name, apps: ['one'], path: 'apps/web' }).replace(LIST, generator);

const PULL_REQUEST = '    - pullRequest:\n        github:\n          owner: acme\n          repo: platform\n        requeueAfterSeconds: 300\n';
const PLUGIN_IN_MATRIX = '    - matrix:\n        generators:\n          - list:\n              elements:\n                - app: one\n          - plugin:\n              configMapRef:\n                name: secret-vars\n';
const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n';

interface Out { code: number; findings: { code: string; severity: string; message: string; file?: string; path?: string }[] }

async function validate(files: Record<string, string>): Promise<Out> {
  const dir = writeTree({ 'apps/web/deployment.yaml': DEPLOYMENT, ...files });
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    return { code: v.code, findings: (JSON.parse(v.stdout) as Out).findings };
  } finally {
    removeTree(dir);
  }
}

test('a pullRequest generator: a warning that its Applications are not listed, no error', async () => {
  const out = await validate({ 'bootstrap/previews.yaml': appSet('previews', PULL_REQUEST), 'bootstrap/static.yaml': appSet('static', LIST) });
  assert.deepEqual(out.findings.filter((f) => f.severity === 'error'), []);
  assert.equal(out.code, 0);
  const w = out.findings.filter((f) => f.code === 'apps-not-read');
  assert.equal(w.length, 1, JSON.stringify(out.findings));
  assert.equal(w[0]!.severity, 'warning');
  assert.equal(w[0]!.file, 'bootstrap/previews.yaml');
  assert.equal(w[0]!.path, 'spec.generators[0].pullRequest');
  assert.match(w[0]!.message, /ApplicationSet previews/);
  assert.match(w[0]!.message, /not in this plan/);
});

test('a plugin generator inside a matrix: the same warning, at the plugin field', async () => {
  const out = await validate({ 'bootstrap/vars.yaml': appSet('vars', PLUGIN_IN_MATRIX) });
  assert.deepEqual(out.findings.filter((f) => f.severity === 'error'), []);
  const w = out.findings.filter((f) => f.code === 'apps-not-read');
  assert.equal(w.length, 1, JSON.stringify(out.findings));
  assert.equal(w[0]!.path, 'spec.generators[0].matrix.generators[1].plugin');
});

test('the plan says which ApplicationSet it could not list, and the other one is listed', async () => {
  const dir = writeTree({ 'apps/web/deployment.yaml': DEPLOYMENT, 'bootstrap/previews.yaml': appSet('previews', PULL_REQUEST), 'bootstrap/static.yaml': appSet('static', LIST) });
  try {
    const p = await cli(['plan', '--repo', dir]);
    assert.match(p.stdout, /ApplicationSet static[^\n]*generates 1 Application: one/);
    assert.match(p.stdout, /ApplicationSet previews[^\n]*pullRequest generator[^\n]*not in this plan/);
  } finally {
    removeTree(dir);
  }
});
