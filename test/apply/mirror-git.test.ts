/**
 * The git adapter of phase 2 (src/adapters/git-push.ts) against a real `git http-backend`: the
 * push credentials reach git through the GIT_ASKPASS helper only — never in a command line or an
 * environment (a wrapper in front of git records both) — and the helper is gone afterwards.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMirrorGit } from '../../src/adapters/git-push.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server.js';

const CREDS = { username: 'pusher', password: 'tok-7f3a-very-secret' };

describe('the mirror push through real git', () => {
  let server: GitHttpServer;
  let repo: string;
  let work: string;
  let commit: string;
  before(async () => {
    server = await startGitHttpServer(CREDS);
    work = mkdtempSync(join(tmpdir(), 'fleetplan-git-wrapper-'));
    repo = writeTree({ 'rendered/hub/phase-2/apps/a.yaml': 'a: 1\n', 'README.md': 'x\n' });
    const g = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' }).trim();
    g('init', '-q', '-b', 'main');
    g('add', '-A');
    g('commit', '-q', '-m', 'one');
    commit = g('rev-parse', 'HEAD');
  });
  after(async () => {
    await server.close();
    removeTree(repo);
    removeTree(work);
  });

  function recordingGit(): { git: string; log: string } {
    const id = Math.random().toString(36).slice(2);
    const log = join(work, `calls-${id}.log`);
    const git = join(work, `git-wrapper-${id}`);
    // Records argv and the whole environment of each git process, then runs the real git.
    writeFileSync(git, `#!/bin/sh\n{ printf 'ARGV:'; printf ' %s' "$@"; printf '\\n'; env; } >> '${log}'\nexec git "$@"\n`, { mode: 0o755 });
    return { git, log };
  }

  test('pushes the commit; the password is in no argv or environment, and the helper is removed', async () => {
    const url = server.createRepo('a/fleet.git');
    const { git, log } = recordingGit();
    const mg = createMirrorGit({ root: repo, env: { PATH: process.env.PATH, HOME: work }, git });
    assert.equal(await mg.remoteBranch(url, 'main', CREDS), undefined);
    await mg.push(url, commit, 'main', CREDS, { force: false });
    assert.equal(server.branch('a/fleet.git', 'main'), commit);
    assert.equal(await mg.remoteBranch(url, 'main', CREDS), commit);
    const calls = readFileSync(log, 'utf8');
    assert.match(calls, /ARGV: -c credential.helper= -c core.askPass= push --porcelain -- http:\/\/127\.0\.0\.1:\d+\/a\/fleet\.git [0-9a-f]{40}:refs\/heads\/main/);
    assert.ok(!calls.includes(CREDS.password), 'the password appears in no argv or environment');
    assert.ok(!calls.includes(Buffer.from(`${CREDS.username}:${CREDS.password}`).toString('base64')), 'nor as a Basic header');
    const helpers = [...calls.matchAll(/^GIT_ASKPASS=(.*)$/gm)].map((m) => m[1]!);
    assert.ok(helpers.length >= 2, 'each remote call had a helper');
    for (const h of helpers) assert.ok(!existsSync(h), `${h} was removed`);
  });

  test('git gets the tool environment only, not the rest of what is passed in', async () => {
    const url = server.createRepo('b/fleet.git');
    const { git, log } = recordingGit();
    const mg = createMirrorGit({ root: repo, env: { PATH: process.env.PATH, HOME: work, AWS_SECRET_ACCESS_KEY: 'nope', GIT_DIR: '/elsewhere' }, git });
    await mg.push(url, commit, 'main', CREDS, { force: false });
    const calls = readFileSync(log, 'utf8');
    assert.ok(!calls.includes('AWS_SECRET_ACCESS_KEY'));
    assert.ok(!calls.includes('GIT_DIR=/elsewhere'));
  });

  test('wrong credentials fail with the server\'s answer and a hint, not the password', async () => {
    const url = server.createRepo('c/fleet.git');
    const mg = createMirrorGit({ root: repo, env: { PATH: process.env.PATH, HOME: work } });
    await assert.rejects(mg.push(url, commit, 'main', { username: 'pusher', password: 'wrong-one' }, { force: false }), (err: Error & { hint?: string }) => {
      assert.match(err.message, /git push http:\/\/127\.0\.0\.1:\d+\/c\/fleet\.git [0-9a-f]{40}:refs\/heads\/main failed/);
      assert.ok(!err.message.includes('wrong-one'));
      return true;
    });
    assert.equal(server.branch('c/fleet.git', 'main'), undefined);
  });

  test('a mirror branch with other commits is not replaced without force', async () => {
    const url = server.createRepo('d/fleet.git');
    const mg = createMirrorGit({ root: repo, env: { PATH: process.env.PATH, HOME: work } });
    await mg.push(url, commit, 'main', CREDS, { force: false });
    const g = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' }).trim();
    const other = g('commit-tree', '-m', 'elsewhere', `${commit}^{tree}`);
    await assert.rejects(mg.push(url, other, 'main', CREDS, { force: false }), (err: Error & { hint?: string }) => {
      assert.match(String(err.hint), /rerun with --force-push/);
      return true;
    });
    assert.equal(server.branch('d/fleet.git', 'main'), commit);
    await mg.push(url, other, 'main', CREDS, { force: true });
    assert.equal(server.branch('d/fleet.git', 'main'), other);
  });

  test('compareTree finds missing and different files of the phase-2 tree', async () => {
    const mg = createMirrorGit({ root: repo, env: { PATH: process.env.PATH, HOME: work } });
    assert.deepEqual(await mg.compareTree(commit, [{ path: 'rendered/hub/phase-2/apps/a.yaml', content: 'a: 1\n' }]), { missing: [], differ: [] });
    assert.deepEqual(await mg.compareTree(commit, [
      { path: 'rendered/hub/phase-2/apps/a.yaml', content: 'a: 2\n' },
      { path: 'rendered/hub/phase-2/apps/b.yaml', content: 'b: 1\n' },
    ]), { missing: ['rendered/hub/phase-2/apps/b.yaml'], differ: ['rendered/hub/phase-2/apps/a.yaml'] });
  });
});
