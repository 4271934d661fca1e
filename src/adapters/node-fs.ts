import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { EntryKind, RepositoryWalk } from './fs.js';
import { readRegularFile, readTextFile, resolveInside, walkRepository } from './fs.js';

/**
 * The repository on the local disk. Answers about paths (exists, isDirectory, list) are cached for
 * the life of the object: a command reads a repository that does not change under it, and rules
 * ask about the same component directories for every cluster.
 *
 * Once `outsideLinks()` has walked the repository (loadFleet asks first), the walk's listings
 * answer too: a path reached through real directories only needs no `realpath` (no link on the
 * way), no `access` and no `stat` — one walk for the symlink check and the loading (at 5,000
 * clusters, four system calls fewer per file read). A path through a link, under `.git` or not
 * in the walk is answered from the disk as before.
 */
export function nodeFileSystem(root: string): RepoFileSystem {
  const absRoot = resolve(root);
  const fs = uncachedFileSystem(absRoot);
  const exists = new Map<string, boolean>();
  const isDir = new Map<string, boolean>();
  const lists = new Map<string, string[]>();
  let walk: RepositoryWalk | undefined;
  /** The walk's answer for `path`: its kind, null when it is not there, undefined when the walk cannot tell. */
  const walked = (path: string): EntryKind | null | undefined => {
    if (!walk) return undefined;
    if (path === '' || path === '.') return 'dir';
    let dir = '';
    let from = 0;
    for (;;) {
      const slash = path.indexOf('/', from);
      const part = slash < 0 ? path.slice(from) : path.slice(from, slash);
      if (part === '' || part === '.' || part === '..') return undefined;
      const entries = walk.dirs.get(dir);
      if (!entries) return undefined;
      const kind = entries.get(part);
      if (kind === undefined) return null;
      if (slash < 0) return kind;
      // Below a file nothing exists (ENOTDIR); below a link the disk answers.
      if (kind !== 'dir') return kind === 'link' ? undefined : null;
      dir = dir === '' ? part : `${dir}/${part}`;
      from = slash + 1;
    }
  };
  return {
    root: absRoot,
    outsideLinks() {
      walk ??= walkRepository(absRoot);
      return walk.links.map((l) => ({ ...l }));
    },
    readText(path) {
      return walked(path) === 'file' ? readRegularFile(join(absRoot, path), path, undefined, absRoot) : fs.readText(path);
    },
    exists(path) {
      let v = exists.get(path);
      if (v === undefined) {
        const kind = walked(path);
        v = kind === undefined || kind === 'link' ? fs.exists(path) : kind !== null;
        exists.set(path, v);
      }
      return v;
    },
    isDirectory(path) {
      let v = isDir.get(path);
      if (v === undefined) {
        const kind = walked(path);
        v = kind === undefined || kind === 'link' ? fs.isDirectory(path) : kind === 'dir';
        isDir.set(path, v);
      }
      return v;
    },
    list(path) {
      let v = lists.get(path);
      if (v === undefined) {
        const kind = walked(path);
        const entries = kind === 'dir' ? walk!.dirs.get(path === '.' ? '' : path) : undefined;
        v = entries ? [...entries.keys()].sort() : kind === null || kind === 'file' || kind === 'other' ? [] : fs.list(path);
        lists.set(path, v);
      }
      return [...v];
    },
  };
}

function uncachedFileSystem(absRoot: string): RepoFileSystem {
  // Each path is checked (inside the repository, through symlinks too) once, like the answers
  // above: loading a fleet asks whether a file exists and then reads it, two checks of three
  // system calls each per file (5,000 clusters: a tenth of `plan`). A refusal is not remembered.
  const checked = new Map<string, string>();
  const inside = (path: string): string => {
    let abs = checked.get(path);
    if (abs === undefined) checked.set(path, (abs = resolveInside(absRoot, path)));
    return abs;
  };
  return {
    root: absRoot,
    readText(path) {
      return readTextFile(inside(path), path, undefined, absRoot);
    },
    exists(path) {
      try {
        return existsSync(inside(path)) || isLoop(inside(path));
      } catch {
        return false;
      }
    },
    isDirectory(path) {
      try {
        return statSync(inside(path)).isDirectory();
      } catch {
        return false;
      }
    },
    list(path) {
      try {
        return readdirSync(inside(path)).sort();
      } catch {
        return [];
      }
    },
  };
}

/**
 * A path that cannot be resolved because of a symlink loop on the way (ELOOP) exists as far as a
 * reader asks (ADR 0258): the read that follows names it, where "no such file" would silently drop
 * a cluster whose cluster.yaml is such a loop.
 */
function isLoop(abs: string): boolean {
  try {
    statSync(abs);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ELOOP';
  }
}
