import type { CommandSpec } from '../command.js';
import { clusterOptions, clusterSecretsOptions, helmfileEnvironmentOptions, helmfileStateValuesOptions } from '../command.js';

export const FORMATS = ['text', 'json', 'yaml', 'sarif'] as const;

export const validateCommand: CommandSpec = {
  name: 'validate',
  summary: 'find what is wrong before it merges; exit 1 when any error is found',
  usage: `Usage: fleetplan validate [--cluster C]... [-l SELECTOR] [--clusters FILE] [--root FILE]... [-o text|json|yaml|sarif] [--leaves DIR] [--argocd-crds PATH] [--base REV] [--repo DIR]

Reports schema errors, unknown or cyclic needs, wave conflicts and undefined variables, then
runs the rules: CRDs before their custom resources, waves that do not wait, helmfile needs and
Flux dependsOn graphs, network overlaps across the fleet, secrets in Git, placement policies,
production safety and repository hygiene — each finding with file, line and a hint.
Turn a code off or change its severity in fleet.yaml spec.validation.rules; -o sarif lists the codes.
  -o text    grouped by file, with a summary line (default)
  -o json    { findings: [...], summary: {...} }
  -o yaml    the same document as -o json, in YAML
  -o sarif   SARIF 2.1.0, for code scanning in CI
  --leaves DIR   check the objects of \`fleetplan render --leaves --out DIR\` instead of reading
                 app directories statically (charts, patches and generators included)
  --argocd-crds PATH   check Application, ApplicationSet and AppProject objects against the
                 CRDs of the Argo CD you run (its CRD files or install manifests, a file or a
                 directory) instead of the built-in schema (Argo CD v3.3)
  --base REV  only what the working tree changes compared with REV (a branch, tag or commit,
             read through git without touching the working tree): the findings it introduces
             and those it fixes, matched by rule, file, field and message, not by line.
             -o text lists them as + and - lines; -o json is {base, introduced, fixed, summary}.
             Exit 1 when the change introduces an error.
Exit 1 on errors, 0 when there are only warnings or nothing.
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
    { what: 'check the whole lab fleet', run: 'fleetplan validate --repo examples/lab' },
    { what: 'check only the clusters of sector lab in region rdu2, findings as JSON', run: 'fleetplan validate --repo examples/lab -l sector=lab,region=rdu2 -o json' },
    { what: 'SARIF for code scanning in CI', run: 'fleetplan validate --repo examples/lab -o sarif' },
    { what: 'only the findings the uncommitted edits introduce or fix', run: 'fleetplan validate --repo examples/lab --base HEAD' },
    { what: 'check the objects render --leaves built instead of reading the sources', run: 'fleetplan validate --repo examples/lab --leaves out', notRun: 'needs the output of render --leaves --out out' },
  ],
  options: { ...clusterOptions, ...clusterSecretsOptions, ...helmfileEnvironmentOptions, ...helmfileStateValuesOptions, output: { type: 'string', short: 'o' }, leaves: { type: 'string' }, 'argocd-crds': { type: 'string' }, base: { type: 'string' } },
  complete: { flags: { environment: 'none', 'state-values-file': 'file', 'state-values-set': 'none', 'helmfile-env': 'none', output: FORMATS, clusters: 'file', root: 'file', leaves: 'dir', 'argocd-crds': 'file', base: 'none' } },
};
