/**
 * A committed revision of the fleet read straight from git's object store, without a checkout:
 * `git ls-tree -r -t` lists every path (what exists, what is a directory, what a directory
 * holds), `git cat-file --batch` reads the blobs asked for in advance, and `git cat-file blob`
 * any other one. `diff` uses it for a revision whose load reads nothing that differs from a
 * recorded one (docs/adr/0296-diff-tree-reads.md): checking out a 1,000-cluster fleet and removing
 * it again cost more than loading and validating it.
 *
 * It answers exactly as the checkout would (adapters/node-fs.ts on `git checkout`) only for what
 * it can tell: a tree with a symlink or submodule is refused (undefined), and any question it
 * cannot answer the same way — a path not in canonical form, below `.git`, a file that is not
 * there or too large, a read of a directory — is remembered (`doubt()`); the caller then throws
 * away what it read this way and checks the revision out.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { MAX_INPUT_BYTES } from './fs.js';
import type { FleetCheckout } from './git-snapshot.js';
import { gitEnv } from './git-origin.js';

export interface TreeFileSystem {
  fs: RepoFileSystem;
  /** The first question answered differently from a checkout, or undefined. */
  doubt(): string | undefined;
  close(): void;
}

// Only what git needs (ADR 0212): never the caller's GIT_DIR, GIT_INDEX_FILE or GIT_WORK_TREE (docs/adr/0406).
const ENV = gitEnv();
const gitSync = (top: string, args: readonly string[], input?: string): Buffer =>
  execFileSync('git', ['-C', top, ...args], { env: ENV, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'ignore'], ...(input !== undefined ? { input } : {}) });

interface Entry {
  tree: boolean;
  oid: string;
}

/**
 * The fleet at `commit` as a RepoFileSystem whose root has the checkout's name (a layout may name
 * the fleet after its directory); `prefetch`: paths to read in one batch. Undefined when git
 * cannot list the tree or it holds a symlink or submodule.
 */
