/**
 * `fleetplan plan`: what each cluster gets and in what order. Its name, help and flags are in
 * ../commands/plan.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { checkSelector, choice, progress, yamlOfJson } from '../common.js';
import { load, reportFindings, selectedClusters } from '../fleet-read.js';
import { hasErrors } from '../../entry/core.js';
import { planRepository, planFleetLazily, formatPlan, planJson, planJsonChunks, resolveFleet, resolveFleetLazily } from '../../entry/fleet-plan.js';
import { paintPlanText } from '../color.js';
import { withStatus } from '../progress.js';
import { FORMATS } from '../commands/plan.js';

export async function run(ctx: CommandContext): Promise<number> {
  const format = choice(ctx, 'output', FORMATS, 'text');
  checkSelector(ctx);
  const { fleet } = await load(ctx);
  const clusters = selectedClusters(ctx, fleet);
  // The environment read (-e) is the fleet's (graphs.helmfileEnvironment): the plan takes it from there.
  const options = {};
  if (format === 'json' && fleet.delivery !== 'applicationset') {
    // Streamed: each cluster is resolved, planned, written and dropped in turn.
    const lazy = planFleetLazily(resolveFleetLazily(fleet, { clusters }), options);
    for (const chunk of planJsonChunks(lazy)) ctx.io.stdout.write(chunk);
    return hasErrors(lazy.findings) ? 1 : 0;
  }
  const resolved = resolveFleet(fleet, { clusters });
  // Under delivery: applicationset the Applications come from each cluster's root ApplicationSet,
  // evaluated over the repository through git: a status line if that takes over a second.
  const plan = resolved.fleet.delivery === 'applicationset' ? await withStatus(progress(ctx), 'evaluating the root ApplicationSets…', () => planRepository(resolved, options)) : await planRepository(resolved, options);
  if (format === 'json') for (const chunk of planJsonChunks(plan)) ctx.io.stdout.write(chunk);
  else if (format === 'yaml') ctx.io.stdout.write(yamlOfJson(planJson(plan)));
  else if (format === 'text') ctx.io.stdout.write(paintPlanText(ctx.color.stdout, formatPlan(plan, format)));
  else ctx.io.stdout.write(formatPlan(plan, format));
  if (format !== 'json' && format !== 'yaml') reportFindings(ctx, plan.findings);
  return hasErrors(plan.findings) ? 1 : 0;
}
