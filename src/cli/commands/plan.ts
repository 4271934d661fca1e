import type { CommandSpec } from '../command.js';
import { clusterOptions, clusterSecretsOptions, helmfileEnvironmentOptions, helmfileStateValuesOptions } from '../command.js';

export const FORMATS = ['text', 'json', 'yaml', 'mermaid', 'dot'] as const;

export const planCommand: CommandSpec = {
  name: 'plan',
  summary: 'what each cluster gets and in what order: bootstrap steps, then sync waves',
  usage: `Usage: fleetplan plan [--cluster C]... [-l SELECTOR] [--clusters FILE] [--root FILE]... [-o text|json|yaml|mermaid|dot] [--repo DIR]

Prints, per cluster, the bootstrap steps and then the apps wave by wave.
Under gitops.delivery: applicationset the apps are the Applications each cluster's root
ApplicationSet generates, computed offline from the repository at the sector's revision.
  -o json      the stable machine interface (fleet, clusters[].apps[], findings[])
  -o yaml      the same document as -o json, in YAML
  -o mermaid   a Mermaid flowchart; -o dot a Graphviz graph
  -e, --environment NAME  (helmfile + Flux) the helmfile environment whose releases the bootstrap
               phases show and whose values the helmfile templates are rendered with, as
               helmfile -e NAME (default "default")
  --state-values-set KEY=VALUE, --state-values-file FILE  (helmfile + Flux; repeatable) helmfile's
               state values, merged over the environment values of the top-level helmfiles as
               helmfile merges them (the files, then the set values); FILE from the current folder
  --helmfile-env NAME=VALUE  (helmfile + Flux; repeatable) a variable the helmfiles' env and
               requiredEnv read, as the shell that runs helmfile sets it (fleetplan never reads
               its own environment: an env of a variable not given reads "", with a warning)
  --clusters FILE  cluster Secrets for the ApplicationSets of a repository read as Argo CD
               reads it (the argocd layout), instead of the repository's own
  --root FILE  (repeatable) a root Application file, or a directory (a kustomization is built), of a
               repository read as Argo CD reads it, relative to --repo: only what it reaches is
               planned (default: every Argo CD object no other object applies is guessed a root)
Exits 1 when the fleet has errors (they are printed to stderr, and included in -o json/yaml).`,
  examples: [
    { what: 'every cluster of the lab fleet: bootstrap steps, then the apps wave by wave', run: 'fleetplan plan --repo examples/lab' },
    { what: 'only the spokes, chosen by role', run: 'fleetplan plan --repo examples/lab -l role=spoke' },
    { what: 'the clusters in the prod group, as the machine interface', run: 'fleetplan plan --repo examples/lab -l fleetplan.io/group=prod -o json' },
    { what: 'the hub\'s waves as a Mermaid flowchart', run: 'fleetplan plan --repo examples/lab --cluster hub -o mermaid' },
    { what: 'an Argo CD repository of several examples: only what the root Application in bootstrap/root-app.yaml reaches', run: 'fleetplan plan --repo ../gitops-examples --root bootstrap/root-app.yaml', notRun: 'needs a repository read as Argo CD reads it' },
  ],
  options: { ...clusterOptions, ...clusterSecretsOptions, ...helmfileEnvironmentOptions, ...helmfileStateValuesOptions, output: { type: 'string', short: 'o' } },
  complete: { flags: { output: FORMATS, clusters: 'file', root: 'file', environment: 'none' } },
};
