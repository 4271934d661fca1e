/**
 * Rule: the kustomizations an app builds must only refer to paths that exist inside the
 * repository. Argo CD builds an app from a checkout of the repository, so `resources`,
 * `components` and `bases` entries that climb above its root (`../../../../components/x` from a
 * folder three levels deep) or name a folder that is not there fail the sync, even though
 * `kustomize build --load-restrictor LoadRestrictionsNone` on a laptop may find something there.
 *
 * Checked: the kustomization at every app's path (apps sourced from the fleet repository), the
 * local directories it pulls in, transitively, and every kustomization under a cluster's own
 * folder (overlays that no app points at yet are where such mistakes hide). Remote entries
 * (URLs, git) are not checked. Each kustomization is reported once, whichever cluster reaches it.
 * The walk (appKustomizations) is done once per validation and shared with the
 * kustomization-header rule, which adds the layout's own kustomizations to it.
 */
import type { Finding } from '../model/finding.js';
import { at } from '../load/native.js';
import { parseYamlSource } from '../yaml/source.js';
import { parseYamlAll } from '../yaml/index.js';
import type { SourceFile } from '../model/source.js';
import { isPlainObject } from '../model/merge.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { KUSTOMIZATION_FILES } from '../load/kustomization.js';
import type { Rule } from './engine.js';
import type { RuleContext } from './context.js';
import { appSourceType, normalizeRepoPath } from './context.js';
import { sameRepository } from '../model/git-url.js';
import { appPlugins } from '../model/argo-plugin.js';

const REFERENCE_FIELDS = ['resources', 'components', 'bases'] as const;
const REMOTE = /^[a-z][a-z0-9+.-]*:\/\/|^git@|^github\.com\/|^gitlab\.com\/|^bitbucket\.org\//;

export function kustomizationIn(fs: RepoFileSystem, dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((f) => (dir === '.' ? f : `${dir}/${f}`)).find((f) => fs.exists(f));
}

/** Directories under `dir` (itself excluded) that hold a kustomization, depth-first, sorted. */
export function nestedKustomizations(fs: RepoFileSystem, dir: string, depth = 0): string[] {
  if (depth > 8) return [];
  const out: string[] = [];
  for (const name of fs.list(dir)) {
    const sub = `${dir}/${name}`;
    if (name.startsWith('.') || !fs.isDirectory(sub)) continue;
    if (kustomizationIn(fs, sub)) out.push(sub);
    out.push(...nestedKustomizations(fs, sub, depth + 1));
  }
  return out;
}

/** True when `a` becomes `b` by one inserted, deleted or replaced character. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length < b.length ? a.slice(i) === b.slice(i + 1) : a.slice(i + 1) === b.slice(i);
}

/** The one entry of `parent` whose name is a single typo away from `name`. */
function nearSibling(fs: RepoFileSystem, parent: string, name: string): string | undefined {
  if (!fs.isDirectory(parent)) return undefined;
  const near = fs.list(parent).filter((n) => oneEditApart(name, n));
  return near.length === 1 ? (parent === '.' ? near[0]! : `${parent}/${near[0]!}`) : undefined;
}

function split(path: string): [string, string] {
  const i = path.lastIndexOf('/');
  return i < 0 ? ['.', path] : [path.slice(0, i), path.slice(i + 1)];
}

/**
 * What a kustomization entry that leaves the repository or names nothing most likely means, when
 * one reading stands out: the same path from the repository root (the entry climbs the wrong
 * number of folders), or a single typo in its last segment (at its own depth first, then from
 * the root). Undefined when there is no such reading, or more than one.
 */
export function likelyTarget(fs: RepoFileSystem, dir: string, entry: string): string | undefined {
  const target = normalizeRepoPath(dir === '.' ? entry : `${dir}/${entry}`);
  if (target !== undefined && fs.exists(target)) return target;
  if (target !== undefined && target !== '.') {
    const [parent, name] = split(target);
    const near = nearSibling(fs, parent, name);
    if (near) return near;
  }
  const rest = normalizeRepoPath(entry.replace(/^(\.\.?\/)+/, ''));
  if (rest === undefined || rest === '.' || rest === target) return undefined;
  if (fs.exists(rest)) return rest;
  const [parent, name] = split(rest);
  return nearSibling(fs, parent, name);
}

