/**
 * Stage 7a for a native fleet with `gitops.engine: flux`: the bootstrap of one resolved cluster as
 * stages of objects and waits (pure), run by the same executor as the Argo CD bootstrap
 * (src/apply/executor.ts: dry-run, idempotent, resumable, one deadline).
 *
 *   namespaces          Namespace flux-system (+ the CRDs and Namespaces of --flux-manifests)   wait: CRDs Established
 *   flux-components     the rest of --flux-manifests (Flux's controllers)                         wait: their Deployments available
 *   flux-source         GitRepository flux-system: the fleet repository at the cluster's revision
 *   root-kustomization  Kustomization flux-system reading <renderedPath>/<cluster>/apps
 *   flux N …            (applied by Flux) every Kustomization at level N Ready: the root (0), then the
 *                       apps by dependsOn (src/order/flux-levels.ts, shared with the helmfile hand-off)
 *
 * The objects are those of `render --out DIR/<cluster>/bootstrap` (src/generate/flux.ts
 * fluxBootstrapFor) and of the app Kustomizations the root applies (kustomizationFor), so what
 * bootstrap applies and awaits is what render writes. Decisions: docs/adr/0261-native-flux-bootstrap.md.
 */
import { FLUX_ROOT, fluxBootstrapFor, helmReleaseFor, kustomizationFor } from '../generate/flux.js';
import type { BootstrapFile, BootstrapPlan, BootstrapStage, WaitSpec } from '../model/bootstrap.js';
import type { Fleet } from '../model/fleet.js';
import type { K8sObject } from '../model/k8s.js';
import { keyOf } from '../model/k8s.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { FLUX_KUSTOMIZATION_API, fluxLevels, kustomizationReady, type FluxNode } from './flux-levels.js';

export interface FluxBootstrapPlanOptions {
  /** Flux's own install manifests (`flux install --export`), parsed from a local file or directory. */
  fluxManifests?: K8sObject[];
}

/** The CRDs of the kinds a Flux cluster's bootstrap and apps use, by kind. */
const FLUX_CRDS: Record<string, string> = {
  GitRepository: 'gitrepositories.source.toolkit.fluxcd.io',
  Kustomization: 'kustomizations.kustomize.toolkit.fluxcd.io',
  HelmRelease: 'helmreleases.helm.toolkit.fluxcd.io',
  HelmRepository: 'helmrepositories.source.toolkit.fluxcd.io',
  OCIRepository: 'ocirepositories.source.toolkit.fluxcd.io',
};

