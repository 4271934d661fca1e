/**
 * A loaded fleet: every file read and schema-checked, not yet resolved per cluster.
 * `sources` keeps each file's SourceFile so that any later finding can name file, line and column.
 */
import type { SourceFile, YamlPath } from '../spec/yaml-source.js';
import type { Finding } from './finding.js';
import type { AppSpec, ClusterSpec, Delivery, Engine, FleetSpec, GroupSpec, Metadata, Platform, ProjectSpec, SectorSpec } from './spec.js';

export type Layout = 'native' | 'gitops-standards' | 'region-specs' | 'helmfile-flux';

/** Where a value came from: a file and the YAML path inside it. */
export interface Origin {
  file: string;
  path: YamlPath;
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
  validation: Record<string, unknown>;
  clusters: ClusterDef[];
  groups: Map<string, GroupDef>;
  /** Every file read, by repository-relative path. */
  sources: Map<string, SourceFile>;
  /** Problems found while loading (syntax, schema, names). */
  loadFindings: Finding[];
}

export interface ClusterDef {
  name: string;
  file: string;
  metadata: Metadata;
  spec: ClusterSpec;
}

export interface GroupDef {
  name: string;
  file: string;
  metadata: Metadata;
  spec: GroupSpec;
}

export type { FleetSpec };

/** Resolves an origin to a line and column; `undefined` when the file was not parsed. */
export function locateOrigin(fleet: Fleet, origin: Origin): { file: string; line?: number; column?: number } {
  const src = fleet.sources.get(origin.file);
  if (!src) return { file: origin.file };
  const pos = src.locate(origin.path);
  return { file: origin.file, line: pos.line, column: pos.column };
}
