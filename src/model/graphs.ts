/**
 * Dependency graphs of layouts that order things themselves: helmfile `needs` between releases
 * and Flux Kustomization `dependsOn`. Read by the layout reader, checked by the graph rules.
 * Every node and edge keeps its file, line and column.
 */

export interface GraphRef {
  /** As written: `ns/name` or `name` (helmfile), `name` with an optional namespace (Flux). */
  name: string;
  namespace?: string;
  file: string;
  line: number;
  column: number;
}

export interface HelmfileRelease {
  name: string;
  namespace: string;
  /** `crds`: only rendered with --include-crds and applied (never installed); `apps`: installed. */
  phase: 'crds' | 'apps';
  chart?: string;
  version?: string;
  file: string;
  line: number;
  column: number;
  needs: GraphRef[];
  /** `kubectl wait --for=create crd/<plural>.<group>` in the release's hooks: the API groups it waits for. */
  waitsForGroups: string[];
  /** Repository files its hooks `kubectl apply`. */
  applies: string[];
}

export interface FluxKustomization {
  name: string;
  namespace: string;
  /** Repository path (`spec.path` without the leading `./`). */
  path?: string;
  targetNamespace?: string;
  file: string;
  line: number;
  column: number;
  dependsOn: GraphRef[];
  /** `spec.components`, relative to `path` (in `name`). */
  components: GraphRef[];
}

export interface FleetGraphs {
  helmfile: HelmfileRelease[];
  flux: FluxKustomization[];
}

export function releaseId(r: { namespace: string; name: string }): string {
  return `${r.namespace}/${r.name}`;
}

/** The app name a helmfile release gets in the plan. */
export function releaseApp(r: { namespace: string; name: string }): string {
  return `helmfile:${releaseId(r)}`;
}

/** The app name a Flux Kustomization gets in the plan. */
export function kustomizationApp(k: { namespace: string; name: string }): string {
  return `flux:${k.namespace}/${k.name}`;
}
