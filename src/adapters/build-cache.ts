/**
 * node:fs implementations of the build cache and the manifest writer.
 * Cache layout: `<cacheDir>/leaves-v1/<key[0..2]>/<key>.yaml`, the raw build output.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildCache, ManifestWriter, OutputFile } from '../ports/build-cache.js';
import { writeFileAtomic } from './fs.js';

/** The cache directory when none is given: `$XDG_CACHE_HOME/fleetplan`, else `$HOME/.cache/fleetplan`. */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'fleetplan');
  if (env.HOME) return join(env.HOME, '.cache', 'fleetplan');
  return undefined;
}

export function createDirectoryCache(cacheDir: string): BuildCache {
  const root = join(cacheDir, 'leaves-v1');
  const file = (key: string) => join(root, key.slice(0, 2), `${key}.yaml`);
  return {
    get(key) {
      try {
        return readFileSync(file(key), 'utf8');
      } catch {
        return undefined;
      }
    },
    put(key, text) {
      writeFileAtomic(file(key), text);
    },
  };
}

/** A cache that lives for one run only (no cache directory). */
export function createMemoryCache(): BuildCache {
  const m = new Map<string, string>();
  return { get: (k) => m.get(k), put: (k, t) => void m.set(k, t) };
}

export function createManifestWriter(outDir: string): ManifestWriter {
  return {
    replaceDirectory(relDir: string, files: readonly OutputFile[]) {
      const dir = join(outDir, ...relDir.split('/'));
      // The directory's files, listed once (undefined: it does not exist yet). A directory made
      // here gets its files written in place: no old file to keep whole for a reader, compare or
      // remove (`render --leaves` writes one directory per app; the temporary files, renames and
      // existence checks were a third of its own time into a fresh output directory).
      // existsSync first: a failing readdirSync costs an exception (with a stack) per directory.
      let names: string[] | undefined;
      try {
        names = existsSync(dir) ? readdirSync(dir) : undefined;
      } catch {
        names = undefined;
      }
      if (names === undefined) {
        mkdirSync(dir, { recursive: true });
        for (const f of files) writeFileSync(join(dir, f.name), f.content);
        return;
      }
      const present = new Set(names);
      const keep = new Set(files.map((f) => f.name));
      for (const f of files) {
        const p = join(dir, f.name);
        if (present.has(f.name) && readFileSync(p, 'utf8') === f.content) continue;
        writeFileAtomic(p, f.content);
      }
      for (const name of names) {
        if (name.endsWith('.yaml') && !keep.has(name)) rmSync(join(dir, name), { force: true });
      }
    },
  };
}

/**
 * Finds `<name>-<version>.tgz` in `<cacheDir>/charts` or Helm's own repository cache
 * (`$HELM_CACHE_HOME/repository`, else `$XDG_CACHE_HOME/helm/repository`, else `~/.cache/helm/repository`).
 */
export function createChartArchiveLocator(
  cacheDir: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): (chart: string, version: string | undefined) => string | undefined {
  const dirs: string[] = [];
  if (cacheDir) dirs.push(join(cacheDir, 'charts'));
  if (env.HELM_CACHE_HOME) dirs.push(join(env.HELM_CACHE_HOME, 'repository'));
  else if (env.XDG_CACHE_HOME) dirs.push(join(env.XDG_CACHE_HOME, 'helm', 'repository'));
  else if (env.HOME) dirs.push(join(env.HOME, '.cache', 'helm', 'repository'));
  return (chart, version) => {
    if (!version || chart.includes('/') || chart.includes('..')) return undefined;
    for (const d of dirs) {
      const p = join(d, `${chart}-${version}.tgz`);
      if (existsSync(p)) return p;
    }
    return undefined;
  };
}
