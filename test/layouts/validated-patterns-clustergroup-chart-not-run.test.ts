/**
 * The patterns operator's Application renders the clustergroup chart: a remote chart
 * (`main.multiSourceConfig.enabled`, chart clustergroup at clusterGroupChartVersion from the
 * pattern's Helm repository) or the repository's own common/clustergroup. fleetplan writes the
 * Namespaces, Subscriptions, AppProjects and Applications as the published 0.9.x chart writes them
 * and `render --leaves` does not run that chart (ADR 0402). The plan and `render --leaves` say so
 * with the chart, its version and where it comes from, and the helm command that gives the
 * chart's own output, instead of presenting fleetplan's objects as the chart's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { VP_GLOBAL, vpHubValues } from '../support/validated-patterns.js';

const HUB = vpHubValues();

const WEB = {
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
};

async function run(files: Record<string, string>): Promise<{ notes: string[]; leaves: string }> {
  const dir = writeTree(files);
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-vp-cg-'));
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { name: string; notes?: string[] }[] };
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    assert.equal(r.code, 0, r.stderr);
    return { notes: plan.clusters.find((c) => c.name === 'hub')?.notes ?? [], leaves: r.stderr };
  } finally {
    removeTree(dir);
    rmSync(out, { recursive: true, force: true });
  }
}

test('a remote clustergroup chart: the plan and render --leaves name the chart and version that are not run offline', async () => {
  const r = await run({
    'values-global.yaml': `${VP_GLOBAL}  multiSourceConfig:\n    enabled: true\n    clusterGroupChartVersion: "0.9.*"\n`,
    'values-hub.yaml': HUB,
    ...WEB,
  });
  const note = r.notes.find((n) => n.includes('not run'));
  assert.ok(note, JSON.stringify(r.notes));
  assert.match(note, /chart clustergroup 0\.9\.\* from https:\/\/charts\.validatedpatterns\.io\//);
  assert.match(note, /remote/);
  assert.match(note, /helm template clustergroup --repo https:\/\/charts\.validatedpatterns\.io\/ --version '0\.9\.\*' -f values-global\.yaml -f values-hub\.yaml/);
  assert.match(r.leaves, /hub: the clustergroup chart .*chart clustergroup 0\.9\.\* from https:\/\/charts\.validatedpatterns\.io\/.* not run/);
});

test("the repository's own common/clustergroup: the plan and render --leaves name it and its version, not run", async () => {
  const r = await run({
    'values-global.yaml': VP_GLOBAL,
    'values-hub.yaml': HUB,
    'common/clustergroup/Chart.yaml': 'apiVersion: v2\nname: clustergroup\nversion: 0.0.1\n',
    ...WEB,
  });
  const note = r.notes.find((n) => n.includes('not run'));
  assert.ok(note, JSON.stringify(r.notes));
  assert.match(note, /common\/clustergroup \(version 0\.0\.1/);
  assert.match(note, /helm template common\/clustergroup -f values-global\.yaml -f values-hub\.yaml/);
  assert.match(r.leaves, /hub: the clustergroup chart .*common\/clustergroup \(version 0\.0\.1.* not run/);
});
