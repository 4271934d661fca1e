/** The bootstrap plan of a fleet: per cluster, the bootstrap steps then the waves in order. */
import type { Finding } from './finding.js';
import type { ClusterRole, Platform } from './spec.js';

export interface PlanApp {
  name: string;
  wave: number;
  needs: string[];
  source: { repoURL: string; targetRevision: string; path?: string; chart?: string };
  destination: { server: string; namespace?: string };
  project: string;
  from: string;
}

export interface PlanBootstrapStep {
  file: string;
  description: string;
  /** `Kind/namespace/name` of each object. */
  objects: string[];
}

export interface PlanWave {
  wave: number;
  apps: string[];
}

export interface ClusterPlan {
  name: string;
  role: ClusterRole;
  hub: string | null;
  region: string | null;
  sector: string | null;
  platform: Platform;
  revision: string;
  bootstrap: PlanBootstrapStep[];
  waves: PlanWave[];
  apps: PlanApp[];
  /** Notes for the reader (e.g. a fallback that was used for this cluster). */
  notes: string[];
}

export interface Plan {
  fleet: string;
  layout: string;
  clusters: ClusterPlan[];
  findings: Finding[];
}
