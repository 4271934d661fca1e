/**
 * `fleetplan appset FILE`: the Applications an ApplicationSet generates, computed offline. Its
 * name, help and flags are in ../commands/appset.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { resolve } from 'node:path';
import { formatApplicationChunks, formatApplicationBytes, readClusterSecrets, runApplicationSets, CLUSTER_SECRET_TYPE_LABEL } from '../../entry/appset-run.js';
import { UsageError } from '../../entry/core.js';
import type { OutputFormat, ClusterSecret, UnmatchedClusterGenerator } from '../../entry/appset-run.js';
import { readTextFile } from '../../adapters/fs.js';

export async function run(ctx: CommandContext): Promise<number> {
  const { io, values, positionals } = ctx;
  if (positionals.length !== 1) throw new UsageError('expected one ApplicationSet FILE', { hint: 'fleetplan appset FILE' });
  const file = positionals[0]!;
  const output = (values['output'] as string | undefined) ?? 'yaml';
  if (output !== 'yaml' && output !== 'json') throw new UsageError(`-o ${output}: expected yaml or json`);
  const repoDir = resolve(io.cwd, (values['repo'] as string | undefined) ?? '.');
  const revision = values['revision'] as string | undefined;

  const clusters = values['clusters'] as string | undefined;
  if (clusters !== 'fleet' && (values['cluster'] !== undefined || values['selector'] !== undefined)) {
    throw new UsageError('--cluster and -l choose clusters of the fleet: use them with --clusters fleet', { hint: 'fleetplan appset FILE --clusters fleet --cluster C' });
  }
  const setup = {
    repoDir,
    ...(revision !== undefined ? { revision } : {}),
    fileGlobbing: values['new-git-file-globbing'] === true ? ('doublestar' as const) : ('pathspec' as const),
    includeHiddenDirectories: values['include-hidden-directories'] === true,
  };
  const format = { output: output as OutputFormat, explain: values['explain'] === true };
  let secrets: ClusterSecret[] = [];
  // The fleet's stages are loaded only for `--clusters fleet`.
  if (clusters === 'fleet') secrets = await (await import('./appset-fleet.js')).clusterSecretsFromFleet(ctx);
  else if (clusters !== undefined) {
    const read = readClusterSecrets(readTextFile(resolve(io.cwd, clusters), clusters), clusters);
    secrets = read.secrets;
    if (read.unlabelled.length > 0) {
      io.stderr.write(`fleetplan appset: ${clusters}: ignoring Secrets without the label ${CLUSTER_SECRET_TYPE_LABEL}: cluster: ${read.unlabelled.join(', ')}\n`);
    }
  }
  const { applications: apps, rejected, unmatched } = await runApplicationSets(readTextFile(resolve(io.cwd, file), file), file, { clusterSecrets: secrets, ...setup });
  report(ctx, file, clusters, secrets.length, rejected, unmatched);
  // Written piece by piece: the whole stream of a large matrix never exists as one string.
  if (io.stdoutBytes) {
    // Two buffers in turn (ADR 0308): the older one is written again only after stdout is done with it.
    let older: Promise<void> | void = undefined;
    for (const chunk of formatApplicationBytes(apps, format, { reuse: true })) {
      await older;
      older = io.stdoutBytes(chunk);
    }
    await older;
  } else for (const chunk of formatApplicationChunks(apps, format)) io.stdout.write(chunk);
  return exitCode(apps.length, rejected.length, unmatched.length, clusters);
}

/** Nothing generated because no cluster was selected: missing input (2) without --clusters, else a failed run (1). */
function exitCode(count: number, rejected: number, unmatched: number, clusters: string | undefined): number {
  if (count === 0 && unmatched > 0) return clusters === undefined ? 2 : 1;
  return rejected > 0 ? 1 : 0;
}

/** The rejected Applications and the cluster generators that select nothing, on stderr. */
function report(ctx: CommandContext, file: string, clusters: string | undefined, secretCount: number, rejected: readonly { message: string; generator: string }[], unmatched: readonly UnmatchedClusterGenerator[]): void {
  const { io } = ctx;
  for (const bad of rejected) io.stderr.write(`fleetplan appset: ${file}: ${bad.message} (from ${bad.generator})\n`);
  // A cluster generator that selects nothing makes an empty output look like "nothing to deploy".
  for (const u of unmatched) {
    const where = `${u.location.file}${u.location.line !== undefined ? `:${u.location.line}${u.location.column !== undefined ? `:${u.location.column}` : ''}` : ''}`;
    const what = `ApplicationSet ${u.appSet}: the cluster generator (${u.generator}${u.selector ? `, selector ${u.selector}` : ''})`;
    io.stderr.write(
      clusters === undefined
        ? `fleetplan appset: ${where}: ${what} selects no cluster: no cluster Secrets were given (without --clusters only in-cluster exists, and a selector excludes it)\n`
        : `fleetplan appset: ${where}: ${what} selects none of the ${secretCount} cluster Secret(s) of --clusters ${clusters}\n`,
    );
  }
  if (unmatched.length > 0) {
    io.stderr.write(
      clusters === undefined
        ? 'hint: pass --clusters FILE (Argo CD cluster Secrets, labelled argocd.argoproj.io/secret-type: cluster) or --clusters fleet (the identity Secrets of the fleet at --repo)\n'
        : `hint: give cluster Secrets whose labels match the selector (fleetplan appset --clusters FILE), or check the selector\n`,
    );
  }
}
