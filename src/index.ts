/**
 * fleetplan's library API: the stage functions, in data-flow order, and their types.
 *   loadFleet → resolveFleet → planFleet / planRepository, renderFleet / writeRenderedFleet,
 *   validateFleet → planBootstrap → bootstrapFleet → planPromotion
 * The command line (src/cli) uses nothing else of the library (scripts/stages.mjs).
 */

// The library entry points (src/api wires the adapters and layouts into the stages)
export { runApplicationSets, readClusterSecrets, fleetIdentitySecrets, CLUSTER_SECRET_TYPE_LABEL } from './api/appset.js';
export { loadFleet, completeLoad, validateFleet, rules, ruleCatalog } from './api/fleet.js';
export { renderGoTemplate } from './api/gotemplate.js';
export { renderLeaves } from './api/leaves.js';
export { planRepository } from './api/plan.js';
export { bootstrapHelmfile } from './api/helmfile-bootstrap.js';
export { hasHelmfileBootstrap, planHelmfileBootstrap } from './order/helmfile-plan.js';
export { formatHelmfileDryRun } from './apply/helmfile-dry-run.js';
export type { HelmfileBootstrapOptions } from './api/helmfile-bootstrap.js';
export { writeRenderedFleet, writeRenderedFleetWithLeaves, renderFleetLeaves, repositoryApplications } from './api/render.js';
export { diffFleet, diffPromotion, validateAgainstBase } from './api/diff.js';
export type { DiffOptions, DiffLeavesOptions, PromotionDiffOptions, BaseFindingsOptions } from './api/diff.js';
export { startServe, isLoopback } from './api/serve/server.js';
export type { ServeOptions, RunningServe } from './api/serve/server.js';
export type { ApplicationSetRun, ApplicationSetRunOptions } from './api/appset.js';
export type { LoadOptions, ValidateFleetOptions, CompleteLoadOptions } from './api/fleet.js';
export type { RenderLeavesOptions } from './api/leaves.js';
export type { WriteRenderedOptions, FleetLeavesResult } from './api/render.js';

// Errors
export { FleetplanError, InputError, UsageError, ToolError, OperationError } from './errors/index.js';

// The model
export { hasErrors } from './model/finding.js';
export { VERSION } from './model/version.js';
export type { BootstrapFile, BootstrapPlan, BootstrapStage, ObjectChange, WaitSpec, ReadyCondition } from './model/bootstrap.js';
export type { Finding, Severity } from './model/finding.js';
export type { Fleet, ClusterDef, GroupDef, Layout, Origin } from './model/fleet.js';
export type { FleetGraphs, HelmfileRelease, FluxKustomization } from './model/graphs.js';
export type { K8sObject } from './model/k8s.js';
export type { Plan, ClusterPlan, PlanApp, PlanWave, PlanBootstrapStep, PlanWait, PlanProvisioning } from './model/plan.js';
export type { ResolvedCluster, ResolvedApp, AppSource } from './model/resolved.js';
export type { AppSpec, ClusterSpec, FleetSpec, GroupSpec, ClusterRole, Platform, ProvisionSpec, Installer, HostSpec, CredentialRef } from './model/spec.js';

// YAML
export { parseYaml } from './yaml/index.js';
export { toSortedJson, toYaml } from './yaml/serialize.js';

// Ports: what the library needs from its host
export type { Clock } from './ports/clock.js';
export type { ClusterBuilder, FallbackRequest } from './ports/cluster-build.js';
export type { RepoFileSystem } from './ports/filesystem.js';
export type { FleetRepoSource, RevisionStatus } from './ports/fleet-repo.js';
export type { KubeClient } from './ports/kube.js';
export type { LeafObjects } from './ports/leaf-objects.js';
export type { RevisionSource } from './ports/revisions.js';
export type { HelmTool, KustomizeTool } from './ports/tools.js';

// Go templates
export { GoTemplateError } from './gotemplate/index.js';
export type { FuncSet } from './gotemplate/index.js';

