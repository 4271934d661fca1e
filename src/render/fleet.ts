/**
 * Stage 5, render: resolved clusters → deterministic files.
 *
 *   <cluster>/apps/<app>.yaml          one Application per enabled app
 *   <cluster>/projects/<project>.yaml  the AppProjects those apps use
 *   <cluster>/bootstrap/NN-*.yaml      the day-0 manifests, in apply order
 *
 * With `gitops.engine: flux` (src/generate/flux.ts): apps/<app>.yaml holds one Flux Kustomization,
 * charts/<app>/helmrelease.yaml the HelmRelease of a chart app, and no projects/.
 *
 * Under `delivery: applicationset`, no apps/ or projects/ (the root ApplicationSet in bootstrap/
 * generates the Applications), and `deliveryFiles` gives the files shared by the clusters of a
 * sector, region and cluster type: deploy/<sector>/<region>/argocd/... (values, ApplicationSet).
 *
 * Returns `{ path, content }` pairs; writing them is the caller's (src/adapters/output.ts).
 */
import { FLUX_APPLIED_BY_LABEL } from '../model/constants.js';
import type { K8sObject } from '../model/k8s.js';
import { applicationFor, bootstrapFor, projectsFor } from '../generate/argocd.js';
import { fluxBootstrapFor, helmReleaseFor, kustomizationFor } from '../generate/flux.js';
import type { Finding } from '../model/finding.js';
import type { ClusterDef, Fleet } from '../model/fleet.js';
import { clusterDef, placedAt } from '../model/fleet.js';
import { clusterSecretFor } from '../generate/cluster-identity.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import { renderProvision } from './provision.js';
import { SELF_APPLICATION, selfManaged, selfManagedApplication } from '../generate/argocd-self.js';
import { renderGenerated } from './generated.js';
import { appSetFilePath, deliveryKey, rootApplicationSet, valuesFilePath, valuesFor } from '../generate/applicationset-delivery.js';
import { header, toYaml, jsonOf } from '../yaml/serialize.js';
import type { RenderedFile } from './files.js';
import type { TextMemo } from './texts.js';
import { appFileName } from '../model/graphs.js';
import { PHASE_TWO_DIR, phaseTwoObjects } from '../generate/mirror.js';
import { bootstrapFileName } from '../model/bootstrap.js';
import { kindRank } from '../model/sync-order.js';
import { objectFileName } from './provision.js';


export interface RenderResult {
  files: RenderedFile[];
  findings: Finding[];
  clusters: ResolvedCluster[];
}

/** Every file of every selected cluster of a resolved fleet. Pure: writing them is an adapter's job (adapters/output.ts). */
export function renderFleet(resolved: ResolvedFleet): RenderResult {
  const { clusters, findings } = resolved;
  const files: RenderedFile[] = [];
  for (const c of clusters) files.push(...renderCluster(resolved, c));
  return { files, findings, clusters };
}

/**
 * Applications an ApplicationSet generates per cluster (evaluated before rendering, which is pure),
 * with the repository file of that ApplicationSet: under `delivery: applicationset` on a layout
 * whose ApplicationSets are the repository's own, `render` writes them as the cluster's apps/.
 */
export interface GeneratedApplications {
  byCluster: ReadonlyMap<string, { from: string; applications: readonly K8sObject[] }>;
}

/** The files of one cluster (its bootstrap, projects, apps, and a hub's provisioning directories). */
export interface RenderOptions {
  /**
   * 2: also the phase-2 tree of a fleet with `gitops.mirror` (src/generate/mirror.ts), under
   * `<cluster>/phase-2/{bootstrap,projects,apps}`. Default 1: the tree as without a mirror.
   */
  phase?: 1 | 2;
  /**
   * The run's content-keyed texts (./texts.ts, ADR 0360): an object equal to one already emitted
   * gets the same text back instead of being emitted again. The bytes are the same either way.
   */
  texts?: TextMemo;
  /**
   * `render --leaves`: true for an app of this cluster whose build is written under
   * `manifests/<app>/`. What that app (an app-of-apps) applies besides Argo CD's objects is in its
   * build, so it is not written under objects/ too (ADR 0407): each object once in the tree.
   */
  leafBuilt?: (app: string) => boolean;
}

