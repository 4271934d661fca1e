/**
 * Whether applying an object changes it: the server-side dry-run result (what the object would
 * be) against the live object, ignoring what the server keeps for itself (managedFields,
 * resourceVersion, generation, timestamps, uid, status). Pure.
 */
import type { ChangeAction } from '../model/bootstrap.js';

const SERVER_METADATA = ['managedFields', 'resourceVersion', 'generation', 'creationTimestamp', 'uid', 'selfLink'];

export function comparable(o: unknown): unknown {
  if (typeof o !== 'object' || o === null) return o;
  const { status: _status, metadata, ...rest } = o as Record<string, unknown>;
  const md: Record<string, unknown> = { ...((metadata as Record<string, unknown> | undefined) ?? {}) };
  for (const k of SERVER_METADATA) delete md[k];
  return { ...rest, metadata: md };
}

export function sameObject(a: unknown, b: unknown): boolean {
  return deepEqual(comparable(a), comparable(b));
}

/** `created` when there is no live object, else `unchanged` or `configured`. */
export function changeAction(dryRun: unknown, live: unknown): Exclude<ChangeAction, 'skipped'> {
  if (live === undefined) return 'created';
  return sameObject(dryRun, live) ? 'unchanged' : 'configured';
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
    const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(ra[k], rb[k]));
  }
  return false;
}
