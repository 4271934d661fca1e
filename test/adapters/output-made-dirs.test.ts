// Files in a directory the run made are created through the directory's descriptor, checked once
// before and once after its files (docs/adr/0294): a directory moved or swapped for a link while
// its files are written keeps none of them, and the write fails naming the first file.
import { test, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OUTPUT_HOOKS, openOutput, writeTree } from '../../src/adapters/output.js';

const root = mkdtempSync(join(tmpdir(), 'fleetplan-made-dirs-'));
after(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => delete OUTPUT_HOOKS.beforeOpen);
let n = 0;
const fresh = (name: string) => join(root, `${name}-${++n}`);

const files = ['a', 'b', 'c'].map((x) => ({ path: `c1/apps/${x}.yaml`, content: `${x}: 1\n` }));

test('a directory made by this run moved away while its files are written: none of them stays in it, and the write fails', () => {
  const out = fresh('out');
  const away = fresh('away');
  OUTPUT_HOOKS.beforeOpen = (abs) => {
    // After a.yaml is written, c1/apps moves out of the output directory (same file system).
    if (abs.endsWith('/b.yaml')) renameSync(join(out, 'c1/apps'), away);
  };
  assert.throws(() => writeTree(out, files, ['c1/apps']), /c1\/apps\/a\.yaml resolved to .*away-\d+\/a\.yaml while it was written/);
  assert.deepEqual(readdirSync(away), [], 'a.yaml, b.yaml and c.yaml were created in the moved directory and removed from it');
  assert.equal(existsSync(join(out, 'c1/apps')), false);
});

test('a directory made by this run swapped for a link after its check: the files go into the directory that was checked, never through the link', () => {
  const out = fresh('out');
  const victim = fresh('victim');
  mkdirSync(victim);
  OUTPUT_HOOKS.beforeOpen = (abs) => {
    if (!abs.endsWith('/b.yaml')) return;
    renameSync(join(out, 'c1/apps'), join(out, 'c1/apps.moved'));
    symlinkSync(victim, join(out, 'c1/apps'));
  };
  assert.throws(() => writeTree(out, files, ['c1/apps']), /c1\/apps\/a\.yaml resolved to .*c1\/apps\.moved\/a\.yaml while it was written: a directory in the output directory was replaced by a symlink/);
  assert.deepEqual(readdirSync(victim), [], 'nothing written through the link');
  assert.deepEqual(readdirSync(join(out, 'c1/apps.moved')), [], 'the files written in the real directory are removed again');
});

test('a link put where this run was about to make a directory is refused before any file is created', () => {
  const out = fresh('out');
  const victim = fresh('victim');
  mkdirSync(victim);
  const session = openOutput(out);
  // Checked while absent (so made by this run), then a link appears there before it is made.
  session.path('c1/apps/a.yaml');
  mkdirSync(join(session.root, 'c1'), { recursive: true });
  symlinkSync(victim, join(session.root, 'c1/apps'));
  assert.throws(
    () => writeTree(out, files, ['c1/apps'], [], session),
    (e: Error & { code?: string; location?: { file: string } }) => e.code === 'output-symlink' && e.location?.file === join(session.root, 'c1/apps') && e.message.includes(`a symlink to ${victim}`),
  );
  assert.deepEqual(readdirSync(victim), [], 'nothing created through the link, not even for a moment');
});

test('many directories made in one call are each written and closed (no descriptor left open)', () => {
  const out = fresh('out');
  const many = Array.from({ length: 300 }, (_, i) => ({ path: `c${i}/apps/x.yaml`, content: `i: ${i}\n` }));
  const fds = () => readdirSync('/proc/self/fd').length;
  const before = existsSync('/proc/self/fd') ? fds() : 0;
  assert.deepEqual(writeTree(out, many, []), { written: 300, unchanged: 0, removed: 0 });
  if (existsSync('/proc/self/fd')) assert.equal(fds(), before);
  assert.equal(readdirSync(out).filter((d) => d.startsWith('c')).length, 300);
});
