// A leaf build that fails on a side of `diff --leaves` gets a note on the cluster; kustomize's
// error names the paths of the temporary checkout it built in, which change on every run. The
// note names them repository-relative, so the report (an HTML page or a golden file) is the same
// bytes every run and the same note from both sides is listed once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

test('diff --leaves: a failed build\'s note names repository paths, not the temporary checkout, and is the same every run', async () => {
  const dir = writeTree({
    ...baseFleet(),
    'components/operator/kustomization.yaml': 'resources: [../missing-base]\n',
    'components/config/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/config/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config\ndata:\n  mode: a\n',
  });
  try {
    execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main'], { env: gitEnv });
    execFileSync('git', ['-C', dir, 'add', '-A'], { env: gitEnv });
    execFileSync('git', ['-C', dir, 'commit', '-q', '-m', 'base'], { env: gitEnv });
    writeTree({ 'components/config/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config\ndata:\n  mode: b\n' }, dir);
    const env = { PATH: `${resolve('.tools/bin')}:/usr/local/bin:/usr/bin:/bin`, HOME: dir, NO_COLOR: '1' };
    const args = ['diff', '--repo', dir, '--from', 'HEAD', '--leaves', '--cache-dir', join(dir, '.cache'), '-o', 'json'];
    const first = await cli(args, process.cwd(), env);
    assert.equal(first.code, 0, first.stderr);
    // The build's note, once (not once per side); gitops-self's "fleetplan's own output" note aside.
    const notes = (JSON.parse(first.stdout) as { clusters: { notes: string[] }[] }).clusters[0]!.notes.filter((n) => !n.startsWith('leaves of gitops-self '));
    assert.equal(notes.length, 1, JSON.stringify(notes));
    assert.match(notes[0]!, /^leaves of operator could not be built: .*components\/operator/);
    assert.ok(!notes[0]!.includes(tmpdir()), `no temporary path: ${notes[0]}`);
    const second = await cli(args, process.cwd(), env);
    assert.equal(second.stdout, first.stdout, 'the same bytes on the next run');
  } finally {
    removeTree(dir);
  }
});
