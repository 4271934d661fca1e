/**
 * Seed 004's own layout on a clone of the real repository (openshift-online/rosa-regional-platform
 * at a commit with config.yaml `environments:` and deploy/<env>/<region>/argocd/, e.g. e8a1208a of
 * 2026-03-10, with its `main` branch checked out there). Nothing of it is in ../shared, so the
 * clone's path comes from $FLEETPLAN_ROSA_REPO; without it the test is skipped with the reason.
 *
 * The check is independent of the ApplicationSet engine: for every cluster whose rendered
 * ApplicationSet follows the identity's git_revision (main), the Applications fleetplan plans are
 * exactly the chart directories `git ls-tree main` lists under argocd/config/<cluster_type>/ and
 * argocd/config/shared/, each with the values file of its environment and region deployment.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { cli } from '../../support/fleet-fixture.js';
import type { PlanJson } from '../../support/plan-json.js';

const REPO = process.env['FLEETPLAN_ROSA_REPO'];
const skip = REPO === undefined || !(existsSync(`${REPO}/config.yaml`) || existsSync(`${REPO}/config/defaults.yaml`))
  ? 'set FLEETPLAN_ROSA_REPO to a clone of openshift-online/rosa-regional-platform with config.yaml environments: (or config/defaults.yaml) and deploy/ (not in ../shared)'
  : false;
/** The later generation (config/<env>/<region>.yaml, deploy/<env>/<region>/argocd-bootstrap-<type>/). */
const configDir = REPO !== undefined && !existsSync(`${REPO}/config.yaml`) && existsSync(`${REPO}/config/defaults.yaml`);

function chartDirs(repo: string, dir: string): string[] {
  const out = execFileSync('git', ['-C', repo, 'ls-tree', '--name-only', 'main', `${dir}/`], { encoding: 'utf8' });
  const entries = out.split('\n').filter(Boolean);
  // The git directory generator lists directories only.
  const types = execFileSync('git', ['-C', repo, 'ls-tree', 'main', `${dir}/`], { encoding: 'utf8' }).split('\n').filter((l) => / tree /.test(l)).map((l) => l.split('\t')[1]!);
  return entries.filter((e) => types.includes(e));
}

test('each unpinned cluster gets one Application per chart directory of its type and shared/ at main', { skip }, async () => {
  const r = await cli(['plan', '--repo', REPO!, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const plan = JSON.parse(r.stdout) as PlanJson;
  assert.equal(plan.layout, 'rosa-regional');
  let checked = 0;
  for (const c of plan.clusters) {
    if (c.revision !== 'main') continue;
    const type = c.role === 'regional' ? 'regional-cluster' : 'management-cluster';
    const expected = [...chartDirs(REPO!, `argocd/config/${type}`), ...chartDirs(REPO!, 'argocd/config/shared')].sort();
    assert.deepEqual(c.apps.map((a) => a.source.path).sort(), expected, c.name);
    for (const a of c.apps) assert.equal(a.source.targetRevision, 'main', `${c.name}/${a.name}`);
    checked++;
  }
  assert.ok(checked > 0, 'no unpinned cluster');
});

/**
 * The config/ generation, against what render.py itself wrote: deploy/<env>/region-definitions.json
 * lists each region deployment with its management cluster ids, so the planned clusters must be
 * exactly one regional and one per listed id there, and each root Application must read the
 * argocd-bootstrap folder of its type that the repository holds.
 */
test('config/ generation: the clusters are those render.py\'s region-definitions.json lists, and each root reads its argocd-bootstrap folder', { skip: skip || (configDir ? false : 'the clone is the config.yaml generation') }, async () => {
  const r = await cli(['plan', '--repo', REPO!, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const plan = JSON.parse(r.stdout) as PlanJson;
  assert.equal(plan.layout, 'rosa-regional');
  const expected: string[] = [];
  for (const env of readdirSync(`${REPO}/deploy`).sort()) {
    const defs = `${REPO}/deploy/${env}/region-definitions.json`;
    if (!existsSync(defs)) continue;
    const regions = JSON.parse(readFileSync(defs, 'utf8')) as Record<string, { management_clusters?: string[] }>;
    for (const [region, d] of Object.entries(regions)) {
      expected.push(`${env}-${region}-regional`);
      for (const mc of d.management_clusters ?? []) expected.push(`${env}-${region}-${mc}`);
    }
  }
  assert.ok(expected.length > 0, 'no region-definitions.json under deploy/');
  assert.deepEqual(plan.clusters.map((c) => c.name).sort(), expected.sort());
  for (const c of plan.clusters) {
    const root = c.bootstrap.find((s) => s.objects.includes('Application/argocd/root'));
    const path = /reading (\S+) at/.exec(root?.description ?? '')?.[1];
    assert.ok(path && existsSync(`${REPO}/${path}/applicationset.yaml`), `${c.name}: ${root?.description}`);
  }
});