export function renderCluster(resolved: ResolvedFleet, c: ResolvedCluster, generated?: GeneratedApplications, options: RenderOptions = {}): RenderedFile[] {
  const { fleet } = resolved;
  const files: RenderedFile[] = [];
  const { texts } = options;
  const file = (path: string, from: string[], objects: K8sObject[]): RenderedFile => {
    const documents = texts ? objects.map((o) => texts.yaml(o)) : objects.map((o) => toYaml(o));
    return { path, content: header(from) + documents.join('---\n'), cluster: c.name, objects, documents };
  };
  if (fleet.engine === 'flux') return renderFluxCluster(fleet, c, file);
  const own = clusterDef(fleet, c.name)?.ownBootstrap;
  if (own) {
    // The repository bootstraps the cluster itself (ADR 0285, 0299): what that bootstrap applies, nothing of fleetplan's.
    for (const b of ownBootstrapFiles(fleet, c, own)) files.push(file(`${c.name}/bootstrap/${b.name}`, [fleet.file, c.file], b.objects));
  } else if (fleet.capabilities.bootstrap) {
    // A repository that bootstraps itself (its own root objects, applied by hand) gets no root of fleetplan's.
    for (const b of bootstrapFor(fleet, c)) files.push(file(`${c.name}/bootstrap/${b.name}`, [fleet.file, c.file], b.objects));
  }
  // Under `delivery: applicationset` the ApplicationSet controller makes the Applications.
  if (fleet.delivery !== 'applicationset') {
    for (const p of projectsFor(fleet, c)) files.push(file(`${c.name}/projects/${p.metadata.name}.yaml`, [fleet.file], [p]));
    // The ApplicationSets a person applies (roots) are in the cluster's Argo CD as a root Application is (ADR 0420).
    for (const s of clusterDef(fleet, c.name)?.handAppliedApplicationSets ?? []) {
      const name = String((s.object.metadata as Record<string, unknown>).name).replace(/[^A-Za-z0-9._-]+/g, '-');
      files.push(file(`${c.name}/apps/applicationset-${name}.yaml`, [`${s.file}${s.line !== undefined ? `:${s.line}` : ''}`], [s.object as K8sObject]));
    }
    // What the repository's roots and app-of-apps apply besides Argo CD's objects (ADR 0398), merged
    // into the apps by sync order: before the apps of a later wave, and within a wave the listed
    // kinds (Namespaces, ConfigMaps, roles, …) before the Applications, the other kinds after them.
    const { leafBuilt } = options;
    const applied = clusterDef(fleet, c.name)?.appliedObjects ?? [];
    const objects = leafBuilt ? applied.filter((o) => !(o.via.startsWith('Application ') && leafBuilt(o.via.slice('Application '.length)))) : applied;
    let next = 0;
    const objectsBefore = (wave: number): void => {
      for (; next < objects.length && (objects[next]!.wave < wave || (objects[next]!.wave === wave && kindRank(String(objects[next]!.manifest.kind)) < 0)); next++) {
        const o = objects[next]!.manifest as K8sObject;
        files.push(file(`${c.name}/objects/${objectFileName(o, '')}`, [objects[next]!.from], [o]));
      }
    };
    for (const app of c.apps) {
      objectsBefore(app.wave);
      // An app a layout read from an Application or ApplicationSet comes from that file and line (ADR 0412).
      const from = placedAt(fleet, app.origin) ? [`${app.from}${app.fromLine !== undefined ? `:${app.fromLine}` : ''}`] : [...new Set(app.layers.map((l) => l.file))];
      files.push(file(`${c.name}/apps/${app.name}.yaml`, from, [applicationFor(c, app, fleet.plugin)]));
    }
    objectsBefore(Number.POSITIVE_INFINITY);
    // Argo CD's own configuration, from the bootstrap files, after the hand-off (ADR 0240).
    if (selfManaged(fleet)) files.push(file(`${c.name}/apps/${SELF_APPLICATION}.yaml`, [fleet.file], [selfManagedApplication(fleet, c)]));
  } else {
    // What the ApplicationSet controller makes on the cluster, when it was evaluated.
    const own = generated?.byCluster.get(c.name);
    for (const app of own?.applications ?? []) {
      files.push(file(`${c.name}/apps/${app.metadata.name.replace(/[^A-Za-z0-9._-]+/g, '-')}.yaml`, [own!.from], [app]));
    }
  }
  // The kustomize directories of the hub's provisioning apps (src/render/provision.ts).
  files.push(...renderProvision(fleet, c.name, resolved.cluster));
  // Sources a layout reader generates (Namespaces, OLM Subscriptions of Validated Patterns).
  files.push(...renderGenerated(fleet, c));
  if (options.phase === 2 && fleet.mirror && fleet.delivery !== 'applicationset') {
    const two = phaseTwoObjects(fleet, fleet.mirror, c);
    const dir = `${c.name}/${PHASE_TWO_DIR}`;
    files.push(file(`${dir}/bootstrap/${bootstrapFileName('root-application')}`, [fleet.file, c.file], [two.root]));
    for (const p of two.projects) files.push(file(`${dir}/projects/${p.metadata.name}.yaml`, [fleet.file], [p]));
    for (const a of two.applications) {
      const app = c.apps.find((x) => x.name === a.app)!;
      files.push(file(`${dir}/apps/${a.app}.yaml`, [...new Set([fleet.file, ...app.layers.map((l) => l.file)])], [a.object]));
    }
    // The phase-2 root reads this tree, so Argo CD's own Application must be in it too (or the
    // root would prune it), reading the mirror like the others.
    if (two.self) files.push(file(`${dir}/apps/${SELF_APPLICATION}.yaml`, [fleet.file], [two.self]));
  }
  // Apply order: bootstrap steps, then projects, then apps by wave, then provisioning objects.
  return files;
}

