/**
 * `fleetplan bootstrap`: runs the bootstrap stages of one cluster or of the hub and its spokes. Its
 * name, help and flags are in ../commands/bootstrap.ts; this module is imported when the command
 * runs (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { checkSelector, choice, clusterNames } from '../common.js';
import { load, reportFindings, selectedClusters } from '../fleet-read.js';
import { formatHelmfileDryRun, DEFAULT_TIMEOUT_MS, bootstrapFleet, formatDuration, bootstrapHelmfile, MirrorNotReadyError } from '../../entry/bootstrap.js';
import { InputError, OperationError, UsageError, hasErrors } from '../../entry/core.js';
import { hasHelmfileBootstrap, planHelmfileBootstrap, resolveFleet, planBootstrap, parseSecretRef } from '../../entry/fleet.js';
import type { AfterBootstrap, ClusterOutcome, ClusterRun, FleetPorts, Reporter, BootstrapResult } from '../../entry/bootstrap.js';
import type { Fleet } from '../../entry/core.js';
import type { BootstrapPlanOptions, ResolvedFleet } from '../../entry/fleet.js';
import { systemClock } from '../../adapters/clock.js';
import { readManifests, withPrivateFile } from '../../adapters/manifests.js';
import { jsonReporter, lineReporter, liveReporter, summaryLine } from '../bootstrap-progress.js';
import { resolve } from 'node:path';
import { formatMirrorResult, runPhaseTwo } from '../phase-two.js';

export async function run(ctx: CommandContext): Promise<number> {
  const format = choice(ctx, 'output', ['text', 'json'] as const, 'text');
  checkSelector(ctx);
  const names = clusterNames(ctx);
  const all = ctx.values.all === true;
  const bySelector = ctx.values.selector !== undefined;
  if (all === (names.length > 0 || bySelector)) throw new UsageError('give either --cluster C (or -l SELECTOR) or --all');
  if (names.length > 1) throw new UsageError('give one --cluster (or --all)');
  if (all && ctx.values['spoke-kubeconfig'] !== undefined) {
    throw new UsageError('--spoke-kubeconfig names one spoke: use it with --cluster, not --all', { hint: 'with --all, each spoke is reached through its Hive admin kubeconfig Secret' });
  }
  const timeoutMs = ctx.values.timeout !== undefined ? parseDuration(String(ctx.values.timeout)) : DEFAULT_TIMEOUT_MS;
  const { fleet } = await load(ctx);
  if (hasHelmfileBootstrap(fleet)) return runHelmfile(ctx, fleet, names, all, timeoutMs, format);
  if (ctx.values.environment !== undefined) throw new UsageError('--environment is the helmfile environment: it applies to helmfile + Flux repositories only');
  if (!fleet.capabilities.bootstrap) {
    throw new UsageError('a helmfile + Flux repository bootstraps itself (helmfile sync, then Flux): fleetplan bootstrap applies Argo CD fleets only');
  }
  if (ctx.values['flux-manifests'] !== undefined && fleet.engine !== 'flux') throw new UsageError('--flux-manifests is for a fleet with gitops.engine: flux; this fleet is delivered by Argo CD');
  if (ctx.values['argocd-manifests'] !== undefined && fleet.engine === 'flux') throw new UsageError('--argocd-manifests is for Argo CD fleets; this fleet sets gitops.engine: flux', { hint: 'give Flux\'s install manifests with --flux-manifests' });
  const own = fleet.clusters.find((c) => c.ownBootstrap)?.ownBootstrap;
  if (own) {
    throw new UsageError(`this repository bootstraps its clusters itself (${own.by}): fleetplan bootstrap does not run it`, {
      hint: 'fleetplan plan shows its steps for each cluster; render --out DIR writes the objects it creates under DIR/<cluster>/bootstrap for review',
    });
  }
  const chosen = all ? [] : selectedClusters(ctx, fleet);
  if (chosen.length > 1) {
    throw new UsageError(`the selector matches ${chosen.length} clusters (${chosen.join(', ')}): bootstrap takes one cluster, or --all`, { hint: 'narrow the selector, or add --cluster C' });
  }
  const resolvedFleet = resolveFleet(fleet, all ? {} : { clusters: chosen });
  const { clusters, findings } = resolvedFleet;
  reportFindings(ctx, findings);
  if (hasErrors(findings)) {
    ctx.io.stderr.write('nothing applied: fix the errors above\n');
    return 1;
  }
  const planOptions = planOptionsFrom(ctx);
  const selected = all ? clusters.filter((c) => c.hub === undefined || c.hub === c.name || clusters.some((h) => h.name === c.hub)) : clusters;
  const roots = selected.filter((c) => c.role !== 'spoke' || c.hub === undefined || c.hub === c.name);
  if (all && roots.length !== 1) {
    throw new UsageError(`--all needs exactly one hub to start from, found ${roots.length ? roots.map((r) => r.name).join(', ') : 'none'}`, {
      hint: 'bootstrap each with --cluster C --context CTX',
    });
  }
  const included = selected.filter((c) => !all || roots.includes(c) || c.hub === roots[0]!.name);
  for (const c of selected.filter((x) => !included.includes(x))) {
    ctx.io.stderr.write(`fleetplan bootstrap: ${c.name} is not bootstrapped by --all (its hub ${c.hub ?? '-'} is not ${roots[0]!.name}): run --cluster ${c.name} with its hub's context\n`);
  }
  const runs: ClusterRun[] = included
    .map((c) => {
      const plan = planBootstrap(fleet, c, planOptions);
      const spoke = plan.stages[0]?.kind === 'spoke-provisioning';
      return spoke ? { plan, hub: c.hub! } : { plan };
    });

  const { connectKube, describeKubeSource, kubeSource } = await import('../../adapters/kube.js');
  const env = ctx.io.env;
  // Requests retry throttling, server errors and resets until the run's deadline, not for a
  // number of attempts (ADR 0221).
  const deadline = systemClock.now() + timeoutMs;
  const kubeconfigFlag = ctx.values.kubeconfig as string | undefined;
  const target = {
    ...(kubeconfigFlag !== undefined ? { kubeconfig: resolve(ctx.io.cwd, kubeconfigFlag) } : {}),
    ...(ctx.values.context !== undefined ? { context: String(ctx.values.context) } : {}),
    // In a pod with no kubeconfig: the service account (ADR 0238). FLEETPLAN_SERVICE_ACCOUNT_DIR
    // moves its directory (tests; a token mounted elsewhere).
    ...(env.FLEETPLAN_SERVICE_ACCOUNT_DIR ? { serviceAccountDir: env.FLEETPLAN_SERVICE_ACCOUNT_DIR } : {}),
    env,
  };
  const source = kubeSource(target);
  const client = await connectKube({ ...target, source, deadline });
  ctx.io.stderr.write(`fleetplan bootstrap: credentials: ${describeKubeSource(source, source.kind === 'kubeconfig' ? client.context : undefined)}\n`);
  const spokeFlag = ctx.values['spoke-kubeconfig'] as string | undefined;
  const ports: FleetPorts = {
    client,
    connectKubeconfig: (text) => withPrivateFile(text, (path) => connectKube({ kubeconfig: path, env, deadline })),
    ...(spokeFlag !== undefined ? { spokeKubeconfig: () => connectKube({ kubeconfig: resolve(ctx.io.cwd, spokeFlag), env, deadline }) } : {}),
  };
  const reporter = reporterFor(ctx, format);
  let outcomes: ClusterOutcome[];
  try {
    outcomes = await bootstrapFleet(runs, ports, {
      clock: systemClock,
      reporter,
      timeoutMs,
      dryRun: ctx.values['dry-run'] === true,
      noWait: ctx.values['no-wait'] === true,
      forceConflicts: ctx.values['force-conflicts'] === true,
    }, fleet.mirror ? phaseTwoAfter(ctx, fleet, resolvedFleet, reporter, deadline) : undefined);
    if (format === 'text') {
      ctx.io.stdout.write(formatOutcomes(outcomes));
      for (const o of outcomes) if (o.phaseTwo) ctx.io.stdout.write(`\n${formatMirrorResult(o.phaseTwo)}`);
    }
    for (const o of outcomes) {
      if (o.error) ctx.io.stderr.write(`fleetplan bootstrap: ${o.cluster}: ${'format' in o.error && typeof o.error.format === 'function' ? (o.error.format as () => string)() : o.error.message}\n`);
    }
    return outcomes.every((o) => o.ok) ? 0 : 1;
  } finally {
    client.close();
  }
}

/**
 * Phase 2 (gitops.mirror) of each cluster whose bootstrap succeeded, with the client that reached
 * it; its failure is that cluster's, reported with the others' (ADR 0264).
 */
