import type { Command } from '../command.js';
import { clusterOptions, clusterSecretsOptions } from '../command.js';
import { checkSelector, choice, load, progress, reportFindings, selectedClusters, yamlOfJson } from '../common.js';
import { planRepository, planFleetLazily, formatPlan, planJson, planJsonChunks, hasErrors, resolveFleet, resolveFleetLazily, hasHelmfileBootstrap, UsageError } from '../../index.js';
import { paintPlanText } from '../color.js';
import { withStatus } from '../progress.js';

const FORMATS = ['text', 'json', 'yaml', 'mermaid', 'dot'] as const;

export const planCommand: Command = {
  name: 'plan',
  summary: 'what each cluster gets and in what order: bootstrap steps, then sync waves',
  usage: `Usage: fleetplan plan [--cluster C]... [-l SELECTOR] [--clusters FILE] [-o text|json|yaml|mermaid|dot] [--repo DIR]

Prints, per cluster, the bootstrap steps and then the apps wave by wave.
Under gitops.delivery: applicationset the apps are the Applications each cluster's root
ApplicationSet generates, computed offline from the repository at the sector's revision.
  -o json      the stable machine interface (fleet, clusters[].apps[], findings[])
  -o yaml      the same document as -o json, in YAML
  -o mermaid   a Mermaid flowchart; -o dot a Graphviz graph
  -e, --environment NAME  (helmfile + Flux) the helmfile environment whose releases and values the
               bootstrap phases show, as helmfile -e NAME (default "default")
  --clusters FILE  cluster Secrets for the ApplicationSets of a repository read as Argo CD
               reads it (the argocd layout), instead of the repository's own
Exits 1 when the fleet has errors (they are printed to stderr, and included in -o json/yaml).`,
  examples: [
    { what: 'every cluster of the lab fleet: bootstrap steps, then the apps wave by wave', run: 'fleetplan plan --repo examples/lab' },
    { what: 'only the spokes, chosen by role', run: 'fleetplan plan --repo examples/lab -l role=spoke' },
    { what: 'the clusters in the prod group, as the machine interface', run: 'fleetplan plan --repo examples/lab -l fleetplan.io/group=prod -o json' },
    { what: 'the hub\'s waves as a Mermaid flowchart', run: 'fleetplan plan --repo examples/lab --cluster hub -o mermaid' },
  ],
  options: { ...clusterOptions, ...clusterSecretsOptions, output: { type: 'string', short: 'o' }, environment: { type: 'string', short: 'e' } },
  complete: { flags: { output: FORMATS, clusters: 'file', environment: 'none' } },
  async run(ctx) {
    const format = choice(ctx, 'output', FORMATS, 'text');
    checkSelector(ctx);
    const { fleet } = await load(ctx);
    const clusters = selectedClusters(ctx, fleet);
    const environment = ctx.values.environment !== undefined ? String(ctx.values.environment) : undefined;
    if (environment !== undefined && !hasHelmfileBootstrap(fleet)) throw new UsageError('--environment is the helmfile environment: it applies to helmfile + Flux repositories only');
    const options = environment !== undefined ? { helmfileEnvironment: environment } : {};
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
  },
};
