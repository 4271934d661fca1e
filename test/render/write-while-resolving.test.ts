// `render --out` into a fresh directory resolves each cluster just before rendering it, so its
// files are written while the next clusters resolve (ADR 0330): the same tree, manifest,
// statistics and findings as resolveFleet followed by writeRenderedFleet, and nothing left behind
// when the findings hold an error.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFleet } from '../../src/api/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { canWriteWhileResolving, resolveAndWriteFleet, resolveInTurn, writeRenderedFleet } from '../../src/api/render.js';
import { hasErrors } from '../../src/model/finding.js';
import { writeSyntheticFleet } from '../../bench/synthetic.js';

const root = mkdtempSync(join(tmpdir(), 'fleetplan-write-while-resolving-'));
after(() => rmSync(root, { recursive: true, force: true }));

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath ?? e.path, e.name);
    if (e.isFile()) out[p.slice(dir.length + 1)] = readFileSync(p, 'utf8');
  }
  return out;
}

// 40 clusters: through the writer thread (from 32 clusters), hubs among them.
const repo = join(root, 'fleet');
writeSyntheticFleet(repo, { clusters: 40, appsPerCluster: 12 });

for (const select of [[], ['c05', 'c17', 'c33']]) {
  test(`the same tree, manifest, statistics and findings as resolveFleet then writeRenderedFleet (${select.length ? 'selected clusters' : 'whole fleet'})`, async () => {
    const { fleet } = loadFleet(repo);
    const before = join(root, `before-${select.length}`);
    const resolved = resolveFleet(fleet, { clusters: select });
    const stats = await writeRenderedFleet(resolved, before, { wholeFleet: select.length === 0 });
    const fresh = join(root, `fresh-${select.length}`, 'out');
    assert.equal(canWriteWhileResolving(fleet, fresh), true);
    const r = await resolveAndWriteFleet(loadFleet(repo).fleet, { clusters: select }, fresh, { wholeFleet: select.length === 0 });
    assert.equal(r.failure, undefined);
    assert.deepEqual(r.written, stats);
    assert.equal(r.clusters, resolved.clusters.length);
    assert.deepEqual(r.findings, resolved.findings);
    assert.deepEqual(tree(fresh), tree(before));
  });
}

test('an error among the findings of the last cluster: everything written is removed again, the findings are resolveFleet\'s', async () => {
  const bad = join(root, 'bad');
  writeSyntheticFleet(bad, { clusters: 40, appsPerCluster: 12 });
  // An undefined variable in the last cluster's file: found when that cluster is resolved, after the others' files were written.
  const last = join(bad, 'clusters/c39/cluster.yaml');
  writeFileSync(last, readFileSync(last, 'utf8').replace('cluster-domain: ${CLUSTER_BASE_DOMAIN}', 'cluster-domain: ${NO_SUCH_VARIABLE}'));
  const expected = resolveFleet(loadFleet(bad).fleet).findings;
  assert.ok(hasErrors(expected), 'the fleet has an error');
  const absent = join(root, 'bad-out', 'a', 'b');
  const r = await resolveAndWriteFleet(loadFleet(bad).fleet, {}, absent, { wholeFleet: true });
  assert.equal(r.written, undefined);
  assert.deepEqual(r.findings, expected);
  assert.equal(existsSync(absent), false, 'the output directory this run made is gone');
  // An empty directory that was there stays, empty; a file someone put there meanwhile would stay too.
  const empty = join(root, 'bad-empty');
  mkdirSync(empty);
  const r2 = await resolveAndWriteFleet(loadFleet(bad).fleet, {}, empty, { wholeFleet: true });
  assert.equal(r2.written, undefined);
  assert.deepEqual(readdirSync(empty), []);
});

test('only a fresh output directory is written while resolving: absent or empty, not one with files, not a file', () => {
  const { fleet } = loadFleet(repo);
  assert.equal(canWriteWhileResolving(fleet, join(root, 'nothing-here')), true);
  const empty = join(root, 'empty-dir');
  mkdirSync(empty);
  assert.equal(canWriteWhileResolving(fleet, empty), true);
  const used = join(root, 'used-dir');
  mkdirSync(used);
  appendFileSync(join(used, 'x.yaml'), 'x: 1\n');
  assert.equal(canWriteWhileResolving(fleet, used), false);
  assert.equal(canWriteWhileResolving(fleet, join(used, 'x.yaml')), false);
  // The repository itself is no output directory (checkOutputDirectory's usage error comes from the other path).
  assert.equal(canWriteWhileResolving(fleet, repo), false);
});

test('resolving in turn holds only the results a hub may still ask for, not every cluster (ADR 0360)', () => {
  const { fleet } = loadFleet(repo);
  const selected = fleet.clusters.map((c) => c.name);
  const asked = fleet.clusters.filter((c) => c.spec.provision !== undefined).length;
  const turns = resolveInTurn(fleet, selected, []);
  let most = 0;
  for (const name of selected) {
    assert.equal(turns.next(name).name, name);
    most = Math.max(most, turns.held());
  }
  assert.equal(turns.reached(), selected.length);
  assert.ok(most <= asked, `held at most ${most}, spokes a hub asks for ${asked}`);
  assert.deepEqual(turns.resolved.clusters, [], 'no list of every resolved cluster (no delivery files)');
});

test('a hub before its spokes and after them: the same tree as resolveFleet then writeRenderedFleet', async () => {
  // examples/lab's hub comes after its spokes (etl4, etl6); renamed to come first, it asks for them ahead of their turn.
  for (const first of [false, true]) {
    const lab = join(root, `lab-${first}`);
    cpSync('examples/lab', lab, { recursive: true });
    if (first) {
      renameSync(join(lab, 'clusters/hub'), join(lab, 'clusters/a-hub'));
      for (const f of readdirSync(lab, { recursive: true }).map(String).filter((p) => p.endsWith('.yaml'))) {
        const p = join(lab, f);
        const text = readFileSync(p, 'utf8');
        const renamed = text.replace(/^( {2}name: )hub$/m, '$1a-hub').replace(/\bhub: hub\b/g, 'hub: a-hub').replaceAll('clusters/hub/', 'clusters/a-hub/');
        if (renamed !== text) writeFileSync(p, renamed);
      }
    }
    const expectedDir = join(root, `lab-expected-${first}`);
    const resolved = resolveFleet(loadFleet(lab).fleet);
    assert.ok(!hasErrors(resolved.findings), JSON.stringify(resolved.findings));
    await writeRenderedFleet(resolved, expectedDir, { wholeFleet: true });
    const fresh = join(root, `lab-fresh-${first}`);
    const r = await resolveAndWriteFleet(loadFleet(lab).fleet, {}, fresh, { wholeFleet: true });
    assert.deepEqual(r.findings, resolved.findings);
    const got = tree(fresh);
    assert.ok(Object.keys(got).some((p) => p.includes('/provision/')), 'the hub has provisioning files');
    assert.deepEqual(got, tree(expectedDir));
  }
});
