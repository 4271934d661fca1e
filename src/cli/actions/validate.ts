/**
 * `fleetplan validate`: the fleet's findings. Its name, help and flags are in
 * ../commands/validate.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { checkSelector, choice, yamlOfJson } from '../common.js';
import { load, selectedClusters } from '../fleet-read.js';
import { hasErrors, VERSION } from '../../entry/core.js';
import { argoCdSchemasFromCrds, evaluateFleetJsonnet, resolveFleet, ruleCatalog, validateFleet, formatFindingsText, findingsJson, findingsSarif } from '../../entry/fleet.js';
import { readManifests } from '../../adapters/manifests.js';
import { resolve } from 'node:path';
import { leafObjectsFromDirectory } from '../../adapters/leaf-objects.js';
import { paintFindingsText } from '../color.js';
import { FORMATS } from '../commands/validate.js';

export async function run(ctx: CommandContext): Promise<number> {
  const format = choice(ctx, 'output', FORMATS, 'text');
  checkSelector(ctx);
  // The diff stage (two revisions through git) is loaded only for --base.
  if (ctx.values.base !== undefined) return (await import('./validate-base.js')).validateBase(ctx, format);
  const { fleet } = await load(ctx);
  const clusters = selectedClusters(ctx, fleet);
  const leavesDir = ctx.values.leaves as string | undefined;
  const leaves = leavesDir !== undefined ? leafObjectsFromDirectory(resolve(ctx.io.cwd, leavesDir)) : undefined;
  const crds = ctx.values['argocd-crds'] as string | undefined;
  const argoCdSchemas = crds !== undefined ? argoCdSchemasFromCrds(readManifests(resolve(ctx.io.cwd, crds), ctx.io.cwd), crds) : undefined;
  const resolved = resolveFleet(fleet, { clusters });
  // The Jsonnet Argo CD evaluates, evaluated with the real binary where there is one (ADR 0319).
  const jsonnet = await evaluateFleetJsonnet(resolved, { env: ctx.io.env, cwd: ctx.io.cwd, ...(typeof ctx.values.jsonnet === 'string' ? { jsonnet: ctx.values.jsonnet } : {}) });
  const findings = validateFleet(resolved, { clusters, jsonnet, ...(leaves ? { leaves } : {}), ...(argoCdSchemas ? { argoCdSchemas } : {}) });
  if (format === 'json') ctx.io.stdout.write(findingsJson(findings));
  else if (format === 'yaml') ctx.io.stdout.write(yamlOfJson(findingsJson(findings)));
  else if (format === 'sarif') ctx.io.stdout.write(findingsSarif(findings, VERSION, ruleCatalog()));
  else ctx.io.stdout.write(paintFindingsText(ctx.color.stdout, formatFindingsText(findings)));
  return hasErrors(findings) ? 1 : 0;
}
