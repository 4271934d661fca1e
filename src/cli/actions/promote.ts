/**
 * `fleetplan promote`: pins a sector to a commit. Its name, help and flags are in
 * ../commands/promote.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { repoRoot } from '../common.js';
import { completeRead, load } from '../fleet-read.js';
import { UsageError, OperationError } from '../../entry/core.js';
import { diffPromotion, diffText } from '../../entry/diff.js';
import { loadFleet } from '../../entry/fleet.js';
import { formatPromotion, planPromotion, setSectorRevision } from '../../entry/promote.js';
import { diffPalette } from './diff.js';
import type { RepoFileSystem } from '../../entry/core.js';
import { gitRevisions } from '../../adapters/git-revisions.js';
import { readTextFile, resolveInside } from '../../adapters/fs.js';
import { editRepoFile } from '../../adapters/repo-edit.js';
import { nodeFileSystem } from '../../adapters/node-fs.js';

export async function run(ctx: CommandContext): Promise<number> {
  const to = ctx.values.to;
  if (typeof to !== 'string' || to === '') throw new UsageError('--to SECTOR is required', { hint: 'see `fleetplan promote --help`' });
  const revision = ctx.values.revision as string | undefined;
  if (revision === '') throw new UsageError('--revision must not be empty');
  const root = repoRoot(ctx);
  const allowRollback = ctx.values['allow-rollback'] === true;
  const dryRun = ctx.values['dry-run'] === true;
  // Everything from reading fleet.yaml to replacing it happens under fleet.yaml.lock, so a
  // concurrent promote (another sector) waits and then edits the file this one wrote (ADR 0220).
  const { fleet } = await load(ctx);
  const path = resolveInside(root, fleet.file);
  const display = fleet.file;
  const attempt = async (text: string) => {
    const current = loadFleet(root, { fs: withFile(nodeFileSystem(root), display, text) });
    const revisions = gitRevisions(root);
    let promotion;
    try {
      promotion = await planPromotion(current.fleet, { to, ...(revision !== undefined ? { revision } : {}), allowRollback }, revisions);
    } finally {
      revisions.close();
    }
    if (!promotion.changed) return { text: undefined, value: { promotion } };
    const after = setSectorRevision(text, display, promotion.index, promotion.to);
    // The edited file must load as the same fleet with the new pin before it replaces the old one.
    const reloaded = loadFleet(root, { fs: withFile(nodeFileSystem(root), display, after) });
    const errorsIn = (fs: readonly { file?: string; severity: string }[]) => fs.filter((f) => f.file === display && f.severity === 'error').length;
    if (reloaded.fleet.sectors[promotion.index]?.revision !== promotion.to || errorsIn(reloaded.findings) > errorsIn(current.fleet.loadFindings)) {
      throw new OperationError(`the edited ${display} does not load with ${promotion.sector} at ${promotion.to}; nothing written`);
    }
    return { text: dryRun ? undefined : after, value: { promotion } };
  };
  const { promotion } = dryRun
    ? (await attempt(readTextFile(path, display))).value
    : await editRepoFile(path, display, (p) => readTextFile(p, display), attempt);
  ctx.io.stdout.write(formatPromotion(promotion));
  if (!promotion.changed) return 0;
  if (dryRun) {
    // What the promotion deploys, cluster by cluster (docs/adr/0225-fleetplan-diff.md).
    if (promotion.clusters.length > 0) {
      const diff = await diffPromotion({ root, sector: promotion.sector, fromRevision: promotion.from, toCommit: promotion.to, clusters: promotion.clusters, complete: (result, at) => completeRead(ctx, result, at) });
      ctx.io.stdout.write('\n' + diffText(diff, diffPalette(ctx.color.stdout)));
    }
    ctx.io.stderr.write(`dry run: ${display} not written\n`);
    return 0;
  }
  ctx.io.stderr.write(`wrote ${display}\n`);
  return 0;
}

/** `fs` with one file's text replaced. */
function withFile(fs: RepoFileSystem, file: string, text: string): RepoFileSystem {
  return {
    root: fs.root,
    readText: (p) => (p === file ? text : fs.readText(p)),
    exists: (p) => p === file || fs.exists(p),
    isDirectory: (p) => fs.isDirectory(p),
    list: (p) => fs.list(p),
  };
}