export function treeFileSystem(where: FleetCheckout, commit: string, prefetch: readonly string[]): TreeFileSystem | undefined {
  const treeish = `${commit}^{tree}${where.prefix === '' ? '' : `:${where.prefix}`}`;
  let listing: string;
  try {
    listing = gitSync(where.top, ['ls-tree', '-r', '-t', '-z', '--end-of-options', treeish]).toString('utf8');
  } catch {
    return undefined;
  }
  // A checkout's bytes are the blob's unless attributes or configuration convert them (eol, text,
  // filters, working-tree-encoding): any of those, in the tree, above it, or in git's configuration, and it is not served.
  if (converts(where, commit)) return undefined;
  const entries = new Map<string, Entry>();
  const dirs = new Map<string, string[]>([['', []]]);
  for (const line of listing.split('\0')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const [mode, type, oid] = line.slice(0, tab).split(' ');
    const path = line.slice(tab + 1);
    if (mode === '120000' || mode === '160000' || (type !== 'blob' && type !== 'tree') || oid === undefined) return undefined;
    if (path === '.gitattributes' || path.endsWith('/.gitattributes')) return undefined;
    entries.set(path, { tree: type === 'tree', oid });
    if (type === 'tree') dirs.set(path, dirs.get(path) ?? []);
    const slash = path.lastIndexOf('/');
    const parent = slash < 0 ? '' : path.slice(0, slash);
    let list = dirs.get(parent);
    if (!list) dirs.set(parent, (list = []));
    list.push(slash < 0 ? path : path.slice(slash + 1));
  }
  // The checkout's .git sits in the fleet root when the fleet is the whole repository.
  const gitDir = where.prefix === '';
  if (gitDir) dirs.get('')!.push('.git');
  for (const list of dirs.values()) list.sort();
  const blobs = new Map<string, Buffer>();
  const wanted = [...new Set(prefetch.map((p) => entries.get(p)).filter((e): e is Entry => e !== undefined && !e.tree).map((e) => e.oid))];
  if (wanted.length) {
    let out: Buffer;
    try {
      out = gitSync(where.top, ['cat-file', '--batch'], wanted.join('\n') + '\n');
    } catch {
      return undefined;
    }
    let at = 0;
    while (at < out.length) {
      const nl = out.indexOf(10, at);
      const [oid, type, size] = out.subarray(at, nl).toString('latin1').split(' ');
      if (type !== 'blob' || oid === undefined || size === undefined) return undefined;
      const n = Number(size);
      blobs.set(oid, out.subarray(nl + 1, nl + 1 + n));
      at = nl + 1 + n + 1;
    }
  }
  let doubt: string | undefined;
  const doubtful = (path: string): undefined => {
    doubt ??= path;
    return undefined;
  };
  /** The repository path as node-fs would find it on the checkout; undefined (and a doubt) when this cannot tell. */
  const canonical = (path: string): string | undefined => {
    if (path === '' || path === '.') return '';
    if (path.startsWith('/') || path.endsWith('/') || path.startsWith('./') || path.includes('//') || path.split('/').some((p) => p === '.' || p === '..')) return doubtful(path);
    if (gitDir && (path === '.git' || path.startsWith('.git/'))) return path === '.git' ? path : doubtful(path);
    return path;
  };
  const parent = mkdtempSync(join(tmpdir(), 'fleetplan-diff-'));
  const root = where.prefix === '' ? join(parent, basename(where.top)) : join(parent, basename(where.top), ...where.prefix.split('/'));
  mkdirSync(root, { recursive: true });
  const fs: RepoFileSystem = {
    root,
    readText(path) {
      const p = canonical(path);
      const e = p === undefined ? undefined : entries.get(p);
      if (e === undefined || e.tree) {
        doubtful(path);
        throw new Error(`${path}: not read from git (the revision is checked out instead)`);
      }
      let blob = blobs.get(e.oid);
      if (blob === undefined) {
        try {
          blob = gitSync(where.top, ['cat-file', 'blob', e.oid]);
        } catch {
          doubtful(path);
          throw new Error(`${path}: git could not read it`);
        }
        blobs.set(e.oid, blob);
      }
      if (blob.length > MAX_INPUT_BYTES) {
        doubtful(path);
        throw new Error(`${path}: too large`);
      }
      return blob.toString('utf8');
    },
    exists(path) {
      const p = canonical(path);
      return p !== undefined && (p === '' || (gitDir && p === '.git') || entries.has(p));
    },
    isDirectory(path) {
      const p = canonical(path);
      return p !== undefined && (p === '' || (gitDir && p === '.git') || entries.get(p)?.tree === true);
    },
    list(path) {
      const p = canonical(path);
      if (p === '.git') return doubtful(path) ?? [];
      return p === undefined ? [] : [...(dirs.get(p) ?? [])];
    },
    outsideLinks() {
      // The tree holds no symlink (refused above).
      return [];
    },
  };
  return { fs, doubt: () => doubt, close: () => rmSync(parent, { recursive: true, force: true }) };
}

/**
 * Whether checking `commit` out could write other bytes than its blobs: a `.gitattributes` in a
 * directory above the fleet, or configuration that converts line endings or names an attributes file (the
 * repository's own configuration is read too, which is more than the checkout's clone inherits).
 */
function converts(where: FleetCheckout, commit: string): boolean {
  const parts = where.prefix === '' ? [] : where.prefix.split('/');
  const above = parts.map((_, i) => [...parts.slice(0, i), '.gitattributes'].join('/'));
  try {
    if (above.length && gitSync(where.top, ['ls-tree', '-z', '--name-only', '--end-of-options', commit, '--', ...above]).length > 0) return true;
  } catch {
    return true;
  }
  try {
    // Exit 1: no such setting.
    return gitSync(where.top, ['config', '--get-regexp', '^core\\.(autocrlf|eol|attributesfile)$']).toString('utf8').trim() !== '';
  } catch (e) {
    return (e as { status?: number }).status !== 1;
  }
}
