/**
 * What one revision's load and validation read of the repository (its read-set), recorded at the
 * RepoFileSystem they read through, and whether a set of changed paths (as git lists them) can
 * touch it. Equal read inputs give equal loads and findings: loading and validation read files
 * only through that port (src/load, src/layouts and src/validate import no file-system or git
 * module; the eslint import rule keeps it so). Decisions: docs/adr/0267-diff-read-sets.md.
 */
import { posix } from 'node:path';
import type { StoredReads } from '../adapters/diff-records.js';
import type { RepoFileSystem } from '../ports/filesystem.js';

/** Repository paths ('' for the root) by how they were read. */
export interface ReadSet {
  /** Files whose content was read. */
  content: Set<string>;
  /** Paths asked whether they exist or are directories (what is there, not its content). */
  kind: Set<string>;
  /** Directories whose entries were listed. */
  list: Set<string>;
  /** Whether the repository's symlinks were asked for (any link changes the answer). */
  links: boolean;
  /** A path that could not be put in repository form ('..' leaving the root): the set cannot be trusted. */
  unknown: boolean;
}

export function emptyReadSet(): ReadSet {
  return { content: new Set(), kind: new Set(), list: new Set(), links: false, unknown: false };
}

/** A repository path in one spelling: no './', no trailing '/', '' for the root; undefined when it leaves the root. */
export function normalPath(path: string): string | undefined {
  if (path === '' || path === '.' || path === './') return '';
  const n = posix.normalize(path).replace(/\/+$/, '');
  if (n === '.' || n === '') return '';
  if (n === '..' || n.startsWith('../') || n.startsWith('/')) return undefined;
  return n;
}

/** normalPath of paths already seen (validation asks about the same few paths for every cluster × app × rule). */
const normalized = new Map<string, string | undefined>();
function normalOnce(path: string): string | undefined {
  if (normalized.has(path)) return normalized.get(path);
  if (normalized.size >= 100_000) normalized.clear();
  const n = normalPath(path);
  normalized.set(path, n);
  return n;
}

/** `fs`, with every question it answers added to `reads` (answers unchanged). */
export function recordingFileSystem(fs: RepoFileSystem, reads: ReadSet): RepoFileSystem {
  const note = (set: Set<string>, path: string): void => {
    const n = normalOnce(path);
    if (n === undefined) reads.unknown = true;
    else set.add(n);
  };
  const out: RepoFileSystem = {
    root: fs.root,
    readText(path) {
      note(reads.content, path);
      return fs.readText(path);
    },
    exists(path) {
      note(reads.kind, path);
      return fs.exists(path);
    },
    isDirectory(path) {
      note(reads.kind, path);
      return fs.isDirectory(path);
    },
    list(path) {
      note(reads.list, path);
      return fs.list(path);
    },
  };
  if (fs.outsideLinks) {
    const links = fs.outsideLinks.bind(fs);
    out.outsideLinks = () => {
      reads.links = true;
      return links();
    };
  }
  return out;
}

/** A path that differs between two revisions (git's view), repository-relative. */
export interface ChangedPath {
  path: string;
  /**
   * `content`: the same kind of entry on both sides, other bytes (git's M);
   * `entry`: added, deleted, or its type changed — a directory may appear or vanish with it
   * (git tracks no directories), and an untracked directory stands for all it holds.
   */
  change: 'content' | 'entry';
}

/**
 * The first changed path the read-set depends on, or undefined when none: a read file's content,
 * or an entry at, above or below any path that was read, asked about or listed (its kind, or a
 * listing of a directory above it, may differ).
 */
export function touchedBy(reads: ReadSet, changes: readonly ChangedPath[]): string | undefined {
  let above: Set<string> | undefined;
  const under = (): Set<string> => {
    if (above) return above;
    above = new Set();
    for (const set of [reads.content, reads.kind, reads.list]) {
      for (const p of set) {
        for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) above.add(p.slice(0, i));
        if (p !== '') above.add('');
      }
    }
    return above;
  };
  const read = (p: string) => reads.content.has(p) || reads.kind.has(p) || reads.list.has(p);
  for (const c of changes) {
    if (c.change === 'content') {
      if (reads.content.has(c.path)) return c.path;
      continue;
    }
    // The entry itself, any directory above it (created, emptied or listed), anything below it.
    if (read(c.path) || under().has(c.path)) return c.path;
    for (let p = c.path; p !== ''; ) {
      const i = p.lastIndexOf('/');
      p = i < 0 ? '' : p.slice(0, i);
      if (read(p)) return c.path;
    }
  }
  return undefined;
}

/**
 * touchedBy(readSetOf(r), changes) of a recorded read-set, read from its sorted lists without
 * building sets of them (the warm diff asks it of records of thousands of paths for a handful of
 * changes: docs/adr/0334-diff-warm-path-one-shell.md). The lists must be strictly increasing in
 * UTF-16 order, as readSetRecord writes them (readRecord takes no record whose lists are not).
 */
export function touchedByRecord(r: StoredReads, changes: readonly ChangedPath[]): string | undefined {
  const lists = [r.content, r.kind, r.list];
  // The first index whose path is >= p.
  const lower = (list: readonly string[], p: string): number => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const has = (list: readonly string[], p: string): boolean => {
    const i = lower(list, p);
    return i < list.length && list[i] === p;
  };
  const read = (p: string): boolean => lists.some((l) => has(l, p));
  // A path below p was read, asked about or listed (p is a directory above it); '' is above every other path.
  const below = (p: string): boolean =>
    lists.some((l) => {
      if (p === '') return l.some((q) => q !== '');
      const i = lower(l, `${p}/`);
      return i < l.length && l[i]!.startsWith(`${p}/`);
    });
  for (const c of changes) {
    if (c.change === 'content') {
      if (has(r.content, c.path)) return c.path;
      continue;
    }
    if (read(c.path) || below(c.path)) return c.path;
    for (let p = c.path; p !== ''; ) {
      const i = p.lastIndexOf('/');
      p = i < 0 ? '' : p.slice(0, i);
      if (read(p)) return c.path;
    }
  }
  return undefined;
}

/** A read-set as a record keeps it (sorted lists). */
export function readSetRecord(reads: ReadSet): StoredReads {
  const sorted = (s: Set<string>) => [...s].sort();
  return { content: sorted(reads.content), kind: sorted(reads.kind), list: sorted(reads.list), links: reads.links };
}

/** A recorded read-set, to test changes against. */
export function readSetOf(r: StoredReads): ReadSet {
  return { content: new Set(r.content), kind: new Set(r.kind), list: new Set(r.list), links: r.links, unknown: false };
}
