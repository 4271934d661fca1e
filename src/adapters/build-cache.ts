/**
 * node:fs implementations of the build cache and the manifest writer.
 * Cache layout: `<cacheDir>/leaves-v1/<key[0..2]>/<key>.yaml`, the raw build output.
 */
import type { Dirent } from 'node:fs';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildCache, ManifestWriter, OutputFile } from '../ports/build-cache.js';
import { writeFileAtomic } from './fs.js';
import type { OutputSession } from './output.js';
import { openOutput, writeNewDirectory } from './output.js';

export { defaultCacheDir } from './cache-dir.js';

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

export function createManifestWriter(outDir: string): ManifestWriter & { close(): void } {
  // Paths are checked (no symlink below the output directory) and the files written are listed in
  // its manifest (src/adapters/output.ts): a file is removed only when an earlier run wrote it.
  let out: OutputSession | undefined;
  const session = () => (out ??= openOutput(outDir));
  return {
    replaceDirectory(relDir: string, files: readonly OutputFile[]) {
      const o = session();
      const dir = o.path(relDir);
      // The directory's files, listed once (undefined: it does not exist yet). A directory made
      // here gets its files written in place: no old file to keep whole for a reader, compare or
      // remove (`render --leaves` writes one directory per app; the temporary files, renames and
      // existence checks were a third of its own time into a fresh output directory).
      // A directory the session found absent (this run makes it) is neither looked for nor listed;
      // its files are created exclusively and checked on their descriptors (ADR 0259, 0294).
      if (o.claimNew(dir)) {
        for (const f of files) o.record(`${relDir}/${f.name}`);
        writeNewDirectory(o, dir, files);
        return;
      }
      let entries: Map<string, Dirent> | undefined;
      try {
        entries = existsSync(dir) ? new Map(readdirSync(dir, { withFileTypes: true }).map((e) => [e.name, e])) : undefined;
      } catch {
        entries = undefined;
      }
      if (entries === undefined) {
        mkdirSync(dir, { recursive: true });
        for (const f of files) {
          writeFileSync(o.path(`${relDir}/${f.name}`), f.content);
          o.record(`${relDir}/${f.name}`);
        }
        return;
      }
      const keep = new Set(files.map((f) => f.name));
      for (const f of files) {
        const p = o.path(`${relDir}/${f.name}`);
        o.record(`${relDir}/${f.name}`);
        if (entries.get(f.name)?.isFile() && readFileSync(p, 'utf8') === f.content) continue;
        writeFileAtomic(p, f.content);
      }
      for (const [name, e] of entries) {
        if (keep.has(name)) continue;
        if (e.isFile() && /\.[0-9a-f]{12}\.tmp$/.test(name)) rmSync(join(dir, name), { force: true });
        else if (o.wrote(`${relDir}/${name}`) && e.isFile()) {
          rmSync(join(dir, name), { force: true });
          o.forget(`${relDir}/${name}`);
        }
      }
    },
    close() {
      out?.save();
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
