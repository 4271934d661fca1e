/**
 * The fleet pipeline up to the plan and the findings: load → resolve → plan (./fleet-plan.ts),
 * validate, and their reports. What `validate` loads; `plan` and the other commands that read a
 * fleet without judging it load ./fleet-plan.ts only (ADR 0351).
 */
export * from './fleet-plan.js';
export { loadFleet } from '../api/load-fleet.js';

// 6 validate
export { validateFleet, evaluateFleetJsonnet, rules, ruleCatalog } from '../api/fleet.js';
export type { ValidateFleetOptions, EvaluateJsonnetOptions } from '../api/fleet.js';
export { argoCdSchemasFromCrds } from '../validate/catalog/argocd-schema-source.js';
export type { ArgoCdSchemaSet } from '../validate/catalog/argocd-schema-source.js';
export type { RuleDefinition, RuleContext, CodeInfo } from '../validate/index.js';
