/** `fleetplan validate --base REV`: only the findings the working tree introduces and fixes. */
import type { CommandContext } from '../command.js';
import { clusterNames, repoRoot, selectorTexts, yamlOfJson } from '../common.js';
import { completeRead, helmfileEnv, helmfileStateValues } from '../fleet-read.js';
import { UsageError, hasErrors, parseSelector, toSortedJson } from '../../entry/core.js';
import { validateAgainstBase } from '../../entry/diff.js';
import { findingLine } from '../../entry/fleet.js';
import { paintFindingLine } from '../color.js';

export async function validateBase(ctx: CommandContext, format: string): Promise<number> {
  const base = ctx.values.base;
  if (typeof base !== 'string' || base === '') throw new UsageError('--base must name a revision', { hint: 'e.g. --base main' });
  if (format === 'sarif') throw new UsageError('-o sarif lists every finding; it does not combine with --base', { hint: 'use -o text or -o json with --base' });
  if (ctx.values.leaves !== undefined || ctx.values['argocd-crds'] !== undefined) {
    throw new UsageError('--base compares the repository statically; --leaves and --argocd-crds do not combine with it');
  }
  const stateValues = helmfileStateValues(ctx);
  const env = helmfileEnv(ctx);
  const delta = await validateAgainstBase({
    root: repoRoot(ctx),
    base,
    clusters: clusterNames(ctx),
    selectors: selectorTexts(ctx).map((s) => parseSelector(s)),
    ...(typeof ctx.values.environment === 'string' ? { helmfileEnvironment: ctx.values.environment } : {}),
    ...(stateValues ? { helmfileStateValues: stateValues } : {}),
    ...(env ? { helmfileEnv: env } : {}),
    complete: (result, at) => completeRead(ctx, result, at),
  });
  const count = (list: readonly { severity: string }[], s: string) => list.filter((f) => f.severity === s).length;
  if (format === 'json' || format === 'yaml') {
    const json = toSortedJson({
      base: delta.base,
      fixed: delta.fixed,
      introduced: delta.introduced,
      summary: {
        fixed: delta.fixed.length,
        introduced: delta.introduced.length,
        introducedErrors: count(delta.introduced, 'error'),
        introducedWarnings: count(delta.introduced, 'warning'),
      },
    });
    ctx.io.stdout.write(format === 'yaml' ? yamlOfJson(json) : json);
  } else {
    const p = ctx.color.stdout;
    const label = delta.base.commit && delta.base.commit !== delta.base.revision ? `${delta.base.revision} (${delta.base.commit.slice(0, 12)})` : delta.base.revision;
    const lines = [`compared with ${label}: ${delta.introduced.length} introduced, ${delta.fixed.length} fixed`];
    for (const f of delta.introduced) lines.push(`+ ${paintFindingLine(p, findingLine(f))}`);
    for (const f of delta.fixed) lines.push(`- ${paintFindingLine(p, findingLine(f))}`);
    ctx.io.stdout.write(lines.join('\n') + '\n');
  }
  return hasErrors(delta.introduced) ? 1 : 0;
}
