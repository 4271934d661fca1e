/**
 * Without the flux layout's scope (helmfile-flux), a GitRepository other than flux-system is this
 * repository when it has the clone's origin URL and checked-out branch (or those of the
 * repository's own flux-system GitRepository): the rule ADR 0380 gives Kustomizations, for
 * Kustomizations and HelmRelease charts alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import { RepoConfigIndex, repositoryGitSources, repositoryYamlFiles } from '../../src/load/flux-variables.js';

const git = (name: string, url: string, branch: string) =>
  `apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: ${name}\n  namespace: flux-system\nspec:\n  url: ${url}\n  ref:\n    branch: ${branch}\n`;

test('repository GitRepositories: the same URL and branch as the clone is this repository; another branch or URL is not', () => {
  const dir = writeTree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/config': '[remote "origin"]\n\turl = git@github.com:owner/home-ops.git\n',
    'kubernetes/flux/sources.yaml': [git('home-kubernetes', 'https://github.com/owner/home-ops', 'main'), git('home-dev', 'https://github.com/owner/home-ops', 'dev'), git('other', 'https://github.com/owner/charts', 'main')].join('---\n'),
  });
  try {
    const fs = nodeFileSystem(dir);
    const isThis = repositoryGitSources(fs, new RepoConfigIndex(fs, () => repositoryYamlFiles(fs)));
    assert.equal(isThis('flux-system', 'flux-system'), true);
    assert.equal(isThis('home-kubernetes', 'flux-system'), true);
    assert.equal(isThis('home-dev', 'flux-system'), false);
    assert.equal(isThis('other', 'flux-system'), false);
    assert.equal(isThis('home-kubernetes', 'media'), false);
  } finally {
    removeTree(dir);
  }
});