function phaseTwoAfter(ctx: CommandContext, fleet: Fleet, resolved: ResolvedFleet, reporter: Reporter, deadline: number): AfterBootstrap {
  const dryRun = ctx.values['dry-run'] === true;
  const noWait = ctx.values['no-wait'] === true;
  return async (run, client) => {
    const cluster = run.plan.cluster;
    if (!client) {
      // A dry run does not wait for a spoke to be provisioned, so nothing reaches the spoke itself.
      ctx.io.stderr.write(`fleetplan bootstrap: ${cluster}: phase 2 not dry-run: a spoke is reached through its hub only once provisioned; run fleetplan mirror --cluster ${cluster} --dry-run with the spoke's own context\n`);
      return undefined;
    }
    try {
      return await runPhaseTwo(ctx, fleet, resolved, cluster, client, reporter, { timeoutMs: Math.max(1000, deadline - systemClock.now()), dryRun, noWait });
    } catch (err) {
      if (noWait && err instanceof MirrorNotReadyError) {
        // --no-wait applied the root only: the Git service comes with a later wave.
        ctx.io.stderr.write(`fleetplan bootstrap: ${cluster}: phase 2 not started (--no-wait): ${err.message}; run fleetplan mirror --cluster ${cluster} once it is ready\n`);
        return undefined;
      }
      if (err instanceof OperationError) throw new OperationError(`phase 2: ${err.message}`, { code: err.code, hint: err.hint, cause: err });
      throw err;
    }
  };
}

