/**
 * Text for people (stderr) about a leaf-rendering run: one line per failed job, then one summary
 * line. Successful jobs are counted, not listed: with thousands of jobs a list is noise. The apps
 * not built (`skipped`, each already named in a note when the run was planned) are counted by
 * reason, so that rendered + failed + not built is every app of the run.
 */
import type { RenderLeavesResult } from './render.js';
import { SKIP_KINDS, type SkipKind, type SkippedLeaf } from './jobs.js';

export function formatLeafReport(run: RenderLeavesResult, skipped: readonly SkippedLeaf[] = []): string {
  const lines: string[] = [];
  const failed = run.results.filter((r) => r.error);
  for (const r of failed) lines.push(`error: ${r.error!.format()}`);
  // What --fetch pulled (ADR 0283): the version a range resolved to and the digest, per app.
  for (const r of run.results) for (const n of r.notes ?? []) lines.push(`note: cluster ${r.cluster}, app ${r.app}: ${n}`);
  // A Flux Kustomization's HelmReleases whose charts were not rendered: named one by one, never silently left out.
  let chartsDone = 0;
  let chartsMissing = 0;
  for (const r of run.results) {
    for (const c of r.charts ?? []) {
      if (c.problem === undefined) {
        chartsDone++;
        continue;
      }
      chartsMissing++;
      lines.push(`warning: cluster ${r.cluster}, app ${r.app}: HelmRelease ${c.release}${c.cluster !== undefined && c.cluster !== r.cluster ? ` (installed on cluster ${c.cluster}, spec.kubeConfig)` : ''} not rendered: ${c.problem}`);
    }
  }
  const ok = run.results.length - failed.length;
  const objects = run.results.reduce((n, r) => n + r.objects, 0);
  const s = run.stats;
  const parts = [`${s.builds} build${s.builds === 1 ? '' : 's'}`, `${s.hits} cached`, `${s.misses} missed`];
  if (s.uncacheable > 0) parts.push(`${s.uncacheable} uncacheable (remote resources, Flux builds)`);
  const charts = chartsDone + chartsMissing > 0 ? `; HelmRelease charts: ${chartsDone} rendered, ${chartsMissing} not rendered` : '';
  const byKind = new Map<SkipKind, number>();
  for (const k of skipped) byKind.set(k.kind, (byKind.get(k.kind) ?? 0) + 1);
  // Most frequent reason first; ties in SKIP_KINDS' order, so the line is the same for the same run.
  const order = Object.keys(SKIP_KINDS) as SkipKind[];
  const kinds = [...byKind].sort((a, b) => b[1] - a[1] || order.indexOf(a[0]) - order.indexOf(b[0]));
  const notBuilt = skipped.length ? `; ${skipped.length} not built (${kinds.map(([k, n]) => `${SKIP_KINDS[k]}: ${n}`).join(', ')})` : '';
  const total = run.results.length + skipped.length;
  lines.push(`leaves: ${ok} of ${total} apps rendered, ${objects} objects; ${parts.join(', ')}${failed.length ? `; ${failed.length} failed` : ''}${notBuilt}${charts}`);
  return `${lines.join('\n')}\n`;
}
