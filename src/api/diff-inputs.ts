/**
 * What a cluster's rendering reads, as one fingerprint per cluster, so that `diff` renders only
 * the clusters whose inputs differ between the two revisions (docs/adr/0245-incremental-diff.md).
 *
 * Render and plan are pure functions of the loaded fleet's settings and of the resolved cluster
 * (src/render/fleet.ts, src/order/plan.ts): they never read files. A cluster's render also reads
 * its definition (generated objects, identity, the root ApplicationSet), its groups' definitions,
 * and across clusters only the hub/spoke pair (a hub's provisioning directories name its spokes,
 * a spoke's name its hub). The fingerprint hashes exactly those; two equal fingerprints mean the
 * same objects, waves, needs and bootstrap steps. Fleet settings that have no JSON form (a function)
 * make every fingerprint unknown, and every cluster is rendered.
 */
import { createHash } from 'node:crypto';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { Fleet } from '../model/fleet.js';

/** JSON with Maps and Sets spelled out; undefined when the value holds something JSON cannot carry. */
export function canonicalText(value: unknown): string | undefined {
  let opaque = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Map) return { '\u0000map': [...v.entries()] };
    if (v instanceof Set) return { '\u0000set': [...v] };
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') {
      opaque = true;
      return null;
    }
    return v;
  });
  return opaque ? undefined : text;
}

/** The fleet-wide settings render and plan read: everything but where it is, its clusters, groups, sources and load findings. */
export function fleetSettingsText(fleet: Fleet): string | undefined {
  const { root: _root, clusters: _clusters, groups: _groups, sources: _sources, loadFindings: _findings, ...settings } = fleet;
  return canonicalText(settings);
}

/**
 * Per selected cluster, a hash of what its rendering and plan read; undefined when it cannot be
 * told (then the cluster is rendered on both sides).
 */
export function clusterFingerprints(resolved: ResolvedFleet): Map<string, string | undefined> {
  const { fleet } = resolved;
  const out = new Map<string, string | undefined>();
  const settings = fleetSettingsText(fleet);
  const defs = new Map(fleet.clusters.map((c) => [c.name, c]));
  const spokesOf = new Map<string, string[]>();
  for (const c of fleet.clusters) {
    if (c.spec.hub !== undefined) spokesOf.set(c.spec.hub, [...(spokesOf.get(c.spec.hub) ?? []), c.name]);
  }
  // A hash of a cluster's definition, its groups' definitions and its resolution.
  const own = (name: string): string | undefined => {
    const def = defs.get(name);
    if (def === undefined) return canonicalText(null);
    const groups = [...new Set([...(def.spec.groups ?? []), ...resolved.cluster(name).groups])].map((g) => [g, fleet.groups.get(g) ?? null]);
    // Definitions and resolutions are JSON data by their types (no Map, Set or function): plain
    // JSON.stringify, several times faster than one with a replacer, on every cluster of both sides.
    const text = JSON.stringify([def, groups, resolved.cluster(name)]);
    return text === undefined ? undefined : createHash('sha256').update(text).digest('hex');
  };
  const memo = new Map<string, string | undefined>();
  const ownOnce = (name: string) => {
    if (!memo.has(name)) memo.set(name, own(name));
    return memo.get(name);
  };
  for (const c of resolved.clusters) {
    if (settings === undefined) {
      out.set(c.name, undefined);
      continue;
    }
    const related = [...new Set([c.name, ...(c.hub !== undefined ? [c.hub] : []), ...(defs.get(c.name)?.spec.hub !== undefined ? [defs.get(c.name)!.spec.hub!] : []), ...(spokesOf.get(c.name) ?? [])])];
    const h = createHash('sha256').update(settings);
    let known = true;
    for (const name of related) {
      const text = ownOnce(name);
      if (text === undefined) {
        known = false;
        break;
      }
      h.update('\u0000').update(name).update('\u0000').update(text);
    }
    out.set(c.name, known ? h.digest('hex') : undefined);
  }
  return out;
}
