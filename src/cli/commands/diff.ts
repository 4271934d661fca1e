import type { CommandSpec } from '../command.js';
import { clusterOptions, clusterSecretsOptions, helmfileEnvironmentOptions, helmfileStateValuesOptions } from '../command.js';

export const FORMATS = ['text', 'json', 'markdown', 'html'] as const;

export const diffCommand: CommandSpec = {
  name: 'diff',
  summary: 'what a change does to each cluster, offline: objects, order, leaves and findings',
  usage: `Usage: fleetplan diff [--from REV] [--to REV] [--cluster C]... [-l SELECTOR] [--clusters FILE] [--root FILE]... [--leaves] [-o text|json|markdown|html] [--exit-code] [--repo DIR]

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
  --leaves     also build the apps with the real kustomize and Helm on both sides and show each
               leaf object added, removed or changed as a unified diff (Secret values redacted);
               a cluster whose apps and every file their builds read are the same on both sides
               is not built: it is unchanged (docs/adr/0354);
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
               --leaves): a later diff whose changes touch none of it answers without loading
  -e, --environment NAME  (helmfile + Flux) read the helmfiles as helmfile -e NAME does: that
               environment's values in their templates, its helmfiles run (default "default")
  --state-values-set KEY=VALUE, --state-values-file FILE  (helmfile + Flux; repeatable) helmfile's
               state values, read once and given to both revisions; FILE from the current folder
  --helmfile-env NAME=VALUE  (helmfile + Flux; repeatable) a variable the helmfiles' env and
               requiredEnv read, as the shell that runs helmfile sets it (fleetplan never reads
               its own environment: an env of a variable not given reads "", with a warning)
  --root FILE  (repeatable) a root Application file, or a directory (a kustomization is built), of a
               repository read as Argo CD reads it, relative to --repo: only what it reaches is
               read (default: every Argo CD object no other object applies is guessed a root)`,
  examples: [
    { what: 'what the uncommitted edits of examples/lab do to each cluster', run: 'fleetplan diff --repo examples/lab --from HEAD' },
    { what: 'the same as a pull-request comment in Markdown', run: 'fleetplan diff --repo examples/lab --from HEAD -o markdown' },
    { what: 'the same as one self-contained HTML page (redirect it to a file and open that in a browser)', run: 'fleetplan diff --repo examples/lab --from HEAD -o html' },
    { what: 'a branch against main, with leaf manifests, failing CI when something changed', run: 'fleetplan diff --from main --to my-branch --leaves --exit-code', notRun: 'needs a fleet repository with those branches' },
  ],
  options: {
    ...clusterOptions,
    ...clusterSecretsOptions,
    ...helmfileEnvironmentOptions,
    ...helmfileStateValuesOptions,
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
  complete: { flags: { environment: 'none', 'state-values-file': 'file', 'state-values-set': 'none', 'helmfile-env': 'none', output: FORMATS, clusters: 'file', root: 'file', from: 'none', to: 'none', 'cache-dir': 'dir', kustomize: 'file', helm: 'file', 'registry-config': 'file' } },
};
