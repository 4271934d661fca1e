/** Helpers shared by commands: the repository root, loading, cluster selection, output formats. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, InputError, loadFleet, completeFallbacks, findingLine, summaryLine } from '../index.js';
import type { LoadResult, Finding } from '../index.js';
import type { ClosableClusterBuilder } from '../adapters/cluster-build.js';
import { createClusterBuilder } from '../adapters/cluster-build.js';
import type { CommandContext } from './command.js';

export function repoRoot(ctx: CommandContext): string {
  const repo = resolve(ctx.io.cwd, (ctx.values.repo as string | undefined) ?? '.');
  if (!existsSync(repo) || !statSync(repo).isDirectory()) {
    throw new InputError(`repository directory ${repo} does not exist`, { code: 'no-repo', hint: 'pass --repo DIR' });
  }
  return repo;
}

/**
 * Loads the fleet in --repo. Clusters a layout reader could not read exactly are built with the
 * real kustomize and Helm (found through PATH, FLEETPLAN_KUSTOMIZE, FLEETPLAN_HELM).
 */
export async function load(ctx: CommandContext): Promise<LoadResult> {
  const root = repoRoot(ctx);
  const result = loadFleet(root);
  if (result.fallbacks?.length) {
    let builder: ClosableClusterBuilder | undefined;
    try {
      await completeFallbacks(result, async () => (builder = await createClusterBuilder(root, { env: ctx.io.env, cwd: ctx.io.cwd })));
    } finally {
      builder?.close();
    }
  }
  return result;
}

export function clusterNames(ctx: CommandContext): string[] {
  const v = ctx.values.cluster;
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function choice<T extends string>(ctx: CommandContext, flag: string, allowed: readonly T[], fallback: T): T {
  const v = ctx.values[flag];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, got "${String(v)}"`);
  }
  return v as T;
}

/** Findings to stderr, one line each, then a summary. */
export function reportFindings(ctx: CommandContext, findings: readonly Finding[]): void {
  if (findings.length === 0) return;
  for (const f of findings) ctx.io.stderr.write(findingLine(f) + '\n');
  ctx.io.stderr.write(summaryLine(findings) + '\n');
}
