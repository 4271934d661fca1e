/**
 * Argo CD's repo server, as the git generators see it, over a raw `GitTree`: the directory
 * listing (WalkDir order, hidden directories skipped) and the files matching a pattern under
 * either globbing mode. Listings, compiled patterns and contents are cached per repo/revision,
 * so a matrix that asks the same question for every cluster reads the repository once.
 */
import type { FileGlobbing, GitRepo, GitTree } from '../ports/git-repo.js';
import { compileDoublestar, compileGitPathspec } from './glob.js';

export interface RepoServerOptions {
  /** Argo CD `--include-hidden-directories`: list directories whose name starts with `.`. */
  includeHiddenDirectories?: boolean;
}

/** Compares paths segment by segment, which is `filepath.WalkDir`'s depth-first lexical order. */
export function compareWalkOrder(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  const n = Math.min(as.length, bs.length);
  for (let i = 0; i < n; i++) {
    const x = as[i]!;
    const y = bs[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return as.length - bs.length;
}

export function createRepoServer(tree: GitTree, options: RepoServerOptions = {}): GitRepo {
  const dirCache = new Map<string, Promise<string[]>>();
  const fileListCache = new Map<string, Promise<string[]>>();
  const matchCache = new Map<string, Promise<Map<string, string>>>();
  const contentCache = new Map<string, string>();
  const key = (repoURL: string, revision: string): string => `${repoURL}\u0000${revision}`;

  const listFiles = (repoURL: string, revision: string): Promise<string[]> => {
    const k = key(repoURL, revision);
    let p = fileListCache.get(k);
    if (!p) {
      p = tree.listFiles(repoURL, revision);
      fileListCache.set(k, p);
    }
    return p;
  };

  return {
    getDirectories(repoURL, revision) {
      const k = key(repoURL, revision);
      let p = dirCache.get(k);
      if (!p) {
        p = tree.listDirectories(repoURL, revision).then((dirs) =>
          dirs
            .filter((d) => d !== '' && d !== '.' && (options.includeHiddenDirectories || !d.split('/').some((s) => s.startsWith('.'))))
            .sort(compareWalkOrder),
        );
        dirCache.set(k, p);
      }
      return p.then((d) => d.slice());
    },

    getFiles(repoURL: string, revision: string, pattern: string, globbing: FileGlobbing) {
      const k = `${key(repoURL, revision)}\u0000${globbing}\u0000${pattern}`;
      let p = matchCache.get(k);
      if (!p) {
        p = (async () => {
          const matches = globbing === 'doublestar' ? compileDoublestar(pattern) : compileGitPathspec(pattern);
          const files = (await listFiles(repoURL, revision)).filter((f) => matches(f)).sort();
          const ck = (f: string): string => `${key(repoURL, revision)}\u0000${f}`;
          const missing = files.filter((f) => !contentCache.has(ck(f)));
          if (missing.length > 0) {
            const contents = await tree.readFiles(repoURL, revision, missing);
            missing.forEach((f, i) => contentCache.set(ck(f), contents[i] ?? ''));
          }
          return new Map(files.map((f) => [f, contentCache.get(ck(f)) ?? ''] as const));
        })();
        matchCache.set(k, p);
      }
      return p;
    },
  };
}

/** A `GitTree` over an in-memory `{path: content}` map (tests, benchmarks). */
export function createMemoryTree(files: Readonly<Record<string, string>>, extraDirectories: readonly string[] = []): GitTree {
  const paths = Object.keys(files).sort();
  const dirs = new Set<string>(extraDirectories);
  for (const f of paths) {
    const segs = f.split('/');
    for (let i = 1; i < segs.length; i++) dirs.add(segs.slice(0, i).join('/'));
  }
  const dirList = [...dirs];
  return {
    listFiles: () => Promise.resolve(paths.slice()),
    listDirectories: () => Promise.resolve(dirList.slice()),
    readFiles: (_repo, _rev, ps) => Promise.resolve(ps.map((p) => files[p] ?? '')),
  };
}
