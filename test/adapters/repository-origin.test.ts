// readRepositoryOrigin asks git only where git could find a work tree (a `.git` above the real
// path): outside any clone it answers without a process, and a fleet reached through a symlink
// into a clone still gets the clone's origin, as `git -C` finds it from the physical directory.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRepositoryOrigin } from '../../src/adapters/git.js';

const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-origin-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('outside any clone the origin is empty; through a symlink into a clone it is the clone\'s remote and branch', () => {
  const plain = join(tmp, 'plain');
  mkdirSync(plain);
  assert.deepEqual(readRepositoryOrigin(plain), {});

  const clone = join(tmp, 'clone');
  mkdirSync(join(clone, 'fleets/prod'), { recursive: true });
  execFileSync('git', ['-C', clone, 'init', '-q', '-b', 'release']);
  execFileSync('git', ['-C', clone, 'remote', 'add', 'origin', 'https://git.example.com/fleet.git']);
  const expected = { url: 'https://git.example.com/fleet.git', branch: 'release' };
  assert.deepEqual(readRepositoryOrigin(join(clone, 'fleets/prod')), expected);
  // The link's own parents hold no .git: only the physical path leads to the clone.
  const link = join(plain, 'prod-link');
  symlinkSync(join(clone, 'fleets/prod'), link);
  assert.deepEqual(readRepositoryOrigin(link), expected);
});
