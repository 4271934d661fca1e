/**
 * `render --out --leaves` runs the leaf builds while the clusters' files are written (ADR 0276):
 * the builds start at once, their files wait for the gate (`writeAfter`); a closed gate writes
 * nothing and cancels the builds not yet started.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LeafJob } from '../../src/render/leaves/index.js';
import { renderLeaves } from '../../src/api/leaves.js';
import { Limiter } from '../../src/adapters/process.js';
import { cli } from '../support/fleet-fixture.js';
import { readTree, removeDir, requireTools, tempDir, toolEnv } from '../helpers/tools.js';

const FIXTURE = resolve('test/fixtures/leaves/repo');
const jobs: LeafJob[] = ['c1', 'c2'].flatMap((cluster) =>
  ['web', 'api'].map((app) => ({ cluster, app, source: { kind: 'kustomize' as const, path: `apps/${app}` }, variables: { CLUSTER_NAME: cluster, BASE_DOMAIN: 'example.com', REGION: 'r' } })),
);

/** Cache entries written so far (a build writes its entry when it ends). */
function cached(cache: string): number {
  const root = join(cache, 'leaves-v1');
  if (!existsSync(root)) return 0;
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.yaml')).length;
}

test('the builds run before the gate opens and nothing is written until it does; then the same files as without a gate', async () => {
  const { kubectl, helm } = requireTools();
  const dir = tempDir('leaves-gate');
  try {
    const base = { repoRoot: FIXTURE, kustomize: kubectl, helm, env: toolEnv(join(dir, 'home')) };
    let open!: (ok: boolean) => void;
    const gate = new Promise<boolean>((r) => (open = r));
    const running = renderLeaves(jobs, { ...base, outDir: join(dir, 'gated'), cacheDir: join(dir, 'cache-gated'), writeAfter: gate });
    const deadline = Date.now() + 120_000;
    while (cached(join(dir, 'cache-gated')) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(cached(join(dir, 'cache-gated')), 2, 'both distinct builds ran while the gate was closed');
    assert.equal(existsSync(join(dir, 'gated')), false, 'nothing written before the gate opened');
    open(true);
    const gated = await running;
    const plain = await renderLeaves(jobs, { ...base, outDir: join(dir, 'plain'), cacheDir: join(dir, 'cache-plain') });
    assert.deepEqual(gated.results.map((r) => r.error?.message), [undefined, undefined, undefined, undefined]);
    assert.deepEqual(gated.stats, plain.stats);
    assert.deepEqual(readTree(join(dir, 'gated')), readTree(join(dir, 'plain')));
  } finally {
    removeDir(dir);
  }
});

test('a gate that closes (false or rejected): nothing is written and the builds not yet started are cancelled', async () => {
  const { kubectl, helm } = requireTools();
  const dir = tempDir('leaves-gate-closed');
  try {
    for (const [name, gate] of [['false', () => Promise.resolve(false)], ['rejected', () => Promise.reject(new Error('render failed'))]] as const) {
      const cache = join(dir, `cache-${name}`);
      const run = await renderLeaves(jobs, { repoRoot: FIXTURE, kustomize: kubectl, helm, env: toolEnv(join(dir, 'home')), outDir: join(dir, name), cacheDir: cache, concurrency: 1, writeAfter: gate() });
      assert.equal(existsSync(join(dir, name)), false, `${name}: nothing written`);
      assert.equal(cached(cache), 0, `${name}: no build started after the gate closed`);
      assert.ok(run.results.every((r) => r.error !== undefined), `${name}: every job says it was not done`);
    }
  } finally {
    removeDir(dir);
  }
});

test('Limiter.cancel rejects the waiting and later runs; the running one finishes', async () => {
  const limiter = new Limiter(1);
  let release!: () => void;
  const first = limiter.run(() => new Promise<string>((r) => (release = () => r('done'))));
  const waiting = limiter.run(async () => 'never');
  limiter.cancel(new Error('stopped'));
  await assert.rejects(waiting, /stopped/);
  await assert.rejects(limiter.run(async () => 'later'), /stopped/);
  release();
  assert.equal(await first, 'done');
});

test('render --out --leaves: when the clusters\' files cannot be written, no leaf file is written either', async () => {
  const { kubectl, helm } = requireTools();
  const dir = tempDir('leaves-gate-cli');
  try {
    const out = join(dir, 'out');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(join(out, 'hub'), { recursive: true });
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(out, 'hub', 'apps'));
    const r = await cli(['render', '--repo', 'examples/lab', '--out', out, '--leaves', '--cache-dir', join(dir, 'cache'), '--kustomize', kubectl, '--helm', helm], process.cwd(), toolEnv(join(dir, 'home')));
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /a symlink to .* in the output directory/);
    assert.doesNotMatch(r.stderr, /leaves:/);
    assert.deepEqual(readdirSync(elsewhere), []);
    for (const c of ['hub', 'etl4', 'etl6']) assert.equal(existsSync(join(out, c, 'manifests')), false, `${c}/manifests not written`);
  } finally {
    removeDir(dir);
  }
});
