/**
 * File-system access for everything that reads the repository or writes output.
 * Paths given by users stay inside the repository; files are size-limited; writes are atomic.
 */
import type { Dirent, Stats } from 'node:fs';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, readlinkSync, realpathSync, renameSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { InputError } from '../errors/index.js';

/** Refuse input files above this size: fleet files are small; a huge one is a mistake or an attack. */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/** Repository-relative path with forward slashes. */
export function toRepoPath(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/');
}

/**
 * Resolves `rel` (relative to `root`, or to `base` inside root) and refuses paths that escape
 * the repository, lexically or through a symlink.
 */
export function resolveInside(root: string, rel: string, base = root): string {
  const abs = isAbsolute(rel) ? resolve(rel) : resolve(base, rel);
  if (!isWithin(root, abs)) {
    throw new InputError(`path "${rel}" escapes the repository`, {
      code: 'path-escapes-repo',
      hint: 'use a path inside the repository',
    });
  }
  // The native realpath(3): one system call, where the JS version lstat()s every path component
  // (loading a fleet resolves every file it reads; at 5,000 clusters that was ~5% of `plan`). A
  // path that does not exist (yet) has nothing to follow.
  let real: string | undefined;
  try {
    real = realpathSync.native(abs);
  } catch {
    // Missing, or not resolvable (a loop, no permission): what reads it next says which.
  }
  if (real !== undefined) {
    if (!isWithin(realRootOf(root), real)) {
      const link = linkLeavingRoot(root, abs);
      const shown = toRepoPath(root, abs);
      const via = link ? `: ${link.link} is a symlink to ${link.target}` : ` (it resolves to ${real})`;
      throw new InputError(`${shown} leads outside the repository${via}`, {
        code: 'symlink-outside-repo',
        location: { file: link?.link ?? shown },
        hint: SYMLINK_HINT,
      });
    }
  }
  return abs;
}

export const SYMLINK_HINT =
  'Argo CD\'s repo-server refuses a repository with such a link ("repository contains out-of-bounds symlinks"): ' +
  'replace the link with the file itself, or with a relative link to a file inside the repository';

/** A symlink in the repository, named by its repository path, and the target it holds (as written). */
export interface OutsideLink {
  link: string;
  target: string;
}

/**
 * The first symlink on the way from `root` to `abs` (a path inside root) whose target leaves the
 * repository (lexically from the link's directory, or through further links), for messages.
 */
function linkLeavingRoot(root: string, abs: string): OutsideLink | undefined {
  const parts = toRepoPath(root, abs).split('/').filter((p) => p !== '');
  const base = realRootOf(root);
  let cur = base;
  let followed = false;
  for (let i = 0; i < parts.length; i++) {
    cur = join(cur, parts[i]!);
    const shown = followed ? toRepoPath(base, cur) : parts.slice(0, i + 1).join('/');
    let target: string;
    try {
      if (!lstatSync(cur).isSymbolicLink()) continue;
      target = readlinkSync(cur);
    } catch {
      return undefined;
    }
    if (linkLeaves(base, cur, target)) return { link: shown, target };
    // A link that stays inside: follow it and keep walking from where it leads.
    try {
      cur = realpathSync.native(cur);
    } catch {
      return undefined;
    }
    if (!isWithin(base, cur)) return { link: shown, target };
    followed = true;
  }
  return undefined;
}

/**
 * Argo CD's rule for a symlink at `abs` holding `target`: an absolute target is out of bounds (even
 * one that points back into this checkout: the repo-server's checkout is elsewhere), and so is a
 * relative one that leaves the repository from the link's directory.
 */
function linkLeaves(root: string, abs: string, target: string): boolean {
  if (isAbsolute(target)) return true;
  return !isWithin(root, resolve(dirname(abs), target));
}

/**
 * Every symlink under `root` (not following links, `.git` skipped) whose target is absolute or
 * leaves the repository: what Argo CD's repo-server checks before it generates any manifest, and
 * refuses the whole repository for. Sorted by link path.
 */
export function findOutsideLinks(root: string, under = ''): OutsideLink[] {
  return walkRepository(root, under).links;
}

/** What a directory held when the repository was walked: entry name → kind (a link is not followed). */
export type EntryKind = 'file' | 'dir' | 'link' | 'other';

export interface RepositoryWalk {
  /** The links leaving the repository, sorted by link path (findOutsideLinks). */
  links: OutsideLink[];
  /**
   * Every real directory the walk listed (repository path, '' for the root; neither `.git` nor
   * anything below a link): its entries in readdir's order. A directory reached through a link,
   * or deeper than the walk goes, is not here.
   */
  dirs: Map<string, Map<string, EntryKind>>;
}

/**
 * One walk of the repository (from `under`, default the root), which serves the symlink check and
 * the loading that follows it: the directories it listed answer exists / isDirectory / list
 * without another system call (src/adapters/node-fs.ts).
 */
