/**
 * The file kinds as typed data (mirrors src/spec/schemas.ts). An `AppSpec` is one layer's view of an
 * app; layers are merged into a `ResolvedApp` (src/model/resolved.ts).
 */

export type Platform = 'openshift' | 'kubernetes';
export type ClusterRole = 'hub' | 'spoke' | 'regional' | 'management' | 'standalone' | 'infra';
export type Engine = 'argocd' | 'flux';
export type Delivery = 'app-of-apps' | 'applicationset';

export interface AppSpec {
  enabled?: boolean;
  path?: string;
  chart?: string;
  repoURL?: string;
  targetRevision?: string;
  helm?: { releaseName?: string; valueFiles?: string[]; values?: Record<string, unknown> };
  namespace?: string;
  server?: string;
  project?: string;
  wave?: number;
  needs?: string[];
  provides?: string[];
  syncOptions?: string[];
  syncPolicy?: Record<string, unknown>;
  ignoreDifferences?: Record<string, unknown>[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  finalizers?: string[];
}

export interface Metadata {
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface SectorSpec {
  name: string;
  revision?: string;
  protected?: boolean;
}

export interface ProjectSpec {
  description?: string;
  sourceRepos?: string[];
  destinations?: Record<string, unknown>[];
  clusterResourceWhitelist?: Record<string, unknown>[];
  namespaceResourceWhitelist?: Record<string, unknown>[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
}

export interface FleetSpec {
  repoURL: string;
  revision?: string;
  platform?: Platform;
  gitops?: {
    engine?: Engine;
    delivery?: Delivery;
    namespace?: string;
    renderedPath?: string;
    plugin?: { image: string; name?: string };
    operator?: { channel?: string; source?: string; sourceNamespace?: string; installPlanApproval?: 'Automatic' | 'Manual' };
  };
  sectors?: SectorSpec[];
  vars?: Record<string, string | number | boolean>;
  defaults?: AppSpec;
  projects?: Record<string, ProjectSpec>;
  validation?: Record<string, unknown>;
}

export interface ClusterSpec {
  role: ClusterRole;
  hub?: string;
  region?: string;
  sector?: string;
  platform?: Platform;
  server?: string;
  groups?: string[];
  labels?: Record<string, string>;
  vars?: Record<string, string | number | boolean>;
  apps?: Record<string, AppSpec>;
  provision?: Record<string, unknown>;
}

export interface GroupSpec {
  description?: string;
  apps?: Record<string, AppSpec>;
}

export interface Document<K extends string, S> {
  apiVersion: string;
  kind: K;
  metadata: Metadata;
  spec: S;
}
