/**
 * GitAhead (src/adapters/git-snapshot.ts, docs/adr/0314-diff-warm-path.md): several git commands
 * run in one `sh`, each answer the same as the command run on its own, used once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repositoryOriginCommands, repositoryOriginOf, readRepositoryOrigin } from '../../src/adapters/git.js';
import { originAhead } from '../../src/api/diff-core.js';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchableRevision, changedCommands, changedUnderFleet, checkoutSnapshot, fleetCheckout, fleetTree, fleetTreeCommand, fleetTreeName, GitAhead, objectIds, resolveCommit, resolveCommitCommands } from '../../src/adapters/git-snapshot.js';
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
    const taken = await ahead.take(where.top, resolveCommitCommands('main')[0]!);
    assert.deepEqual(taken, { code: 0, stdout: main, stderr: '' });
    assert.equal(ahead.take(where.top, resolveCommitCommands('main')[0]!), undefined, 'an answer serves once');
    assert.equal(await resolveCommit(where.top, "no-such-branch'; echo hi", ahead), alone.missing);
    assert.equal(await fleetTree(where, change, ahead), alone.tree);
    assert.deepEqual(await changedUnderFleet(where, main, change, ahead), alone.changes);
    assert.equal(ahead.take(where.top, fleetTreeCommand(where, change)), undefined, 'used by fleetTree');
    ahead.close();
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
    ahead.close();
  } finally {
    removeTree(dir);
  }
});

test('one shell answers commands asked one after another, another environment through env -i, as readRepositoryOrigin reads them', async () => {
  const dir = repo();
  try {
    git(dir, 'remote', 'add', 'origin', "https://git.example.com/it's.git");
    const ahead = new GitAhead();
    const where = await fleetCheckout(`${dir}/fleet`, ahead);
    assert.deepEqual(where, await fleetCheckout(`${dir}/fleet`));
    assert.deepEqual(await originAhead(ahead, dir), readRepositoryOrigin(dir));
    assert.deepEqual(await originAhead(ahead, dir), { url: "https://git.example.com/it's.git", branch: 'change' });
    // The environment is the one given: without GIT_DIR-like variables, with the caller's PATH only.
    const run = repositoryOriginCommands(dir)!;
    const answers = await Promise.all(run.commands.map((c) => ahead.ask(dir, c, run.env)));
    assert.deepEqual(repositoryOriginOf(answers.map((a) => (a!.code === 0 && a!.stdout !== '' ? a!.stdout : undefined))), readRepositoryOrigin(dir));
    // A failing command answers its status (rev-parse --verify of nothing: 1), not undefined.
    assert.deepEqual(await ahead.ask(dir, ['rev-parse', '--verify', '--quiet', 'no-such-ref']), { code: 1, stdout: '', stderr: '' });
    // git not found on the PATH given (127): no answer, so that git() runs it and says why.
    assert.equal(await ahead.ask(dir, ['rev-parse', 'HEAD'], { PATH: '/nonexistent' }), undefined);
    assert.equal(await ahead.ask(dir, ['rev-parse', 'HEAD'], { HOME: '/' }), undefined, 'no PATH: left to spawn');
    // Output bigger than a pipe's buffer (in many chunks), in order with the next command's.
    const text = Array.from({ length: 20000 }, (_, i) => `line ${i} é\n`).join('');
    writeTree({ 'big.txt': text }, dir);
    git(dir, 'add', 'big.txt');
    git(dir, 'commit', '-q', '-m', 'big');
    assert.deepEqual(await ahead.ask(dir, ['cat-file', 'blob', 'HEAD:big.txt']), { code: 0, stdout: text.trim(), stderr: '' });
    assert.equal((await ahead.ask(dir, ['rev-parse', 'main']))!.stdout, git(dir, 'rev-parse', 'main'));
    ahead.close();
    assert.equal(await ahead.ask(dir, ['rev-parse', 'HEAD']), undefined, 'closed: no answer');
    assert.equal(await resolveCommit(where.top, 'main', ahead), git(dir, 'rev-parse', 'main'), 'git() runs it on its own');
  } finally {
    removeTree(dir);
  }
});

test('a checkout handed to the shell is removed after the shell ends, without the process waiting; a closed or unstarted shell does not take it', async () => {
  const dir = repo();
  try {
    const where = await fleetCheckout(`${dir}/fleet`);
    const snapshot = await checkoutSnapshot(where, (await resolveCommit(where.top, 'main'))!);
    assert.ok(existsSync(snapshot.root));
    const unstarted = new GitAhead();
    assert.equal(snapshot.closeLater(unstarted), false, 'no shell running: the caller removes it');
    const ahead = new GitAhead();
    // A name with a quote and a space, as a temporary directory's parent could hold.
    const odd = writeTree({ 'x/y.txt': 'y\n' }, mkdtempSync(join(tmpdir(), "fleetplan-it's here ")));
    assert.ok((await ahead.ask(where.top, ['rev-parse', 'HEAD'])) !== undefined, 'the shell runs');
    assert.equal(snapshot.closeLater(ahead), true);
    assert.equal(ahead.removeLater(odd), true);
    ahead.close();
    assert.equal(ahead.removeLater(odd), false, 'a closed shell takes nothing');
    for (let i = 0; i < 200 && (existsSync(snapshot.root) || existsSync(odd)); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(existsSync(snapshot.root), false, 'the checkout is gone');
    assert.equal(existsSync(odd), false, 'the odd name was quoted');
  } finally {
    removeTree(dir);
  }
});

test('objectIds answers in one process what resolveCommit and fleetTree answer one by one; a name git finds nothing for is undefined', async () => {
  const dir = repo();
  try {
    git(dir, 'tag', 'v1', 'main');
    git(dir, 'tag', '-a', '-m', 'annotated', 'v2', 'change');
    const where = await fleetCheckout(`${dir}/fleet`);
    const revisions = ['main', 'change', 'v1', 'v2', 'HEAD~1', 'change^', 'main@{0}', git(dir, 'rev-parse', 'main').slice(0, 10), 'no-such-branch', "it's-not", 'a'.repeat(40)];
    assert.ok(revisions.every(batchableRevision));
    const commits = await Promise.all(revisions.map((r) => resolveCommit(where.top, r)));
    const ahead = new GitAhead();
    const ids = await objectIds(ahead, where.top, revisions.map((r) => `${r}^{commit}`));
    assert.deepEqual(ids, commits);
    assert.equal(ids[3], git(dir, 'rev-parse', 'change'), 'an annotated tag peels to its commit');
    assert.equal(ids.filter((x) => x === undefined).length, 3);
    const known = commits.filter((c): c is string => c !== undefined);
    const trees = await objectIds(ahead, where.top, [...known.map((c) => fleetTreeName(where, c)), fleetTreeName({ ...where, prefix: 'no/such/dir' }, known[0]!)]);
    assert.deepEqual(trees, [...(await Promise.all(known.map((c) => fleetTree(where, c)))), undefined]);
    assert.deepEqual(await objectIds(ahead, where.top, []), [], 'nothing asked, no process');
    assert.deepEqual(await objectIds(ahead, where.top, ['main\nchange']), [undefined], 'a name of two lines is not sent');
    ahead.close();
    assert.deepEqual(await objectIds(ahead, where.top, ['main']), [undefined], 'a closed shell answers nothing');
  } finally {
    removeTree(dir);
  }
});

test('names rev-parse reads otherwise than cat-file are not batched', () => {
  for (const r of ['main..change', 'main...change', 'change^@', 'change^!', 'change^-', 'change^-1', '^main', '-main', ':/first', 'main:fleet', 'my branch', '', 'a\nb']) {
    assert.equal(batchableRevision(r), false, r);
  }
  for (const r of ['main', 'origin/main', 'v1.2.0', 'HEAD~2', 'HEAD^2', 'main@{upstream}', '@', 'feature/x-1']) assert.equal(batchableRevision(r), true, r);
});
