/**
 * The fleet pipeline up to the plan: load → resolve → plan, and the plan's reports. What `plan`
 * and every command that reads a fleet load; `validate`'s rules are in ./fleet.ts, which adds them
 * to these (ADR 0351: the rules and their schemas are not loaded by a command that does not run them).
 */

// 1 load (src/api wires the adapters and layouts into the stages)
// (loadFleet, which imports every layout reader, is ./fleet.ts's; a command reads with loadFleetAsync, ADR 0397)
export { loadFleetAsync, completeLoad, completeFallbacks } from '../api/load-core.js';
export type { LoadOptions, CompleteLoadOptions } from '../api/load-core.js';
export type { LoadResult } from '../load/native.js';
export { readStateValues } from '../load/helmfile-state-values.js';
export type { HelmfileStateValues } from '../load/helmfile-state-values.js';

// 2 layering: resolve each cluster
export { resolveFleet, selectClusters, resolveFleetLazily } from '../layering/resolve-fleet.js';
export { resolveCluster } from '../layering/resolve.js';
export type { SelectOptions, LazyResolvedFleet, ResolvedFleet } from '../layering/resolve-fleet.js';

// 4 order: plans
export { planRepository } from '../api/plan.js';
export { hasHelmfileBootstrap, planHelmfileBootstrap } from '../order/helmfile-plan.js';
export { planApplicationSetFleet } from '../order/applicationset-apps.js';
export { planBootstrap, parseSecretRef } from '../order/bootstrap-plan.js';
export { planFleet, planFleetLazily } from '../order/plan.js';
export type { BootstrapPlanOptions } from '../order/bootstrap-plan.js';

// 5 render: reports of plans and findings
export { findingsJson, findingsSarif } from '../render/findings-format.js';
export { formatPlan, findingLine, formatFindingsText, planJsonChunks, summaryLine, planJson } from '../render/plan-format.js';
export type { PlanFormat } from '../render/plan-format.js';