export function walkRepository(root: string, under = ''): RepositoryWalk {
  const absRoot = resolve(root);
  const out: OutsideLink[] = [];
  const dirs = new Map<string, Map<string, EntryKind>>();
  const walk = (dir: string, rel: string, depth: number): void => {
    if (depth > 128) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const kinds = new Map<string, EntryKind>();
    dirs.set(rel, kinds);
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isSymbolicLink()) {
        kinds.set(e.name, 'link');
        let target: string;
        try {
          target = readlinkSync(abs);
        } catch {
          continue;
        }
        if (linkLeaves(absRoot, abs, target)) out.push({ link: toRepoPath(absRoot, abs), target });
      } else if (e.isDirectory()) {
        kinds.set(e.name, 'dir');
        if (!(dir === absRoot && e.name === '.git')) walk(abs, rel === '' ? e.name : `${rel}/${e.name}`, depth + 1);
      } else {
        kinds.set(e.name, e.isFile() ? 'file' : 'other');
      }
    }
  };
  const start = under === '' ? absRoot : resolve(absRoot, under);
  // A start that is itself a link is checked as one.
  try {
    if (start !== absRoot && lstatSync(start).isSymbolicLink()) {
      const target = readlinkSync(start);
      return { links: linkLeaves(absRoot, start, target) ? [{ link: toRepoPath(absRoot, start), target }] : [], dirs };
    }
  } catch {
    return { links: [], dirs };
  }
  const startRel = toRepoPath(absRoot, start);
  walk(start, startRel, 0);
  // Only a walk from a directory inside the repository describes repository paths.
  if (!isWithin(absRoot, start)) dirs.clear();
  return { links: out.sort((a, b) => (a.link < b.link ? -1 : a.link > b.link ? 1 : 0)), dirs };
}

/** The real path of each repository root, resolved once per process (roots do not move under a command). */
const realRoots = new Map<string, string>();
function realRootOf(root: string): string {
  let r = realRoots.get(root);
  if (r === undefined) {
    r = realpathSync.native(root);
    if (realRoots.size > 64) realRoots.clear();
    realRoots.set(root, r);
  }
  return r;
}

export function isWithin(root: string, abs: string): boolean {
  const r = relative(resolve(root), resolve(abs));
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * Reads a UTF-8 text file, refusing files larger than `maxBytes`, and anything that is not a
 * regular file. The file is opened first and everything is decided on the open descriptor (ADR
 * 0259): its type and size by fstat, and — given `insideRoot` — where it really is, by the
 * descriptor's own path (/proc/self/fd) or, without /proc, by the device and inode of the path's
 * real path. A symlink swapped in after the caller's check therefore cannot make this read a file
 * outside the repository. Opened non-blocking, so a FIFO is refused instead of waited on; at most
 * `maxBytes` + 1 bytes are read, so a file that grows after the fstat is refused too.
 */
export function readTextFile(abs: string, displayPath: string, maxBytes = MAX_INPUT_BYTES, insideRoot?: string): string {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    throw unreadable(displayPath, e);
  }
  try {
    let st: Stats;
    try {
      st = fstatSync(fd);
    } catch (e) {
      throw unreadable(displayPath, e);
    }
    if (!st.isFile()) {
      // A FIFO or a device would block or never end; a directory is not a file either.
      throw new InputError(`${displayPath} is ${st.isDirectory() ? 'a directory' : 'not a regular file'}`, {
        code: 'unreadable-file',
        location: { file: displayPath },
        hint: 'fleet files are regular files',
      });
    }
    if (st.size > maxBytes) throw tooLarge(displayPath, st.size, maxBytes);
    if (insideRoot !== undefined) checkOpenedInside(fd, st, abs, insideRoot, displayPath);
    let buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let len = 0;
    for (;;) {
      const n = readSync(fd, buf, len, buf.length - len, null);
      if (n === 0) break;
      len += n;
      if (len === buf.length) {
        if (len > maxBytes) throw tooLarge(displayPath, len, maxBytes);
        // The file grew since the fstat: keep reading, up to the limit.
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
    }
    return buf.toString('utf8', 0, len);
  } finally {
    closeSync(fd);
  }
}

function unreadable(displayPath: string, e: unknown): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  return new InputError(`cannot read ${displayPath}: ${code === 'ELOOP' ? 'a symlink loop on the way to it (ELOOP)' : (code ?? (e as Error).message)}`, {
    code: 'unreadable-file',
    location: { file: displayPath },
    cause: e,
    ...(code === 'ELOOP' ? { hint: 'a symlink on this path leads back to itself: replace it with the file or directory it should name' } : {}),
  });
}

function tooLarge(displayPath: string, size: number, maxBytes: number): InputError {
  return new InputError(`file is ${size} bytes, more than the limit of ${maxBytes}`, {
    code: 'file-too-large',
    location: { file: displayPath },
    hint: 'split the file; fleet files are expected to be small',
  });
}

/** The opened file is inside the repository's real path (checked on the descriptor, not on the name). */
function checkOpenedInside(fd: number, st: Stats, abs: string, root: string, displayPath: string): void {
  let real: string | undefined;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // No /proc: the real path of the name, accepted only if it is the very file that is open.
    try {
      const candidate = realpathSync.native(abs);
      const cst = statSync(candidate);
      if (cst.dev === st.dev && cst.ino === st.ino) real = candidate;
    } catch {
      // left undefined: refused below
    }
  }
  if (real === undefined || !isAbsolute(real) || !isWithin(realRootOf(root), real)) {
    throw new InputError(`${displayPath} leads outside the repository${real === undefined ? ' (it changed while being read)' : ` (it resolves to ${real})`}`, {
      code: 'symlink-outside-repo',
      location: { file: displayPath },
      hint: SYMLINK_HINT,
    });
  }
}

/**
 * readTextFile for a file known to be a regular file (a repository walk listed it): one open and
 * one fstat instead of a stat, then the open and fstat of the read. Opened non-blocking, so that a
 * FIFO put in its place since the walk is refused rather than waited on.
 */
export function readRegularFile(abs: string, displayPath: string, maxBytes = MAX_INPUT_BYTES, insideRoot?: string): string {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw unreadable(displayPath, e);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return readTextFile(abs, displayPath, maxBytes, insideRoot);
    // A directory swapped for a link since the walk must not lead the read outside: decided on
    // the open descriptor, as readTextFile does.
    if (insideRoot !== undefined) checkOpenedInside(fd, st, abs, insideRoot, displayPath);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Writes through a temporary file in the same directory and renames it into place. */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
