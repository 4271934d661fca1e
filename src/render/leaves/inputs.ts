/**
 * What a build reads. Walks the kustomization graph the way kustomize loads it and lists every
 * file the build can read: the kustomization file itself, `resources`/`bases`/`components`
 * (files, and directories recursively), patches of every kind, generator files and env files,
 * Helm charts (`helmCharts` + `helmGlobals.chartHome`) with their values files, `replacements`,
 * `crds`, `configurations`, `openapi.path`, and `generators`/`transformers`/`validators`.
 *
 * Invariant: if any file in `files` changes, the content key changes; a file the build reads but
 * that is not listed would be a stale-cache bug, so the walk over-approximates where in doubt
 * (a whole chart directory, a whole directory given as a generator file).
 * A reference to a remote resource (URL, git) makes the build uncacheable: it is listed in `remote`.
 */
import { join, resolve } from 'node:path';
import type { SourceReader } from '../../ports/source-reader.js';
import { parseYaml } from '../../yaml/index.js';
import { localChartDependencies } from './chart-dependencies.js';

export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

export interface BuildInputs {
  /** Absolute paths of every file read, sorted, without duplicates. */
  files: string[];
  /** Absolute paths referenced but absent (the build will likely fail; they still enter the key). */
  missing: string[];
  /** Remote references (URLs, git repositories, charts to pull): the build cannot be cached. */
  remote: string[];
  /** Whether some kustomization inflates Helm charts (the Helm version then enters the key). */
  usesHelm: boolean;
}

interface DirInputs {
  files: Set<string>;
  missing: Set<string>;
  remote: Set<string>;
  usesHelm: boolean;
}

/** Walks kustomizations, memoizing each directory's transitive inputs for the life of the walker. */
export class InputWalker {
  private readonly dirs = new Map<string, DirInputs>();
  private readonly active = new Set<string>();

  constructor(private readonly reader: SourceReader) {}

  /** The kustomization file in `dir`, if any (kustomize's order of names). */
  kustomizationFile(dir: string): string | undefined {
    for (const name of KUSTOMIZATION_FILE_NAMES) {
      const p = join(dir, name);
      if (this.reader.kind(p) === 'file') return p;
    }
    return undefined;
  }

  /** Inputs of building the kustomization in `dir`. */
  kustomization(dir: string): BuildInputs {
    return finish(this.walkDir(resolve(dir)));
  }

  /** Inputs of templating the chart in `chartDir` with the given values files. */
  chart(chartDir: string, valueFiles: string[]): BuildInputs {
    const acc = empty();
    this.addTree(acc, chartDir);
    // Its file:// dependencies not in charts/ are packaged into the build (helm dependency build).
    for (const d of localChartDependencies(this.reader, chartDir)) if (this.reader.kind(d) === 'dir') this.addTree(acc, d);
    for (const f of valueFiles) this.addFile(acc, f);
    return finish(acc);
  }

  private walkDir(dir: string): DirInputs {
    const done = this.dirs.get(dir);
    if (done) return done;
    const acc = empty();
    if (this.active.has(dir)) return acc; // a cycle: kustomize reports it; the key needs nothing more
    this.active.add(dir);
    try {
      const file = this.kustomizationFile(dir);
      if (!file) {
        acc.missing.add(join(dir, 'kustomization.yaml'));
      } else {
        acc.files.add(file);
        let doc: unknown;
        try {
          doc = parseYaml(this.reader.readText(file));
        } catch {
          doc = undefined; // kustomize will report the syntax error; the file is in the key
        }
        if (isRecord(doc)) this.readKustomization(acc, dir, doc);
      }
    } finally {
      this.active.delete(dir);
    }
    this.dirs.set(dir, acc);
    return acc;
  }

