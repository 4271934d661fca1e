/**
 * A leaf job's input key, computed without building (`diff --leaves`, docs/adr/0354): two jobs of
 * one run whose keys are equal get the same result from renderLeafJobs — the same files, or the
 * same failure — so a diff need not render either.
 *
 * The key hashes the job itself (cluster, app, source and variables, as plain JSON) and the
 * (path, content hash) of every file its build can read, found as the build's own plan finds it:
 * InputWalker for a kustomization and a chart directory (the walk whose invariant already keeps
 * the content cache exact), every file under a plain directory source, the values files resolved
 * as planHelm resolves them (relative to the chart, or to the repository root with a leading `/`),
 * and which of those paths are missing. The tools, their versions and the build flags are not in
 * it: both sides of a diff are rendered by the same run with the same tools.
 *
 * No key (undefined: the job is rendered on both sides) wherever equal inputs might not mean an
 * equal result or the reads are not known before building: a Flux Kustomization (its variables and
 * HelmReleases are looked up across the repository), an Argo CD OCI source or a remote chart (what
 * a registry or the fetch cache holds), a directory source with Jsonnet (its imports), a remote
 * kustomize resource with `--fetch` (fetched at build time), a path outside the repository, a job
 * whose fields are not plain JSON, and any error while reading.
 */
import { createHash } from 'node:crypto';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { SourceReader } from '../../ports/source-reader.js';
import type { BuildInputs } from './inputs.js';
import { InputWalker } from './inputs.js';
import type { LeafJob } from './render.js';

export interface JobKeyContext {
  /** The repository root the jobs' paths are relative to (absolute or relative to the process). */
  repoRoot: string;
  /** The reader the render run would use (createSourceReader of the same root): the same kinds and hashes. */
  reader: SourceReader;
  /** `--fetch`: kustomize may then fetch remote resources, so a build that names one has no key. */
  network?: boolean;
}

/**
 * Each job's key (in job order). One walker and one memo of reads serve all: a path many clusters
 * build is walked and its files hashed once.
 */
export function leafJobKeys(jobs: readonly LeafJob[], context: JobKeyContext): (string | undefined)[] {
  const walker = new InputWalker(context.reader);
  const reads = new Map<string, string | undefined>();
  return jobs.map((job) => leafJobKey(job, context, walker, reads));
}

/** The job's input key, or undefined when it cannot be told without building (see the module comment). */
export function leafJobKey(job: LeafJob, context: JobKeyContext, walker = new InputWalker(context.reader), memo = new Map<string, string | undefined>()): string | undefined {
  const root = resolve(context.repoRoot);
  const source = job.source;
  // What the build reads depends on the source's kind, path and values files only: the rest of the job is hashed beside it.
  const where = JSON.stringify([source.kind, 'path' in source ? (source.path ?? null) : null, source.kind === 'helm' ? (source.valueFiles ?? []) : null]);
  let reads = memo.get(where);
  if (!memo.has(where)) {
    try {
      const r = readsOf(job, root, context, walker);
      reads = r === undefined ? undefined : JSON.stringify(r);
    } catch {
      // A read the build would fail on (a link leaving the repository, an unreadable file): rendered, so the failure is its own.
      reads = undefined;
    }
    memo.set(where, reads);
  }
  if (reads === undefined) return undefined;
  // The job as written: JSON.stringify keeps the order of the fields, so two equal jobs whose fields
  // were set in another order get different keys (and are built) — never the other way round.
  const text = JSON.stringify([job.cluster, job.app, job.source, job.variables ?? null]);
  if (!plainJson(job.source) || (job.variables !== undefined && !plainJson(job.variables))) return undefined;
  return createHash('sha256').update('leaf-job-v1\0').update(text).update('\0').update(reads).digest('hex');
}

function readsOf(job: LeafJob, root: string, context: JobKeyContext, walker: InputWalker): unknown {
  const { reader } = context;
  const rel = (abs: string) => relative(root, abs).split(sep).join('/') || '.';
  const within = (abs: string) => {
    const r = relative(root, abs);
    return !(r === '..' || r.startsWith(`..${sep}`) || isAbsolute(r));
  };
  const material = (inputs: Pick<BuildInputs, 'files' | 'missing'>) => ({
    files: inputs.files.map((f) => [rel(f), reader.hash(f)]),
    missing: inputs.missing.map(rel),
  });
  const source = job.source;
  switch (source.kind) {
    case 'kustomize': {
      const dir = resolve(root, source.path);
      if (!within(dir)) return undefined;
      const kind = reader.kind(dir);
      if (kind !== 'dir') return { kind: kind ?? null };
      const inputs = walker.kustomization(dir);
      if (inputs.remote.length > 0 && context.network === true) return undefined;
      return { kind, ...material(inputs), remote: inputs.remote, usesHelm: inputs.usesHelm };
    }
    case 'directory': {
      const dir = resolve(root, source.path);
      if (!within(dir)) return undefined;
      const kind = reader.kind(dir);
      if (kind !== 'dir') return { kind: kind ?? null };
      // Every file under it: what the include/exclude rules pick is a part of these.
      const files = reader.listFiles(dir);
      if (files.some((f) => f.endsWith('.jsonnet'))) return undefined;
      return { kind, ...material({ files, missing: [] }) };
    }
    case 'helm': {
      if (source.path === undefined) return undefined;
      const chart = resolve(root, source.path);
      if (!within(chart)) return undefined;
      const kind = reader.kind(chart);
      if (kind === undefined) return { kind: null };
      // planHelm's rule: a values file starting with `/` is relative to the repository root, any other to the chart.
      const base = kind === 'dir' ? chart : dirname(chart);
      const named = (source.valueFiles ?? []).map((f) => ({ f, abs: f.startsWith('/') ? resolve(root, `.${f}`) : resolve(base, f) }));
      if (named.some((v) => !within(v.abs))) return undefined;
      const values = named.map((v) => ({ ...v, kind: reader.kind(v.abs) ?? null }));
      const present = values.filter((v) => v.kind === 'file').map((v) => v.abs);
      const inputs = kind === 'dir' ? walker.chart(chart, present) : { files: [chart, ...present].sort(), missing: [] };
      return { kind, values: values.map((v) => [v.f, rel(v.abs), v.kind]), ...material(inputs) };
    }
    default:
      return undefined;
  }
}

/**
 * Whether JSON.stringify writes `v` as itself: plain objects, arrays, strings, finite numbers
 * other than -0, booleans and null (an object's undefined fields are left out, as the job's own
 * absent fields are). A Date, a Map, a function or a class instance would print as `{}`, a
 * string or nothing, and -0 as 0, so two different values could share a key.
 */
function plainJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object') return false;
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every((x) => x !== undefined && plainJson(x));
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(v as Record<string, unknown>).every((x) => x === undefined || plainJson(x));
}
