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
  /** The bootstrap stage that applies this file and what it then waits for. */
  stage?: string;
  wait?: string[];
}

/** One stage of `fleetplan bootstrap` (src/apply/bootstrap-plan.ts), for plans. */
export interface PlanStage {
  name: string;
  description: string;
  wave?: number;
  /** `Kind/namespace/name` of each object fleetplan applies. */
  objects: string[];
  /** Bootstrap files the objects come from. */
  files: string[];
  /** What the stage waits for, one line each. */
  wait: string[];
  /** Applied once this CRD is Established, alongside the later stages. */
  gate?: string;
  notes: string[];
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
  /** The stages `fleetplan bootstrap` runs, with their readiness conditions. */
  stages?: PlanStage[];
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
