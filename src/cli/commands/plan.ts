import type { Command } from '../command.js';
import { choice, clusterNames, load, reportFindings } from '../common.js';
import { planFleet, planApplicationSetFleet, formatPlan, planJsonChunks, hasErrors, resolveFleet } from '../../index.js';
import { createFleetRepoSource } from '../../adapters/fleet-repo.js';

export const planCommand: Command = {
  name: 'plan',
  summary: 'what each cluster gets and in what order: bootstrap steps, then sync waves',
  usage: `Usage: fleetplan plan [--cluster C]... [-o text|json|mermaid|dot] [--repo DIR]

Prints, per cluster, the bootstrap steps and then the apps wave by wave.
Under gitops.delivery: applicationset the apps are the Applications each cluster's root
ApplicationSet generates, computed offline from the repository at the sector's revision.
  -o json      the stable machine interface (fleet, clusters[].apps[], findings[])
  -o mermaid   a Mermaid flowchart; -o dot a Graphviz graph
Exits 1 when the fleet has errors (they are printed to stderr, and included in -o json).`,
  options: { cluster: { type: 'string', multiple: true, short: 'c' }, output: { type: 'string', short: 'o' } },
  async run(ctx) {
    const format = choice(ctx, 'output', ['text', 'json', 'mermaid', 'dot'] as const, 'text');
    const { fleet } = await load(ctx);
    const resolved = resolveFleet(fleet, { clusters: clusterNames(ctx) });
    let plan;
    if (fleet.delivery === 'applicationset') {
      // The Applications come from each cluster's root ApplicationSet, evaluated over the repository.
      const source = await createFleetRepoSource(fleet.root);
      try {
        plan = await planApplicationSetFleet(resolved, source);
      } finally {
        source.close();
      }
    } else plan = planFleet(resolved);
    if (format === 'json') for (const chunk of planJsonChunks(plan)) ctx.io.stdout.write(chunk);
    else ctx.io.stdout.write(formatPlan(plan, format));
    if (format !== 'json') reportFindings(ctx, plan.findings);
    return hasErrors(plan.findings) ? 1 : 0;
  },
};
