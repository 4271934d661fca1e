/**
 * The apps a hub gets because it provisions clusters: one per spoke whose cluster.yaml has
 * `provision:` (named after the spoke, wave 20 unless `provision.wave` says otherwise) and one for
 * the hub-wide ACM–GitOps wiring (at the earliest of their waves). They are the lowest layer of those apps, under fleet defaults'
 * project and sync settings; an entry of the same name in a group or in the hub's own `apps`
 * merges over them (to add `needs`, change the wave, or replace the path).
 */
import type { ClusterDef, Fleet, Origin } from '../model/fleet.js';
import { clusterDef } from '../model/fleet.js';
import type { AppSpec } from '../model/spec.js';
import { DEFAULT_PROVISION_WAVE, GITOPS_WIRING_APP, POLICY_NAMESPACE, provisionPath } from '../model/constants.js';

export interface ProvisioningLayer {
  app: string;
  spec: AppSpec;
  origin: Origin;
}

const index = new WeakMap<Fleet, Map<string, ClusterDef[]>>();

/** The clusters a hub provisions (its spokes with `provision:`), by name; indexed once per fleet. */
export function provisionedSpokes(fleet: Fleet, hub: string): ClusterDef[] {
  let byHub = index.get(fleet);
  if (!byHub) {
    byHub = new Map();
    for (const c of fleet.clusters) {
      if (c.spec.provision === undefined || c.spec.hub === undefined || c.spec.hub === c.name) continue;
      let l = byHub.get(c.spec.hub);
      if (!l) byHub.set(c.spec.hub, (l = []));
      l.push(c);
    }
    for (const l of byHub.values()) l.sort((a, b) => (a.name < b.name ? -1 : 1));
    index.set(fleet, byHub);
  }
  return byHub.get(hub) ?? [];
}

export function provisioningLayers(fleet: Fleet, hub: string): ProvisioningLayer[] {
  const spokes = provisionedSpokes(fleet, hub);
  if (spokes.length === 0) return [];
  const layers: ProvisioningLayer[] = spokes.map((c) => ({
    app: c.name,
    spec: { path: provisionPath(fleet.renderedPath, hub, c.name), namespace: c.name, wave: c.spec.provision!.wave ?? DEFAULT_PROVISION_WAVE },
    origin: { file: c.file, path: ['spec', 'provision'] },
  }));
  const hubDef = clusterDef(fleet, hub);
  layers.push({
    app: GITOPS_WIRING_APP,
    // With the earliest provisioning app: the spokes' placements need its cluster-set bindings.
    spec: { path: provisionPath(fleet.renderedPath, hub, GITOPS_WIRING_APP), namespace: POLICY_NAMESPACE, wave: Math.min(...layers.map((l) => l.spec.wave!)) },
    origin: { file: hubDef?.file ?? fleet.file, path: ['spec'] },
  });
  return layers;
}
