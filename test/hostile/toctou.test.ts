/**
 * A symlink swapped in between fleetplan's check and its write or read (docs/adr/0259): the
 * output adapter's test seam (`OUTPUT_HOOKS.beforeOpen`) replaces a directory of the output with
 * a link to a victim directory just before a file is created there; the reader's check is made
 * (and cached) before the file is replaced by a link out of the repository.
 */
import { test, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { baseFleet, cli, writeTree } from '../support/fleet-fixture.js';
import { OUTPUT_HOOKS, writeTree as writeOutputTree } from '../../src/adapters/output.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';

const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-toctou-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => {
  delete OUTPUT_HOOKS.beforeOpen;
  delete OUTPUT_HOOKS.beforeRename;
});
let n = 0;
const fresh = (name: string) => {
  const d = join(tmp, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

/** Every entry under `dir`, links not followed. */
function entries(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

/** The first time a file under `OUT/<sub>/` is about to be created: `sub` moves aside and becomes a link to `victim`. */
function swapOnce(out: string, sub: string, victim: string): () => boolean {
  let done = false;
  OUTPUT_HOOKS.beforeOpen = (abs) => {
    if (done || !abs.startsWith(join(out, sub) + '/')) return;
    done = true;
    renameSync(join(out, sub), join(out, `${sub}.moved`));
    symlinkSync(victim, join(out, sub));
  };
  return () => done;
}

test('render --out into a fresh directory: a directory swapped for a symlink before a file is created gets nothing written through it', async () => {
  const out = join(fresh('out'), 'rendered');
  const victim = fresh('victim');
  const swapped = swapOnce(out, 'hub/apps', victim);
  const r = await cli(['render', '--repo', 'examples/lab', '--out', out]);
  assert.ok(swapped(), 'the swap happened');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /hub\/apps\/.* while it was written: a directory in the output directory was replaced by a symlink/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.deepEqual(entries(victim), [], 'nothing written outside --out');
});

test('render --out over an earlier render: a swap before the temporary file is created leaves nothing outside, and nothing is renamed there', async () => {
  const out = fresh('out');
  const victim = fresh('victim');
  assert.equal((await cli(['render', '--repo', 'examples/lab', '--out', out])).code, 0);
  // Old contents, so that the next render replaces each file through a temporary file and a rename.
  for (const f of readdirSync(join(out, 'hub/apps'))) writeFileSync(join(out, 'hub/apps', f), 'old: 1\n');
  writeFileSync(join(victim, 'acm.yaml'), 'mine: 1\n');
  const swapped = swapOnce(out, 'hub/apps', victim);
  const r = await cli(['render', '--repo', 'examples/lab', '--out', out]);
  assert.ok(swapped(), 'the swap happened');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /replaced by a symlink/);
  assert.deepEqual(entries(victim), ['acm.yaml']);
  assert.equal(readFileSync(join(victim, 'acm.yaml'), 'utf8'), 'mine: 1\n', 'the victim file is untouched');
});

test('a directory swapped for a link between the write and the rename: nothing is renamed outside, the temporary file is removed', () => {
  const out = fresh('out');
  const victim = fresh('victim');
  mkdirSync(join(out, 'c/apps'), { recursive: true });
  writeFileSync(join(out, 'c/apps/a.yaml'), 'old\n');
  OUTPUT_HOOKS.beforeRename = (abs) => {
    if (!abs.endsWith('a.yaml')) return;
    renameSync(join(out, 'c/apps'), join(out, 'c/apps.moved'));
    symlinkSync(victim, join(out, 'c/apps'));
  };
  assert.throws(() => writeOutputTree(out, [{ path: 'c/apps/a.yaml', content: 'new\n' }], ['c/apps']), /replaced by a symlink/);
  assert.deepEqual(entries(victim), [], 'nothing left outside');
  assert.equal(readFileSync(join(out, 'c/apps.moved/a.yaml'), 'utf8'), 'old\n');
  assert.deepEqual(entries(join(out, 'c/apps.moved')), ['a.yaml'], 'the temporary file is removed');
});

test('removing a stale file: a directory swapped for a link before the removal removes nothing outside', () => {
  const out = fresh('out');
  const victim = fresh('victim');
  writeOutputTree(out, [{ path: 'c/apps/a.yaml', content: 'a\n' }, { path: 'c/apps/b.yaml', content: 'b\n' }], ['c/apps']);
  writeFileSync(join(victim, 'b.yaml'), 'mine\n');
  OUTPUT_HOOKS.beforeOpen = (abs) => {
    if (!abs.endsWith('b.yaml') || existsSync(join(out, 'c/apps.moved'))) return;
    renameSync(join(out, 'c/apps'), join(out, 'c/apps.moved'));
    symlinkSync(victim, join(out, 'c/apps'));
  };
  // b.yaml is no longer produced: render removes it, unless what it would remove is outside.
  assert.throws(() => writeOutputTree(out, [{ path: 'c/apps/a.yaml', content: 'a\n' }], ['c/apps']), /symlink/);
  assert.equal(readFileSync(join(victim, 'b.yaml'), 'utf8'), 'mine\n');
});

test('a repository file replaced by a link out of the repository after its check is not read', () => {
  const repo = writeTree(baseFleet(), fresh('repo'));
  const outside = writeTree({ 'cluster.yaml': 'outside-marker-7f3a: 1\n' }, fresh('outside'));
  const fs = nodeFileSystem(repo);
  const file = 'clusters/one/cluster.yaml';
  assert.equal(fs.exists(file), true, 'checked (and the check remembered) while the file is a real one');
  rmSync(join(repo, file));
  symlinkSync(join(outside, 'cluster.yaml'), join(repo, file));
  assert.throws(() => fs.readText(file), (e: Error) => /clusters\/one\/cluster\.yaml leads outside the repository/.test(e.message) && !e.message.includes('outside-marker'));
  assert.ok(existsSync(dirname(join(repo, file))));
});
