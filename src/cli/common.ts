/** Helpers shared by commands that need nothing of the library beyond its kernel: the repository root, flags, output formats. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, InputError, toYaml, parseSelector } from '../entry/core.js';
import type { CommandContext } from './command.js';
import type { ProgressLine } from './progress.js';
import { progressLine } from './progress.js';

export function repoRoot(ctx: CommandContext): string {
  const repo = resolve(ctx.io.cwd, (ctx.values.repo as string | undefined) ?? '.');
  if (!existsSync(repo) || !statSync(repo).isDirectory()) {
    throw new InputError(`repository directory ${repo} does not exist`, { code: 'no-repo', hint: 'pass --repo DIR' });
  }
  return repo;
}

/** The progress line of this command on stderr (nothing unless stderr is a terminal). */
export function progress(ctx: CommandContext): ProgressLine {
  return progressLine(ctx.io.stderr, ctx.color.stderr);
}

/** The --cluster values as given (before --selector); see selectedClusters for the selection. */
export function clusterNames(ctx: CommandContext): string[] {
  const v = ctx.values.cluster;
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function selectorTexts(ctx: CommandContext): string[] {
  const v = ctx.values.selector;
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/** Parses -l/--selector early, so that a bad selector is a usage error before any work. */
export function checkSelector(ctx: CommandContext): void {
  for (const s of selectorTexts(ctx)) parseSelector(s);
}

export function choice<T extends string>(ctx: CommandContext, flag: string, allowed: readonly T[], fallback: T): T {
  const v = ctx.values[flag];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, got "${String(v)}"`);
  }
  return v as T;
}

/** JSON text (sorted keys, as every -o json prints) as the same structure in YAML, for -o yaml. */
export function yamlOfJson(json: string): string {
  return toYaml(JSON.parse(json));
}

