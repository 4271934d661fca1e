/**
 * A cluster after layering, variable substitution, sector selection and wave computation:
 * exactly what it gets, and in what order.
 */
import type { Origin } from './fleet.js';
import type { ClusterRole, Platform, ProjectSpec, ProvisionSpec } from './spec.js';

export interface AppSource {
  repoURL: string;
  targetRevision: string;
  path?: string;
  chart?: string;
  helm?: { releaseName?: string; valueFiles?: string[]; values?: Record<string, unknown> };
}

export interface ResolvedApp {
  name: string;
  /** Effective sync wave. */
  wave: number;
  /** The explicit wave, if one was given. */
  explicitWave: number | undefined;
  needs: string[];
  provides: string[];
  source: AppSource;
  destination: { server: string; namespace?: string };
  project: string;
  syncOptions: string[];
  syncPolicy: Record<string, unknown> | undefined;
  ignoreDifferences: Record<string, unknown>[] | undefined;
  annotations: Record<string, string>;
  labels: Record<string, string>;
  finalizers: string[];
  /** Merged into the Application's spec.source / spec as they are (see AppSpec). */
  extraSource?: Record<string, unknown>;
  extraSpec?: Record<string, unknown>;
  /** The exact Application to emit (see AppSpec.manifest). */
  manifest?: Record<string, unknown>;
  /** The file that first defined the app: for a layout that reads Argo CD objects, its Application's or ApplicationSet's file. */
  from: string;
  /** The line of the app in `from`, when the layout knows it (its Application's metadata.name). */
  fromLine?: number;
  /** Every layer that contributed, in merge order (defaults, groups, cluster). */
  layers: Origin[];
  /** Where the app is defined in its last layer (for findings about the app as a whole). */
  origin: Origin;
}

export interface ResolvedCluster {
  name: string;
  file: string;
  role: ClusterRole;
  hub: string | undefined;
  region: string | undefined;
  sector: string | undefined;
  platform: Platform;
  server: string | undefined;
  labels: Record<string, string>;
  groups: string[];
  /** The revision the cluster's apps track (sector pin or fleet revision). */
  revision: string;
  gitopsNamespace: string;
  /** Resolved variables, built-ins included. */
  vars: Record<string, string>;
  /** Apps sorted by wave, then name. */
  apps: ResolvedApp[];
  projects: Record<string, ProjectSpec>;
  /** false when generated objects carry no metadata.namespace (FleetConventions.objectNamespace). */
  objectNamespace?: boolean;
  /** How its hub creates the cluster, variables substituted (absent without `provision:`). */
  provision?: ProvisionSpec;
}
