/**
 * `fleetplan appset FILE`: the Applications an ApplicationSet generates, computed offline.
 */
import { resolve } from 'node:path';
import type { Command, CommandContext } from '../command.js';
import { FleetplanError, InputError, UsageError } from '../../errors/index.js';
import { readTextFile } from '../../adapters/fs.js';
import { createLocalGitTree } from '../../adapters/git.js';
import type { LocalGitTree } from '../../adapters/git.js';
import { generateApplications } from '../../appset/applications.js';
import type { GeneratedApplication, GenerateOptions } from '../../appset/applications.js';
import { formatApplicationChunks } from '../../appset/format.js';
import type { OutputFormat } from '../../appset/format.js';
import { loadApplicationSet, parseClusterSecrets } from '../../appset/load.js';
import { createRepoServer } from '../../appset/repo-server.js';
import type { ClusterSecret } from '../../appset/types.js';
import type { GitRepo } from '../../ports/git-repo.js';
import { goTemplateEngine } from '../../appset/go-engine.js';
import { clusterSecretsFromFleet } from './appset-fleet.js';
import { CLUSTER_SECRET_TYPE_LABEL } from '../../appset/generators/cluster.js';

const usage = `Usage: fleetplan appset FILE [--clusters FILE|fleet] [--repo DIR] [--revision REV]
                      [-o yaml|json] [--explain] [--new-git-file-globbing] [--include-hidden-directories]

Prints the Applications the ApplicationSet(s) in FILE generate, exactly as the Argo CD
ApplicationSet controller would, without a cluster or an Argo CD server.

  --clusters FILE   cluster Secrets for the cluster generator: a YAML stream of Secrets labelled
                    argocd.argoproj.io/secret-type: cluster (data is base64, stringData plain),
                    e.g. Argo CD declarative cluster Secrets. "fleet": the identity Secret of
                    each cluster of the fleet at --repo (labels cluster_type, environment,
                    region_alias, role, sector, region; annotations git_repo, git_revision).
                    Without it the cluster generator sees only in-cluster.
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
generated Applications (no name, duplicate name); they are reported on stderr.`;

export const appsetCommand: Command = {
  name: 'appset',
  summary: 'print the Applications an ApplicationSet generates (offline)',
  usage,
  allowPositionals: true,
  options: {
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

    const loaded = loadApplicationSet(readTextFile(resolve(io.cwd, file), file), file);
    const clusters = values['clusters'] as string | undefined;
    let secrets: ClusterSecret[] = [];
    if (clusters === 'fleet') secrets = await clusterSecretsFromFleet(ctx);
    else if (clusters !== undefined) {
      secrets = parseClusterSecrets(readTextFile(resolve(io.cwd, clusters), clusters), clusters);
      const unlabelled = secrets.filter((s) => s.labels[CLUSTER_SECRET_TYPE_LABEL] !== 'cluster').map((s) => s.name);
      if (unlabelled.length > 0) {
        io.stderr.write(`fleetplan appset: ${clusters}: ignoring Secrets without the label ${CLUSTER_SECRET_TYPE_LABEL}: cluster: ${unlabelled.join(', ')}\n`);
      }
    }

    let tree: LocalGitTree | undefined;
    const lazyTree = (): LocalGitTree => (tree ??= createLocalGitTree(repoDir));
    const server = createRepoServer(
      {
        listFiles: (u, r) => lazyTree().listFiles(u, r),
        listDirectories: (u, r) => lazyTree().listDirectories(u, r),
        readFiles: (u, r, p) => lazyTree().readFiles(u, r, p),
      },
      { includeHiddenDirectories: values['include-hidden-directories'] === true },
    );
    const mapRevision = (rev: string): string => ((rev === '' || rev === 'HEAD') && revision !== undefined ? revision : rev);
    const git: GitRepo = {
      getDirectories: (u, r) => server.getDirectories(u, mapRevision(r)),
      getFiles: (u, r, p, g) => server.getFiles(u, mapRevision(r), p, g),
    };
    const options: GenerateOptions = {
      clusterSecrets: secrets,
      git,
      fileGlobbing: values['new-git-file-globbing'] === true ? 'doublestar' : 'pathspec',
      ...goTemplateEngine,
    };

    const apps: GeneratedApplication[] = [];
    let rejected = 0;
    try {
      for (const { appSet, locate } of loaded) {
        let result;
        try {
          result = await generateApplications(appSet, options);
        } catch (e) {
          if (e instanceof FleetplanError && e.location?.path !== undefined && e.location.file === '') {
            throw new InputError(`ApplicationSet ${appSet.metadata.name}: ${e.message}`, { code: e.code, location: locate(e.location.path), hint: e.hint, cause: e });
          }
          if (e instanceof FleetplanError && !e.location) {
            throw new InputError(`ApplicationSet ${appSet.metadata.name}: ${e.message}`, { code: e.code, location: { file }, hint: e.hint, cause: e });
          }
          throw e;
        }
        apps.push(...result.applications);
        for (const bad of result.invalid) {
          rejected++;
          io.stderr.write(`fleetplan appset: ${file}: ${bad.message} (from ${bad.generated.generator})\n`);
        }
      }
    } finally {
      tree?.close();
    }
    // Written piece by piece: the whole stream of a large matrix never exists as one string.
    for (const chunk of formatApplicationChunks(apps, { output: output as OutputFormat, explain: values['explain'] === true })) io.stdout.write(chunk);
    return rejected > 0 ? 1 : 0;
  },
};
