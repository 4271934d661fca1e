/**
 * Stage 3, generate (Flux): a resolved cluster of a fleet with `gitops.engine: flux` → one Flux
 * Kustomization per app, the HelmRelease of each chart app, and the day-0 bootstrap manifests that
 * hand the cluster to Flux (its namespace, the GitRepository of the fleet, the root Kustomization).
 * Pure: objects out; rendering to files is src/render. Decisions: docs/adr/0144-flux-output.md.
 *
 * Flux has no sync waves. Each app's Kustomization `dependsOn` its `needs` and every app of the
 * wave before its own, with `wait: true`, so a wave starts once the wave before it is Ready.
 * A chart app is a Kustomization too (reading `<cluster>/charts/<app>/`, where its HelmRelease
 * and chart source are rendered), so that every app can depend on every other the same way:
 * a Kustomization can only depend on Kustomizations, a HelmRelease only on HelmReleases.
 */
import type { Fleet } from '../model/fleet.js';
import { clusterDef } from '../model/fleet.js';
import type { ResolvedApp, ResolvedCluster } from '../model/resolved.js';
import type { BootstrapFile } from '../model/bootstrap.js';
import type { K8sObject } from '../model/k8s.js';
import { renderedClusterPath } from './argocd.js';
import { SYNC_WAVE_ANNOTATION } from '../model/constants.js';
import { bootstrapFile } from '../model/bootstrap.js';

export const FLUX_KUSTOMIZATION_API = 'kustomize.toolkit.fluxcd.io/v1';
export const FLUX_HELM_API = 'helm.toolkit.fluxcd.io/v2';
export const FLUX_SOURCE_API = 'source.toolkit.fluxcd.io/v1';
/** Name of the cluster's GitRepository of the fleet and of its root Kustomization (Flux's own bootstrap names them so). */
export const FLUX_ROOT = 'flux-system';
export const FLUX_INTERVAL = '10m';
export const FLUX_TIMEOUT = '5m';

/** What `plan` says about the waves of a Flux fleet. */
export const FLUX_PLAN_NOTE =
  'Flux has no sync waves: each app is a Flux Kustomization that dependsOn its needs and every app of the wave before its own, with wait: true, so a wave starts once the wave before it is Ready';

/** A Git revision fleetplan treats as a commit: 40 (SHA-1) or 64 (SHA-256) hex digits. */
export function isCommit(revision: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(revision);
}

/** A GitRepository `spec.ref`: a pinned commit, a full reference (`refs/...`), or else a branch. */
export function gitRef(revision: string): Record<string, string> {
  if (isCommit(revision)) return { commit: revision };
  if (revision.startsWith('refs/')) return { name: revision };
  return { branch: revision };
}

export function gitRepository(name: string, namespace: string, url: string, revision: string): K8sObject {
  return {
    apiVersion: FLUX_SOURCE_API,
    kind: 'GitRepository',
    metadata: { name, namespace },
    spec: { interval: FLUX_INTERVAL, url, ref: gitRef(revision) },
  };
}

/** The repository path of a chart app's HelmRelease directory: `<renderedPath>/<cluster>/charts/<app>`. */
export function chartDirectory(fleet: Fleet, cluster: string, app: string): string {
  return `${renderedClusterPath(fleet, cluster)}/charts/${app}`;
}

/** True for an app Flux installs with a HelmRelease: a chart from a Helm repository, or a Helm chart directory in Git. */
export function isHelmApp(app: ResolvedApp): boolean {
  return app.source.chart !== undefined || (app.source.helm !== undefined && app.source.path !== undefined);
}

/** Whether the app's Git source is the fleet repository at the cluster's revision (the root GitRepository). */
function usesRootSource(fleet: Fleet, cluster: ResolvedCluster, app: ResolvedApp): boolean {
  return app.source.repoURL === fleet.repoURL && app.source.targetRevision === cluster.revision;
}

/**
 * Whether the cluster's manifests get Flux's `${VAR}` substitution: when the fleet uses variables
 * (a config-management plugin, or variables of its own in fleet.yaml or the cluster's file).
 */
export function usesVariables(fleet: Fleet, cluster: ResolvedCluster): boolean {
  if (fleet.plugin) return true;
  if (Object.keys(fleet.vars).length > 0) return true;
  return Object.keys(clusterDef(fleet, cluster.name)?.spec.vars ?? {}).length > 0;
}