async function runHelmfile(ctx: CommandContext, fleet: Fleet, names: string[], all: boolean, timeoutMs: number, format: 'text' | 'json'): Promise<number> {
  if (ctx.values['no-wait'] === true) throw new UsageError('--no-wait is not supported for a helmfile + Flux bootstrap', { hint: 'fleetplan plan --cluster C shows what it would do; --dry-run shows it against the cluster' });
  const dryRun = ctx.values['dry-run'] === true;
  const cluster = fleet.clusters[0]!.name;
  if (!all && names.length === 1 && names[0] !== cluster) throw new UsageError(`a helmfile + Flux repository has one cluster, "${cluster}", not "${names[0]}"`);
  const reporter = reporterFor(ctx, format);
  const kubeconfigFlag = ctx.values.kubeconfig as string | undefined;
  let outcome: ClusterOutcome;
  try {
    const result = await bootstrapHelmfile(fleet, {
      cluster,
      ...(ctx.values.environment !== undefined ? { environment: String(ctx.values.environment) } : {}),
      ...(kubeconfigFlag !== undefined ? { kubeconfig: resolve(ctx.io.cwd, kubeconfigFlag) } : {}),
      ...(ctx.values.context !== undefined ? { context: String(ctx.values.context) } : {}),
      ...(ctx.values.helm !== undefined ? { helm: String(ctx.values.helm) } : {}),
      env: ctx.io.env,
      clock: systemClock,
      reporter,
      timeoutMs,
      forceConflicts: ctx.values['force-conflicts'] === true,
      ...(dryRun ? { dryRun: true } : {}),
    });
    outcome = { cluster, ok: true, result };
    if (dryRun && format === 'text') {
      const environment = ctx.values.environment !== undefined ? String(ctx.values.environment) : undefined;
      ctx.io.stdout.write(formatHelmfileDryRun(planHelmfileBootstrap(fleet, cluster, environment), result).join('\n') + '\n');
      return 0;
    }
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    reporter.event({ type: 'failed', cluster, message: error.message });
    outcome = { cluster, ok: false, error };
  }
  if (format === 'text') ctx.io.stdout.write(formatOutcomes([outcome]));
  if (outcome.error) ctx.io.stderr.write(`fleetplan bootstrap: ${cluster}: ${'format' in outcome.error && typeof outcome.error.format === 'function' ? (outcome.error.format as () => string)() : outcome.error.message}\n`);
  return outcome.ok ? 0 : 1;
}

