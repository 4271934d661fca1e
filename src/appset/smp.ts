/**
 * Kubernetes strategic merge patch, for the Application type (Argo CD `templatePatch`).
 *
 * Maps merge recursively and `null` deletes a key. Lists are replaced unless the Go type declares
 * `patchStrategy:"merge"`: in an Application that is only `metav1.ObjectMeta` —
 * `metadata.finalizers` (a list of strings: union) and `metadata.ownerReferences` (merged by
 * `uid`). Argo CD's own types (`ApplicationSpec`, sources, sync policy…) declare no patch
 * strategy, so `spec.sources`, `spec.info`, `syncOptions` etc. are replaced whole.
 * Directives: `$patch: replace|delete` on maps and list items, `$deleteFromPrimitiveList/<k>`;
 * `$setElementOrder/<k>` and `$retainKeys` are accepted and dropped.
 */
import { isPlainObject } from './go-value.js';

export interface ListStrategy {
  /** Merge key for lists of objects; undefined for lists of scalars. */
  mergeKey?: string;
}

/** Returns the merge strategy of the list at `path` (keys joined by `.`), or undefined to replace. */
export type PatchSchema = (path: string) => ListStrategy | undefined;

const APPLICATION_LISTS: Readonly<Record<string, ListStrategy>> = {
  'metadata.finalizers': {},
  'metadata.ownerReferences': { mergeKey: 'uid' },
};

export const applicationPatchSchema: PatchSchema = (path) => APPLICATION_LISTS[path];

type Obj = Record<string, unknown>;

export function strategicMergePatch(original: Obj, patch: Obj, schema: PatchSchema): Obj {
  return mergeMap(original, patch, '', schema) ?? {};
}

function join(path: string, k: string): string {
  return path === '' ? k : `${path}.${k}`;
}

function mergeMap(original: Obj, patch: Obj, path: string, schema: PatchSchema): Obj | undefined {
  const directive = patch['$patch'];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return stripDirectives(patch) as Obj;
  const out: Obj = { ...original };
  for (const [k, pv] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const target = k.slice('$deleteFromPrimitiveList/'.length);
      const cur = out[target];
      if (Array.isArray(cur) && Array.isArray(pv)) out[target] = cur.filter((x) => !pv.includes(x));
      continue;
    }
    if (pv === null) {
      delete out[k];
      continue;
    }
    const ov = out[k];
    const sub = join(path, k);
    if (isPlainObject(pv)) {
      const merged = mergeMap(isPlainObject(ov) ? ov : {}, pv, sub, schema);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    } else if (Array.isArray(pv)) {
      const strategy = schema(sub);
      out[k] = strategy && Array.isArray(ov) ? mergeList(ov, pv, strategy, sub, schema) : stripDirectives(pv);
    } else {
      out[k] = pv;
    }
  }
  return out;
}

function mergeList(original: unknown[], patch: unknown[], strategy: ListStrategy, path: string, schema: PatchSchema): unknown[] {
  if (strategy.mergeKey === undefined) {
    const out = original.slice();
    for (const x of patch) if (!out.includes(x)) out.push(x);
    return out;
  }
  const key = strategy.mergeKey;
  const out = original.slice();
  for (const item of patch) {
    if (!isPlainObject(item)) {
      out.push(item);
      continue;
    }
    const idx = out.findIndex((o) => isPlainObject(o) && o[key] === item[key]);
    if (item['$patch'] === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) {
      const merged = mergeMap(out[idx] as Obj, item, path, schema);
      if (merged === undefined) out.splice(idx, 1);
      else out[idx] = merged;
    } else {
      out.push(stripDirectives(item));
    }
  }
  return out;
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => !(isPlainObject(x) && x['$patch'] === 'delete')).map(stripDirectives);
  if (isPlainObject(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/') || k.startsWith('$deleteFromPrimitiveList/')) continue;
      if (x === null) continue;
      out[k] = stripDirectives(x);
    }
    return out;
  }
  return v;
}
