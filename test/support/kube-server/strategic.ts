/**
 * Strategic merge patch (application/strategic-merge-patch+json), as `helm upgrade` and
 * `kubectl apply` (client-side) send it for built-in kinds: maps merge, `null` deletes, lists with
 * a merge key (the keyed lists of list-keys.ts: containers by name, …) merge element by element,
 * other lists are replaced. Directives: `$patch: replace|delete|merge`, `$setElementOrder/<list>`,
 * `$retainKeys`, `$deleteFromPrimitiveList/<list>`. The first merge key is the patch merge key
 * (`ports` by containerPort), as in the Kubernetes OpenAPI.
 */
import { badRequest } from './status.js';
import { clone, isPlainObject, type Obj } from './types.js';
import type { ListKeys } from './list-keys.js';

export function strategicMerge(target: unknown, patch: unknown, keys: ListKeys, path: readonly string[] = []): unknown {
  if (!isPlainObject(patch)) return clone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _p, ...rest } = patch;
    return clone(rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Obj = isPlainObject(target) ? clone(target) : {};
  const orders = new Map<string, unknown[]>();
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch') continue;
    if (k === '$retainKeys') continue;
    if (k.startsWith('$setElementOrder/')) {
      if (Array.isArray(v)) orders.set(k.slice('$setElementOrder/'.length), v);
      continue;
    }
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      if (Array.isArray(out[field]) && Array.isArray(v)) out[field] = (out[field] as unknown[]).filter((x) => !v.includes(x));
      continue;
    }
    if (k.startsWith('$')) throw badRequest(`strategic merge patch directive ${k} is not supported by this test server`);
    if (v === null) {
      delete out[k];
      continue;
    }
    const here = [...path, k];
    const mergeKey = Array.isArray(v) ? keys(here)?.[0] : undefined;
    if (Array.isArray(v) && mergeKey !== undefined) out[k] = mergeList(Array.isArray(out[k]) ? (out[k] as unknown[]) : [], v, mergeKey, keys, here);
    else {
      const merged = strategicMerge(out[k], v, keys, here);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    }
  }
  if (Array.isArray(patch.$retainKeys)) {
    const keep = new Set((patch.$retainKeys as unknown[]).map(String));
    for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
  }
  for (const [field, order] of orders) {
    const mergeKey = keys([...path, field])?.[0];
    const list = out[field];
    if (!Array.isArray(list)) continue;
    const id = (x: unknown) => (mergeKey !== undefined && isPlainObject(x) ? JSON.stringify(x[mergeKey]) : JSON.stringify(x));
    const rank = new Map(order.map((x, i) => [id(x), i]));
    out[field] = [...list].sort((a, b) => (rank.get(id(a)) ?? order.length) - (rank.get(id(b)) ?? order.length));
  }
  return out;
}

function mergeList(live: unknown[], patch: unknown[], mergeKey: string, keys: ListKeys, path: readonly string[]): unknown[] {
  const out = live.map((x) => clone(x));
  for (const p of patch) {
    if (!isPlainObject(p)) {
      out.push(clone(p));
      continue;
    }
    const i = out.findIndex((x) => isPlainObject(x) && JSON.stringify(x[mergeKey]) === JSON.stringify(p[mergeKey]));
    if (p.$patch === 'delete') {
      if (i >= 0) out.splice(i, 1);
      continue;
    }
    if (i >= 0) out[i] = strategicMerge(out[i], p, keys, path);
    else out.push(strategicMerge(undefined, p, keys, path));
  }
  return out;
}
