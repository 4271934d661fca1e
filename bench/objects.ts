/**
 * Kubernetes objects compared as data, for the benchmarks' equality checks: YAML streams parsed
 * with the core schema (as kustomize and fleetplan write them), keyed by kind/namespace/name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, loadAll } from 'js-yaml';

export type KubeObject = Record<string, unknown> & { kind: string; metadata: { name: string; namespace?: string } };

export function parseObjects(text: string): KubeObject[] {
  const out: KubeObject[] = [];
  loadAll(text, (doc) => {
    if (doc !== null && typeof doc === 'object') out.push(doc as KubeObject);
  }, { schema: CORE_SCHEMA });
  return out;
}

/** Every object of every .yaml file directly in `dir` (none when it does not exist). */
export function readObjects(dir: string): KubeObject[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => parseObjects(readFileSync(join(dir, n), 'utf8')));
}

export const objectKey = (o: KubeObject): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** The first place where `b` differs from `a`, as a path and both values; undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path || '.'}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    for (const k of new Set([...ka, ...kb])) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return `${path || '.'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/** Differences between two sets of objects (by kind/namespace/name), at most `limit` of them. */
export function compareObjects(expected: readonly KubeObject[], actual: readonly KubeObject[], limit = 5): string[] {
  const problems: string[] = [];
  const byKey = (list: readonly KubeObject[]) => {
    const m = new Map<string, KubeObject>();
    for (const o of list) {
      if (m.has(objectKey(o))) problems.push(`${objectKey(o)} appears twice`);
      m.set(objectKey(o), o);
    }
    return m;
  };
  const e = byKey(expected);
  const a = byKey(actual);
  for (const [k, o] of e) {
    const other = a.get(k);
    if (!other) problems.push(`${k} missing`);
    else {
      const d = firstDifference(o, other);
      if (d) problems.push(`${k} differs at ${d}`);
    }
  }
  for (const k of a.keys()) if (!e.has(k)) problems.push(`${k} not expected`);
  return problems.slice(0, limit);
}