/** The apps this app waits for: its needs, and every app of the nearest lower wave. Sorted, each once. */
export function dependsOnFor(cluster: ResolvedCluster, app: ResolvedApp): string[] {
  const names = new Set(cluster.apps.map((a) => a.name));
  const lower = cluster.apps.filter((a) => a.wave < app.wave);
  const previous = lower.length ? Math.max(...lower.map((a) => a.wave)) : undefined;
  const deps = new Set<string>();
  for (const n of app.needs) if (names.has(n) && n !== app.name) deps.add(n);
  for (const a of cluster.apps) if (previous !== undefined && a.wave === previous) deps.add(a.name);
  return [...deps].sort();
}

/** `syncPolicy.automated.prune` when the app sets it; Flux Kustomizations prune otherwise. */
export function pruneFor(app: ResolvedApp): boolean {
  const automated = app.syncPolicy?.automated;
  if (automated !== null && typeof automated === 'object' && typeof (automated as Record<string, unknown>).prune === 'boolean') {
    return (automated as Record<string, unknown>).prune as boolean;
  }
  return true;
}

/** `./` + a repository path, as Flux writes Kustomization paths. */
function dotPath(path: string): string {
  const p = path.replace(/^\.\//, '').replace(/\/+$/, '');
  return p === '' || p === '.' ? './' : `./${p}`;
}

function metadataOf(cluster: ResolvedCluster, app: ResolvedApp): K8sObject['metadata'] {
  const metadata: K8sObject['metadata'] = { name: app.name, namespace: cluster.gitopsNamespace };
  // The computed Argo CD sync wave means nothing to Flux (dependsOn carries the order).
  const annotations = Object.fromEntries(Object.entries(app.annotations).filter(([k]) => k !== SYNC_WAVE_ANNOTATION));
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (Object.keys(app.labels).length > 0) metadata.labels = app.labels;
  return metadata;
}

/**
 * The objects of `<cluster>/apps/<app>.yaml`: the app's Kustomization, preceded by a GitRepository
 * of its own when its Git source is not the fleet repository at the cluster's revision. An app that
 * carries its original manifest gets that manifest, as it is.
 */
export function kustomizationFor(fleet: Fleet, cluster: ResolvedCluster, app: ResolvedApp): K8sObject[] {
  if (app.manifest) return [app.manifest as K8sObject];
  const ns = cluster.gitopsNamespace;
  const objects: K8sObject[] = [];
  const helm = isHelmApp(app);
  let sourceName = FLUX_ROOT;
  let path: string;
  if (helm) {
    path = chartDirectory(fleet, cluster.name, app.name);
  } else {
    path = app.source.path ?? '.';
    if (!usesRootSource(fleet, cluster, app)) {
      sourceName = app.name;
      objects.push(gitRepository(app.name, ns, app.source.repoURL, app.source.targetRevision));
    }
  }
  const spec: Record<string, unknown> = {
    interval: FLUX_INTERVAL,
    path: dotPath(path),
    prune: pruneFor(app),
    sourceRef: { kind: 'GitRepository', name: sourceName },
    wait: true,
    timeout: FLUX_TIMEOUT,
  };
  const deps = dependsOnFor(cluster, app);
  if (deps.length) spec.dependsOn = deps.map((name) => ({ name }));
  // The HelmRelease names its own target namespace; the chart directory's objects stay in flux-system.
  if (!helm && app.destination.namespace !== undefined) spec.targetNamespace = app.destination.namespace;
  if (!helm && usesVariables(fleet, cluster)) spec.postBuild = { substitute: { ...cluster.vars } };
  objects.push({ apiVersion: FLUX_KUSTOMIZATION_API, kind: 'Kustomization', metadata: metadataOf(cluster, app), spec });
  return objects;
}

/**
 * The objects of a chart app's directory `<cluster>/charts/<app>/`: the chart's source (an
 * OCIRepository for an `oci://` repository, a HelmRepository otherwise, none for a chart directory
 * in the fleet repository) and the HelmRelease. Empty for an app that is not a chart.
 */
export function helmReleaseFor(fleet: Fleet, cluster: ResolvedCluster, app: ResolvedApp): K8sObject[] {
  if (app.manifest || !isHelmApp(app)) return [];
  const ns = cluster.gitopsNamespace;
  const objects: K8sObject[] = [];
  const spec: Record<string, unknown> = { interval: FLUX_INTERVAL, releaseName: app.source.helm?.releaseName ?? app.name };
  const chart = app.source.chart;
  if (chart !== undefined && app.source.repoURL.startsWith('oci://')) {
    const url = `${app.source.repoURL.replace(/\/+$/, '')}/${chart}`;
    objects.push({
      apiVersion: FLUX_SOURCE_API,
      kind: 'OCIRepository',
      metadata: { name: app.name, namespace: ns },
      spec: {
        interval: FLUX_INTERVAL,
        url,
        ref: { tag: app.source.targetRevision },
        layerSelector: { mediaType: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip', operation: 'copy' },
      },
    });
    spec.chartRef = { kind: 'OCIRepository', name: app.name };
  } else if (chart !== undefined) {
    objects.push({
      apiVersion: FLUX_SOURCE_API,
      kind: 'HelmRepository',
      metadata: { name: app.name, namespace: ns },
      spec: { interval: FLUX_INTERVAL, url: app.source.repoURL },
    });
    const chartSpec: Record<string, unknown> = { chart, version: app.source.targetRevision, sourceRef: { kind: 'HelmRepository', name: app.name } };
    if (app.source.helm?.valueFiles) chartSpec.valuesFiles = app.source.helm.valueFiles;
    spec.chart = { spec: chartSpec };
  } else {
    // A Helm chart directory in Git: the fleet repository's GitRepository, or one of the app's own.
    let sourceName = FLUX_ROOT;
    if (!usesRootSource(fleet, cluster, app)) {
      sourceName = app.name;
      objects.push(gitRepository(app.name, ns, app.source.repoURL, app.source.targetRevision));
    }
    const chartSpec: Record<string, unknown> = { chart: dotPath(app.source.path ?? '.'), sourceRef: { kind: 'GitRepository', name: sourceName } };
    if (app.source.helm?.valueFiles) chartSpec.valuesFiles = app.source.helm.valueFiles.map((f) => `${dotPath(app.source.path ?? '.')}/${f.replace(/^\.\//, '')}`);
    spec.chart = { spec: chartSpec };
  }
  if (app.destination.namespace !== undefined) spec.targetNamespace = app.destination.namespace;
  if (app.syncOptions.includes('CreateNamespace=true')) spec.install = { createNamespace: true };
  if (app.source.helm?.values) spec.values = app.source.helm.values;
  objects.push({ apiVersion: FLUX_HELM_API, kind: 'HelmRelease', metadata: metadataOf(cluster, app), spec });
  return objects;
}

/** The root Kustomization: applies the cluster's `apps/` directory of rendered Kustomizations. */
export function rootKustomization(fleet: Fleet, cluster: ResolvedCluster): K8sObject {
  return {
    apiVersion: FLUX_KUSTOMIZATION_API,
    kind: 'Kustomization',
    metadata: { name: FLUX_ROOT, namespace: cluster.gitopsNamespace },
    spec: {
      interval: FLUX_INTERVAL,
      path: dotPath(`${renderedClusterPath(fleet, cluster.name)}/apps`),
      prune: true,
      sourceRef: { kind: 'GitRepository', name: FLUX_ROOT },
      timeout: FLUX_TIMEOUT,
    },
  };
}

/**
 * Day-0 manifests of a Flux cluster, in the order they are applied: Flux's namespace (Flux's
 * controllers are installed into it, e.g. with `flux install`), the GitRepository of the fleet at
 * the cluster's revision, and the root Kustomization reading the cluster's rendered apps.
 */
export function fluxBootstrapFor(fleet: Fleet, cluster: ResolvedCluster): BootstrapFile[] {
  const ns = cluster.gitopsNamespace;
  return [
    bootstrapFile({ step: 'namespace', description: `Namespace ${ns} (install Flux's controllers into it)`,
      objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }],
    }),
    bootstrapFile({ step: 'gitrepository', description: `GitRepository ${FLUX_ROOT}: ${fleet.repoURL} at ${cluster.revision}`,
      objects: [gitRepository(FLUX_ROOT, ns, fleet.repoURL, cluster.revision)],
    }),
    bootstrapFile({ step: 'root-kustomization', description: `root Kustomization reading ${renderedClusterPath(fleet, cluster.name)}/apps`,
      objects: [rootKustomization(fleet, cluster)],
    }),
  ];
}
