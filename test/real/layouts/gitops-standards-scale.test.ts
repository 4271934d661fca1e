/**
 * Loading a gitops-standards fleet stays linear in its clusters: a resource file every cluster
 * lists (`../cluster-versions.yaml`, which itself grows with the fleet) is read and parsed once
 * per load, not once per cluster.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { writeSyntheticGitopsStandardsFleet } from '../../../bench/synthetic-gitops-standards.js';
import { nodeFileSystem } from '../../../src/adapters/node-fs.js';
import { loadGitopsStandards } from '../../../src/layouts/gitops-standards/reader.js';
import type { RepoFileSystem } from '../../../src/ports/filesystem.js';
import { removeDir, tempDir } from '../../helpers/tools.js';

const dir = tempDir('gitops-standards-scale');
after(() => removeDir(dir));

test('reads the cluster-versions file that every cluster lists once per load, and still pins every cluster', () => {
  writeSyntheticGitopsStandardsFleet(dir, { clusters: 12, appsPerCluster: 8 });
  const inner = nodeFileSystem(dir);
  const reads = new Map<string, number>();
  const fs: RepoFileSystem = {
    root: inner.root,
    readText: (p) => (reads.set(p, (reads.get(p) ?? 0) + 1), inner.readText(p)),
    exists: (p) => inner.exists(p),
    isDirectory: (p) => inner.isDirectory(p),
    list: (p) => inner.list(p),
  };
  const { fleet, fallbacks } = loadGitopsStandards(fs);
  assert.deepEqual(fallbacks ?? [], []);
  assert.equal(reads.get('clusters/cluster-versions.yaml'), 1);
  assert.deepEqual(
    fleet.clusters.map((c) => c.revisionPin?.revision),
    fleet.clusters.map((c) => (c.name.endsWith('0') ? 'main' : '0123456789abcdef0123456789abcdef01234567')),
  );
});
