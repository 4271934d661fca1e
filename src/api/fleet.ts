/**
 * The library's composition root for reading and judging a fleet: the node file system and the
 * layout readers wired into the load and validate stages. Stages never import adapters or
 * layouts; this module and src/api/leaves.ts are where they meet (docs/adr/0180-stage-imports.md).
 */
import { nodeFileSystem } from '../adapters/node-fs.js';
import { detectLayout, layoutRules } from '../layouts/index.js';
import type { LoadResult } from '../load/native.js';
import type { Finding } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { LeafObjects } from '../ports/leaf-objects.js';
import type { ResolvedFleet, SelectOptions } from '../layering/resolve-fleet.js';
import { resolveFleet } from '../layering/resolve-fleet.js';
import type { CodeInfo, RuleDefinition } from '../validate/index.js';
import type { ArgoCdSchemaSet } from '../validate/catalog/argocd-schema-source.js';
import { rules as coreRules, ruleCatalog as catalogOf, validateFleet as validateWith } from '../validate/index.js';

export interface LoadOptions {
  /** Read through this file system instead of the local disk. */
  fs?: RepoFileSystem;
}

/** Reads a fleet repository in any layout fleetplan knows. Throws InputError when there is none. */
export function loadFleet(root: string, options: LoadOptions = {}): LoadResult {
  const fs = options.fs ?? nodeFileSystem(root);
  return detectLayout(fs).load(fs);
}

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
