/**
 * What `bootstrap --dry-run` of a helmfile + Flux repository prints: per phase, what it would run
 * (the helm command with namespace, chart, version and values files; the hook; the
 * Kustomizations to await, as `plan` says it) and what the server-side dry-run found for each
 * object (created, configured, unchanged, skipped and why). Nothing in it was written.
 * Decisions: docs/adr/0262-helmfile-dry-run-and-environments.md.
 */
import type { HelmfileBootstrapPlan } from '../model/helmfile-bootstrap.js';
import { helmfilePlanStages } from '../order/helmfile-plan.js';
import type { BootstrapResult } from './change-set.js';

export function formatHelmfileDryRun(plan: HelmfileBootstrapPlan, result: BootstrapResult): string[] {
  const lines = [`${plan.cluster}: dry run, nothing written (helmfile environment ${plan.environment})`];
  for (const n of plan.notes) lines.push(`  note: ${n}`);
  const stages = helmfilePlanStages(plan);
  const w = Math.max(0, ...result.changes.entries.map((c) => c.action.length));
  for (const s of stages) {
    lines.push(`  ${s.name}  ${s.description}`);
    for (const n of s.notes) lines.push(`      ${n}`);
    for (const c of result.changes.entries.filter((x) => x.stage === s.name)) lines.push(`      ${c.action.padEnd(w)}  ${c.ref}${c.reason ? `  (${c.reason})` : ''}`);
    for (const t of s.wait) lines.push(`      would wait: ${t}`);
  }
  return lines;
}
