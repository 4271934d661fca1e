// The repository walk that finds links leaving the repository also answers the loader's questions
// about paths (src/adapters/node-fs.ts): every answer must be the one the disk gives, whatever the
// path goes through (real directories, links inside and outside, `.git`, a FIFO, a missing file).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import type { RepoFileSystem } from '../../src/ports/filesystem.js';

const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-node-fs-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function repository(): string {
  const repo = join(tmp, 'repo');
  const outside = join(tmp, 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.yaml'), 'outside: true\n');
  for (const d of ['clusters/a', 'clusters/b', 'components/x/base', '.git/objects', 'deep/1/2/3']) mkdirSync(join(repo, d), { recursive: true });
  writeFileSync(join(repo, 'fleet.yaml'), 'kind: Fleet\n');
  writeFileSync(join(repo, 'clusters/a/cluster.yaml'), 'name: a\n');
  writeFileSync(join(repo, 'components/x/base/kustomization.yaml'), 'resources: []\n');
  writeFileSync(join(repo, '.git/HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(repo, 'deep/1/2/3/f.yaml'), 'deep: true\n');
  writeFileSync(join(repo, 'big.yaml'), 'x'.repeat(100));
  symlinkSync('../components/x', join(repo, 'clusters/inside-link'));
  symlinkSync(outside, join(repo, 'clusters/outside-link'));
  symlinkSync('a/cluster.yaml', join(repo, 'clusters/file-link.yaml'));
  spawnSync('mkfifo', [join(repo, 'clusters/b/pipe.yaml')]);
  return repo;
}

const PATHS = [
  '', '.', 'fleet.yaml', 'clusters', 'clusters/a', 'clusters/a/cluster.yaml', 'clusters/a/missing.yaml', 'clusters/missing/cluster.yaml',
  'clusters/b', 'clusters/b/pipe.yaml', 'clusters/inside-link', 'clusters/inside-link/base/kustomization.yaml', 'clusters/outside-link',
  'clusters/outside-link/secret.yaml', 'clusters/file-link.yaml', 'fleet.yaml/below', 'components/x/base/kustomization.yaml', '.git',
  '.git/HEAD', 'deep/1/2/3/f.yaml', 'clusters/', 'clusters//a', './fleet.yaml', 'clusters/a/../a/cluster.yaml', '../outside/secret.yaml', 'big.yaml',
];

function answers(fs: RepoFileSystem, path: string): unknown {
  let text: unknown;
  try {
    text = fs.readText(path);
  } catch (e) {
    text = { error: (e as Error).message, code: (e as { code?: string }).code };
  }
  return { exists: fs.exists(path), isDirectory: fs.isDirectory(path), list: fs.list(path), text };
}

test('after the symlink walk, exists / isDirectory / list / readText answer as the disk does, for every kind of path', () => {
  const repo = repository();
  const walked = nodeFileSystem(repo);
  assert.deepEqual(walked.outsideLinks!().map((l) => l.link), ['clusters/outside-link']);
  const disk = nodeFileSystem(repo);
  for (const p of PATHS) assert.deepEqual(answers(walked, p), answers(disk, p), `path "${p}"`);
});
