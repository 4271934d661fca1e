/**
 * A loaded fleet: every file read and schema-checked, not yet resolved per cluster.
 * `sources` keeps each file's SourceFile so that any later finding can name file, line and column.
 */
import type { SourceFile, YamlPath } from '../spec/yaml-source.js';
import type { Finding } from './finding.js';
import type { AppSpec, ClusterSpec, Delivery, Engine, FleetSpec, GroupSpec, Metadata, Platform, ProjectSpec, SectorSpec, ValidationSpec } from './spec.js';
import type { FleetGraphs } from './graphs.js';

export type Layout = 'native' | 'gitops-standards' | 'region-specs' | 'helmfile-flux' | 'validated-patterns';

/** Where a value came from: a file and the YAML path inside it. */
export interface Origin {
  file: string;
  path: YamlPath;
}

/**
 * Conventions of a layout that generation follows instead of fleetplan's own, so that the objects
 * equal what that layout's own tooling produces (gitops-standards: the argocd-app-of-app chart).
 * Absent on native fleets.
 */
export interface FleetConventions {
  /** `as-given`: keep the sync-wave annotations the layout wrote and add none (the chart adds none). */
  syncWaveAnnotation: 'computed' | 'as-given';
  /** false: Applications and AppProjects carry no metadata.namespace (they land in the root Application's). */
  objectNamespace: boolean;
  /** `from-layers`: a cluster gets exactly the AppProjects its groups and its own layer define. */
  projects: 'used' | 'from-layers';
}

export interface Fleet {
  /** Absolute path of the repository root. */
  root: string;
  layout: Layout;
  name: string;
  file: string;
  repoURL: string;
  revision: string;
  platform: Platform;
  engine: Engine;
  delivery: Delivery;
  /** Settings of `delivery: applicationset`, defaults filled in (absent: seed 004's defaults). */
  applicationSet?: { directories: string[] };
  /** Argo CD namespace per platform is decided at resolution; this is the explicit setting, if any. */
  gitopsNamespace: string | undefined;
  renderedPath: string;
  /** The config-management plugin, when the fleet uses it. */
  plugin: { image: string; name: string } | undefined;
  operator: NonNullable<NonNullable<FleetSpec['gitops']>['operator']>;
  sectors: SectorSpec[];
  vars: Record<string, string>;
  defaults: AppSpec;
  projects: Record<string, ProjectSpec>;
  validation: ValidationSpec;
  clusters: ClusterDef[];
  groups: Map<string, GroupDef>;
  /** Every file read, by repository-relative path. */
  sources: Map<string, SourceFile>;
  /** Problems found while loading (syntax, schema, names). */
  loadFindings: Finding[];
  /** Dependency graphs read from layouts that have their own (helmfile `needs`, Flux `dependsOn`). */
  graphs?: FleetGraphs;
  /** Set by layout readers whose output must equal another tool's; absent means fleetplan's own. */
  conventions?: FleetConventions;
  /**
   * Repository files of Kubernetes objects that the layout reader took the fleet from or that
   * belong to the layout (committed Argo CD Applications and ApplicationSets, bootstrap objects),
   * sorted. Rules that check committed objects (argocd-schema) read them; absent: none.
   */
  manifestFiles?: string[];
}

export interface ClusterDef {
  name: string;
  file: string;
  metadata: Metadata;
  spec: ClusterSpec;
  /**
   * Every app of the cluster tracks this revision, whatever its own targetRevision (the
   * gitops-standards `cluster-versions` replacement). Absent on native fleets.
   */
  revisionPin?: { revision: string; origin: Origin };
  /** AppProjects this cluster's own layer defines (with `conventions.projects: from-layers`). */
  projects?: Record<string, ProjectSpec>;
  /** Notes for the plan reader (e.g. that the Applications were read from a real kustomize build). */
  notes?: string[];
  /**
   * Objects a layout reader generates for apps of this cluster whose path is under the rendered
   * directory (`render` writes them there with a kustomization), e.g. the Namespaces and OLM
   * Subscriptions the Validated Patterns clustergroup chart would create.
   */
  generated?: GeneratedSource[];
}

export interface GeneratedSource {
  app: string;
  /** Repository path of the app's source: `<renderedPath>/<cluster>/...`. */
  path: string;
  objects: Record<string, unknown>[];
}

export interface GroupDef {
  name: string;
  file: string;
  metadata: Metadata;
  spec: GroupSpec;
  /** AppProjects this group defines (with `conventions.projects: from-layers`). */
  projects?: Record<string, ProjectSpec>;
}

export type { FleetSpec };

/** The YAML path of an origin as it is written in its file (layouts may store values under other paths). */
export function displayPath(fleet: Fleet, origin: Origin): YamlPath {
  const src = fleet.sources.get(origin.file);
  return src?.displayPath ? src.displayPath(origin.path) : origin.path;
}

/** Resolves an origin to a line and column; `undefined` when the file was not parsed. */
export function locateOrigin(fleet: Fleet, origin: Origin): { file: string; line?: number; column?: number } {
  const src = fleet.sources.get(origin.file);
  if (!src) return { file: origin.file };
  const pos = src.locate(origin.path);
  return { file: src.fileOf?.(origin.path) ?? origin.file, line: pos.line, column: pos.column };
}

const byName = new WeakMap<Fleet, Map<string, ClusterDef>>();

/** The cluster definition named `name`, through an index built once per fleet (plan and render ask per cluster). */
export function clusterDef(fleet: Fleet, name: string): ClusterDef | undefined {
  let index = byName.get(fleet);
  if (!index) byName.set(fleet, (index = new Map(fleet.clusters.map((c) => [c.name, c]))));
  return index.get(name);
}
