/**
 * Choosing the layout of a repository with fleet.yaml without the other layouts' readers
 * (src/layouts/native-choice.ts, ADR 0397) gives what choosing among every reader gives: the same
 * layouts in the same order, the same findings about other layouts' markers, the same load.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseLayout, readers } from '../../src/layouts/index.js';
import { chooseNativeLayout, nativeDetectors } from '../../src/layouts/native-choice.js';
import { loadFleet } from '../../src/api/load-fleet.js';
import { loadFleetAsync } from '../../src/api/load-core.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import type { LoadResult } from '../../src/load/native.js';
import { writeTree } from '../support/fleet-fixture.js';

const LAB = join(import.meta.dirname, '../../../examples/lab');
const FIXTURES = join(import.meta.dirname, '../../../test/fixtures');

test('the native choice lists the layouts of every reader, in detection order, with markers where they have them', () => {
  assert.deepEqual(nativeDetectors.map((d) => d.layout), readers.map((r) => r.layout));
  // The argocd reader is the general one: choosing never asks it for markers beside another layout.
  for (const [i, r] of readers.entries()) if (r.layout !== 'argocd') assert.equal(Boolean(nativeDetectors[i]!.markers), Boolean(r.markers), r.layout);
});

const ROSA_CONFIG = 'environments:\n  integration:\n    region_deployments:\n      us-east-1: {}\n';
const GOTK_SYNC = 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: flux-system\n  namespace: flux-system\nspec:\n  path: ./clusters/hub\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n';
const REGION = 'apiVersion: regional.openshift.io/v1\nkind: RegionalCluster\nmetadata:\n  name: c1\nspec:\n  type: ocp\n  region: eu-west-1\n  domain: example.com\n';

/** Files of other layouts beside fleet.yaml: each set gives the native layout other findings. */
const MARKERS: Record<string, Record<string, string>> = {
  'none': {},
  'region specs without gitops-applications/': { 'regions/eu/c1/region.yaml': REGION },
  'region specs with gitops-applications/': { 'regions/eu/c1/region.yaml': REGION, 'regions/eu/c2/region.yaml': REGION, 'gitops-applications/README.md': 'x\n' },
  'a rosa config.yaml and deploy/': { 'config.yaml': ROSA_CONFIG, 'deploy/README.md': 'x\n' },
  'an earlier rosa layout': { 'argocd/config.yaml': 'shards: []\n', 'argocd/rendered/README.md': 'x\n', 'config/defaults.yaml': 'a: 1\n', 'deploy/README.md': 'x\n' },
  'a Flux entry': { 'clusters/hub/flux-system/gotk-sync.yaml': GOTK_SYNC },
  'all of them': { 'regions/eu/c1/region.yaml': REGION, 'config.yaml': ROSA_CONFIG, 'deploy/README.md': 'x\n', 'clusters/hub/flux-system/gotk-sync.yaml': GOTK_SYNC },
};

for (const [name, files] of Object.entries(MARKERS)) {
  test(`a native fleet with ${name}: the same choice, findings and fleet as among every reader`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleetplan-native-choice-'));
    try {
      cpSync(LAB, dir, { recursive: true });
      writeTree(files, dir);
      const full = chooseLayout(nodeFileSystem(dir));
      const native = chooseNativeLayout(nodeFileSystem(dir));
      assert.equal(native?.reader, full.reader);
      assert.deepEqual(native.findings, full.findings);
      if (name !== 'none' && name !== 'a Flux entry') assert.ok(full.findings.length > 0, 'the markers are seen (the comparison compares something)');
      const a = loadFleet(dir);
      const b = await loadFleetAsync(dir);
      assert.deepEqual(b.findings, a.findings);
      assert.deepEqual(JSON.parse(JSON.stringify(b.fleet)), JSON.parse(JSON.stringify(a.fleet)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The outcome of a load: what it read, or the error it threw. */
async function outcome(read: () => Promise<LoadResult> | LoadResult): Promise<unknown> {
  try {
    const r = await read();
    return { layout: r.fleet.layout, findings: r.findings, fleet: JSON.parse(JSON.stringify(r.fleet)) as unknown };
  } catch (e) {
    return { error: (e as Error).message, code: (e as { code?: string }).code };
  }
}

test('every layout fixture: loadFleetAsync reads what loadFleet reads; the native choice is taken only with fleet.yaml', async () => {
  const layouts = new Set<string>();
  for (const fixture of ['flux', 'gitops-standards', 'helmfile-flux', 'region-specs', 'seed-001-verbatim', 'seed-004', 'validated-patterns/pattern', 'leaves/repo']) {
    const dir = join(FIXTURES, fixture);
    const a = await outcome(() => loadFleet(dir));
    assert.deepEqual(await outcome(() => loadFleetAsync(dir)), a, fixture);
    assert.equal(chooseNativeLayout(nodeFileSystem(dir)) !== undefined, existsSync(join(dir, 'fleet.yaml')), fixture);
    layouts.add((a as { layout?: string }).layout ?? 'error');
  }
  // The fixtures cover the native layout and several others (the comparison reaches the lazy import).
  assert.ok(layouts.has('native') && layouts.size >= 4, [...layouts].join(', '));
});

test('loadFleetAsync with a layout named: that reader, or the same unknown-layout error', async () => {
  const a = loadFleet(LAB, { layout: 'native' });
  const b = await loadFleetAsync(LAB, { layout: 'native' });
  assert.deepEqual(b.findings, a.findings);
  assert.throws(() => loadFleet(LAB, { layout: 'nope' as never }), /unknown layout nope/);
  await assert.rejects(loadFleetAsync(LAB, { layout: 'nope' as never }), /unknown layout nope/);
  const empty = writeTree({ 'README.md': 'x\n' });
  try {
    assert.throws(() => loadFleet(empty), (e: Error & { code?: string }) => e.code === 'no-fleet');
    await assert.rejects(loadFleetAsync(empty), (e: Error & { code?: string }) => e.code === 'no-fleet');
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