/** `target` written as a reference from `dir`. */
export function relativeReference(dir: string, target: string, trailingSlash: boolean): string {
  const from = dir === '.' ? [] : dir.split('/');
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  const ref = [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
  return trailingSlash ? `${ref}/` : ref;
}

/** One kustomization the walk reached. */
export interface KustomizationVisit {
  dir: string;
  file: string;
  source: SourceFile;
  doc: Record<string, unknown>;
}

/** A `resources`/`components`/`bases` entry of a visited kustomization that names a local path. */
export interface KustomizationReference {
  from: KustomizationVisit;
  field: (typeof REFERENCE_FIELDS)[number];
  index: number;
  entry: string;
  /** The repository path it names; undefined when it climbs out of the repository. */
  target: string | undefined;
}

/** Parsed kustomization files per repository, shared by the rules that walk them. */
const parsedFiles = new WeakMap<RepoFileSystem, Map<string, SourceFile | null>>();

function parseKustomization(fs: RepoFileSystem, file: string): SourceFile | undefined {
  let cache = parsedFiles.get(fs);
  if (!cache) parsedFiles.set(fs, (cache = new Map()));
  if (!cache.has(file)) {
    let source: SourceFile | null = null;
    try {
      source = parseYamlSource(file, fs.readText(file)).source ?? null;
    } catch {
      source = null;
    }
    cache.set(file, source);
  }
  return cache.get(file) ?? undefined;
}

/**
 * The kustomizations of the root directories and of every local directory they reference,
 * transitively, each visited once (the queue never holds a directory twice, so the walk stays
 * linear in roots + directories). `onReference` sees every local reference entry.
 */
export function walkKustomizations(
  fs: RepoFileSystem,
  roots: Iterable<string>,
  onReference?: (ref: KustomizationReference) => void,
  /** Directories already walked (by an earlier walk): not visited again. */
  done: ReadonlySet<string> = new Set(),
): KustomizationVisit[] {
  const visits: KustomizationVisit[] = [];
  const queue: string[] = [];
  const queued = new Set<string>(done);
  const enqueue = (dir: string) => {
    if (!queued.has(dir)) {
      queued.add(dir);
      queue.push(dir);
    }
  };
  for (const r of roots) enqueue(r);
  for (let next = 0; next < queue.length; next++) {
    const dir = queue[next]!;
    const file = kustomizationIn(fs, dir);
    if (!file) continue;
    const source = parseKustomization(fs, file);
    if (!source || !isPlainObject(source.value)) continue;
    const visit: KustomizationVisit = { dir, file, source, doc: source.value };
    visits.push(visit);
    for (const field of REFERENCE_FIELDS) {
      const entries = visit.doc[field];
      if (!Array.isArray(entries)) continue;
      entries.forEach((entry, index) => {
        if (typeof entry !== 'string' || REMOTE.test(entry)) return;
        const target = normalizeRepoPath(dir === '.' ? entry : `${dir}/${entry}`);
        onReference?.({ from: visit, field, index, entry, target });
        if (target !== undefined && fs.isDirectory(target)) enqueue(target);
      });
    }
  }
  return visits;
}

/** Where the kustomize-references rule starts: every local app path, and the kustomizations nested under cluster folders. */
export function appKustomizationRoots({ fleet, clusters, fs }: Pick<RuleContext, 'fleet' | 'clusters' | 'fs'>): string[] {
  const roots: string[] = [];
  const paths = new Set<string>();
  for (const c of clusters) {
    for (const app of c.apps) {
      const path = app.source.path;
      if (path === undefined || app.source.chart !== undefined || !sameRepository(app.source.repoURL, fleet.repoURL)) continue;
      // Argo CD reads a kustomization only when it builds the source with kustomize (or the
      // plugin runs kustomize): a chart built with Helm never reads the one beside it.
      const type = appSourceType(fs, c, app);
      if (type === 'helm' || type === 'directory') continue;
      // A repository's own config-management plugin builds the directory with its own commands
      // (which may write the files a kustomization lists, ADR 0284): fleetplan cannot judge it.
      if (appPlugins(app).length > 0) continue;
      paths.add(path);
    }
  }
  for (const path of paths) {
    const dir = normalizeRepoPath(path);
    if (dir !== undefined && fs.isDirectory(dir)) roots.push(dir);
  }
  for (const c of clusters) {
    const clusterDir = c.file.includes('/') ? c.file.slice(0, c.file.lastIndexOf('/')) : '.';
    if (clusterDir !== '.') roots.push(...nestedKustomizations(fs, clusterDir));
  }
  return roots;
}

export interface KustomizationWalk {
  visits: KustomizationVisit[];
  references: KustomizationReference[];
  /** Every directory the walk queued, with or without a kustomization. */
  dirs: Set<string>;
}

const appWalks = new WeakMap<object, KustomizationWalk>();

/** The walk from appKustomizationRoots, done once per validation (rules share the context's ManifestIndex). */
export function appKustomizations(ctx: Pick<RuleContext, 'fleet' | 'clusters' | 'fs' | 'manifests'>): KustomizationWalk {
  let walk = appWalks.get(ctx.manifests);
  if (!walk) {
    const references: KustomizationReference[] = [];
    const roots = appKustomizationRoots(ctx);
    const visits = walkKustomizations(ctx.fs, roots, (r) => references.push(r));
    const dirs = new Set(roots);
    for (const r of references) if (r.target !== undefined) dirs.add(r.target);
    appWalks.set(ctx.manifests, (walk = { visits, references, dirs }));
  }
  return walk;
}

/**
 * Why a resource file kustomize would read does not parse, or undefined when it does. Read as the
 * repository's other manifests are (a repeated key keeps its later value): only what no YAML reader
 * takes is reported, so a file kustomize builds is never called broken.
 */
function unparsable(fs: RepoFileSystem, file: string, seen: Map<string, string | undefined>): string | undefined {
  if (!seen.has(file)) {
    let why: string | undefined;
    try {
      parseYamlAll(fs.readText(file), { schema: 'kubernetes', json: true, filename: file });
    } catch (e) {
      const m = /\((\d+):(\d+)\)/.exec((e as Error).message);
      why = `${m ? `line ${m[1]}: ` : ''}${((e as { reason?: string }).reason ?? (e as Error).message).split('\n')[0]}`;
    }
    seen.set(file, why);
  }
  return seen.get(file);
}

export const kustomizeReferencesRule: Rule = (ctx) => {
  const { fs } = ctx;
  const out: Finding[] = [];
  const parsed = new Map<string, string | undefined>();
  for (const { from, field, index, entry, target } of appKustomizations(ctx).references) {
    const { dir, source } = from;
    if (target === undefined) {
      const depth = dir === '.' ? 0 : dir.split('/').length;
      const rest = entry.replace(/^(\.\.\/)+/, '');
      const suggestion = `${'../'.repeat(depth)}${rest}`;
      const exists = normalizeRepoPath(rest) !== undefined && fs.exists(normalizeRepoPath(rest)!);
      out.push(at(source, [field, index], {
        severity: 'error',
        code: 'kustomize-path-escapes-repo',
        message: `${field} entry "${entry}" of ${dir} leaves the repository (${dir} is ${depth} folder${depth === 1 ? '' : 's'} deep)`,
        hint: exists ? `did you mean "${suggestion}"? it names ${normalizeRepoPath(rest)!}` : `from ${dir} the repository root is "${'../'.repeat(depth) || './'}"`,
      }));
    } else if (!fs.exists(target)) {
      const likely = likelyTarget(fs, dir, entry);
      out.push(at(source, [field, index], {
        severity: 'error',
        code: 'kustomize-missing-path',
        message: `${field} entry "${entry}" of ${dir} names ${target}, which does not exist in the repository`,
        hint: likely
          ? `did you mean "${relativeReference(dir, likely, entry.endsWith('/'))}"? it names ${likely}; kustomize build fails here`
          : 'create it or fix the entry; kustomize build fails here',
      }));
    } else if (field === 'resources' && /\.(ya?ml|json)$/.test(target) && !fs.isDirectory(target)) {
      const why = unparsable(fs, target, parsed);
      if (why !== undefined) {
        out.push(at(source, [field, index], {
          severity: 'error',
          code: 'kustomize-resource-invalid',
          message: `${field} entry "${entry}" of ${dir} names ${target}, which is not valid YAML (${why}): kustomize build fails here`,
          hint: `fix the YAML of ${target} at that line`,
        }));
      }
    }
  }
  return out;
};
