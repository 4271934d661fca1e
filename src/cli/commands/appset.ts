/**
 * `fleetplan appset FILE`: the Applications an ApplicationSet generates, computed offline.
 */
import type { CommandSpec } from '../command.js';
import { clusterOptions } from '../command.js';

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

export const appsetCommand: CommandSpec = {
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
};
