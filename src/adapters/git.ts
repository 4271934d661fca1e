/**
 * A `GitTree` over a local repository with real git. With a revision, the repository is read at
 * that commit, never the working tree: `git rev-parse` resolves HEAD, branches (also
 * `origin/<name>`), tags and SHAs; `git ls-tree -r -z` lists files (and `-d` directories); one
 * long-lived `git cat-file --batch` process returns contents. With no revision, the working
 * tree is read (tracked and untracked, not ignored, files).
 *
 * The `repoURL` of a generator is not fetched: every URL maps to this one local repository.
 * Call `close()` when done (it ends the cat-file process).
 */
import { spawn } from 'node:child_process';
import { gitEnv } from './git-origin.js';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { GitTree } from '../ports/git-repo.js';
import { InputError, ToolError } from '../errors/index.js';

export interface LocalGitTree extends GitTree {
  /** Resolves a revision to a commit SHA (throws InputError when unknown). */
  resolve(revision: string): Promise<string>;
  close(): void;
}

interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

function runGit(dir: string, args: string[]): Promise<RunResult> {
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn('git', ['-C', dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: gitEnv() });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      rejectRun(
        e.code === 'ENOENT'
          ? new ToolError('git is not installed or not on PATH', { code: 'git-missing', hint: 'install git', cause: e })
          : new ToolError(`cannot run git: ${e.message}`, { cause: e }),
      );
    });
    child.on('close', (code) => resolveRun({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8').trim() }));
  });
}

function splitZ(buf: Buffer): string[] {
  return buf
    .toString('utf8')
    .split('\0')
    .filter((s) => s.length > 0);
}

/** One `git cat-file --batch` process answering blob requests in order. */
class CatFileBatch {
  private child: ChildProcessWithoutNullStreams | undefined;
  private buf: Buffer = Buffer.alloc(0);
  private readonly queue: { resolve: (b: Buffer | undefined) => void; reject: (e: Error) => void }[] = [];

  constructor(private readonly dir: string) {}

  read(object: string): Promise<Buffer | undefined> {
    const child = this.start();
    if (this.queue.length === 0) this.setRef(child, true);
    return new Promise((resolveRead, rejectRead) => {
      this.queue.push({ resolve: resolveRead, reject: rejectRead });
      child.stdin.write(`${object}\n`);
    });
  }

  /**
   * The process keeps Node alive only while answers are pending, so a caller that forgets
   * `close()` does not hang the program.
   */
  private setRef(child: ChildProcessWithoutNullStreams, on: boolean): void {
    for (const h of [child, child.stdin, child.stdout, child.stderr] as { ref?: () => void; unref?: () => void }[]) {
      if (on) h.ref?.();
      else h.unref?.();
    }
  }

  close(): void {
    if (this.child) {
      this.child.stdin.end();
      this.child = undefined;
    }
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', ['-C', this.dir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'], env: gitEnv() });
    child.stdout.on('data', (d: Buffer) => {
      this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
      this.drain();
    });
    const fail = (e: Error): void => {
      for (const q of this.queue.splice(0)) q.reject(e);
      this.child = undefined;
    };
    child.on('error', (e) => fail(new ToolError(`cannot run git cat-file: ${e.message}`, { cause: e })));
    child.on('close', () => {
      if (this.queue.length > 0) fail(new ToolError('git cat-file --batch ended before answering'));
    });
    this.child = child;
    return child;
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const nl = this.buf.indexOf(10);
      if (nl < 0) return;
      const header = this.buf.subarray(0, nl).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buf = this.buf.subarray(nl + 1);
        this.queue.shift()!.resolve(undefined);
        continue;
      }
      const size = Number(header.split(' ')[2]);
      if (this.buf.length < nl + 1 + size + 1) return;
      const content = Buffer.from(this.buf.subarray(nl + 1, nl + 1 + size));
      this.buf = this.buf.subarray(nl + 1 + size + 1);
      this.queue.shift()!.resolve(content);
    }
    if (this.queue.length === 0 && this.child) this.setRef(this.child, false);
  }
}

interface TreeListing {
  files: string[];
  blobs: Map<string, string>;
}

