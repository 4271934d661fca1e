/**
 * Git URL comparison (src/model/git-url.ts, ADRs 0287 and 0305): Argo CD's rules (whole URL
 * lowercased, `.git` dropped) plus the scheme-free equality fleetplan needs to know whether a
 * source reads the clone in front of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeGitURL, sameRepository } from '../../src/model/git-url.js';
import { switchSources } from '../../src/generate/mirror.js';

const SAME: Array<[string, string]> = [
  ['https://github.com/org/repo', 'https://github.com/org/repo.git'],
  ['https://github.com/org/repo/', 'https://github.com/org/repo'],
  ['https://GitHub.com/org/repo', 'https://github.com/org/repo'],
  // Argo CD lowercases the whole URL: GitHub's org and repository names are not case-sensitive.
  ['https://github.com/Org/Repo', 'https://github.com/org/repo'],
  ['git@github.com:org/repo.git', 'https://github.com/org/repo'],
  ['ssh://git@github.com/org/repo.git', 'https://github.com/org/repo'],
  ['https://github.com:443/org/repo', 'https://github.com/org/repo'],
  ['  https://github.com/org/repo  ', 'https://github.com/org/repo'],
];
const DIFFERENT: Array<[string, string]> = [
  ['https://github.com/org/repo', 'https://github.com/org/repo2'],
  ['https://github.com/org/repo', 'https://gitlab.com/org/repo'],
  ['https://github.com/org/repo', 'https://github.com/other/repo'],
  ['https://git.example.com:8443/org/repo', 'https://git.example.com/org/repo'],
];

test('the same repository written another way compares equal', () => {
  for (const [a, b] of SAME) assert.ok(sameRepository(a, b), `${a} and ${b}`);
  for (const [a, b] of SAME) assert.equal(normalizeGitURL(a), normalizeGitURL(b), `${a} and ${b}`);
});

test('another repository, host or port does not', () => {
  for (const [a, b] of DIFFERENT) assert.equal(sameRepository(a, b), false, `${a} and ${b}`);
  assert.equal(sameRepository(undefined, 'https://github.com/org/repo'), false);
});

test('the mirror switch moves every source that reads the fleet, however its URL is written', () => {
  const app = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'a', namespace: 'openshift-gitops' },
    spec: {
      sources: [
        { repoURL: 'git@github.com:Org/Fleet.git', path: 'x' },
        { repoURL: 'https://github.com/org/fleet/', path: 'y' },
        { repoURL: 'https://github.com/org/other', path: 'z' },
      ],
    },
  };
  const switched = switchSources(app, 'https://github.com/org/fleet', 'https://mirror.example/fleet.git');
  assert.deepEqual(
    (switched?.spec as { sources: Array<{ repoURL: string }> }).sources.map((s) => s.repoURL),
    ['https://mirror.example/fleet.git', 'https://mirror.example/fleet.git', 'https://github.com/org/other'],
  );
});

test('a path on this machine is not a Git server', async () => {
  const { isServerURL } = await import('../../src/model/git-url.js');
  for (const u of ['https://github.com/org/repo', 'git@github.com:org/repo.git', 'ssh://git@host/repo', 'git://host/repo']) assert.ok(isServerURL(u), u);
  for (const u of ['/srv/repo.git', 'file:///srv/repo', './repo', '../repo', '~/repo', '', undefined]) assert.equal(isServerURL(u), false, String(u));
});