function renderFluxCluster(fleet: Fleet, c: ResolvedCluster, file: (path: string, from: string[], objects: K8sObject[]) => RenderedFile): RenderedFile[] {
  const files: RenderedFile[] = [];
  if (fleet.capabilities.renderRepositoryObjects) {
    // The repository bootstraps itself (helmfile, then its own Flux instance): its Flux
    // Kustomizations as it writes them; the helmfile releases are helmfile's, not Flux's.
    for (const app of c.apps) {
      // A spoke's app of a Kustomization the hub holds (ADR 0369): the object is written under the hub.
      if (!app.manifest || app.labels[FLUX_APPLIED_BY_LABEL] !== undefined) continue;
      files.push(file(`${c.name}/apps/${appFileName(app.name) ?? app.name.replace(/[^A-Za-z0-9._-]+/g, '-')}.yaml`, [app.from], kustomizationFor(fleet, c, app)));
    }
    return files;
  }
  for (const b of fluxBootstrapFor(fleet, c)) files.push(file(`${c.name}/bootstrap/${b.name}`, [fleet.file, c.file], b.objects));
  for (const app of c.apps) {
    const from = [...new Set(app.layers.map((l) => l.file))];
    files.push(file(`${c.name}/apps/${app.name}.yaml`, from, kustomizationFor(fleet, c, app)));
    const release = helmReleaseFor(fleet, c, app);
    if (release.length) files.push(file(`${c.name}/charts/${app.name}/helmrelease.yaml`, from, release));
  }
  files.push(...renderGenerated(fleet, c));
  return files;
}

/** The files of a cluster's own bootstrap: its identity Secret, when the layout says what it holds, and its root Application. */
function ownBootstrapFiles(fleet: Fleet, c: ResolvedCluster, own: NonNullable<ClusterDef['ownBootstrap']>): { name: string; objects: K8sObject[] }[] {
  const out: { name: string; objects: K8sObject[] }[] = [];
  if (clusterDef(fleet, c.name)?.identity) out.push({ name: bootstrapFileName('cluster-identity'), objects: [clusterSecretFor(fleet, c)] });
  if (own.rootApplication) out.push({ name: bootstrapFileName('root-application'), objects: [own.rootApplication as K8sObject] });
  return out;
}

/** All files as one multi-document YAML stream, each document preceded by its would-be path. */
export function renderedStream(files: readonly RenderedFile[]): string {
  let s = '';
  for (const f of files) for (const d of f.documents) s += `---\n# Source: ${f.path}\n${d}`;
  return s;
}

/** Whether `deliveryFiles` gives any file for this fleet (else it needs no resolved cluster). */
export function hasDeliveryFiles(fleet: Fleet): boolean {
  // A layout whose values files and ApplicationSets are the repository's own (rosa-regional) has nothing to add.
  return fleet.delivery === 'applicationset' && fleet.engine !== 'flux' && !fleet.capabilities.repositoryArgoConfig;
}

/**
 * The files of `delivery: applicationset` shared by the clusters of one sector, region and
 * cluster type, each once: the rendered values file and a copy of the root ApplicationSet.
 * Their content depends on the fleet and that key only, never on which clusters are selected.
 */
export function deliveryFiles(fleet: Fleet, clusters: readonly ResolvedCluster[]): RenderedFile[] {
  if (!hasDeliveryFiles(fleet)) return [];
  const byPath = new Map<string, RenderedFile>();
  for (const c of clusters) {
    const key = deliveryKey(c);
    const values = valuesFor(fleet, c);
    const valuesPath = valuesFilePath(key);
    if (!byPath.has(valuesPath)) {
      const doc = toYaml(values);
      byPath.set(valuesPath, { path: valuesPath, content: header([fleet.file]) + doc, cluster: c.name, objects: [], documents: [doc] });
    }
    const appSetPath = appSetFilePath(key);
    if (!byPath.has(appSetPath)) {
      const obj = rootApplicationSet(fleet, c);
      const doc = toYaml(obj);
      byPath.set(appSetPath, { path: appSetPath, content: header([fleet.file]) + doc, cluster: c.name, objects: [obj], documents: [doc] });
    }
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every object of the selected clusters as one YAML stream, a cluster at a time (memory stays per cluster). */
export function* renderedYamlChunks(resolved: ResolvedFleet, generated?: GeneratedApplications, options: RenderOptions = {}): Generator<string> {
  for (const c of resolved.clusters) yield renderedStream(renderCluster(resolved, c, generated, options));
}

/** Every object of the selected clusters as a kubectl List in JSON, streamed; the same bytes as toSortedJson of the whole list. */
export function* renderedJsonChunks(resolved: ResolvedFleet, generated?: GeneratedApplications, options: RenderOptions = {}): Generator<string> {
  yield '{\n  "apiVersion": "v1",\n  "items": [';
  let first = true;
  for (const c of resolved.clusters) {
    for (const f of renderCluster(resolved, c, generated, options)) {
      for (const o of f.objects) {
        yield (first ? '\n    ' : ',\n    ') + jsonOf(o, '    ');
        first = false;
      }
    }
  }
  yield first ? ']' : '\n  ]';
  yield ',\n  "kind": "List"\n}\n';
}
