/**
 * Jsonnet files of a directory source, evaluated while following a repository as Argo CD does
 * (docs/adr/0318-plan-follows-jsonnet.md): an app-of-apps written in Jsonnet produces its child
 * Applications and ApplicationSets only when evaluated, exactly as the repo-server evaluates it
 * (render/leaves/jsonnet.ts, ADR 0303): the files the directory selection keeps, `extVars` and
 * `tlas` with the Application's build environment substituted, `libs`, imports kept inside the
 * repository. The evaluation runs through the JsonnetTool port (the real binary); without one,
 * nothing is evaluated and the caller says which Applications were not followed.
 *
 * Pure apart from the port: reads through the RepoFileSystem, writes nothing, reaches no network.
 */
import { relative, resolve, sep } from 'node:path';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { JsonnetTool } from '../../ports/tools.js';
import type { SourceReader } from '../../ports/source-reader.js';
import { InputError, ToolError } from '../../errors/index.js';
import { isPlainObject } from '../../model/merge.js';
import { directoryOptions, selectDirectoryFiles } from '../../render/leaves/directory.js';
import type { JsonnetSettings } from '../../render/leaves/jsonnet.js';
import { JSONNET_MAX_OUTPUT_BYTES, JSONNET_TIMEOUT_MS, SKIP_RENDERING_MARKER, jsonnetErrorLocation, jsonnetStdLibraryGap, lineOf, jsonnetOutputManifests, jsonnetReads, jsonnetSearchPath, jsonnetSettings } from '../../render/leaves/jsonnet.js';
import { argoBuildEnvironment, envsubst } from '../../render/leaves/jobs.js';
import { repositoryFiles } from './scan.js';

/**
 * The files a directory source at `path` reads, in the repo-server's walk order, `.jsonnet` ones
 * included (those holding Argo CD's skip marker left out). `allFiles`: every repository file.
 */
export function directorySourceFiles(fs: RepoFileSystem, allFiles: readonly string[], path: string, source: Record<string, unknown>): string[] {
  const prefix = path === '.' ? '' : `${path}/`;
  const under = allFiles.filter((f) => f.startsWith(prefix));
  const picked = new Set(selectDirectoryFiles(under.map((f) => f.slice(prefix.length)), directoryOptions(source), { jsonnet: true }));
  return under.filter((f) => picked.has(f.slice(prefix.length)) && (!f.endsWith('.jsonnet') || !fs.readText(f).includes(SKIP_RENDERING_MARKER)));
}

/**
 * Jsonnet files (`.jsonnet`, `.libsonnet`) that write Argo CD objects (they name argoproj.io and
 * Application or ApplicationSet), sorted: what a repository that keeps its roots in Jsonnet has
 * instead of YAML Applications (the "not a fleet repository" message names them).
 */
export function jsonnetArgoFiles(fs: RepoFileSystem): string[] {
  return repositoryFiles(fs).filter((f) => {
    if (!/\.(jsonnet|libsonnet)$/.test(f)) return false;
    try {
      const text = fs.readText(f);
      return text.length < 2_000_000 && text.includes('argoproj.io') && /\bApplication(Set)?\b/.test(text);
    } catch {
      return false;
    }
  }).sort();
}

/** The Jsonnet settings of one Application's source, its values substituted from the Application's build environment. */
export function applicationJsonnetSettings(app: Record<string, unknown>, source: Record<string, unknown>): JsonnetSettings {
  const md = isPlainObject(app.metadata) ? app.metadata : {};
  const spec = isPlainObject(app.spec) ? app.spec : {};
  const dest = isPlainObject(spec.destination) ? spec.destination : {};
  const env = argoBuildEnvironment(source, {
    name: typeof md.name === 'string' ? md.name : '',
    namespace: typeof dest.namespace === 'string' ? dest.namespace : '',
    project: typeof spec.project === 'string' ? spec.project : '',
  });
  return jsonnetSettings(source, (v) => envsubst(v, env));
}

/** Why an evaluation gave no objects: said at a file and line where Jsonnet or the import check names one. */
export interface JsonnetProblem {
  code: string;
  message: string;
  file: string;
  line?: number;
  column?: number;
  hint?: string;
}

export type JsonnetOutcome =
  | { kind: 'objects'; text: string }
  /** No Jsonnet to run (why): the caller says which Applications were not followed. */
  | { kind: 'no-tool'; reason: string; hint?: string }
  | { kind: 'failed'; problem: JsonnetProblem };

/** A SourceReader over the repository's file system: absolute paths below its root. */
function readerOf(fs: RepoFileSystem, root: string): Pick<SourceReader, 'kind' | 'readText'> {
  const rel = (abs: string) => relative(root, abs).split(sep).join('/') || '.';
  return {
    kind: (abs) => {
      const r = rel(abs);
      if (r.startsWith('../') || r === '..') return undefined;
      return fs.isDirectory(r) ? 'dir' : fs.exists(r) ? 'file' : undefined;
    },
    readText: (abs) => fs.readText(rel(abs)),
  };
}

