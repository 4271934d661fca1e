/**
 * What the diff tests share: an edit of a file of a repository made by a test (it must change the
 * file), and the golden files of diff reports under test/golden/diff/<case>/ (UPDATE_GOLDEN=1
 * rewrites them; review the diff).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Replaces `from` with `to` in `dir/path`; fails when nothing is replaced. */
export function edit(dir: string, path: string, from: string | RegExp, to: string): void {
  const abs = join(dir, path);
  const text = readFileSync(abs, 'utf8');
  const next = text.replace(from, to);
  assert.notEqual(next, text, `${path}: nothing replaced`);
  writeFileSync(abs, next);
}

const GOLDEN = resolve('test/golden/diff');

/** `actual` is test/golden/diff/<name>/<file> (written instead with UPDATE_GOLDEN=1). */
export function diffGolden(name: string, file: string, actual: string): void {
  const path = join(GOLDEN, name, file);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `${path} is missing: run the test with UPDATE_GOLDEN=1 and review it`);
  assert.equal(actual, readFileSync(path, 'utf8'), `${name}/${file} differs from the golden file (UPDATE_GOLDEN=1 rewrites it)`);
}
