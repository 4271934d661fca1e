/**
 * The Jsonnet Argo CD evaluates (issue #12 part 5, docs/adr/0319-validate-reads-jsonnet.md): the
 * `.jsonnet` files of the directory sources that `render --leaves` builds (render/leaves/jobs.ts
 * decides which apps are directory sources of this repository, exactly as for the build), kept by
 * the directory selection (recurse, include, exclude; the skip marker), with each Application's
 * `directory.jsonnet` settings. A `.jsonnet` file no such source selects is never judged.
 *
 * Also the static half of the checks: each file's import graph (`import`, `importstr`,
 * `importbin`, string literals only in Jsonnet), resolved as the importer resolves it, with every
 * import that would look outside the repository and every one that names nothing. Pure over a
 * RepoFileSystem; the evaluation with the real binary is jsonnet-evaluate.ts.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { leafJobsFor } from '../render/leaves/jobs.js';
import type { DirectoryOptions } from '../render/leaves/directory.js';
import { directoryFileManifests, directoryOptions, selectDirectoryFiles } from '../render/leaves/directory.js';
import type { JsonnetSettings } from '../render/leaves/jsonnet.js';
import { SKIP_RENDERING_MARKER, jsonnetImports } from '../render/leaves/jsonnet.js';

/** One Application's use of a Jsonnet directory source. */
export interface JsonnetUse {
  cluster: string;
  app: string;
  /** `Application NAME at file:line`, where known. */
  definedAt: string | undefined;
}

/** One distinct evaluation Argo CD runs: a source directory, its selected `.jsonnet` files, the settings. */
export interface JsonnetSource {
  /** The source directory, repository-relative. */
  dir: string;
  /** Its `.jsonnet` files Argo CD evaluates, repository-relative, in walk order. */
  files: string[];
  settings: JsonnetSettings;
  /** The Applications (per cluster) that read it. */
  uses: JsonnetUse[];
}

/** The key of one evaluation: the same file with the same settings is evaluated once. */
export function jsonnetEvaluationKey(dir: string, file: string, settings: JsonnetSettings): string {
  return JSON.stringify([dir, file, settings]);
}

function filesBelow(fs: RepoFileSystem, dir: string): string[] {
  const out: string[] = [];
  for (const name of fs.list(dir)) {
    const p = dir === '.' ? name : `${dir}/${name}`;
    if (fs.isDirectory(p)) out.push(...filesBelow(fs, p));
    else out.push(p);
  }
  return out;
}

/**
 * The `.jsonnet` files Argo CD evaluates in the directory `dir` read by the Argo CD `source`
 * (directory.recurse, include, exclude; the skip marker), repository-relative, in walk order.
 */
export function directoryJsonnetFiles(fs: RepoFileSystem, dir: string, source: DirectoryOptions | Record<string, unknown>): string[] {
  const options: DirectoryOptions = 'directory' in source ? directoryOptions(source) : (source as DirectoryOptions);
  const prefix = dir === '.' ? '' : `${dir}/`;
  const under = filesBelow(fs, dir).filter((f) => f.endsWith('.jsonnet'));
  const picked = new Set(selectDirectoryFiles(under.map((f) => f.slice(prefix.length)), options, { jsonnet: true }));
  return under.filter((f) => picked.has(f.slice(prefix.length)) && !fs.readText(f).includes(SKIP_RENDERING_MARKER));
}

/**
 * The YAML and JSON files of the directory `dir` that the Argo CD `source` reads (directory.recurse,
 * include, exclude) and that hold Kubernetes objects (the repo-server skips other YAML, such as Helm
 * values; a file that fails to parse counts: Argo CD reports it). Repository-relative, in walk order.
 */
export function directoryManifestFiles(fs: RepoFileSystem, dir: string, source: Record<string, unknown>): string[] {
  const prefix = dir === '.' ? '' : `${dir}/`;
  const under = filesBelow(fs, dir).filter((f) => /\.(ya?ml|json)$/.test(f));
  const picked = new Set(selectDirectoryFiles(under.map((f) => f.slice(prefix.length)), directoryOptions(source)));
  return under.filter((f) => {
    if (!picked.has(f.slice(prefix.length))) return false;
    try {
      return directoryFileManifests(fs.readText(f)) !== undefined;
    } catch {
      return true;
    }
  });
}