/** Kinds of Flux's install manifests without a namespace; everything else gets the Flux namespace. */
const CLUSTER_SCOPED = new Set(['Namespace', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']);

export const FLUX_MANIFESTS_NOTE =
  "Flux's own components are not installed by this run: pass --flux-manifests FILE|DIR (e.g. flux install --export > flux.yaml); without it they must be installed already, and the flux-components stage waits for their CRDs";

function crdWait(name: string): WaitSpec {
  return { object: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name }, condition: 'established', text: `CRD ${name} Established` };
}

function withNamespace(o: K8sObject, ns: string): K8sObject {
  if (CLUSTER_SCOPED.has(o.kind) || o.metadata.namespace !== undefined) return o;
  return { ...o, metadata: { ...o.metadata, namespace: ns } };
}

interface AppNode extends FluxNode {
  root: boolean;
}

/** The Kustomizations Flux will apply for the cluster, by level: the root first, then its apps by dependsOn. */
export function fluxWaitLevels(fleet: Fleet, cluster: ResolvedCluster): AppNode[][] {
  const ns = cluster.gitopsNamespace;
  const root: AppNode = { namespace: ns, name: FLUX_ROOT, dependsOn: [], root: true };
  const apps: AppNode[] = cluster.apps.flatMap((app) =>
    kustomizationFor(fleet, cluster, app)
      .filter((o) => o.kind === 'Kustomization' && o.apiVersion === FLUX_KUSTOMIZATION_API)
      .map((o) => {
        const spec = (o.spec ?? {}) as { dependsOn?: Array<{ name: string; namespace?: string }> };
        return { namespace: o.metadata.namespace ?? ns, name: o.metadata.name, dependsOn: spec.dependsOn ?? [], root: false };
      }));
  return fluxLevels([root, ...apps], (n) => (n.root ? undefined : root));
}

export function planFluxBootstrap(fleet: Fleet, cluster: ResolvedCluster, options: FluxBootstrapPlanOptions = {}): BootstrapPlan {
  return planFluxBootstrapOf(fleet, cluster, fluxBootstrapFor(fleet, cluster), options);
}

/** planFluxBootstrap over the cluster's bootstrap files when the caller has them already (`plan`). */
export function planFluxBootstrapOf(fleet: Fleet, cluster: ResolvedCluster, files: readonly BootstrapFile[], options: FluxBootstrapPlanOptions = {}): BootstrapPlan {
  const ns = cluster.gitopsNamespace;
  const file = (step: BootstrapFile['step']) => files.find((f) => f.step === step)!;
  const notes: string[] = [];
  const stages: BootstrapStage[] = [];
  const manifests = (options.fluxManifests ?? []).map((o) => withNamespace(o, ns));
  const isFirst = (o: K8sObject) => o.kind === 'CustomResourceDefinition' || o.kind === 'Namespace';
  const nsFile = file('namespace');
  const early = [...nsFile.objects, ...manifests.filter((o) => isFirst(o) && !(o.kind === 'Namespace' && o.metadata.name === ns))];
  const crds = early.filter((o) => o.kind === 'CustomResourceDefinition');
  stages.push({
    name: 'namespaces',
    kind: 'namespaces',
    description: `Namespace ${ns}${crds.length ? ` and ${crds.length} CRDs of the Flux manifests` : ''}`,
    objects: early,
    files: [nsFile.name],
    waits: [
      { object: { apiVersion: 'v1', kind: 'Namespace', name: ns }, condition: 'exists', text: `Namespace ${ns} active` },
      ...crds.map((c) => crdWait(String(c.metadata.name))),
    ],
    notes: [],
  });

  // The kinds this cluster's objects need, so that a missing controller is named, not guessed.
  const kinds = new Set<string>(['GitRepository', 'Kustomization']);
  for (const app of cluster.apps) for (const o of [...kustomizationFor(fleet, cluster, app), ...helmReleaseFor(fleet, cluster, app)]) kinds.add(o.kind);
  const rest = manifests.filter((o) => !isFirst(o));
  const deployments = rest.filter((o) => o.kind === 'Deployment' && String(o.apiVersion).startsWith('apps/'));
  if (options.fluxManifests === undefined) notes.push(FLUX_MANIFESTS_NOTE);
  const served = new Set(crds.map((c) => String(c.metadata.name)));
  const needed = [...kinds].filter((k) => FLUX_CRDS[k] !== undefined).map((k) => FLUX_CRDS[k]!).filter((c) => !served.has(c)).sort();
  stages.push({
    name: 'flux-components',
    kind: 'flux-components',
    description: options.fluxManifests === undefined ? "Flux's controllers (not given: installed already)" : `Flux's controllers: ${deployments.map((d) => d.metadata.name).join(', ') || 'no Deployment'} from the Flux manifests`,
    objects: rest,
    files: [],
    waits: [
      ...needed.map(crdWait),
      ...deployments.map((d): WaitSpec => ({ object: keyOf(d), condition: 'available', text: `Deployment ${d.metadata.namespace ?? ns}/${d.metadata.name} available` })),
    ],
    notes: [],
  });

  const source = file('gitrepository');
  stages.push({ name: 'flux-source', kind: 'flux-source', description: source.description, objects: source.objects, files: [source.name], waits: [], notes: [] });
  const root = file('root-kustomization');
  stages.push({ name: 'root-kustomization', kind: 'root-kustomization', description: root.description, objects: root.objects, files: [root.name], waits: [], notes: [] });

  fluxWaitLevels(fleet, cluster).forEach((level, depth) => {
    stages.push({
      name: `flux ${depth}`,
      kind: 'flux',
      description: depth === 0 ? `the root Kustomization ${FLUX_ROOT}, applied by Flux` : `${level.length} Kustomization${level.length === 1 ? '' : 's'} of level ${depth} (after the root and what they dependsOn), applied by Flux`,
      objects: [],
      files: [],
      waits: level.map((k) => kustomizationReady(k.namespace, k.name)),
      // Flux applies these: a dry run or --no-wait has nothing to write or wait for.
      optional: true,
      notes: [],
    });
  });
  return { cluster: cluster.name, platform: cluster.platform, gitopsNamespace: ns, stages, notes };
}
