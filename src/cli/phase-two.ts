/** Phase 2 (the internal Git service) for the mirror and bootstrap commands. */
import type { CommandContext } from './command.js';
import { expectedPhaseTwoFiles, formatDuration, planMirror, runMirror } from '../entry/bootstrap.js';
import type { KubeClient, Fleet } from '../entry/core.js';
import type { MirrorResult, Reporter } from '../entry/bootstrap.js';
import type { ResolvedFleet } from '../entry/fleet.js';
import { systemClock } from '../adapters/clock.js';
import { createMirrorGit } from '../adapters/git-push.js';
import { summaryLine } from './bootstrap-progress.js';

export interface PhaseTwoFlags {
  timeoutMs: number;
  dryRun?: boolean;
  noWait?: boolean;
}

/** Phase 2 on one cluster of `resolved` (also run by bootstrap, per cluster). */
export async function runPhaseTwo(ctx: CommandContext, fleet: Fleet, resolved: ResolvedFleet, cluster: string, client: KubeClient, reporter: Reporter, flags: PhaseTwoFlags): Promise<MirrorResult> {
  const c = resolved.clusters.find((x) => x.name === cluster) ?? resolved.cluster(cluster);
  const plan = planMirror(fleet, c)!;
  const git = createMirrorGit({ root: fleet.root, env: ctx.io.env });
  return runMirror(client, git, plan, expectedPhaseTwoFiles(resolved, c), {
    clock: systemClock,
    reporter,
    timeoutMs: flags.timeoutMs,
    forcePush: ctx.values['force-push'] === true,
    dryRun: flags.dryRun === true,
    noWait: flags.noWait === true,
  });
}

/**
 * `hub: phase 2 converged in …`, the mirror's branch, each change and each stage's duration; for
 * a dry run the push that would happen, and (dry run, --no-wait) what was not awaited.
 */
export function formatMirrorResult(r: MirrorResult): string {
  const summary = r.outcome === 'applied' ? summaryLine(r).replace('applied (not waiting for the waves)', 'applied (not waiting for Argo CD to sync from the mirror: --no-wait)') : summaryLine(r);
  const lines = [`${r.cluster}: phase 2 ${summary}`];
  const { remote } = r;
  const now = remote.before === 'unknown' ? `unknown: ${remote.why ?? ''}` : remote.before === undefined ? 'absent' : `at ${remote.before}`;
  if (r.push === 'dry-run') lines.push(`  would push ${r.commit} (revision ${remote.revision}) to ${remote.url}, branch ${remote.branch} (the branch now: ${now})`);
  else lines.push(`  mirror branch at ${r.commit} (${r.push})`);
  const w = Math.max(0, ...r.changes.entries.map((c) => c.action.length));
  for (const c of r.changes) lines.push(`  ${c.action.padEnd(w)}  ${c.ref}${c.reason ? `  (${c.reason})` : ''}`);
  if (r.notAwaited.length) {
    lines.push(`  not awaited (${r.outcome === 'dry-run' ? 'dry run' : '--no-wait'}): would wait for`);
    for (const n of r.notAwaited) lines.push(`    ${n.text}  (now: ${n.now})`);
  }
  if (r.timings.length) {
    lines.push('  durations');
    const sw = Math.max(...r.timings.map((t) => t.stage.length));
    for (const t of r.timings) lines.push(`    ${t.stage.padEnd(sw)}  ${formatDuration(t.durationMs)}`);
  }
  return lines.join('\n') + '\n';
}
