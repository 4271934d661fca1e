/**
 * The fleet repository as `delivery: applicationset` planning reads it (a `FleetRepoSource`):
 * real git at a revision when the fleet root is the top of a git work tree, else the files of
 * the directory (every revision then reads as `no-repository`, and the plan falls back to the
 * working tree). A fleet inside a larger repository is not read through git: generator paths are
 * relative to the fleet root, git's to the repository's.
 */
import { readdirSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FleetplanError } from '../errors/index.js';
import type { FleetRepoSource, RevisionStatus } from '../ports/fleet-repo.js';
import type { GitTree } from '../ports/git-repo.js';
import { createLocalGitTree, gitTopLevel } from './git.js';

export interface ClosableFleetRepoSource extends FleetRepoSource {
  close(): void;
}

/** Files under `dir` (forward slashes), skipping `.git`; symlinks are not followed. */
function walk(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory() && e.name !== '.git') out.push(...walk(dir, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

function directoryTree(dir: string): GitTree {
  let files: string[] | undefined;
  const list = (): string[] => (files ??= walk(dir).sort());
  return {
    listFiles: () => Promise.resolve(list().slice()),
    listDirectories: () => {
      const dirs = new Set<string>();
      for (const f of list()) {
        const segs = f.split('/');
        for (let i = 1; i < segs.length; i++) dirs.add(segs.slice(0, i).join('/'));
      }
      return Promise.resolve([...dirs]);
    },
    readFiles: (_u, _r, paths) => Promise.all(paths.map((p) => readFile(join(dir, p), 'utf8'))),
  };
}

export async function createFleetRepoSource(dir: string): Promise<ClosableFleetRepoSource> {
  const top = await gitTopLevel(dir);
  if (top === undefined || top !== realpathSync(dir)) {
    return { tree: directoryTree(dir), revisionStatus: () => Promise.resolve('no-repository'), close: () => undefined };
  }
  const git = createLocalGitTree(dir);
  return {
    tree: git,
    async revisionStatus(revision: string): Promise<RevisionStatus> {
      try {
        await git.resolve(revision);
        return 'found';
      } catch (e) {
        if (e instanceof FleetplanError && e.code === 'unknown-revision') return 'missing';
        throw e;
      }
    },
    close: () => git.close(),
  };
}
