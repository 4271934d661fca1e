import type { Fleet } from './fleet.js';

/**
 * Names and values that several stages must agree on. Each is defined once, here, so that the
 * stage that writes a name and the stage that reads it cannot drift apart.
 */

/** The fleet file at the repository root of a native fleet. */
export const FLEET_FILE = 'fleet.yaml';

/** The in-cluster API server, as Argo CD names the cluster it runs in. */
export const IN_CLUSTER = 'https://kubernetes.default.svc';
/** The finalizer that makes Argo CD delete an Application's resources with it. */
export const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';
/** The annotation Argo CD reads an object's sync wave from. */
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';

/** The ConfigMap the plugin sidecar reads the cluster's variables from. */
export const VARIABLES_CONFIGMAP = 'environment-variables';
/** The root Application (app-of-apps parent) of every cluster. */
export const ROOT_APPLICATION = 'root-applications';
/** Argo CD's own Application after the hand-off (ADR 0240): generated, `<cluster>/apps/gitops-self.yaml`. */
export const SELF_APPLICATION = 'gitops-self';

/**
 * Whether the fleet gets the self-managing Application: native Argo CD app-of-apps fleets, unless
 * `gitops.selfManaged: false`. Here because resolution checks app names against it (ADR 0265).
 */
export function selfManaged(fleet: Fleet): boolean {
  return fleet.capabilities.selfManagedApplication === true && fleet.capabilities.bootstrap && fleet.engine === 'argocd' && fleet.delivery === 'app-of-apps' && fleet.selfManaged !== false;
}

/** The wave of a hub's provisioning app for one spoke. */
export const DEFAULT_PROVISION_WAVE = 20;
/** The hub app that carries the ACM–GitOps hand-off. */
export const GITOPS_WIRING_APP = 'gitops-bootstrap-policy';
/** Namespace of the policies, placements and bindings on the hub. */
export const POLICY_NAMESPACE = 'acm-policies';
/** Repository path a hub's provisioning app reads: `<renderedPath>/<hub>/provision/<app>`. */
export function provisionPath(renderedPath: string, hub: string, app: string): string {
  return `${renderedPath}/${hub}/provision/${app}`;
}

/** The label that carries a helmfile release's bootstrap phase (CRDs, then the releases). */
export const PHASE_LABEL = 'fleetplan.io/phase';
/**
 * Flux hub and spokes (ADR 0369): on the hub's app of a Kustomization with `spec.kubeConfig`, the
 * spoke its objects are applied to (its leaves are built there, not on the hub); on the spoke's
 * app, the hub that holds and reconciles the Kustomization object (render writes it there).
 */
export const FLUX_APPLIES_TO_LABEL = 'fleetplan.io/applies-to-cluster';
export const FLUX_APPLIED_BY_LABEL = 'fleetplan.io/applied-by-cluster';