  private readKustomization(acc: DirInputs, dir: string, k: Record<string, unknown>): void {
    for (const field of ['resources', 'bases', 'components']) {
      for (const ref of strings(k[field])) this.addRef(acc, dir, ref, 'kustomization');
    }
    for (const field of ['crds', 'configurations']) {
      for (const ref of strings(k[field])) this.addRef(acc, dir, ref, 'file');
    }
    for (const field of ['generators', 'transformers', 'validators']) {
      for (const ref of strings(k[field])) {
        if (ref.includes('\n')) continue; // inline configuration
        this.addRef(acc, dir, ref, 'kustomization');
      }
    }
    for (const p of strings(k.patchesStrategicMerge)) {
      if (p.includes('\n')) continue; // inline patch
      const abs = resolve(dir, p);
      if (this.reader.kind(abs) === 'file') acc.files.add(abs);
      else if (/\.(ya?ml|json)$/.test(p)) acc.missing.add(abs);
    }
    for (const field of ['patches', 'patchesJson6902', 'replacements']) {
      for (const entry of records(k[field])) {
        if (typeof entry.path === 'string') this.addRef(acc, dir, entry.path, 'file');
      }
    }
    const openapi = k.openapi;
    if (isRecord(openapi) && typeof openapi.path === 'string') this.addRef(acc, dir, openapi.path, 'file');
    for (const field of ['configMapGenerator', 'secretGenerator']) {
      for (const gen of records(k[field])) {
        for (const f of strings(gen.files)) {
          const eq = f.indexOf('=');
          this.addRef(acc, dir, eq >= 0 ? f.slice(eq + 1) : f, 'file');
        }
        for (const e of strings(gen.envs)) this.addRef(acc, dir, e, 'file');
        if (typeof gen.env === 'string') this.addRef(acc, dir, gen.env, 'file');
      }
    }
    const charts = records(k.helmCharts);
    const inflators = records(k.helmChartInflationGenerator);
    if (charts.length > 0 || inflators.length > 0) acc.usesHelm = true;
    const globals = isRecord(k.helmGlobals) ? k.helmGlobals : {};
    const chartHome = resolve(dir, typeof globals.chartHome === 'string' ? globals.chartHome : 'charts');
    for (const c of charts) {
      const name = typeof c.name === 'string' ? c.name : '';
      const version = typeof c.version === 'string' ? c.version : undefined;
      const candidates = [join(chartHome, name)];
      if (version) candidates.push(join(chartHome, `${name}-${version}`));
      const found = candidates.filter((p) => this.reader.kind(p) === 'dir');
      for (const p of found) this.addTree(acc, p);
      if (found.length === 0) {
        if (typeof c.repo === 'string' && c.repo !== '') acc.remote.add(`helm chart ${name}${version ? ` ${version}` : ''} from ${c.repo}`);
        else acc.missing.add(join(chartHome, name));
      }
      if (typeof c.valuesFile === 'string') this.addRef(acc, dir, c.valuesFile, 'file');
      for (const f of strings(c.additionalValuesFiles)) this.addRef(acc, dir, f, 'file');
    }
    for (const g of inflators) {
      const home = resolve(dir, typeof g.chartHome === 'string' ? g.chartHome : 'charts');
      const name = typeof g.chartName === 'string' ? g.chartName : '';
      const p = join(home, name);
      if (this.reader.kind(p) === 'dir') this.addTree(acc, p);
      else if (typeof g.chartRepoUrl === 'string') acc.remote.add(`helm chart ${name} from ${g.chartRepoUrl}`);
      else acc.missing.add(p);
      if (typeof g.values === 'string') this.addRef(acc, dir, g.values, 'file');
    }
  }

  /** A reference that may be a file or (for `expect: 'kustomization'`) a kustomization directory. */
  private addRef(acc: DirInputs, dir: string, ref: string, expect: 'file' | 'kustomization'): void {
    if (isRemote(ref)) {
      acc.remote.add(ref);
      return;
    }
    const abs = resolve(dir, ref);
    const kind = this.reader.kind(abs);
    if (kind === 'file') acc.files.add(abs);
    else if (kind === 'dir') {
      if (expect === 'kustomization') merge(acc, this.walkDir(abs));
      else this.addTree(acc, abs);
    } else acc.missing.add(abs);
  }

  private addFile(acc: DirInputs, abs: string): void {
    if (this.reader.kind(abs) === 'file') acc.files.add(abs);
    else acc.missing.add(abs);
  }

  private addTree(acc: DirInputs, absDir: string): void {
    for (const f of this.reader.listFiles(absDir)) acc.files.add(f);
  }
}

/** kustomize's remote forms: URLs, scp-like git addresses, and host-prefixed repository paths. */
export function isRemote(ref: string): boolean {
  return (
    /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(ref) ||
    /^[\w.-]+@[\w.-]+:/.test(ref) ||
    /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(ref) ||
    ref.includes('?ref=') ||
    ref.includes('?version=')
  );
}

function empty(): DirInputs {
  return { files: new Set(), missing: new Set(), remote: new Set(), usesHelm: false };
}

function merge(into: DirInputs, from: DirInputs): void {
  for (const f of from.files) into.files.add(f);
  for (const f of from.missing) into.missing.add(f);
  for (const f of from.remote) into.remote.add(f);
  into.usesHelm ||= from.usesHelm;
}

function finish(acc: DirInputs): BuildInputs {
  const sort = (s: Set<string>) => [...s].sort();
  return { files: sort(acc.files), missing: sort(acc.missing), remote: sort(acc.remote), usesHelm: acc.usesHelm };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function records(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isRecord) : [];
}
