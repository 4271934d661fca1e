/** Resolves every selected cluster of a fleet; findings are merged and de-duplicated. */
import { UsageError } from '../errors/index.js';
import type { Finding } from '../model/finding.js';
import { compareFindings } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { consumerValueFindings } from './consumer-values.js';
import { createResolveSession, resolveCluster } from './resolve.js';

export interface SelectOptions {
  /** Cluster names to include; all when empty or absent. */
  clusters?: readonly string[];
}

/**
 * Cluster names in bootstrap order: a hub before the clusters it manages (by depth of the hub
 * chain), then by name.
 */
export function orderedClusters(fleet: Fleet): string[] {
  const hubOf = new Map(fleet.clusters.map((c) => [c.name, c.spec.hub]));
  const depth = (name: string): number => {
    let d = 0;
    const seen = new Set<string>([name]);
    for (let h = hubOf.get(name); h !== undefined && hubOf.has(h) && !seen.has(h); h = hubOf.get(h)) {
      seen.add(h);
      d++;
    }
    return d;
  };
  return fleet.clusters
    .map((c) => ({ name: c.name, d: depth(c.name) }))
    .sort((a, b) => a.d - b.d || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((x) => x.name);
}

export function selectClusters(fleet: Fleet, names: readonly string[] | undefined): string[] {
  const all = orderedClusters(fleet);
  if (!names || names.length === 0) return all;
  for (const n of names) {
    if (!all.includes(n)) {
      throw new UsageError(`no cluster named "${n}"`, { hint: `clusters: ${all.join(', ') || '(none)'}` });
    }
  }
  return all.filter((n) => names.includes(n));
}

/**
 * A fleet resolved once, handed to plan, render and validate (as gitops-engine passes its
 * syncContext): the selected clusters in bootstrap order with every finding of resolving them, and
 * a lookup of any other cluster (a hub's provisioning objects need its spokes), resolved on first
 * use and kept in this object — nothing is cached behind the caller's back.
 */
export interface ResolvedFleet {
  fleet: Fleet;
  /** The selected clusters, in bootstrap order (a hub before its spokes). */
  clusters: ResolvedCluster[];
  /** Load findings of the selected clusters and every resolution finding, merged. */
  findings: Finding[];
  /** Any cluster of the fleet, resolved (the selected ones are not resolved again). */
  cluster(name: string): ResolvedCluster;
}

export function resolveFleet(fleet: Fleet, options: SelectOptions = {}): ResolvedFleet {
  const resolved = new Map<string, ResolvedCluster>();
  const clusters: ResolvedCluster[] = [];
  const selected = selectClusters(fleet, options.clusters);
  // A load finding about one cluster belongs to a run that selected it.
  const findings: Finding[] = options.clusters?.length ? fleet.loadFindings.filter((f) => !f.cluster || selected.includes(f.cluster)) : [...fleet.loadFindings];
  // Clusters with the same groups share their merged group layers (docs/adr/0310).
  const session = createResolveSession(fleet);
  const lookup = (name: string): ResolvedCluster => {
    let c = resolved.get(name);
    if (!c) resolved.set(name, (c = resolveCluster(fleet, name, session).cluster));
    return c;
  };
  for (const name of selected) {
    const r = resolveCluster(fleet, name, session);
    resolved.set(name, r.cluster);
    clusters.push(r.cluster);
    findings.push(...r.findings, ...consumerValueFindings(fleet, r.cluster));
  }
  return { fleet, clusters, findings: mergeFindings(findings), cluster: lookup };
}

/** A fleet resolved one cluster at a time: `findings()` is known once `clusters` has been iterated (it throws before). */
export interface LazyResolvedFleet {
  fleet: Fleet;
  clusters: Iterable<ResolvedCluster>;
  findings(): Finding[];
}

/**
 * `resolveFleet`, one cluster at a time as `clusters` is iterated (once): a streamed output then
 * holds one resolved cluster at a time, not the fleet's (`plan -o json` of 5,000 clusters:
 * 270 -> 125 MB, a quarter less time). Each cluster is still resolved once.
 */
export function resolveFleetLazily(fleet: Fleet, options: SelectOptions = {}): LazyResolvedFleet {
  const selected = selectClusters(fleet, options.clusters);
  const findings: Finding[] = options.clusters?.length ? fleet.loadFindings.filter((f) => !f.cluster || selected.includes(f.cluster)) : [...fleet.loadFindings];
  let merged: Finding[] | undefined;
  function* clusters(): Generator<ResolvedCluster> {
    const session = createResolveSession(fleet);
    for (const name of selected) {
      const r = resolveCluster(fleet, name, session);
      findings.push(...r.findings, ...consumerValueFindings(fleet, r.cluster));
      yield r.cluster;
    }
    merged = mergeFindings(findings);
  }
  return {
    fleet,
    clusters: clusters(),
    findings: () => {
      if (!merged) throw new Error('resolveFleetLazily: findings are known once every cluster is resolved');
      return merged;
    },
  };
}

/**
 * One finding per place and message: the same mistake in a group seen from many clusters is
 * reported once, naming the clusters.
 */
export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const byKey = new Map<string, { f: Finding; first: Finding; clusters: string[] }>();
  for (const f of findings) {
    const message = f.cluster ? f.message.replace(` on cluster ${f.cluster}`, '') : f.message;
    const key = [f.file, f.line, f.column, f.code, f.severity, message].join('\0');
    const e = byKey.get(key);
    if (!e) byKey.set(key, { f: { ...f, message }, first: f, clusters: f.cluster ? [f.cluster] : [] });
    else if (f.cluster && !e.clusters.includes(f.cluster)) e.clusters.push(f.cluster);
  }
  const out: Finding[] = [];
  for (const { f, first, clusters } of byKey.values()) {
    if (clusters.length === 1) {
      out.push(first);
    } else if (clusters.length > 1) {
      const names = clusters.length > 5 ? `${clusters.slice(0, 5).join(', ')} and ${clusters.length - 5} more` : clusters.join(', ');
      const { cluster: _c, ...rest } = f;
      out.push({ ...rest, message: `${f.message} on clusters ${names}` });
    } else {
      out.push(f);
    }
  }
  return out.sort(compareFindings);
}
