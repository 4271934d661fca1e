import type { Command } from '../command.js';
import { choice, clusterNames, load, reportFindings } from '../common.js';
import { planFleet, planFleetLazily } from '../../order/plan.js';
import { planApplicationSetFleet } from '../../order/applicationset-apps.js';
import { createFleetRepoSource } from '../../adapters/fleet-repo.js';
import { formatPlan, planJsonChunks } from '../../render/plan-format.js';
import { hasErrors } from '../../model/finding.js';
import type { Plan } from '../../model/plan.js';

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
    let plan: Plan;
    if (fleet.delivery === 'applicationset') {
      // The Applications come from each cluster's root ApplicationSet, evaluated over the repository.
      const source = await createFleetRepoSource(fleet.root);
      try {
        plan = await planApplicationSetFleet(fleet, source, { clusters: clusterNames(ctx) });
      } finally {
        source.close();
      }
    } else if (format === 'json') {
      // Streamed: each cluster's plan is made, written and dropped in turn.
      const lazy = planFleetLazily(fleet, { clusters: clusterNames(ctx) });
      for (const chunk of planJsonChunks(lazy)) ctx.io.stdout.write(chunk);
      return hasErrors(lazy.findings) ? 1 : 0;
    } else plan = planFleet(fleet, { clusters: clusterNames(ctx) });
    if (format === 'json') for (const chunk of planJsonChunks(plan)) ctx.io.stdout.write(chunk);
    else ctx.io.stdout.write(formatPlan(plan, format));
    if (format !== 'json') reportFindings(ctx, plan.findings);
    return hasErrors(plan.findings) ? 1 : 0;
  },
};
