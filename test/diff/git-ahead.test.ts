/**
 * GitAhead (src/adapters/git-snapshot.ts, docs/adr/0314-diff-warm-path.md): several git commands
 * run in one `sh`, each answer the same as the command run on its own, used once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedCommands, changedUnderFleet, fleetCheckout, fleetTree, fleetTreeCommand, GitAhead, resolveCommit, resolveCommitCommands } from '../../src/adapters/git-snapshot.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { git } from '../support/git.js';

function repo(): string {
  const dir = writeTree({ 'fleet/a.yaml': 'a: 1\n', "fleet/it's here.yaml": 'b: 1\n', 'other.txt': 'x\n' });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  git(dir, 'checkout', '-q', '-b', 'change');
  writeTree({ 'fleet/a.yaml': 'a: 2\n', "fleet/it's here.yaml": 'b: 2\n', 'fleet/new file.yaml': 'c: 1\n' }, dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'change');
  return dir;
}

test('answers run ahead in one process equal the commands run one by one, a failing one included', async () => {
  const dir = repo();
  try {
    const where = await fleetCheckout(`${dir}/fleet`);
    const main = (await resolveCommit(where.top, 'main'))!;
    const change = (await resolveCommit(where.top, 'change'))!;
    const alone = {
      main: await resolveCommit(where.top, 'main'),
      missing: await resolveCommit(where.top, "no-such-branch'; echo hi"),
      tree: await fleetTree(where, change),
      changes: await changedUnderFleet(where, main, change),
    };
    assert.equal(alone.missing, undefined);
    assert.ok(alone.changes !== undefined && alone.changes.length === 3, JSON.stringify(alone.changes));
    const ahead = new GitAhead();
    await ahead.run(where.top, [...resolveCommitCommands('main'), ...resolveCommitCommands("no-such-branch'; echo hi"), fleetTreeCommand(where, change), ...changedCommands(where, main, change)]);
    // Each answer taken is the one run ahead: a second GitAhead holds none, so these must come from the first.
    const taken = ahead.take(where.top, resolveCommitCommands('main')[0]!);
    assert.deepEqual(taken, { code: 0, stdout: main, stderr: '' });
    assert.equal(ahead.take(where.top, resolveCommitCommands('main')[0]!), undefined, 'an answer serves once');
    assert.equal(await resolveCommit(where.top, "no-such-branch'; echo hi", ahead), alone.missing);
    assert.equal(await fleetTree(where, change, ahead), alone.tree);
    assert.deepEqual(await changedUnderFleet(where, main, change, ahead), alone.changes);
    assert.equal(ahead.take(where.top, fleetTreeCommand(where, change)), undefined, 'used by fleetTree');
  } finally {
    removeTree(dir);
  }
});

test('a command not run ahead runs on its own', async () => {
  const dir = repo();
  try {
    const where = await fleetCheckout(dir);
    const ahead = new GitAhead();
    await ahead.run(where.top, [resolveCommitCommands('main')[0]!]);
    assert.equal(await resolveCommit(where.top, 'change', ahead), git(dir, 'rev-parse', 'change'));
  } finally {
    removeTree(dir);
  }
});
