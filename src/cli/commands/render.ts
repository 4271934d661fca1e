import type { CommandSpec } from '../command.js';
import { clusterOptions, clusterSecretsOptions, helmfileEnvironmentOptions, helmfileStateValuesOptions } from '../command.js';

export const FORMATS = ['yaml', 'json'] as const;

export const renderCommand: CommandSpec = {
  name: 'render',
  summary: 'the Argo CD objects each cluster gets, as files (--out) or one YAML stream',
  usage: `Usage: fleetplan render [--cluster C]... [-l SELECTOR] [--clusters FILE] [--root FILE]... [--out DIR [--leaves [--fetch]]] [--phase 1|2] [-o yaml|json] [--repo DIR]

Without --out, prints every object as one multi-document YAML stream (or a JSON List with -o json),
so that \`fleetplan render --cluster hub | kubectl apply -f -\` works.
With --out DIR, writes DIR/<cluster>/apps/<app>.yaml, DIR/<cluster>/projects/<project>.yaml and
DIR/<cluster>/bootstrap/NN-*.yaml (and, for a hub that provisions clusters, DIR/<hub>/provision/<app>/
kustomize directories), and removes files an earlier render wrote that are no longer produced.
On an Argo CD repository, DIR/<cluster>/objects/<kind>-<namespace>-<name>.yaml holds what its roots
and app-of-apps apply besides Argo CD's objects (Namespaces, ConfigMaps, ...), in sync order with the apps.
Under gitops.delivery: applicationset, no apps/ or projects/: bootstrap/ holds the cluster identity
Secret and the root ApplicationSet, and DIR/deploy/<sector>/<region>/argocd/ the rendered
<cluster-type>-values.yaml files and <cluster-type>-manifests/applicationset.yaml. On a repository
whose ApplicationSets are its own (the rosa-regional layout), apps/ holds the Applications each
cluster's ApplicationSet generates, evaluated offline, and nothing is written under deploy/.
Under gitops.engine: flux, apps/<app>.yaml holds a Flux Kustomization, DIR/<cluster>/charts/<app>/
the HelmRelease of a chart app, bootstrap/ the Flux namespace, GitRepository and root Kustomization.
Nothing is written when the fleet has errors (exit 1).

--phase 2 (a fleet with gitops.mirror) also writes the self-referencing objects of phase 2 under
DIR/<cluster>/phase-2/: apps/ and projects/ whose sources read the internal Git URL, and
bootstrap/NN-root-application.yaml, the root Application that reads phase-2/ from the internal Git.
Commit them with the rest: \`fleetplan mirror\` pushes that commit and switches to them.

--leaves (with --out) also builds every Application's source with the real kustomize (or
\`kubectl kustomize\`) or \`helm template\`, substitutes the cluster's variables strictly, and writes
DIR/<cluster>/manifests/<app>/NN-<kind>-<namespace>-<name>.yaml. Builds are cached by content
(--cache-dir, default $XDG_CACHE_HOME/fleetplan or ~/.cache/fleetplan) and run in parallel.
Tools: --kustomize PATH / --helm PATH, else FLEETPLAN_KUSTOMIZE / FLEETPLAN_HELM, else PATH, else the
.tools/bin of a fleetplan checkout (see \`fleetplan version\`). On a terminal a progress line shows
the builds done; a failing build is reported with cluster, app and path; the others still render (exit 1).

--leaves builds offline: a chart from a Helm repository or an OCI registry that is not in the
local chart cache, and a kustomization that reads remote bases or charts, are not built, and each
says so. --fetch lets them reach the network: remote charts are pulled with \`helm pull\` into the
fetch cache (<cache dir>/charts-fetched, by repository, chart and version; a version range is
resolved by Helm and the version printed, with the archive's sha256 and an OCI digest), and
kustomize fetches remote bases as Argo CD does. Helm gets no logins of its own configuration or
the environment: --registry-config FILE (Helm's registry config.json) gives the registry logins.
Apps built by a config-management plugin (source.plugin) are never built: fleetplan does not run
a repository's plugin commands; each is listed in a note.
A directory source's .jsonnet files are evaluated as Argo CD evaluates them (directory.jsonnet
extVars, tlas and libs; imports only inside the repository; 90 s and 64 MiB per file) with
--jsonnet PATH, else FLEETPLAN_JSONNET, else go-jsonnet or jsonnet on PATH; without one, such an
app is not built and says so.
  -e, --environment NAME  (helmfile + Flux) read the helmfiles as helmfile -e NAME does: that
               environment's values in their templates, its helmfiles run (default "default")
  --state-values-set KEY=VALUE, --state-values-file FILE  (helmfile + Flux; repeatable) helmfile's
               state values, merged over the environment values of the top-level helmfiles as
               helmfile merges them (the files, then the set values); FILE from the current folder
  --helmfile-env NAME=VALUE  (helmfile + Flux; repeatable) a variable the helmfiles' env and
               requiredEnv read, as the shell that runs helmfile sets it (fleetplan never reads
               its own environment: an env of a variable not given reads "", with a warning)
  --root FILE  (repeatable) a root Application file, or a directory (a kustomization is built), of a
               repository read as Argo CD reads it, relative to --repo: only what it reaches is
               read (default: every Argo CD object no other object applies is guessed a root)`,
  examples: [
    { what: 'every Argo CD object of the hub as one YAML stream, ready for kubectl apply -f -', run: 'fleetplan render --repo examples/lab --cluster hub' },
    { what: 'the spokes as a kubectl List in JSON', run: 'fleetplan render --repo examples/lab -l role=spoke -o json' },
    { what: 'write the files of every cluster under rendered/', run: 'fleetplan render --repo examples/lab --out rendered' },
    {
      what: 'also build every app with kustomize and Helm into rendered/<cluster>/manifests/',
      run: 'fleetplan render --repo examples/lab --out rendered --leaves',
      notRun: 'builds 57 apps with the real tools (test/cli/render-leaves.test.ts runs it)',
    },
    { what: 'apply the hub\'s objects to the cluster of the current context', run: 'fleetplan render --repo examples/lab --cluster hub | kubectl apply -f -', notRun: 'needs a cluster' },
  ],
  options: {
    ...clusterOptions,
    ...clusterSecretsOptions,
    ...helmfileEnvironmentOptions,
    ...helmfileStateValuesOptions,
    out: { type: 'string' },
    output: { type: 'string', short: 'o' },
    leaves: { type: 'boolean' },
    phase: { type: 'string' },
    kustomize: { type: 'string' },
    helm: { type: 'string' },
    jsonnet: { type: 'string' },
    'cache-dir': { type: 'string' },
    fetch: { type: 'boolean' },
    'registry-config': { type: 'string' },
  },
  complete: { flags: { environment: 'none', 'state-values-file': 'file', 'state-values-set': 'none', 'helmfile-env': 'none', phase: ['1', '2'], output: FORMATS, clusters: 'file', root: 'file', out: 'dir', 'cache-dir': 'dir', kustomize: 'file', helm: 'file', jsonnet: 'file', 'registry-config': 'file' } },
};
