/**
 * What a change does to one cluster: the two sides of the cluster (what it gets at each revision)
 * compared object by object, field by field; its sync order (waves, needs, bootstrap steps); and,
 * when both sides carry them, its leaf manifests as unified diffs.
 */
import type { K8sObject } from '../model/k8s.js';
import type { PlanApp, PlanBootstrapStep } from '../model/plan.js';
import { toYaml } from '../yaml/serialize.js';
import { diffFields, sameValue } from './fields.js';
import { helmfileReleaseNotes, withoutReleaseNeeds } from './helmfile.js';
import { unifiedDiff } from './lines.js';
import { REDACTED, REDACTED_CHANGED, redactPair } from './redact.js';
import type { ChangeCounts, ClusterDiff, LeafDiff, ObjectDiff, OrderChange } from './types.js';

/** One cluster as it is at one revision. */
export interface ClusterSide {
  name: string;
  sector: string | null;
  /** The revision its apps track. */
  revision: string;
  /** Every object it gets, with the rendered file it is in. */
  objects: readonly { file: string; object: K8sObject }[];
  apps: readonly Pick<PlanApp, 'name' | 'wave' | 'needs'>[];
  bootstrap: readonly Pick<PlanBootstrapStep, 'file'>[];
  /** Leaf manifests per app (with --leaves); an app absent here was not built. */
  leaves?: ReadonlyMap<string, readonly Record<string, unknown>[]>;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function refKey(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}

/** Objects by kind/namespace/name; a key seen twice (two files) gets the file added so that neither is lost. */
function byKey(objects: ClusterSide['objects']): Map<string, { file: string; object: K8sObject }> {
  const out = new Map<string, { file: string; object: K8sObject }>();
  for (const o of objects) {
    let key = refKey(o.object.kind, o.object.metadata.namespace, o.object.metadata.name);
    if (out.has(key)) key += `\0${o.file}`;
    out.set(key, o);
  }
  return out;
}

export function diffObjects(from: ClusterSide['objects'], to: ClusterSide['objects']): ObjectDiff[] {
  const a = byKey(from);
  const b = byKey(to);
  const out: ObjectDiff[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    const o = (y ?? x)!;
    const base = { apiVersion: o.object.apiVersion, kind: o.object.kind, name: o.object.metadata.name, ...(o.object.metadata.namespace !== undefined ? { namespace: o.object.metadata.namespace } : {}), file: o.file };
    if (!x) out.push({ change: 'added', ...base, fields: [] });
    else if (!y) out.push({ change: 'removed', ...base, fields: [] });
    else {
      const [rx, ry] = redactPair(x.object, y.object);
      const fields = diffFields(rx, ry);
      // Redaction hides the values; whether a value changed is still a change.
      if (fields.length > 0 || !sameValue(x.object, y.object)) out.push({ change: 'changed', ...base, fields: fields.length ? fields : [{ path: 'data', from: REDACTED, to: REDACTED_CHANGED }] });
    }
  }
  return out.sort((p, q) => cmp(p.file, q.file) || cmp(refKey(p.kind, p.namespace, p.name), refKey(q.kind, q.namespace, q.name)));
}

/** App waves and needs that changed (apps on one side only are object changes, not listed here), and the bootstrap steps. */
export function diffOrder(from: Pick<ClusterSide, 'apps' | 'bootstrap'>, to: Pick<ClusterSide, 'apps' | 'bootstrap'>): OrderChange[] {
  const out: OrderChange[] = [];
  const after = new Map(to.apps.map((a) => [a.name, a]));
  for (const a of [...from.apps].sort((p, q) => cmp(p.name, q.name))) {
    const b = after.get(a.name);
    if (!b) continue;
    if (a.wave !== b.wave) out.push({ what: 'wave', app: a.name, from: a.wave, to: b.wave });
    const na = [...a.needs].sort();
    const nb = [...b.needs].sort();
    if (!sameValue(na, nb)) out.push({ what: 'needs', app: a.name, from: na, to: nb });
  }
  const steps = (s: Pick<ClusterSide, 'bootstrap'>) => s.bootstrap.map((x) => x.file.slice(x.file.lastIndexOf('/') + 1));
  if (!sameValue(steps(from), steps(to))) out.push({ what: 'bootstrap', from: steps(from), to: steps(to) });
  return out;
}

function leafKey(o: Record<string, unknown>): { kind: string; name: string; namespace?: string; apiVersion: string } {
  const meta = (typeof o.metadata === 'object' && o.metadata !== null ? o.metadata : {}) as { name?: unknown; namespace?: unknown };
  return {
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '',
    kind: typeof o.kind === 'string' ? o.kind : '?',
    name: typeof meta.name === 'string' ? meta.name : '?',
    ...(typeof meta.namespace === 'string' ? { namespace: meta.namespace } : {}),
  };
}

/** Leaf objects of the apps built on both sides (an app on one side only is all added or all removed). */
export function diffLeaves(from: ReadonlyMap<string, readonly Record<string, unknown>[]>, to: ReadonlyMap<string, readonly Record<string, unknown>[]>): LeafDiff[] {
  const out: LeafDiff[] = [];
  for (const app of [...new Set([...from.keys(), ...to.keys()])].sort()) {
    const index = (list: readonly Record<string, unknown>[] | undefined) => {
      const m = new Map<string, Record<string, unknown>>();
      for (const o of list ?? []) {
        const k = leafKey(o);
        let key = refKey(k.kind, k.namespace, k.name);
        while (m.has(key)) key += "'";
        m.set(key, o);
      }
      return m;
    };
    const a = index(from.get(app));
    const b = index(to.get(app));
    for (const key of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      // Equal objects show nothing: told before redacting and printing them (most of a fleet's leaves are equal).
      if (a.has(key) && b.has(key) && sameValue(a.get(key), b.get(key))) continue;
      const [x, y] = redactPair(a.get(key), b.get(key));
      const k = leafKey((y ?? x)!);
      const label = `${app}/${k.kind}${k.namespace ? `/${k.namespace}` : ''}/${k.name}`;
      const diff = unifiedDiff(x && toYaml(x), y && toYaml(y), label);
      out.push({ app, change: !x ? 'added' : !y ? 'removed' : 'changed', ...k, diff: diff || unifiedDiff('data: <redacted>\n', `data: ${REDACTED_CHANGED}\n`, label) });
    }
  }
  return out;
}

export function countChanges(list: readonly { change: string }[]): ChangeCounts {
  return {
    added: list.filter((o) => o.change === 'added').length,
    changed: list.filter((o) => o.change === 'changed').length,
    removed: list.filter((o) => o.change === 'removed').length,
  };
}

/** The diff of a cluster present on one side or both. */
export function diffCluster(from: ClusterSide | undefined, to: ClusterSide | undefined): ClusterDiff {
  const side = (to ?? from)!;
  const empty: Pick<ClusterSide, 'objects' | 'apps' | 'bootstrap'> = { objects: [], apps: [], bootstrap: [] };
  const objects = diffObjects((from ?? empty).objects, (to ?? empty).objects);
  // A release's needs change shows once, as its entry's field (./helmfile.ts).
  const order = from && to ? withoutReleaseNeeds(diffOrder(from, to), objects) : [];
  const withLeaves = from?.leaves !== undefined || to?.leaves !== undefined;
  const leaves = withLeaves ? diffLeaves(from?.leaves ?? new Map(), to?.leaves ?? new Map()) : undefined;
  const changed = objects.length > 0 || order.length > 0 || (leaves?.length ?? 0) > 0;
  // Keys in sorted order: diffJson prints such a cluster with JSON.stringify (../yaml/serialize.ts jsonOf).
  return {
    counts: countChanges(objects),
    ...(leaves ? { leaves } : {}),
    name: side.name,
    // What a reviewer must know of its helmfile releases beside their fields (./helmfile.ts).
    notes: from && to && objects.length > 0 ? helmfileReleaseNotes(objects, [from.objects, to.objects]) : [],
    objects,
    order,
    revision: { from: from?.revision ?? null, to: to?.revision ?? null },
    sector: side.sector,
    status: !from ? 'added' : !to ? 'removed' : changed ? 'changed' : 'unchanged',
  };
}