/** Every Jsonnet evaluation the clusters' directory sources of this repository ask Argo CD for. */
export function jsonnetSources(fleet: Fleet, clusters: readonly ResolvedCluster[], fs: RepoFileSystem): JsonnetSource[] {
  const byKey = new Map<string, JsonnetSource>();
  for (const job of leafJobsFor(fleet, clusters, fs).jobs) {
    const source = job.source;
    if (source.kind !== 'directory' || !fs.isDirectory(source.path)) continue;
    const dir = source.path.replace(/\/+$/, '') || '.';
    const files = directoryJsonnetFiles(fs, dir, { ...(source.recurse ? { recurse: true } : {}), ...(source.include ? { include: source.include } : {}), ...(source.exclude ? { exclude: source.exclude } : {}) });
    if (files.length === 0) continue;
    const settings = source.jsonnet ?? { extVars: [], tlas: [], libs: [] };
    const key = JSON.stringify([dir, files, settings]);
    let s = byKey.get(key);
    if (!s) byKey.set(key, (s = { dir, files, settings, uses: [] }));
    s.uses.push({ cluster: job.cluster, app: job.app, definedAt: source.definedAt });
  }
  return [...byKey.values()];
}

export interface JsonnetImportProblem {
  kind: 'outside' | 'missing' | 'lib-outside';
  /** The importing file (repository-relative); for `lib-outside`, the source directory. */
  file: string;
  line?: number;
  importKind?: 'import' | 'importstr' | 'importbin';
  /** The import path as written (or the lib). */
  path: string;
  /** For `outside`: the absolute path it would read. */
  target?: string;
}

function insideDir(root: string, abs: string): boolean {
  const r = relative(root, abs);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
}

/**
 * The import problems of evaluating `entry` (repository-relative) of the source `dir` with `libs`:
 * the import graph is walked as the Jsonnet importer resolves it (the importing file's directory,
 * then the libs last first, then the source directory; an absolute path as it is), and every
 * import leading outside the repository or matching nothing is returned with its file and line.
 * Files reached through `import` are read in turn; `importstr` and `importbin` only need to exist.
 */
export function jsonnetImportProblems(fs: RepoFileSystem, dir: string, entry: string, libs: readonly string[]): JsonnetImportProblem[] {
  const root = resolve(fs.root);
  const rel = (abs: string) => relative(root, abs).split(sep).join('/') || '.';
  const problems: JsonnetImportProblem[] = [];
  const searchPath = [resolve(root, dir)];
  for (const lib of libs) {
    const abs = resolve(join(root, lib));
    if (!insideDir(root, abs)) problems.push({ kind: 'lib-outside', file: dir, path: lib, target: abs });
    else searchPath.push(abs);
  }
  const kind = (abs: string): 'file' | 'dir' | undefined => (fs.isDirectory(rel(abs)) ? 'dir' : fs.exists(rel(abs)) ? 'file' : undefined);
  const start = resolve(root, entry);
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    let text: string;
    try {
      text = fs.readText(rel(file));
    } catch {
      continue;
    }
    for (const imp of jsonnetImports(text)) {
      if (imp.path === '') continue;
      const candidates = isAbsolute(imp.path) ? [imp.path] : [dirname(file), ...[...searchPath].reverse()].map((d) => join(d, imp.path));
      let found: string | undefined;
      let outside: string | undefined;
      for (const c of candidates) {
        const abs = resolve(c);
        if (!insideDir(root, abs)) {
          outside = abs;
          break;
        }
        const k = kind(abs);
        if (k === 'dir') {
          found = abs;
          break;
        }
        if (k === 'file') {
          found = abs;
          if (!seen.has(abs)) {
            seen.add(abs);
            if (imp.kind === 'import') queue.push(abs);
          }
          break;
        }
      }
      const at = { file: rel(file), line: imp.line, importKind: imp.kind, path: imp.path };
      if (outside !== undefined) problems.push({ kind: 'outside', ...at, target: outside });
      else if (found === undefined) problems.push({ kind: 'missing', ...at });
    }
  }
  return problems;
}
