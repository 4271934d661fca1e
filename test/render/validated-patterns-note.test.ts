/**
 * Validated Patterns: the values the patterns operator injects per cluster (cluster and hub
 * domains, platform, version, repository, …) are unknown offline and left out of the Applications.
 * `plan` says so in the cluster's notes; `render --leaves` prints the same, per app, next to the
 * leaves built without them (issue #12): leaves that read `.Values.global.clusterDomain` show an
 * empty value, and the output says why.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { VP_GLOBAL, vpHubValues } from '../support/validated-patterns.js';

function pattern(webApp: string): Record<string, string> {
  return {
    'values-global.yaml': VP_GLOBAL,
    'values-hub.yaml': vpHubValues(`${webApp}\n    tools:\n      name: tools\n      namespace: web\n      path: manifests/tools\n      kustomize: true\n`),
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/templates/route.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-route\ndata:\n  host: "web.{{ .Values.global.clusterDomain }}"\n',
    'manifests/tools/kustomization.yaml': 'resources:\n- cm.yaml\n',
    'manifests/tools/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tools\n',
  };
}

const PARAMETERS = /helm parameters [^;(]*global\.clusterDomain[^;(]*global\.hubClusterDomain[^;(]*global\.localClusterDomain/;

test('render --leaves names, per app built from a local chart, the operator values it left empty, as plan does', async () => {
  const dir = writeTree(pattern('name: web\n      namespace: web\n      path: charts/web\n      extraHubClusterDomainFields:\n        - web.hubDomain\n'));
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-vp-note-'));
  try {
    const plan = await cli(['plan', '--repo', dir]);
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /note: helm parameters the operator sets per cluster, left out: .*global\.clusterDomain/);

    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    assert.equal(r.code, 0, r.stderr);
    const notes = r.stderr.split('\n').filter((l) => l.startsWith('note: hub/'));
    // The operator's values are named once for the cluster group, before its apps' notes (ADR 0325).
    // (The cluster's other shared note names the clustergroup chart, which is not run: ADR 0402.)
    const group = r.stderr.split('\n').filter((l) => l.startsWith('note: hub: ') && !l.startsWith('note: hub: the clustergroup chart '));
    assert.equal(group.length, 1, r.stderr);
    assert.match(group[0]!, /every local chart of cluster group hub is built without the values the Validated Patterns operator sets per cluster, left empty: /);
    assert.match(group[0]!, PARAMETERS);
    assert.doesNotMatch(group[0]!, /global\.pattern\b|global\.namespace\b/);
    // The operator's value files, unknown offline, are named as plan names them.
    assert.match(group[0]!, /value files [^(]*values-\{\{ \$\.Values\.global\.clusterPlatform \}\}\.yaml/);
    const web = notes.filter((l) => l.startsWith('note: hub/web: '));
    assert.equal(web.length, 1, r.stderr);
    // Per app: a reference to the group's note, and only what this app adds (its own domain field).
    assert.match(web[0]!, /built without the operator's per-cluster values named in the note of cluster group hub, and without its own helm parameters web\.hubDomain$/);
    assert.doesNotMatch(web[0]!, /global\.clusterDomain/);
    // An app built with kustomize gets no such note: the operator's parameters do not reach it.
    assert.equal(notes.filter((l) => l.startsWith('note: hub/tools: ')).length, 0, r.stderr);
    // The leaf shows what it says: the domain is empty.
    const d = join(out, 'hub', 'manifests', 'web');
    const leaf = readdirSync(d).map((f) => readFileSync(join(d, f), 'utf8')).join('');
    assert.match(leaf, /host: web\.\n/);
  } finally {
    removeTree(dir);
    rmSync(out, { recursive: true, force: true });
  }
});

test('render --leaves says the operator\'s values once per cluster group, however many local charts it builds', async () => {
  const files = pattern('name: web\n      namespace: web\n      path: charts/web\n    api:\n      name: api\n      namespace: web\n      path: charts/web\n');
  const dir = writeTree(files);
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-vp-note-'));
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.split('\n');
    assert.equal(lines.filter((l) => /global\.clusterDomain/.test(l)).length, 1, r.stderr);
    const apps = lines.filter((l) => /^note: hub\/(web|api): /.test(l));
    assert.deepEqual(apps.map((l) => l.replace(/^note: hub\/(web|api): /, '')), [
      'built without the operator\'s per-cluster values named in the note of cluster group hub',
      'built without the operator\'s per-cluster values named in the note of cluster group hub',
    ]);
  } finally {
    removeTree(dir);
    rmSync(out, { recursive: true, force: true });
  }
});
