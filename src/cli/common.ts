/** Helpers shared by commands: the repository root, loading, cluster selection, output formats. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, InputError } from '../errors/index.js';
import { loadFleet } from '../index.js';
import type { LoadResult } from '../spec/load.js';
import type { CommandContext } from './command.js';
import type { Finding } from '../model/finding.js';
import { findingLine, summaryLine } from '../render/plan-format.js';

export function repoRoot(ctx: CommandContext): string {
  const repo = resolve(ctx.io.cwd, (ctx.values.repo as string | undefined) ?? '.');
  if (!existsSync(repo) || !statSync(repo).isDirectory()) {
    throw new InputError(`repository directory ${repo} does not exist`, { code: 'no-repo', hint: 'pass --repo DIR' });
  }
  return repo;
}

export function load(ctx: CommandContext): LoadResult {
  return loadFleet(repoRoot(ctx));
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
