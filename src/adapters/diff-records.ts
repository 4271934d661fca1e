/**
 * The diff's record of one revision, kept under the cache directory and keyed by content: the
 * git tree of the fleet's directory, the fleetplan build, the repository origin and the cluster
 * selection. It holds what the revision's load and validation read (api/diff-reads.ts) and what the
 * diff of that revision against itself reports per cluster (sector, revision), so that a later
 * diff whose changed paths touch none of those reads answers without checking out, loading,
 * resolving or validating either side. Any doubt — no entry, an unreadable or foreign one, another
 * build — is a miss, and the diff takes its full path. Decisions: docs/adr/0267-diff-read-sets.md.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../model/finding.js';

const FORMAT = 'diff-v1';

/** What a revision's self-diff reports per cluster (selected clusters, in report order). */
export interface ClusterSummary {
  name: string;
  sector: string | null;
  revision: string;
}

export interface RevisionRecord {
  format: typeof FORMAT;
  build: string;
  tree: string;
  key: string;
  /** What loading the revision read. */
  reads: StoredReads;
  /** What validating it read (after loading). */
  checks: StoredReads;
  /** Its findings (validateFleet of the selection, paths repository-relative). */
  findings: Finding[];
  fleet: { name: string; layout: string; revision: string };
  clusters: ClusterSummary[];
}

export interface StoredReads {
  content: string[];
  kind: string[];
  list: string[];
  links: boolean;
}

let buildId: string | undefined;

/**
 * This fleetplan's code: every compiled module's path, size and modification time (any rebuild
 * or reinstall is another build, so a record never outlives the code that wrote it).
 */
export function fleetplanBuild(): string {
  if (buildId !== undefined) return buildId;
  const top = dirname(dirname(fileURLToPath(import.meta.url)));
  // The text hashed once, and paths joined by hand (`top` is absolute and normalized, a name holds
  // no slash): path.join and a hash update per file were most of this walk's instructions, which
  // every warm diff runs (docs/adr/0396-diff-warm-path-fixed-cost.md). The same text as before.
  let text = '';
  const walk = (dir: string, rel: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const abs = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(abs, `${rel}${e.name}/`);
      else if (e.name.endsWith('.js') || e.name.endsWith('.json')) {
        const s = statSync(abs);
        text += `${rel}${e.name}\0${s.size}\0${s.mtimeMs}\n`;
      }
    }
  };
  walk(top, '');
  return (buildId = createHash('sha256').update(text).digest('hex'));
}

/** The record's key: the tree and everything else the load and the self-diff depend on. */
export function recordKey(tree: string, context: unknown): string {
  return createHash('sha256').update(JSON.stringify([FORMAT, fleetplanBuild(), tree, context])).digest('hex');
}

const fileOf = (cacheDir: string, key: string) => join(cacheDir, FORMAT, key.slice(0, 2), `${key}.json`);

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Strictly increasing in UTF-16 order, as a read-set is written (api/diff-reads.ts touchedByRecord searches it). */
const sortedStrings = (v: unknown): v is string[] => {
  if (!strings(v)) return false;
  for (let i = 1; i < v.length; i++) if (!(v[i - 1]! < v[i]!)) return false;
  return true;
};
const storedReads = (v: unknown): boolean => isObject(v) && sortedStrings(v.content) && sortedStrings(v.kind) && sortedStrings(v.list) && typeof v.links === 'boolean';
const optional = (v: unknown, type: 'string' | 'number') => v === undefined || typeof v === type;
const finding = (v: unknown): boolean =>
  isObject(v) &&
  ['error', 'warning', 'info'].includes(v.severity as string) &&
  typeof v.code === 'string' &&
  typeof v.message === 'string' &&
  optional(v.file, 'string') &&
  optional(v.line, 'number') &&
  optional(v.column, 'number') &&
  optional(v.path, 'string') &&
  optional(v.hint, 'string') &&
  optional(v.cluster, 'string') &&
  optional(v.app, 'string');

/** The record under `key`, or undefined when there is none or it is not exactly one for this tree and build. */
export function readRecord(cacheDir: string, key: string, tree: string): RevisionRecord | undefined {
  let r: RevisionRecord;
  try {
    r = JSON.parse(readFileSync(fileOf(cacheDir, key), 'utf8')) as RevisionRecord;
  } catch {
    return undefined;
  }
  const ok =
    isObject(r) &&
    r.format === FORMAT &&
    r.build === fleetplanBuild() &&
    r.tree === tree &&
    r.key === key &&
    storedReads(r.reads) &&
    storedReads(r.checks) &&
    Array.isArray(r.findings) &&
    r.findings.every(finding) &&
    typeof r.fleet === 'object' &&
    r.fleet !== null &&
    typeof r.fleet.name === 'string' &&
    typeof r.fleet.layout === 'string' &&
    typeof r.fleet.revision === 'string' &&
    Array.isArray(r.clusters) &&
    r.clusters.every((c) => c !== null && typeof c === 'object' && typeof c.name === 'string' && (c.sector === null || typeof c.sector === 'string') && typeof c.revision === 'string');
  return ok ? r : undefined;
}

/** Writes a record (atomically: a reader sees the old file, the new one, or none); a cache that cannot be written is no error. */
export function writeRecord(cacheDir: string, record: RevisionRecord): void {
  const file = fileOf(cacheDir, record.key);
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(record));
    renameSync(tmp, file);
  } catch {
    // Read-only or full cache: the next diff takes the full path.
  }
}
