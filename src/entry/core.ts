/**
 * The kernel of the public API: errors, the model's types, YAML and the cluster selector syntax.
 * Loads no stage (errors, model, yaml, ports and layering/selector only), so that a command that
 * only parses flags or prints help pays for nothing else (docs/adr/0288-lazy-command-line.md).
 */

// Errors
export { FleetplanError, InputError, UsageError, ToolError, OperationError } from '../errors/index.js';

// The model
export { hasErrors } from '../model/finding.js';
export { VERSION } from '../model/version.js';
export type { BootstrapFile, BootstrapPlan, BootstrapStage, ObjectChange, WaitSpec, ReadyCondition } from '../model/bootstrap.js';
export type { Finding, Severity } from '../model/finding.js';
export type { Fleet, ClusterDef, GroupDef, Layout, Origin } from '../model/fleet.js';
export type { FleetGraphs, HelmfileRelease, FluxKustomization } from '../model/graphs.js';
export type { K8sObject } from '../model/k8s.js';
export type { Plan, ClusterPlan, PlanApp, PlanWave, PlanBootstrapStep, PlanWait, PlanProvisioning } from '../model/plan.js';
export type { ResolvedCluster, ResolvedApp, AppSource } from '../model/resolved.js';
export type { AppSpec, ClusterSpec, FleetSpec, GroupSpec, ClusterRole, Platform, ProvisionSpec, Installer, HostSpec, CredentialRef } from '../model/spec.js';

// YAML out (parseYaml, which loads the YAML parsers, is in ./yaml.ts)
export { toSortedJson, toYaml } from '../yaml/serialize.js';

// Ports: what the library needs from its host
export type { Clock } from '../ports/clock.js';
export type { ClusterBuilder, FallbackRequest } from '../ports/cluster-build.js';
export type { RepoFileSystem } from '../ports/filesystem.js';
export type { FleetRepoSource, RevisionStatus } from '../ports/fleet-repo.js';
export type { KubeClient } from '../ports/kube.js';
export type { LeafObjects } from '../ports/leaf-objects.js';
export type { RevisionSource } from '../ports/revisions.js';
export type { HelmTool, KustomizeTool } from '../ports/tools.js';

// Choosing clusters by label (kubectl's selector syntax)
export { SELECTOR_SYNTAX, clusterSelectorLabels, parseSelector, selectClustersByLabels } from '../layering/selector.js';
