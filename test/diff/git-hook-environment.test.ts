// fleetplan run from a git hook, as the pre-commit hooks of .pre-commit-hooks.yaml run it: git
// exports GIT_DIR and GIT_INDEX_FILE (and, for some hooks, GIT_WORK_TREE) for the user's
// repository before it runs a hook. The git fleetplan runs on its snapshots of revisions must not
// take them (docs/adr/0406): with them it read the user's repository instead of the snapshot
// (the diff showed every app as added) and wrote the commit's index, so the commit lost the change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { git } from '../support/git.js';

const CLI = resolve('dist/src/cli/main.js');
const TOOLS = resolve('.tools/bin');

test('diff from a pre-commit hook: the same report as outside the hook, and `commit -a` keeps the change', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-hook-'));
  try {
    cpSync(resolve('examples/lab'), dir, { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'first');
    const group = join(dir, 'groups/all/group.yaml');
    const text = readFileSync(group, 'utf8');
    const changed = text.replace(/wave: 20/, 'wave: 21');
    assert.notEqual(changed, text);
    writeFileSync(group, changed);

    const env = { ...process.env, PATH: `${TOOLS}:${process.env.PATH ?? ''}` };
    const outside = execFileSync(process.execPath, [CLI, 'diff', '--repo', dir, '--from', 'HEAD', '-o', 'json'], { env, encoding: 'utf8' });
    assert.match(outside, /"changed"/);

    const out = join(dir, '..', `${dir.split('/').pop()}-hook.json`);
    const hook = join(dir, '.git/hooks/pre-commit');
    writeFileSync(hook, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" diff --from HEAD -o json > "${out}"\n`);
    chmodSync(hook, 0o755);
    // `git commit -a` runs the hook with GIT_INDEX_FILE=<repo>/.git/index.lock, the index being committed.
    git(dir, 'commit', '-q', '-a', '-m', 'wave 21');

    assert.equal(readFileSync(out, 'utf8'), outside, 'the hook saw the same diff');
    rmSync(out);
    assert.equal(git(dir, 'status', '--porcelain'), '', 'nothing left uncommitted');
    assert.equal(git(dir, 'show', 'HEAD:groups/all/group.yaml'), changed.trimEnd(), 'the commit holds the change');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
