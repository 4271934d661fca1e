/**
 * Leaf objects from a previous `fleetplan render --leaves --out DIR`: the objects under
 * `DIR/<cluster>/manifests/<app>/*.yaml`, for validation rules that want what apps really apply.
 * An app without a folder there is read statically by the rules.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LeafFailure, LeafObjects } from '../ports/leaf-objects.js';
import type { FleetplanError } from '../errors/index.js';
import { readTextFile, writeFileAtomic } from './fs.js';
import { openOutput } from './output.js';
import { parseYamlAll } from '../yaml/index.js';
import { appFileName } from '../model/graphs.js';

/** The failed builds of the last `render --leaves` runs, in the output directory (ADR 0260). */
export const LEAF_FAILURES = '.fleetplan-leaf-failures.json';

type FailureTable = Record<string, LeafFailure>;
const key = (cluster: string, app: string) => `${cluster}/${app}`;

function readFailures(dir: string): FailureTable {
  try {
    const v = JSON.parse(readTextFile(join(dir, LEAF_FAILURES), LEAF_FAILURES)) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: FailureTable = {};
    for (const [k, f] of Object.entries(v as Record<string, unknown>)) {
      if (f && typeof f === 'object' && typeof (f as LeafFailure).code === 'string' && typeof (f as LeafFailure).message === 'string') out[k] = f as LeafFailure;
    }
    return out;
  } catch {
    return {};
  }
}

/**
 * Records in `dir` the builds of this run that failed, and forgets earlier failures of the apps
 * this run built (whatever the outcome), so that `validate --leaves DIR` can report a failure with
 * the build's own code, file and line. Nothing is written while there is nothing to record.
 */
export function recordLeafFailures(dir: string, results: readonly { cluster: string; app: string; error?: FleetplanError }[]): void {
  const table = readFailures(dir);
  const before = Object.keys(table).length;
  for (const r of results) delete table[key(r.cluster, r.app)];
  let added = 0;
  for (const r of results) {
    if (!r.error) continue;
    const e = r.error;
    const loc = e.location;
    table[key(r.cluster, r.app)] = {
      code: e.code,
      message: e.message,
      ...(loc?.file ? { file: loc.file } : {}),
      ...(loc?.line ? { line: loc.line } : {}),
      ...(loc?.column ? { column: loc.column } : {}),
      ...(loc?.path ? { path: loc.path } : {}),
      ...(e.hint ? { hint: e.hint } : {}),
    };
    added++;
  }
  if (added === 0 && before === 0) return;
  const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // openOutput refuses a symlink on the way (ADR 0211).
  writeFileAtomic(openOutput(dir).path(LEAF_FAILURES), `${JSON.stringify(sorted, null, 2)}\n`);
}

export function leafObjectsFromDirectory(dir: string): LeafObjects {
  let failures: FailureTable | undefined;
  return {
    complete: true,
    failure(cluster, app) {
      failures ??= readFailures(dir);
      return failures[key(cluster, app)];
    },
    objects(cluster, app) {
      // The folder render named after the app (a Flux Kustomization `flux:ns/name` is `flux_ns_name`).
      const name = appFileName(app) ?? app;
      const d = join(dir, cluster, 'manifests', name);
      if (!existsSync(d) || !statSync(d).isDirectory()) return undefined;
      const out: Record<string, unknown>[] = [];
      for (const f of readdirSync(d).sort()) {
        if (!/\.ya?ml$/.test(f)) continue;
        for (const doc of parseYamlAll(readTextFile(join(d, f), `${cluster}/manifests/${name}/${f}`))) {
          if (doc && typeof doc === 'object' && !Array.isArray(doc)) out.push(doc as Record<string, unknown>);
        }
      }
      return out;
    },
  };
}
