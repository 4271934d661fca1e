/**
 * The bootstrap of one cluster as data: ordered stages, each a set of objects fleetplan applies
 * and the readiness conditions it then waits for; and what running it produced (a ChangeSet with
 * per-stage durations). Built by src/apply/bootstrap-plan.ts, run by src/apply/executor.ts.
 */
import type { K8sObject, ObjectKey } from './k8s.js';


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
  | 'cluster-available'
  /** An Argo CD Application Synced, compared to a source at `WaitSpec.repoURL` (phase 2, ADR 0236). */
  | 'synced-from';

export interface WaitSpec {
  object: ObjectKey;
  condition: ReadyCondition;
  /** What is awaited, for people: `CSV of Subscription openshift-operators/x Succeeded`. */
  text: string;
  /** For `synced-from`: the repository the Application must have been compared to. */
  repoURL?: string;
}

export type StageKind = 'namespaces' | 'gitops-operator' | 'cluster-config' | 'argocd' | 'secret-store' | 'root-application' | 'wave' | 'spoke-provisioning'
  // A native fleet with gitops.engine: flux (src/order/flux-bootstrap-plan.ts).
  | 'flux-components' | 'flux-source' | 'root-kustomization' | 'flux';

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


/**
 * The steps of a cluster's day-0 bootstrap, with the rank that orders them: the step's file under
 * OUT/<cluster>/bootstrap/ is `<rank>-<step>.yaml` (two digits), so that files sort in apply order.
 * Stages look steps up by id, never by file name.
 */
export const BOOTSTRAP_STEP_RANK = {
  'gitops-operator': 0,
  namespace: 0,
  rbac: 10,
  gitrepository: 10,
  plugin: 15,
  argocd: 20,
  'argocd-cm': 20,
  'cluster-identity': 30,
  'root-application': 90,
  'root-applicationset': 90,
  'root-kustomization': 90,
} as const;

export type BootstrapStepId = keyof typeof BOOTSTRAP_STEP_RANK;

/** One day-0 bootstrap step: the objects of one file under OUT/<cluster>/bootstrap/. */
export interface BootstrapFile {
  step: BootstrapStepId;
  /** File name under OUT/<cluster>/bootstrap/ (`<rank>-<step>.yaml`). */
  name: string;
  /** What this step does, for plans. */
  description: string;
  objects: K8sObject[];
}

/** The file name of a bootstrap step: `<rank>-<step>.yaml`. */
export function bootstrapFileName(step: BootstrapStepId): string {
  return `${String(BOOTSTRAP_STEP_RANK[step]).padStart(2, '0')}-${step}.yaml`;
}

/** A bootstrap step with its file name derived from its id. */
export function bootstrapFile(f: Omit<BootstrapFile, 'name'>): BootstrapFile {
  return { ...f, name: bootstrapFileName(f.step) };
}
