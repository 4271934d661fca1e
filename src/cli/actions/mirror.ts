/**
 * `fleetplan mirror`: phase 2 on a running cluster (push to the internal Git service, switch Argo
 * CD to it). Its name, help and flags are in ../commands/mirror.ts; this module is imported when
 * the command runs (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { resolve } from 'node:path';
import { checkSelector, choice } from '../common.js';
import { load, reportFindings, selectedClusters } from '../fleet-read.js';
import { DEFAULT_TIMEOUT_MS } from '../../entry/bootstrap.js';
import { OperationError, UsageError, hasErrors } from '../../entry/core.js';
import { resolveFleet } from '../../entry/fleet.js';
import { systemClock } from '../../adapters/clock.js';
import { parseDuration, reporterFor } from './bootstrap.js';
import { formatMirrorResult, runPhaseTwo } from '../phase-two.js';

export async function run(ctx: CommandContext): Promise<number> {
  const format = choice(ctx, 'output', ['text', 'json'] as const, 'text');
  checkSelector(ctx);
  const timeoutMs = ctx.values.timeout !== undefined ? parseDuration(String(ctx.values.timeout)) : DEFAULT_TIMEOUT_MS;
  const { fleet } = await load(ctx);
  if (!fleet.mirror) throw new UsageError('this fleet has no internal Git service (gitops.mirror in fleet.yaml)', { hint: 'fleetplan schema Fleet shows gitops.mirror' });
  const chosen = selectedClusters(ctx, fleet);
  if (chosen.length !== 1) throw new UsageError(`give one cluster (--cluster C, or -l selecting one), ${chosen.length ? `the selector matches ${chosen.join(', ')}` : 'none given'}`);
  const resolved = resolveFleet(fleet, { clusters: chosen });
  reportFindings(ctx, resolved.findings);
  if (hasErrors(resolved.findings)) {
    ctx.io.stderr.write('nothing pushed: fix the errors above\n');
    return 1;
  }
  const { connectKube } = await import('../../adapters/kube.js');
  const kubeconfigFlag = ctx.values.kubeconfig as string | undefined;
  const client = await connectKube({
    ...(kubeconfigFlag !== undefined ? { kubeconfig: resolve(ctx.io.cwd, kubeconfigFlag) } : {}),
    ...(ctx.values.context !== undefined ? { context: String(ctx.values.context) } : {}),
    env: ctx.io.env,
    deadline: systemClock.now() + timeoutMs,
  });
  try {
    const result = await runPhaseTwo(ctx, fleet, resolved, resolved.clusters[0]!.name, client, reporterFor(ctx, format), {
      timeoutMs,
      dryRun: ctx.values['dry-run'] === true,
      noWait: ctx.values['no-wait'] === true,
    });
    if (format === 'text') ctx.io.stdout.write(formatMirrorResult(result));
    return 0;
  } catch (err) {
    if (!(err instanceof OperationError)) throw err;
    ctx.io.stderr.write(`fleetplan mirror: ${resolved.clusters[0]!.name}: ${err.format()}\n`);
    return 1;
  } finally {
    client.close();
  }
}
