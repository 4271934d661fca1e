/**
 * Helm hooks in `helm template` output (ADR 0418): the events of an object's `helm.sh/hook`
 * annotation as Helm 3 reads them (releaseutil's manifest sorter: comma-separated, trimmed, lower
 * case; `test-success` is the old name of `test`; an object with an unknown event is no hook and no
 * manifest, which `helm template` already leaves out).
 */
import { isPlainObject } from '../../model/merge.js';

const EVENTS = new Set(['pre-install', 'post-install', 'pre-delete', 'post-delete', 'pre-upgrade', 'post-upgrade', 'pre-rollback', 'post-rollback', 'test']);

/** The hook events of `o`, or undefined when it is not a Helm hook (a manifest of the release). */
export function helmHookEvents(o: unknown): string[] | undefined {
  const meta = isPlainObject(o) && isPlainObject(o.metadata) ? o.metadata : undefined;
  const value = meta && isPlainObject(meta.annotations) ? meta.annotations['helm.sh/hook'] : undefined;
  if (typeof value !== 'string') return undefined;
  const events = value.split(',').map((e) => e.trim().toLowerCase()).map((e) => (e === 'test-success' ? 'test' : e));
  return events.every((e) => EVENTS.has(e)) ? events : [];
}
