/**
 * `fleetplan diff`: what a change does to each cluster. Its name, help and flags are in
 * ../commands/diff.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { resolve } from 'node:path';
import { checkSelector, choice, clusterNames, progress, repoRoot, selectorTexts } from '../common.js';
import { FleetplanError, InputError, UsageError, parseSelector } from '../../entry/core.js';
import { diffFleet, formatDiff, hasChanges } from '../../entry/diff-run.js';
import type { DiffLeavesOptions, DiffPalette } from '../../entry/diff-run.js';
import type { Palette } from '../color.js';
import type { HelmfileStateValues } from '../../entry/fleet-plan.js';
import { defaultCacheDir } from '../../adapters/cache-dir.js';
import { FORMATS } from '../commands/diff.js';

/** `+` lines green-less: the CLI palette has red, yellow and cyan; additions cyan, removals red. */
export function diffPalette(p: Palette): DiffPalette {
  return { added: p.cyan, removed: p.red, heading: p.bold, dim: p.dim };
}

/** The `--leaves` build options of render, from the flags (`--kustomize`, `--helm`, `--cache-dir`). */
export function leafOptions(ctx: CommandContext): DiffLeavesOptions {
  const cacheDir = ctx.values['cache-dir'] as string | undefined;
  return {
    env: ctx.io.env,
    cwd: ctx.io.cwd,
    ...(cacheDir !== undefined ? { cacheDir: resolve(ctx.io.cwd, cacheDir) } : {}),
    ...(typeof ctx.values.kustomize === 'string' ? { kustomize: ctx.values.kustomize } : {}),
    ...(typeof ctx.values.helm === 'string' ? { helm: ctx.values.helm } : {}),
    ...(ctx.values.fetch === true ? { fetch: true } : {}),
    ...(typeof ctx.values['registry-config'] === 'string' ? { registryConfig: resolve(ctx.io.cwd, ctx.values['registry-config']) } : {}),
  };
}

/** Where diff keeps its records of revisions (--cache-dir, else the default cache directory); none when there is no home. */
function diffCacheOption(ctx: CommandContext): { cacheDir?: string } {
  const flag = ctx.values['cache-dir'];
  const dir = typeof flag === 'string' ? resolve(ctx.io.cwd, flag) : defaultCacheDir(ctx.io.env);
  return dir !== undefined ? { cacheDir: dir } : {};
}

/**
 * helmfile's state values flags, read once for both revisions (ADR 0405); the loading modules they
 * need are imported only when one is given (a diff answered from records loads no fleet stage).
 */
async function stateValuesOption(ctx: CommandContext): Promise<{ helmfileStateValues?: HelmfileStateValues }> {
  if (ctx.values['state-values-set'] === undefined && ctx.values['state-values-file'] === undefined) return {};
  const stateValues = (await import('../fleet-read.js')).helmfileStateValues(ctx);
  return stateValues ? { helmfileStateValues: stateValues } : {};
}

/** `--helmfile-env`, given to both revisions (ADR 0413); its module is imported only when it is given. */
async function helmfileEnvOption(ctx: CommandContext): Promise<{ helmfileEnv?: Record<string, string> }> {
  if (ctx.values['helmfile-env'] === undefined) return {};
  const env = (await import('../fleet-read.js')).helmfileEnv(ctx);
  return env ? { helmfileEnv: env } : {};
}

export async function run(ctx: CommandContext): Promise<number> {
  const format = choice(ctx, 'output', FORMATS, 'text');
  for (const flag of ['from', 'to'] as const) {
    if (ctx.values[flag] === '') throw new UsageError(`--${flag} must not be empty`, { hint: 'give a branch, tag or commit' });
  }
  checkSelector(ctx);
  const root = repoRoot(ctx);
  const line = progress(ctx);
  const exitCode = ctx.values['exit-code'] === true;
  let diff;
  try {
    diff = await diffFleet({
    root,
    ...(typeof ctx.values.from === 'string' ? { from: ctx.values.from } : {}),
    ...(typeof ctx.values.to === 'string' ? { to: ctx.values.to } : {}),
    clusters: clusterNames(ctx),
    selectors: selectorTexts(ctx).map((s) => parseSelector(s)),
    ...(typeof ctx.values.environment === 'string' ? { helmfileEnvironment: ctx.values.environment } : {}),
    ...(await stateValuesOption(ctx)),
    ...(await helmfileEnvOption(ctx)),
    ...(ctx.values.leaves === true ? { leaves: leafOptions(ctx) } : {}),
    // Only a side that is loaded needs it: a diff answered from records loads no fleet stage.
    complete: async (result, at) => (await import('../fleet-read.js')).completeRead(ctx, result, at),
    onProgress: (m) => line.update(m),
    ...diffCacheOption(ctx),
    });
  } catch (e) {
    // With --exit-code, 1 means "changed": every failure, a tool's too, is 2 (as git diff).
    if (!exitCode || e instanceof UsageError || e instanceof InputError) throw e;
    ctx.io.stderr.write(`fleetplan diff: ${e instanceof FleetplanError ? e.format() : `internal error: ${(e as Error)?.stack ?? String(e)}`}\n`);
    return 2;
  } finally {
    line.done();
  }
  // The HTML report's module is loaded only when it is asked for.
  ctx.io.stdout.write(format === 'html' ? (await import('../../entry/diff.js')).diffHtml(diff) : formatDiff(diff, format, diffPalette(ctx.color.stdout)));
  return exitCode && hasChanges(diff) ? 1 : 0;
}