// ApplicationSets
export { formatApplications, formatApplicationChunks, formatApplicationBytes } from './appset/format.js';
export type { GeneratedApplication } from './appset/applications.js';
export type { OutputFormat } from './appset/format.js';
export type { ClusterSecret } from './appset/types.js';

// 1 load
export { schemas, KINDS } from './load/schemas.js';
export type { LoadResult } from './load/native.js';

// 2 layering: resolve each cluster
export { resolveFleet, selectClusters, resolveFleetLazily } from './layering/resolve-fleet.js';
export { resolveCluster } from './layering/resolve.js';
export { SELECTOR_SYNTAX, clusterSelectorLabels, parseSelector, selectClustersByLabels } from './layering/selector.js';
export type { SelectOptions, LazyResolvedFleet, ResolvedFleet } from './layering/resolve-fleet.js';

// 4 order: plans
export { planApplicationSetFleet } from './order/applicationset-apps.js';
export { planBootstrap, parseSecretRef } from './order/bootstrap-plan.js';
export { planFleet, planFleetLazily } from './order/plan.js';
export type { BootstrapPlanOptions } from './order/bootstrap-plan.js';

// 5 render: files and reports
export { findingsJson, findingsSarif } from './render/findings-format.js';
export { renderFleet, renderedYamlChunks, renderedJsonChunks } from './render/fleet.js';
export { discoverKustomization, generateCmpManifests } from './render/leaves/cmp.js';
export { formatLeafReport } from './render/leaves/index.js';
export { formatPlan, findingLine, formatFindingsText, planJsonChunks, summaryLine, planJson } from './render/plan-format.js';
export type { RenderedFile } from './render/files.js';
export type { RenderResult, GeneratedApplications } from './render/fleet.js';
export type { PlanFormat } from './render/plan-format.js';

// 6 validate
export { argoCdSchemasFromCrds } from './validate/catalog/argocd-schema-source.js';
export type { ArgoCdSchemaSet } from './validate/catalog/argocd-schema-source.js';
export type { RuleDefinition, RuleContext, CodeInfo } from './validate/index.js';

// diff: what a change does to each cluster
export { diffText, diffJson, diffMarkdown, diffHtml, formatDiff, hasChanges, diffFindings, MARKDOWN_LIMIT } from './diff/index.js';
export type { FleetDiff, ClusterDiff, ClusterStatus, ObjectDiff, FieldChange, OrderChange, LeafDiff, FindingsDelta, DiffRevision, DiffFormat, DiffPalette, ChangeCounts } from './diff/index.js';

// Layouts
export { completeFallbacks } from './layouts/gitops-standards/fallback.js';

// 7 apply: bootstrap
export { ChangeSet } from './apply/change-set.js';
export { executeBootstrap, BootstrapTimeoutError, DEFAULT_TIMEOUT_MS, formatDuration } from './apply/executor.js';
export { bootstrapFleet } from './apply/fleet.js';
export type { BootstrapResult } from './apply/change-set.js';
export type { BootstrapEvent, Reporter } from './apply/events.js';
export type { ExecuteOptions } from './apply/executor.js';
export type { AfterBootstrap, ClusterRun, ClusterOutcome, FleetPorts } from './apply/fleet.js';
// 7 apply: phase 2, the internal Git service (gitops.mirror)
export { planMirror } from './order/mirror-plan.js';
export type { MirrorPlan } from './order/mirror-plan.js';
export { runMirror, expectedPhaseTwoFiles, MirrorNotReadyError, MirrorTimeoutError } from './apply/mirror.js';
export type { MirrorOptions, MirrorResult } from './apply/mirror.js';
export type { MirrorGit, GitCredentials } from './ports/mirror-git.js';

// 8 promote
export { planPromotion, formatPromotion, setSectorRevision } from './promote/index.js';
export type { Promotion, PromotionRequest } from './promote/index.js';
