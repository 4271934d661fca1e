import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { readTextFile, resolveInside } from './fs.js';

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
  return {
    root: absRoot,
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
  return {
    root: absRoot,
    readText(path) {
      return readTextFile(resolveInside(absRoot, path), path);
    },
    exists(path) {
      try {
        return existsSync(resolveInside(absRoot, path));
      } catch {
        return false;
      }
    },
    isDirectory(path) {
      try {
        return statSync(resolveInside(absRoot, path)).isDirectory();
      } catch {
        return false;
      }
    },
    list(path) {
      try {
        return readdirSync(resolveInside(absRoot, path)).sort();
      } catch {
        return [];
      }
    },
  };
}
