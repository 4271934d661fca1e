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
  /** The line of the app's Application (or ApplicationSet) in `from`, when known. */
  line?: number;
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
  /** 2: a stage of the internal Git phase (`fleetplan mirror`, run by bootstrap after the waves). */
  phase?: 2;
  notes: string[];
}

export interface PlanWave {
  wave: number;
  apps: string[];
}

/**
 * A condition the cluster's bootstrap waits for before it starts, checked on another cluster.
 * For a provisioned spoke: its ManagedCluster reports Available on the hub, i.e.
 * `status.conditions[type=ManagedClusterConditionAvailable].status == "True"` of
 * `cluster.open-cluster-management.io/v1 ManagedCluster <spoke>` (cluster-scoped) on `cluster`.
 */
export interface PlanWait {
  /** The cluster to watch (the hub). */
  cluster: string;
  apiVersion: string;
  kind: string;
  name: string;
  /** Absent for cluster-scoped objects. */
  namespace?: string;
  condition: { type: string; status: 'True' | 'False' };
  /** The app on `cluster` that creates the object (the spoke's provisioning app). */
  createdBy: string | null;
  /** For people: `ManagedCluster etl4 Available on hub`. */
  description: string;
}

/** How the hub creates this cluster (from its `provision:` section). */
export interface PlanProvisioning {
  installer: string;
  hub: string;
  /** The hub app that holds the provisioning objects. */
  app: string;
  path: string;
}

/** An object a root or an app-of-apps applies beside its Applications (keys in sorted order, as printed). */
export interface PlanObject {
  kind: string;
  name: string;
  namespace?: string;
  via: string;
  wave: number;
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
  /** What the bootstrap plan could not include, and how to supply it. */
  bootstrapNotes?: string[];
  waves: PlanWave[];
  apps: PlanApp[];
  /** Notes for the reader (e.g. a fallback that was used for this cluster). */
  notes: string[];
  /** What the repository's roots and app-of-apps apply besides Applications and AppProjects, in sync order; absent when none (ADR 0398). */
  objects?: PlanObject[];
  /** Conditions on other clusters the bootstrap waits for first ([] when none). */
  waitsFor?: PlanWait[];
  /** On a hub: the clusters it provisions; each has an app of the same name ([] when none). */
  provisions?: string[];
  /** Set when the cluster's hub provisions it. */
  provisioning?: PlanProvisioning;
}

export interface Plan {
  fleet: string;
  layout: string;
  clusters: ClusterPlan[];
  findings: Finding[];
}
