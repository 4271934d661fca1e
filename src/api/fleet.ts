/**
 * The library's composition root for reading and judging a fleet: loading (./load-fleet.ts, the
 * node file system and the layout readers wired into the load stage) and, here, the core rules and
 * each layout's own, the node file system and the real Jsonnet wired into validateFleet. Loading
 * is apart so that the commands that only read, resolve and plan a fleet (`plan`, `render`) do not
 * load the rules (ADR 0351). Stages never import adapters or layouts; the modules of src/api are
 * where they meet (docs/adr/0180-stage-imports.md).
 */
import { nodeFileSystem } from '../adapters/node-fs.js';
import { locateJsonnet } from '../adapters/jsonnet.js';
import { layoutRules } from '../layouts/index.js';
import type { Fleet } from '../model/fleet.js';
import type { LeafObjects } from '../ports/leaf-objects.js';
import type { ResolvedFleet, SelectOptions } from '../layering/resolve-fleet.js';
import { resolveFleet } from '../layering/resolve-fleet.js';
import type { CodeInfo, RuleDefinition } from '../validate/index.js';
import type { ArgoCdSchemaSet } from '../validate/catalog/argocd-schema-source.js';
import type { JsonnetEvaluations } from '../validate/jsonnet-evaluate.js';
import { evaluateJsonnetSources } from '../validate/jsonnet-evaluate.js';
import { jsonnetSources } from '../validate/jsonnet-sources.js';
import { rules as coreRules, ruleCatalog as catalogOf, validateFleet as validateWith } from '../validate/index.js';
import type { LoadOptions } from './load-fleet.js';
import type { Finding } from '../model/finding.js';

export { loadFleet, completeLoad } from './load-fleet.js';
export type { LoadOptions, CompleteLoadOptions } from './load-fleet.js';

/** Every rule validate runs: the core rules, then each layout's own. */
export const rules: readonly RuleDefinition[] = [...coreRules, ...layoutRules];

/** Every code fleetplan validate can report, with its default severity and help. */
export function ruleCatalog(): Record<string, CodeInfo> {
  return catalogOf(rules);
}

export interface ValidateFleetOptions extends SelectOptions, LoadOptions {
  /** Objects from a leaf rendering; without it the rules read app directories statically. */
  leaves?: LeafObjects;
  /** Rules to run (default: every rule). */
  rules?: readonly RuleDefinition[];
  /** Argo CD schemas from the CRDs of the Argo CD the fleet runs (argoCdSchemasFromCrds), over the bundled ones. */
  argoCdSchemas?: ArgoCdSchemaSet;
  /** The real Jsonnet's evaluations (evaluateFleetJsonnet): syntax and evaluation errors of the Jsonnet Argo CD evaluates. */
  jsonnet?: JsonnetEvaluations;
}

export interface EvaluateJsonnetOptions extends SelectOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /** `--jsonnet`: a path or command name; else FLEETPLAN_JSONNET, then PATH (ADR 0303). */
  jsonnet?: string;
}

/**
 * Evaluates, with the real Jsonnet, every Jsonnet file the fleet's directory sources make Argo CD
 * evaluate (ADR 0319), for validateFleet's `jsonnet` option. The binary is located only when
 * there is such a file; without one the result says so (validate reports it as info).
 */
export async function evaluateFleetJsonnet(fleet: Fleet | ResolvedFleet, options: EvaluateJsonnetOptions): Promise<JsonnetEvaluations> {
  const resolved = 'cluster' in fleet ? fleet : resolveFleet(fleet, options);
  const fs = nodeFileSystem(resolved.fleet.root);
  const sources = jsonnetSources(resolved.fleet, resolved.clusters, fs);
  return evaluateJsonnetSources(sources, fs, () => locateJsonnet({ explicit: options.jsonnet, env: options.env, ...(options.cwd ? { cwd: options.cwd } : {}) }));
}

/**
 * Every finding about the fleet (loading, resolution, repository rules), sorted by file and line.
 * Pass the ResolvedFleet that plan or render use, so that the fleet is resolved once; a Fleet is
 * resolved here, for the clusters `options.clusters` selects.
 */
export function validateFleet(fleet: Fleet | ResolvedFleet, options: ValidateFleetOptions = {}): Finding[] {
  const resolved = 'cluster' in fleet ? fleet : resolveFleet(fleet, options);
  return validateWith(resolved, { ...options, rules: options.rules ?? rules, fs: options.fs ?? nodeFileSystem(resolved.fleet.root) });
}
