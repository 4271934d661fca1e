import type { AppliedObject } from './fleet.js';
import { compareSyncOrder, syncWaveOf } from './sync-order.js';

/**
 * Objects named for a plan note: `Kind ns/name, …; Kind …`, kinds sorted, a few names of each kind
 * and how many more. Used where a build applies objects that fleetplan does not write (ADR 0392).
 */
export function objectList(docs: readonly Record<string, unknown>[]): string {
  const byKind = new Map<string, string[]>();
  for (const d of docs) {
    const md = (typeof d.metadata === 'object' && d.metadata !== null ? d.metadata : {}) as Record<string, unknown>;
    const list = byKind.get(String(d.kind)) ?? [];
    list.push(`${typeof md.namespace === 'string' ? `${md.namespace}/` : ''}${String(md.name)}`);
    byKind.set(String(d.kind), list);
  }
  return [...byKind]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([kind, names]) => `${kind} ${names.slice(0, 5).join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`)
    .join('; ');
}

/** `N object(s) that is/are not Argo CD's: LIST`, the words of those notes. */
export function notArgoObjects(docs: readonly Record<string, unknown>[]): string {
  return `${docs.length} object${docs.length === 1 ? '' : 's'} that ${docs.length === 1 ? 'is' : 'are'} not Argo CD's: ${objectList(docs)}`;
}

/**
 * The objects a build applies besides Argo CD's, as the cluster keeps them (ClusterDef.appliedObjects,
 * ADR 0398): first of each kind/namespace/name, with who applies them and where they are read from,
 * in sync order (wave, then gitops-engine's kind order, then namespace and name).
 */
export function appliedObjectsOf(docs: readonly Record<string, unknown>[], via: string, from: string): AppliedObject[] {
  const byKey = new Map<string, AppliedObject>();
  for (const d of docs) {
    const md = (typeof d.metadata === 'object' && d.metadata !== null ? d.metadata : {}) as Record<string, unknown>;
    const k = `${String(d.kind)}\u0000${typeof md.namespace === 'string' ? md.namespace : ''}\u0000${String(md.name)}`;
    if (!byKey.has(k)) byKey.set(k, { manifest: d, via, from, wave: syncWaveOf(d) });
  }
  const item = (o: AppliedObject) => {
    const md = o.manifest.metadata as Record<string, unknown>;
    return { wave: o.wave, kind: String(o.manifest.kind), ...(typeof md.namespace === 'string' ? { namespace: md.namespace } : {}), name: String(md.name) };
  };
  return [...byKey.values()].sort((a, b) => compareSyncOrder(item(a), item(b)));
}
