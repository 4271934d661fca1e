/**
 * fleetplan's library API. The stages, in data-flow order:
 *   loadFleet → resolveCluster → planFleet / renderFleet / validateFleet
 */
import { nodeFileSystem } from './adapters/node-fs.js';
import { detectLayout } from './layouts/index.js';
import type { Finding } from './model/finding.js';
import type { Fleet } from './model/fleet.js';
import type { RepoFileSystem } from './ports/filesystem.js';
import type { LoadResult } from './spec/load.js';
import type { SelectOptions } from './layering/resolve-fleet.js';
import { validateFleet as validateWith } from './validate/index.js';
import type { LeafObjects } from './validate/index.js';
import type { ArgoCdSchemaSet } from './validate/catalog/argocd-schema-source.js';

export interface LoadOptions {
  /** Read through this file system instead of the local disk. */
  fs?: RepoFileSystem;
}

/** Reads a fleet repository in any layout fleetplan knows. Throws InputError when there is none. */
export function loadFleet(root: string, options: LoadOptions = {}): LoadResult {
  const fs = options.fs ?? nodeFileSystem(root);
  return detectLayout(fs).load(fs);
}

/** Every finding about the fleet (loading, resolution, repository rules), sorted by file and line. */
export function validateFleet(fleet: Fleet, options: SelectOptions & LoadOptions & { leaves?: LeafObjects; argoCdSchemas?: ArgoCdSchemaSet } = {}): Finding[] {
  return validateWith(fleet, { ...options, fs: options.fs ?? nodeFileSystem(fleet.root) });
}

export { resolveCluster } from './layering/resolve.js';
export { rules, ruleCatalog } from './validate/index.js';
export { argoCdSchemasFromCrds } from './validate/catalog/argocd-schema-source.js';
export type { ArgoCdSchemaSet } from './validate/catalog/argocd-schema-source.js';
export type { RuleDefinition, RuleContext, LeafObjects, CodeInfo } from './validate/index.js';
export type { FleetGraphs, HelmfileRelease, FluxKustomization } from './model/graphs.js';
export { resolveFleet } from './layering/resolve-fleet.js';
export { planFleet } from './order/plan.js';
export { planApplicationSetFleet, applicationSetApps, fleetClusterSecrets } from './order/applicationset-apps.js';
export type { ClusterApplications } from './order/applicationset-apps.js';
export type { FleetRepoSource, RevisionStatus } from './ports/fleet-repo.js';
export { clusterSecretFor, identityLabels } from './generate/cluster-identity.js';
export { rootApplicationSet, applicationSetBootstrap, valuesFor, valuesFilePath, appSetFilePath } from './generate/applicationset-delivery.js';
export { renderFleet, renderedStream, deliveryFiles } from './render/fleet.js';
export { formatPlan } from './render/plan-format.js';
export { computeWaves, formatCycle } from './order/waves.js';
export { substitute } from './layering/substitute.js';
export { schemas } from './spec/schemas.js';
export { applicationFor, bootstrapFor, projectsFor, APPLICATION_HEALTH_LUA } from './generate/argocd.js';
export { provisionBundlesFor, provisionBundle } from './generate/provision/index.js';
export { FleetplanError, InputError, UsageError, ToolError, OperationError } from './errors/index.js';
export { planBootstrap } from './apply/bootstrap-plan.js';
export { planPromotion, formatPromotion, setSectorRevision } from './promote/index.js';
export type { Promotion, PromotionRequest } from './promote/index.js';
export type { RevisionSource } from './ports/revisions.js';
export { executeBootstrap, BootstrapTimeoutError } from './apply/executor.js';
export { bootstrapFleet } from './apply/fleet.js';
export { completeFallbacks } from './layouts/gitops-standards/fallback.js';

export type { LoadResult } from './spec/load.js';
export type { SelectOptions } from './layering/resolve-fleet.js';
export type { Fleet, ClusterDef, GroupDef, Layout, Origin } from './model/fleet.js';
export type { ResolvedCluster, ResolvedApp, AppSource } from './model/resolved.js';
export type { Plan, ClusterPlan, PlanApp, PlanWave, PlanBootstrapStep, PlanWait, PlanProvisioning } from './model/plan.js';
export type { Finding, Severity } from './model/finding.js';
export type { AppSpec, ClusterSpec, FleetSpec, GroupSpec, ClusterRole, Platform, ProvisionSpec, Installer, HostSpec, CredentialRef } from './model/spec.js';
export type { ProvisionBundle } from './generate/provision/index.js';
export type { RenderedFile, RenderResult } from './render/fleet.js';
export type { PlanFormat } from './render/plan-format.js';
export type { K8sObject, BootstrapFile } from './generate/argocd.js';
export type { RepoFileSystem } from './ports/filesystem.js';
export type { ClusterBuilder, FallbackRequest } from './ports/cluster-build.js';
export type { FleetConventions } from './model/fleet.js';
export type { ResolveResult } from './layering/resolve.js';
export type { BootstrapPlan, BootstrapStage, BootstrapResult, ObjectChange, WaitSpec, ReadyCondition } from './model/bootstrap.js';
export type { BootstrapPlanOptions } from './apply/bootstrap-plan.js';
export type { ExecuteOptions } from './apply/executor.js';
export type { BootstrapEvent, Reporter } from './apply/events.js';
export type { ClusterRun, ClusterOutcome, FleetPorts } from './apply/fleet.js';
export type { KubeClient } from './ports/kube.js';
export type { Clock } from './ports/clock.js';
