import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { readTextFile, resolveInside } from './fs.js';

/** The repository on the local disk. */
export function nodeFileSystem(root: string): RepoFileSystem {
  const absRoot = resolve(root);
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