function planOptionsFrom(ctx: CommandContext): BootstrapPlanOptions {
  const opts: BootstrapPlanOptions = {};
  const manifests = ctx.values['argocd-manifests'];
  if (typeof manifests === 'string') opts.argocdManifests = readManifests(resolve(ctx.io.cwd, manifests), ctx.io.cwd);
  const store = ctx.values['secret-store'];
  if (typeof store === 'string') {
    const objs = readManifests(resolve(ctx.io.cwd, store), ctx.io.cwd);
    if (objs.length !== 1) throw new InputError(`--secret-store ${store} must hold exactly one object, found ${objs.length}`);
    opts.secretStore = objs[0]!;
  }
  const flux = ctx.values['flux-manifests'];
  if (typeof flux === 'string') opts.fluxManifests = readManifests(resolve(ctx.io.cwd, flux), ctx.io.cwd);
  const creds = ctx.values['secret-store-credentials'];
  if (typeof creds === 'string') opts.secretStoreCredentials = parseSecretRef(creds);
  return opts;
}

export function reporterFor(ctx: CommandContext, format: 'text' | 'json'): Reporter {
  const now = () => systemClock.now();
  if (format === 'json') return jsonReporter(ctx.io.stdout, now);
  if (ctx.io.stderr.isTTY) {
    return liveReporter(ctx.io.stderr, now, (fn) => {
      const t = setInterval(fn, 500);
      t.unref();
      return () => clearInterval(t);
    });
  }
  return lineReporter(ctx.io.stderr, now);
}

/** The change set and per-stage durations of each cluster, for stdout. */
export function formatOutcomes(outcomes: ClusterOutcome[]): string {
  const lines: string[] = [];
  for (const o of outcomes) {
    if (lines.length) lines.push('');
    if (!o.result) {
      lines.push(`${o.cluster}: failed`);
      continue;
    }
    lines.push(...formatResult(o.result));
  }
  return lines.join('\n') + '\n';
}

export function formatResult(r: BootstrapResult): string[] {
  const lines = [`${r.cluster}: ${summaryLine(r)}`];
  const w = Math.max(0, ...r.changes.entries.map((c) => c.action.length));
  for (const c of r.changes) lines.push(`  ${c.action.padEnd(w)}  ${c.ref}${c.reason ? `  (${c.reason})` : ''}`);
  if (r.timings.length) {
    lines.push('  durations');
    const sw = Math.max(...r.timings.map((t) => t.stage.length));
    for (const t of r.timings) lines.push(`    ${t.stage.padEnd(sw)}  ${formatDuration(t.durationMs)}`);
  }
  return lines;
}

/** `90s`, `20m`, `1h30m`, `500ms`; a bare number is seconds. */
export function parseDuration(text: string): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    if (m.index !== consumed) break;
    consumed += m[0].length;
    total += Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[m[2] as 'ms' | 's' | 'm' | 'h'];
  }
  if (consumed !== text.length || consumed === 0 || total <= 0) {
    throw new UsageError(`--timeout must be a duration such as 90s, 20m or 1h, got "${text}"`);
  }
  return total;
}
