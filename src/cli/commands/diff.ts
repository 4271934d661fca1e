import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { clusterOptions, clusterSecretsOptions } from '../command.js';
import { checkSelector, choice, clusterNames, completeRead, progress, repoRoot, selectorTexts } from '../common.js';
import { FleetplanError, InputError, UsageError, diffFleet, diffHtml, formatDiff, hasChanges, parseSelector } from '../../index.js';
import type { DiffLeavesOptions, DiffPalette } from '../../index.js';
import type { CommandContext } from '../command.js';
import type { Palette } from '../color.js';
import { defaultCacheDir } from '../../adapters/build-cache.js';

const FORMATS = ['text', 'json', 'markdown', 'html'] as const;

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

export const diffCommand: Command = {
  name: 'diff',
  summary: 'what a change does to each cluster, offline: objects, order, leaves and findings',
  usage: `Usage: fleetplan diff [--from REV] [--to REV] [--cluster C]... [-l SELECTOR] [--clusters FILE] [--leaves] [-o text|json|markdown|html] [--exit-code] [--repo DIR]

Compares what each cluster gets at two revisions of the fleet repository, read through git
without touching the working tree (each commit is checked out in a temporary clone):
  --from REV   the base (default: the merge base of HEAD, or --to, with the fleet's branch: the
               branch the fleet's revision names, origin/<name> first, else origin/HEAD)
  --to REV     the change (default: the working tree as it is, uncommitted edits included)
Per cluster: added, removed or changed; every Application, AppProject, bootstrap object or Flux
object added, removed or changed, field by field (spec.source.targetRevision: main → v2);
waves, needs and bootstrap steps that changed. A cluster whose sector pins a commit gets what
the repository holds at the pin: when the change does not move the pin it shows "no change
until promoted" and how much the change would bring once promoted.
  --leaves     also build every app with the real kustomize and Helm on both sides and show each
               leaf object added, removed or changed as a unified diff (Secret values redacted);
               --kustomize, --helm, --cache-dir, --fetch and --registry-config as for render --leaves
Then the findings the change introduces and those it fixes (matched by rule, file, field and
message, not by line).
  -o text      for a terminal, coloured there (not with NO_COLOR or a pipe) (default)
  -o json      the stable document of docs/diff-json.md
  -o markdown  a pull-request comment: a table of clusters, a collapsible section per cluster,
               kept under GitHub's 65,536 characters (sections left out are counted)
  -o html      one self-contained page for reviewers (no external assets, works offline): a
               table of every cluster linking to its collapsible section, field tables, leaf
               diffs and the findings delta; every name and value escaped
  --exit-code  exit 1 when anything changed, 0 when nothing did (as git diff --exit-code);
               without it diff exits 0. Errors exit 2.
  --cache-dir DIR  where diff keeps what each commit's load read (default: the cache of render
               --leaves): a later diff whose changes touch none of it answers without loading`,
  examples: [
    { what: 'what the uncommitted edits of examples/lab do to each cluster', run: 'fleetplan diff --repo examples/lab --from HEAD' },
    { what: 'the same as a pull-request comment in Markdown', run: 'fleetplan diff --repo examples/lab --from HEAD -o markdown' },
    { what: 'the same as one self-contained HTML page (redirect it to a file and open that in a browser)', run: 'fleetplan diff --repo examples/lab --from HEAD -o html' },
    { what: 'a branch against main, with leaf manifests, failing CI when something changed', run: 'fleetplan diff --from main --to my-branch --leaves --exit-code', notRun: 'needs a fleet repository with those branches' },
  ],
  options: {
    ...clusterOptions,
    ...clusterSecretsOptions,
    from: { type: 'string' },
    to: { type: 'string' },
    output: { type: 'string', short: 'o' },
    leaves: { type: 'boolean' },
    'exit-code': { type: 'boolean' },
    kustomize: { type: 'string' },
    helm: { type: 'string' },
    'cache-dir': { type: 'string' },
    fetch: { type: 'boolean' },
    'registry-config': { type: 'string' },
  },
  complete: { flags: { output: FORMATS, clusters: 'file', from: 'none', to: 'none', 'cache-dir': 'dir', kustomize: 'file', helm: 'file', 'registry-config': 'file' } },
  async run(ctx) {
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
      ...(ctx.values.leaves === true ? { leaves: leafOptions(ctx) } : {}),
      complete: (result, at) => completeRead(ctx, result, at),
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
    ctx.io.stdout.write(format === 'html' ? diffHtml(diff) : formatDiff(diff, format, diffPalette(ctx.color.stdout)));
    return exitCode && hasChanges(diff) ? 1 : 0;
  },
};
