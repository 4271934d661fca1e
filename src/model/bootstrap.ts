/**
 * The bootstrap of one cluster as data: ordered stages, each a set of objects fleetplan applies
 * and the readiness conditions it then waits for; and what running it produced (a ChangeSet with
 * per-stage durations). Built by src/apply/bootstrap-plan.ts, run by src/apply/executor.ts.
 */
import type { K8sObject } from '../generate/argocd.js';

/** Names one object. `namespace` is absent for cluster-scoped kinds. */
export interface ObjectKey {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

/**
 * What "ready" means for one object (src/apply/readiness.ts evaluates each):
 * - exists: the object exists (a Namespace: phase Active).
 * - established: a CustomResourceDefinition is Established (its kind is served).
 * - available: a Deployment is Available with every replica, or a StatefulSet has every replica
 *   ready, for the object's current generation.
 * - operator-installed: an OLM Subscription's InstallPlan is approved (a Manual one waits for a
 *   person) and its ClusterServiceVersion Succeeded.
 * - synced-healthy: an Argo CD Application is Synced and Healthy.
 * - ready-condition: `status.conditions` has Ready=True (ExternalSecrets stores).
 * - cluster-installed: a Hive ClusterDeployment has `spec.installed: true`.
 * - cluster-available: an OCM ManagedCluster has ManagedClusterConditionAvailable=True.
 */
export type ReadyCondition =
  | 'exists'
  | 'established'
  | 'available'
  | 'operator-installed'
  | 'synced-healthy'
  | 'ready-condition'
  | 'cluster-installed'
  | 'cluster-available';

export interface WaitSpec {
  object: ObjectKey;
  condition: ReadyCondition;
  /** What is awaited, for people: `CSV of Subscription openshift-operators/x Succeeded`. */
  text: string;
}

export type StageKind = 'namespaces' | 'gitops-operator' | 'cluster-config' | 'argocd' | 'secret-store' | 'root-application' | 'wave' | 'spoke-provisioning';

export interface BootstrapStage {
  /** Unique in the plan: `namespaces`, `gitops-operator`, …, `wave 5`. */
  name: string;
  kind: StageKind;
  description: string;
  /** The sync wave, for `wave` stages. */
  wave?: number;
  /** Objects fleetplan server-side applies, in this order. Empty when the stage only waits. */
  objects: K8sObject[];
  /** The bootstrap file (src/generate/argocd.ts bootstrapFor) each applied object comes from, when it does. */
  files: string[];
  waits: WaitSpec[];
  /**
   * Apply only once this CRD is Established, alongside the stages after this one (the CRD is
   * usually installed by an Application of an early wave). Absent: apply in order.
   */
  gate?: { crd: string };
  /** Waits that only hold a run that waits for the waves (skipped by `--no-wait`). */
  optional?: boolean;
  notes: string[];
}

export interface BootstrapPlan {
  cluster: string;
  platform: 'openshift' | 'kubernetes';
  gitopsNamespace: string;
  stages: BootstrapStage[];
  /** Things the plan could not include and how to supply them. */
  notes: string[];
}

export type ChangeAction = 'created' | 'configured' | 'unchanged' | 'skipped';

export interface ObjectChange {
  /** `Kind/namespace/name`. */
  ref: string;
  stage: string;
  action: ChangeAction;
  /** Why, for `skipped` (and for objects left to another owner). */
  reason?: string;
}

export interface StageTiming {
  stage: string;
  wave?: number;
  durationMs: number;
}

export interface NotReady {
  ref: string;
  condition: ReadyCondition;
  message: string;
  /** `type=status (reason): message` of each status condition, when the object has any. */
  conditions: string[];
}

export interface BootstrapResult {
  cluster: string;
  /** `converged`: every stage applied and ready; `applied`: applied without waiting for the waves
   * (`--no-wait`); `dry-run`: nothing written. */
  outcome: 'converged' | 'applied' | 'dry-run';
  changes: ObjectChange[];
  timings: StageTiming[];
  durationMs: number;
}