/**
 * Evaluates Jsonnet files of the repository, each (file, settings) once: the same app-of-apps
 * applied to several clusters is evaluated once per distinct ext vars and TLAs.
 */
export class JsonnetEvaluator {
  private tool: Promise<JsonnetTool | { reason: string; hint?: string }> | undefined;
  private readonly done = new Map<string, Promise<JsonnetOutcome>>();
  private readonly root: string;

  constructor(
    private readonly fs: RepoFileSystem,
    private readonly locate: (() => Promise<JsonnetTool>) | undefined,
  ) {
    this.root = resolve(fs.root);
  }

  private rel(abs: string): string {
    return relative(this.root, abs).split(sep).join('/') || '.';
  }

  private located(): Promise<JsonnetTool | { reason: string; hint?: string }> {
    if (!this.tool) {
      const locate = this.locate;
      this.tool = locate
        ? locate().catch((e: unknown) => ({ reason: (e as Error).message, ...((e as ToolError).hint !== undefined ? { hint: (e as ToolError).hint } : {}) }))
        : Promise.resolve({ reason: 'this run has no way to find a Jsonnet' });
    }
    return this.tool;
  }

  /** The objects `file` (repository-relative, in the source directory `dir`) produces with `settings`, as a YAML stream. */
  evaluate(dir: string, file: string, settings: JsonnetSettings, what: string): Promise<JsonnetOutcome> {
    const key = JSON.stringify([dir, file, settings]);
    let p = this.done.get(key);
    if (!p) this.done.set(key, (p = this.run(dir, file, settings, what)));
    return p;
  }

  private async run(dir: string, file: string, settings: JsonnetSettings, what: string): Promise<JsonnetOutcome> {
    const abs = resolve(this.root, file);
    let searchPath: string[];
    try {
      searchPath = jsonnetSearchPath(this.root, resolve(this.root, dir), settings.libs, what);
      // Every import is read before the binary runs: one that would look outside the repository is refused.
      jsonnetReads(readerOf(this.fs, this.root), this.root, abs, searchPath, (a) => this.rel(a));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return {
        kind: 'failed',
        problem: { code: e.code ?? 'jsonnet-outside-repo', message: `${what}: ${e.message}`, file: e.location?.file ?? file, ...(e.location?.line ? { line: e.location.line } : {}), ...(e.hint !== undefined ? { hint: e.hint } : {}) },
      };
    }
    const tool = await this.located();
    if (!('evaluate' in tool)) return { kind: 'no-tool', reason: tool.reason, ...(tool.hint !== undefined ? { hint: tool.hint } : {}) };
    let json: string;
    try {
      json = await tool.evaluate({ file: abs, searchPath, extVars: settings.extVars, tlas: settings.tlas, timeoutMs: JSONNET_TIMEOUT_MS, maxOutputBytes: JSONNET_MAX_OUTPUT_BYTES });
    } catch (e) {
      if (!(e instanceof ToolError) || (e.code !== 'build-failed' && e.code !== 'build-limit')) throw e;
      const at = jsonnetErrorLocation(e.message, this.root);
      const gap = tool.flavor === 'cpp' ? jsonnetStdLibraryGap(e.message, this.root, (f, n) => lineOf(this.fs, f, n)) : undefined;
      if (gap !== undefined) {
        return {
          kind: 'no-tool',
          reason: `${file} calls std.${gap} (${at ? `${at.file}:${at.line}` : file}), which the C++ jsonnet ${tool.version} found here lacks; go-jsonnet, which Argo CD runs, has newer standard-library functions`,
          hint: 'install go-jsonnet (https://github.com/google/go-jsonnet) and point FLEETPLAN_JSONNET at it',
        };
      }
      const lines = e.message.split(`${this.root}${sep}`).join('').split('\n');
      const message = lines.length > 8 ? [...lines.slice(0, 8), `\t… (${lines.length - 8} more lines)`].join('\n') : lines.join('\n');
      return {
        kind: 'failed',
        problem: {
          code: e.code === 'build-limit' ? 'jsonnet-limit' : 'jsonnet-failed',
          message: `${what}: jsonnet ${file}: ${message}`,
          file: at?.file ?? file,
          ...(at ? { line: at.line, column: at.column } : {}),
          hint: `fix the Jsonnet file (Argo CD cannot evaluate it either); fleetplan evaluated it with ${tool.flavor === 'go' ? 'go-jsonnet' : 'the C++ jsonnet'} ${tool.version}`,
        },
      };
    }
    try {
      return { kind: 'objects', text: jsonnetOutputManifests(json) };
    } catch (e) {
      return {
        kind: 'failed',
        problem: { code: 'invalid-manifests', message: `${what}: jsonnet ${file}: ${(e as Error).message}`, file, hint: 'Argo CD reads the output of a .jsonnet file as one Kubernetes object or an array of them' },
      };
    }
  }
}
