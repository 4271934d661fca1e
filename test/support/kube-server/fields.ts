/**
 * Server-side apply field ownership, at leaf-field granularity: every scalar, every list (lists
 * are atomic here, as for a list without a merge key) and every empty map is one field. Each
 * field manager owns a set of such paths, recorded in `metadata.managedFields` as FieldsV1.
 *
 * Rules, after the real API server (structured-merge-diff):
 * - An apply conflicts with another manager's field when both name the field and the applied
 *   value differs from the live one; equal values make the managers co-owners.
 * - `force` moves conflicting fields to the applier.
 * - Fields the applier owned before, no longer applies, and nobody else owns are removed.
 * - A non-apply write (create, update, patch) gives its manager the fields whose values it
 *   changed and takes them from everyone else, without conflicts.
 */
import { clone, deepEqual, isPlainObject, type Obj } from './types.js';

export type FieldPath = string[];

/** Metadata that belongs to the server, never to a field manager. */
const SERVER_METADATA = new Set([
  'name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'managedFields', 'selfLink', 'generateName',
]);

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Obj;
  subresource?: string;
}

export function pathKey(p: FieldPath): string {
  return JSON.stringify(p);
}

/** `.spec.replicas`, as conflict messages print a path. */
export function formatPath(p: FieldPath): string {
  return p.map((s) => (/^[A-Za-z0-9_-]+$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('');
}

/** The leaf paths a (partial) object sets, leaving out the parts no manager owns. */
export function leafPaths(obj: Obj): FieldPath[] {
  const out: FieldPath[] = [];
  const walk = (v: unknown, path: FieldPath): void => {
    if (isPlainObject(v) && Object.keys(v).length > 0) {
      for (const [k, child] of Object.entries(v)) {
        if (child === undefined) continue;
        if (path.length === 0 && (k === 'apiVersion' || k === 'kind')) continue;
        if (path.length === 1 && path[0] === 'metadata' && SERVER_METADATA.has(k)) continue;
        walk(child, [...path, k]);
      }
    } else if (path.length > 0) {
      out.push(path);
    }
  };
  walk(obj, []);
  return out;
}

export function getPath(obj: unknown, p: FieldPath): unknown {
  let cur: unknown = obj;
  for (const s of p) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[s];
  }
  return cur;
}

export function deletePath(obj: Obj, p: FieldPath): void {
  let cur: unknown = obj;
  for (const s of p.slice(0, -1)) {
    if (!isPlainObject(cur)) return;
    cur = cur[s];
  }
  const last = p[p.length - 1];
  if (isPlainObject(cur) && last !== undefined) delete cur[last];
}

function isPrefix(a: FieldPath, b: FieldPath): boolean {
  return a.length <= b.length && a.every((s, i) => s === b[i]);
}

export function overlaps(a: FieldPath, b: FieldPath): boolean {
  return isPrefix(a, b) || isPrefix(b, a);
}

export function toFieldsV1(paths: FieldPath[]): Obj {
  const root: Obj = {};
  for (const p of [...paths].sort((x, y) => pathKey(x).localeCompare(pathKey(y)))) {
    let cur = root;
    for (const s of p) {
      const k = `f:${s}`;
      cur[k] ??= {};
      cur = cur[k] as Obj;
    }
  }
  return root;
}

/** Leaf paths of a FieldsV1 tree. List-element keys (`k:`, `v:`, `i:`) make their list one field. */
export function fromFieldsV1(f: Obj): FieldPath[] {
  const out: FieldPath[] = [];
  const walk = (node: Obj, path: FieldPath): void => {
    const children = Object.keys(node).filter((k) => k.startsWith('f:'));
    const listKeys = Object.keys(node).some((k) => /^[kvi]:/.test(k));
    if (children.length === 0 || listKeys) {
      if (path.length > 0) out.push(path);
      return;
    }
    for (const k of children) walk(isPlainObject(node[k]) ? node[k] : {}, [...path, k.slice(2)]);
  };
  walk(f, []);
  return out;
}

/** Merge an applied configuration into a live object: maps merge, everything else replaces. */
export function applyMerge(live: unknown, applied: unknown): unknown {
  if (isPlainObject(live) && isPlainObject(applied) && Object.keys(applied).length > 0) {
    const out: Obj = clone(live);
    for (const [k, v] of Object.entries(applied)) {
      if (v === undefined) continue;
      out[k] = applyMerge(out[k], v);
    }
    return out;
  }
  return clone(applied);
}

export interface Conflict {
  manager: string;
  /** The conflicting entry, as the real server prints it. */
  managerLabel: string;
  path: FieldPath;
}

interface Owner {
  entry: ManagedFieldsEntry;
  paths: FieldPath[];
}

function owners(entries: ManagedFieldsEntry[]): Owner[] {
  return entries.map((entry) => ({ entry, paths: fromFieldsV1(entry.fieldsV1 ?? {}) }));
}

function sameIdentity(e: ManagedFieldsEntry, manager: string, operation: string, subresource: string | undefined): boolean {
  return e.manager === manager && e.operation === operation && (e.subresource ?? '') === (subresource ?? '');
}

/** `"kubectl"` for an Apply entry; `"kubectl" using apps/v1 at <time>` for an Update entry (as in the real message). */
function managerLabel(e: ManagedFieldsEntry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += e.time ? ` using ${e.apiVersion} at ${e.time}` : ` using ${e.apiVersion}`;
  return s;
}

export interface ApplyResult {
  object: Obj;
  conflicts: Conflict[];
}

export interface OwnershipInput {
  live: Obj | undefined;
  manager: string;
  apiVersion: string;
  time: string;
  subresource?: string | undefined;
}

function finish(list: Owner[], mine: Owner | undefined): ManagedFieldsEntry[] {
  const all = mine ? [...list, mine] : list;
  return all
    .filter((o) => o.paths.length > 0)
    .map((o) => ({ ...o.entry, fieldsV1: toFieldsV1(o.paths) }));
}

/**
 * Server-side apply of `applied` (already stripped of what this endpoint ignores) onto `live`.
 * Returns the merged object with updated managedFields, or the conflicts when not forced.
 */
export function serverSideApply(input: OwnershipInput, applied: Obj, force: boolean): ApplyResult {
  const live = input.live ?? {};
  const entries: ManagedFieldsEntry[] = clone(live.metadata?.managedFields ?? []);
  const all = owners(entries);
  const mineIdx = all.findIndex((o) => sameIdentity(o.entry, input.manager, 'Apply', input.subresource));
  const previous = mineIdx >= 0 ? all[mineIdx] : undefined;
  const others = all.filter((_, i) => i !== mineIdx);
  const fields = leafPaths(applied);

  const conflicts: Conflict[] = [];
  for (const other of others) {
    for (const p of other.paths) {
      for (const q of fields) {
        if (!overlaps(p, q)) continue;
        const at = p.length > q.length ? p : q;
        if (!deepEqual(getPath(live, at), getPath(applied, at))) {
          conflicts.push({ manager: other.entry.manager, managerLabel: managerLabel(other.entry), path: at });
        }
      }
    }
  }
  if (conflicts.length > 0 && !force) return { object: live, conflicts };
  if (force) {
    for (const other of others) other.paths = other.paths.filter((p) => !fields.some((q) => overlaps(p, q) && !deepEqual(getPath(live, p.length > q.length ? p : q), getPath(applied, p.length > q.length ? p : q))));
  }

  const base: Obj = clone(live);
  for (const old of previous?.paths ?? []) {
    if (fields.some((q) => overlaps(old, q))) continue;
    if (others.some((o) => o.paths.some((p) => overlaps(p, old)))) continue;
    deletePath(base, old);
  }
  const merged = applyMerge(base, applied) as Obj;
  const changedSet = previous === undefined || pathSetKey(previous.paths) !== pathSetKey(fields);
  const mine: Owner = {
    entry: {
      manager: input.manager,
      operation: 'Apply',
      apiVersion: input.apiVersion,
      time: changedSet || !previous ? input.time : previous.entry.time,
      fieldsType: 'FieldsV1',
      fieldsV1: {},
      ...(input.subresource ? { subresource: input.subresource } : {}),
    },
    paths: fields,
  };
  merged.metadata ??= {};
  merged.metadata.managedFields = finish(others, mine);
  return { object: merged, conflicts: [] };
}

function pathSetKey(paths: FieldPath[]): string {
  return paths.map(pathKey).sort().join('\n');
}

/**
 * Ownership after a non-apply write (create, update, patch) by `manager`: it takes every field
 * whose value changed; fields that disappeared leave every owner.
 */
export function recordUpdate(input: OwnershipInput, next: Obj): ManagedFieldsEntry[] {
  const live = input.live ?? {};
  const all = owners(clone(live.metadata?.managedFields ?? []));
  const before = leafPaths(live);
  const after = leafPaths(next);
  const changed = after.filter((p) => !deepEqual(getPath(live, p), getPath(next, p)));
  const afterKeys = new Set(after.map(pathKey));
  const gone = before.filter((p) => !afterKeys.has(pathKey(p)));
  for (const o of all) {
    o.paths = o.paths.filter((p) => !gone.some((g) => isPrefix(g, p)) && !changed.some((c) => overlaps(c, p)));
    // A path whose subtree now has other leaves stays owned; one that vanished entirely does not.
    o.paths = o.paths.filter((p) => getPath(next, p) !== undefined);
  }
  const mineIdx = all.findIndex((o) => sameIdentity(o.entry, input.manager, 'Update', input.subresource));
  if (changed.length === 0) return finish(all, undefined);
  let mine = mineIdx >= 0 ? all.splice(mineIdx, 1)[0] : undefined;
  if (!mine) {
    mine = {
      entry: {
        manager: input.manager, operation: 'Update', apiVersion: input.apiVersion, time: input.time, fieldsType: 'FieldsV1', fieldsV1: {},
        ...(input.subresource ? { subresource: input.subresource } : {}),
      },
      paths: [],
    };
  }
  const have = new Set(mine.paths.map(pathKey));
  for (const c of changed) if (!have.has(pathKey(c))) mine.paths.push(c);
  mine.entry.time = input.time;
  mine.entry.apiVersion = input.apiVersion;
  return finish(all, mine);
}

/** The Status message of a failed apply, word for word as the real API server builds it. */
export function conflictMessage(conflicts: Conflict[]): string {
  const n = conflicts.length;
  let body: string;
  if (n === 1) {
    const c = conflicts[0]!;
    body = `conflict with ${c.managerLabel}: ${formatPath(c.path)}`;
  } else {
    const by = new Map<string, Conflict[]>();
    for (const c of conflicts) by.set(c.managerLabel, [...(by.get(c.managerLabel) ?? []), c]);
    const lines: string[] = [];
    for (const label of [...by.keys()].sort()) {
      lines.push(`conflicts with ${label}:`);
      for (const c of by.get(label)!) lines.push(`- ${formatPath(c.path)}`);
    }
    body = lines.join('\n');
  }
  return `Apply failed with ${n} conflict${n === 1 ? '' : 's'}: ${body}`;
}
