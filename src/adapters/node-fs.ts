import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { OutsideLink } from './fs.js';
import { findOutsideLinks, readTextFile, resolveInside } from './fs.js';

/**
 * The repository on the local disk. Answers about paths (exists, isDirectory, list) are cached for
 * the life of the object: a command reads a repository that does not change under it, and rules
 * ask about the same component directories for every cluster.
 */
export function nodeFileSystem(root: string): RepoFileSystem {
  const absRoot = resolve(root);
  const fs = uncachedFileSystem(absRoot);
  const exists = new Map<string, boolean>();
  const isDir = new Map<string, boolean>();
  const lists = new Map<string, string[]>();
  let links: OutsideLink[] | undefined;
  return {
    root: absRoot,
    outsideLinks() {
      links ??= findOutsideLinks(absRoot);
      return links.map((l) => ({ ...l }));
    },
    readText: (path) => fs.readText(path),
    exists(path) {
      let v = exists.get(path);
      if (v === undefined) exists.set(path, (v = fs.exists(path)));
      return v;
    },
    isDirectory(path) {
      let v = isDir.get(path);
      if (v === undefined) isDir.set(path, (v = fs.isDirectory(path)));
      return v;
    },
    list(path) {
      let v = lists.get(path);
      if (v === undefined) lists.set(path, (v = fs.list(path)));
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
