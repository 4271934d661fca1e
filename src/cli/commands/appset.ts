/**
 * `fleetplan appset FILE`: the Applications an ApplicationSet generates, computed offline.
 */
import { resolve } from 'node:path';
import type { Command, CommandContext } from '../command.js';
import { clusterOptions } from '../command.js';
import { UsageError, formatApplicationChunks, formatApplicationBytes, readClusterSecrets, runApplicationSets, CLUSTER_SECRET_TYPE_LABEL } from '../../index.js';
import type { OutputFormat, ClusterSecret } from '../../index.js';
import { readTextFile } from '../../adapters/fs.js';
import { clusterSecretsFromFleet } from './appset-fleet.js';

const usage = `Usage: fleetplan appset FILE [--clusters FILE|fleet [--cluster C]... [-l SELECTOR]] [--repo DIR] [--revision REV]
                      [-o yaml|json] [--explain] [--new-git-file-globbing] [--include-hidden-directories]

Prints the Applications the ApplicationSet(s) in FILE generate, exactly as the Argo CD
ApplicationSet controller would, without a cluster or an Argo CD server.

  --clusters FILE   cluster Secrets for the cluster generator: a YAML stream of Secrets labelled
                    argocd.argoproj.io/secret-type: cluster (data is base64, stringData plain),
                    e.g. Argo CD declarative cluster Secrets. "fleet": the identity Secret of
                    each cluster of the fleet at --repo (labels cluster_type, environment,
                    region_alias, role, sector, region; annotations git_repo, git_revision).
                    Without it the cluster generator sees only in-cluster.
  --cluster C, -l SELECTOR  with --clusters fleet: only these clusters' identity Secrets (needed
                    when the fleet's clusters each run their own Argo CD with an identity Secret
                    of one name, as in the rosa-regional layout)
  --repo DIR        the Git repository the git generators read (default: current directory).
                    Offline, every generator repoURL maps to this local repository.
  --revision REV    revision for git generators whose revision is empty or HEAD (commit, tag or
                    branch; origin/<branch> is tried too). Other revisions are read as given.
                    A generator with no revision and no --revision reads the working tree.
  -o, --output      yaml (default: a stream of documents) or json (an array)
  --explain         show, per Application, the generator and parameter set it came from
  --new-git-file-globbing       git file patterns use doublestar ('*' within one directory,
                                '**' across directories) instead of git pathspecs
  --include-hidden-directories  git directory generator also lists directories starting with '.'

Output is sorted by Application name with sorted keys. Exit 1 when Argo CD would reject some
generated Applications (no name, duplicate name); they are reported on stderr. A cluster generator
that selects no cluster is reported on stderr; when nothing is generated because of it, the exit
status is 2 without --clusters (give the cluster Secrets) and 1 with --clusters.`;

export const appsetCommand: Command = {
  name: 'appset',
  summary: 'print the Applications an ApplicationSet generates (offline)',
  usage,
  examples: [
    { what: 'the Applications appset.yaml generates for the clusters of the lab fleet', run: 'fleetplan appset appset.yaml --clusters fleet --repo examples/lab' },
    { what: 'the same as JSON, each with the generator and parameters it came from', run: 'fleetplan appset appset.yaml --clusters fleet --repo examples/lab -o json --explain' },
    { what: 'with cluster Secrets from a file, git generators reading the tag v1.2.0', run: 'fleetplan appset appset.yaml --clusters clusters.yaml --revision v1.2.0', notRun: 'needs cluster Secrets and a Git repository with the tag' },
  ],
  allowPositionals: true,
  complete: { flags: { clusters: 'file', output: ['yaml', 'json'], revision: 'none' }, positionals: ['file'] },
  options: {
    ...clusterOptions,
    clusters: { type: 'string' },
    revision: { type: 'string' },
    output: { type: 'string', short: 'o' },
    explain: { type: 'boolean' },
    'new-git-file-globbing': { type: 'boolean' },
    'include-hidden-directories': { type: 'boolean' },
  },
  async run(ctx: CommandContext): Promise<number> {
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
    let secrets: ClusterSecret[] = [];
    if (clusters === 'fleet') secrets = await clusterSecretsFromFleet(ctx);
    else if (clusters !== undefined) {
      const read = readClusterSecrets(readTextFile(resolve(io.cwd, clusters), clusters), clusters);
      secrets = read.secrets;
      if (read.unlabelled.length > 0) {
        io.stderr.write(`fleetplan appset: ${clusters}: ignoring Secrets without the label ${CLUSTER_SECRET_TYPE_LABEL}: cluster: ${read.unlabelled.join(', ')}\n`);
      }
    }
    const { applications: apps, rejected, unmatched } = await runApplicationSets(readTextFile(resolve(io.cwd, file), file), file, {
      clusterSecrets: secrets,
      repoDir,
      ...(revision !== undefined ? { revision } : {}),
      fileGlobbing: values['new-git-file-globbing'] === true ? 'doublestar' : 'pathspec',
      includeHiddenDirectories: values['include-hidden-directories'] === true,
    });
    for (const bad of rejected) io.stderr.write(`fleetplan appset: ${file}: ${bad.message} (from ${bad.generator})\n`);
    // A cluster generator that selects nothing makes an empty output look like "nothing to deploy".
    for (const u of unmatched) {
      const where = `${u.location.file}${u.location.line !== undefined ? `:${u.location.line}${u.location.column !== undefined ? `:${u.location.column}` : ''}` : ''}`;
      const what = `ApplicationSet ${u.appSet}: the cluster generator (${u.generator}${u.selector ? `, selector ${u.selector}` : ''})`;
      io.stderr.write(
        clusters === undefined
          ? `fleetplan appset: ${where}: ${what} selects no cluster: no cluster Secrets were given (without --clusters only in-cluster exists, and a selector excludes it)\n`
          : `fleetplan appset: ${where}: ${what} selects none of the ${secrets.length} cluster Secret(s) of --clusters ${clusters}\n`,
      );
    }
    if (unmatched.length > 0) {
      io.stderr.write(
        clusters === undefined
          ? 'hint: pass --clusters FILE (Argo CD cluster Secrets, labelled argocd.argoproj.io/secret-type: cluster) or --clusters fleet (the identity Secrets of the fleet at --repo)\n'
          : `hint: give cluster Secrets whose labels match the selector (fleetplan appset --clusters FILE), or check the selector\n`,
      );
    }
    // Written piece by piece: the whole stream of a large matrix never exists as one string.
    const format = { output: output as OutputFormat, explain: values['explain'] === true };
    if (io.stdoutBytes) for (const chunk of formatApplicationBytes(apps, format)) io.stdoutBytes(chunk);
    else for (const chunk of formatApplicationChunks(apps, format)) io.stdout.write(chunk);
    // Nothing generated because no cluster was selected: missing input (2) without --clusters, else a failed run (1).
    if (apps.length === 0 && unmatched.length > 0) return clusters === undefined ? 2 : 1;
    return rejected.length > 0 ? 1 : 0;
  },
};