export function createLocalGitTree(dir: string): LocalGitTree {
  const batch = new CatFileBatch(dir);
  const resolved = new Map<string, Promise<string>>();
  const listings = new Map<string, Promise<TreeListing>>();
  const dirListings = new Map<string, Promise<string[]>>();
  let checked: Promise<void> | undefined;

  const ensureRepo = (): Promise<void> => {
    checked ??= runGit(dir, ['rev-parse', '--git-dir']).then((r) => {
      if (r.code !== 0) {
        throw new InputError(`${dir} is not a git repository`, { code: 'not-a-git-repo', hint: 'give the repository with --repo DIR', location: { file: dir } });
      }
    });
    return checked;
  };

  const resolve = (revision: string): Promise<string> => {
    let p = resolved.get(revision);
    if (!p) {
      p = (async () => {
        await ensureRepo();
        for (const candidate of [revision, `refs/remotes/origin/${revision}`]) {
          const r = await runGit(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${candidate}^{commit}`]);
          if (r.code === 0) return r.stdout.toString('utf8').trim();
        }
        throw new InputError(`revision ${JSON.stringify(revision)} not found in ${dir}`, {
          code: 'unknown-revision',
          hint: 'use a commit SHA, tag or branch of the local repository (git fetch first for remote branches)',
        });
      })();
      resolved.set(revision, p);
    }
    return p;
  };

  const listAt = (sha: string): Promise<TreeListing> => {
    let p = listings.get(sha);
    if (!p) {
      p = runGit(dir, ['ls-tree', '-r', '-z', '--full-tree', sha]).then((r) => {
        if (r.code !== 0) throw new ToolError(`git ls-tree failed: ${r.stderr}`);
        const files: string[] = [];
        const blobs = new Map<string, string>();
        for (const entry of splitZ(r.stdout)) {
          const tab = entry.indexOf('\t');
          const [mode, type, oid] = entry.slice(0, tab).split(' ');
          // Regular files only: submodules (commit) have no content here, symlinks are skipped.
          if (type !== 'blob' || mode === '120000' || !oid) continue;
          const path = entry.slice(tab + 1);
          files.push(path);
          blobs.set(path, oid);
        }
        return { files, blobs };
      });
      listings.set(sha, p);
    }
    return p;
  };

  const workingTreeFiles = async (): Promise<string[]> => {
    await ensureRepo();
    const r = await runGit(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--full-name']);
    if (r.code !== 0) throw new ToolError(`git ls-files failed: ${r.stderr}`);
    const seen = new Set<string>();
    const out: string[] = [];
    for (const f of splitZ(r.stdout)) {
      if (seen.has(f)) continue;
      seen.add(f);
      const abs = join(dir, f);
      if (existsSync(abs) && lstatSync(abs).isFile()) out.push(f);
    }
    return out;
  };

  return {
    resolve,

    async listFiles(_repoURL, revision) {
      if (revision === '') return workingTreeFiles();
      return (await listAt(await resolve(revision))).files.slice();
    },

    async listDirectories(_repoURL, revision) {
      if (revision === '') {
        const dirs = new Set<string>();
        for (const f of await workingTreeFiles()) {
          const segs = f.split('/');
          for (let i = 1; i < segs.length; i++) dirs.add(segs.slice(0, i).join('/'));
        }
        return [...dirs];
      }
      const sha = await resolve(revision);
      let p = dirListings.get(sha);
      if (!p) {
        p = runGit(dir, ['ls-tree', '-r', '-d', '-z', '--name-only', '--full-tree', sha]).then((r) => {
          if (r.code !== 0) throw new ToolError(`git ls-tree failed: ${r.stderr}`);
          return splitZ(r.stdout);
        });
        dirListings.set(sha, p);
      }
      return (await p).slice();
    },

    async readFiles(_repoURL, revision, paths) {
      if (revision === '') return Promise.all(paths.map((p) => readFile(join(dir, p), 'utf8')));
      const sha = await resolve(revision);
      const { blobs } = await listAt(sha);
      return Promise.all(
        paths.map(async (p) => {
          const content = await batch.read(blobs.get(p) ?? `${sha}:${p}`);
          if (content === undefined) throw new InputError(`${p} does not exist at ${revision}`, { location: { file: p } });
          return content.toString('utf8');
        }),
      );
    },

    close() {
      batch.close();
    },
  };
}

/** The top-level directory of the work tree `dir` is in (real path), or undefined outside one. */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  const r = await runGit(dir, ['rev-parse', '--show-toplevel']);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : undefined;
}

/** Whether commit `ancestor` is `descendant` or one of its ancestors (`git merge-base --is-ancestor`). */
export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  const r = await runGit(dir, ['merge-base', '--is-ancestor', ancestor, descendant]);
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new ToolError(`git merge-base failed: ${r.stderr}`);
}

export { readRepositoryOrigin, repositoryOriginCommands, repositoryOriginOf } from './git-origin.js';
