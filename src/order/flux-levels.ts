/**
 * Flux Kustomizations awaited Ready in `dependsOn` order: the Flux hand-off of both bootstraps that
 * end in Flux (helmfile + Flux, src/order/helmfile-plan.ts; a native fleet with `gitops.engine:
 * flux`, src/order/flux-bootstrap-plan.ts). Pure: levels and wait specs; the executors wait.
 *
 * A Kustomization's level is one more than the deepest of its `dependsOn` and of the Kustomization
 * that creates it (its parent: the one whose path holds its file, or the root of a native fleet):
 * a child cannot be Ready before its parent has applied it. Edges that name nothing or close a
 * cycle are left out (the graph rules report them). Each level is sorted by namespace/name.
 */
import type { WaitSpec } from '../model/bootstrap.js';

export const FLUX_KUSTOMIZATION_API = 'kustomize.toolkit.fluxcd.io/v1';

export interface FluxNode {
  namespace: string;
  name: string;
  dependsOn: ReadonlyArray<{ name: string; namespace?: string }>;
}

/** The nodes by level; `parentOf` gives the Kustomization that creates a node, when one does. */
export function fluxLevels<T extends FluxNode>(nodes: readonly T[], parentOf: (n: T) => T | undefined = () => undefined): T[][] {
  const find = (from: T, d: { name: string; namespace?: string }) => nodes.find((k) => k.name === d.name && k.namespace === (d.namespace ?? from.namespace));
  const depth = new Map<T, number>();
  const visiting = new Set<T>();
  const visit = (k: T): number => {
    const known = depth.get(k);
    if (known !== undefined) return known;
    visiting.add(k);
    let d = 0;
    const deps = k.dependsOn.map((x) => find(k, x)).filter((x): x is T => x !== undefined);
    const parent = parentOf(k);
    for (const m of parent ? [...deps, parent] : deps) if (!visiting.has(m)) d = Math.max(d, visit(m) + 1);
    visiting.delete(k);
    depth.set(k, d);
    return d;
  };
  for (const k of nodes) visit(k);
  const levels: T[][] = [];
  for (const k of nodes) (levels[depth.get(k)!] ??= []).push(k);
  return levels.filter((l) => l !== undefined).map((l) => [...l].sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`)));
}

/** What a Flux hand-off awaits of one Kustomization: `Ready=True` (kustomize-controller's condition). */
export function kustomizationReady(namespace: string, name: string): WaitSpec {
  return { object: { apiVersion: FLUX_KUSTOMIZATION_API, kind: 'Kustomization', namespace, name }, condition: 'ready-condition', text: `Kustomization ${namespace}/${name} Ready` };
}
