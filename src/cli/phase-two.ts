/** Phase 2 (the internal Git service) for the mirror and bootstrap commands. */
import type { CommandContext } from './command.js';
import { expectedPhaseTwoFiles, formatDuration, planMirror, runMirror } from '../index.js';
import type { Fleet, KubeClient, MirrorResult, Reporter, ResolvedFleet } from '../index.js';
import { systemClock } from '../adapters/clock.js';
import { createMirrorGit } from '../adapters/git-push.js';
import { summaryLine } from './bootstrap-progress.js';

/** Phase 2 on the one cluster of `resolved` (also run by bootstrap). */
export async function runPhaseTwo(ctx: CommandContext, fleet: Fleet, resolved: ResolvedFleet, client: KubeClient, reporter: Reporter, timeoutMs: number): Promise<MirrorResult> {
  const cluster = resolved.clusters[0]!;
  const plan = planMirror(fleet, cluster)!;
  const git = createMirrorGit({ root: fleet.root, env: ctx.io.env });
  return runMirror(client, git, plan, expectedPhaseTwoFiles(resolved, cluster), {
    clock: systemClock,
    reporter,
    timeoutMs,
    forcePush: ctx.values['force-push'] === true,
  });
}

/** `hub: phase 2 converged in …`, the mirror's commit, each change and each stage's duration. */
export function formatMirrorResult(r: MirrorResult): string {
  const lines = [`${r.cluster}: phase 2 ${summaryLine(r)}`, `  mirror branch at ${r.commit} (${r.push})`];
  const w = Math.max(0, ...r.changes.entries.map((c) => c.action.length));
  for (const c of r.changes) lines.push(`  ${c.action.padEnd(w)}  ${c.ref}${c.reason ? `  (${c.reason})` : ''}`);
  lines.push('  durations');
  const sw = Math.max(...r.timings.map((t) => t.stage.length));
  for (const t of r.timings) lines.push(`    ${t.stage.padEnd(sw)}  ${formatDuration(t.durationMs)}`);
  return lines.join('\n') + '\n';
}
