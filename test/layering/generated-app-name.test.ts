/**
 * An app of the fleet named like an Application fleetplan generates for the cluster (gitops-self,
 * Argo CD's own Application, ADR 0240) would be written to the same file and overwrite it, or be
 * overwritten: a resolution error at the app's file and line, so `validate` reports it and
 * `render` and `plan` refuse, as for the other resolution errors (ADR 0265).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

/** The base fleet whose cluster `one` has its own app `gitops-self` (defined at line 12 of its cluster.yaml). */
function fleetWithSelfApp(fleetExtra = ''): Record<string, string> {
  const files = baseFleet();
  return {
    ...files,
    'fleet.yaml': files['fleet.yaml']! + fleetExtra,
    'clusters/one/cluster.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: one
spec:
  role: hub
  sector: canary
  groups: [base]
  apps:
    # Argo CD, managed the way this team always did
    gitops-self:
      path: components/operator
      namespace: op
`,
  };
}

test('validate: an app named gitops-self is an error at its file and line, saying to rename it', async () => {
  const dir = writeTree(fleetWithSelfApp());
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const f = (JSON.parse(r.stdout) as { findings: Array<Record<string, unknown>> }).findings.find((x) => x.code === 'generated-app-name');
    assert.ok(f, r.stdout);
    assert.equal(f.severity, 'error');
    assert.equal(f.file, 'clusters/one/cluster.yaml');
    assert.equal(f.line, 12, "the app's definition (its first field, as for the other app findings)");
    assert.equal(f.cluster, 'one');
    assert.match(String(f.message), /app "gitops-self" of cluster one has the name of the Application fleetplan generates for Argo CD's own configuration/);
    assert.match(String(f.message), /one\/apps\/gitops-self\.yaml/);
    assert.match(String(f.hint), /rename the app/);
  } finally {
    removeTree(dir);
  }
});

test('render refuses and writes nothing; plan fails with the same finding', async () => {
  const dir = writeTree(fleetWithSelfApp());
  try {
    const render = await cli(['render', '--repo', dir, '--out', join(dir, 'out')]);
    assert.equal(render.code, 1);
    assert.match(render.stderr, /clusters\/one\/cluster\.yaml:12:\d+ .*app "gitops-self"/);
    assert.match(render.stderr, /nothing rendered/);
    assert.equal(existsSync(join(dir, 'out')), false, 'nothing written');
    const stream = await cli(['render', '--repo', dir]);
    assert.equal(stream.code, 1);
    assert.equal(stream.stdout, '', 'no YAML on stdout');
    const plan = await cli(['plan', '--repo', dir]);
    assert.equal(plan.code, 1);
    assert.match(plan.stdout + plan.stderr, /generated-app-name|app "gitops-self" of cluster one has the name/);
  } finally {
    removeTree(dir);
  }
});

test('with gitops.selfManaged: false fleetplan generates no gitops-self, and the app is the user\'s own', async () => {
  const dir = writeTree(fleetWithSelfApp('  gitops:\n    selfManaged: false\n'));
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const codes = (JSON.parse(r.stdout) as { findings: Array<{ code: string }> }).findings.map((x) => x.code);
    assert.ok(!codes.includes('generated-app-name'), codes.join(', '));
    const render = await cli(['render', '--repo', dir, '--cluster', 'one']);
    assert.equal(render.code, 0, render.stderr);
    assert.match(render.stdout, /name: gitops-self/);
  } finally {
    removeTree(dir);
  }
});
