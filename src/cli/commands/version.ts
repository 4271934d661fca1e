/**
 * `fleetplan version`: fleetplan's version and the kustomize, Helm and git it finds, in the lookup
 * order every command uses (docs/adr/0172-tool-lookup.md): each with its version, path and where
 * it came from, the candidates refused before it and why, or why there is none.
 */
import type { CommandSpec } from '../command.js';

export const FORMATS = ['text', 'json', 'yaml'] as const;

export const versionCommand: CommandSpec = {
  name: 'version',
  summary: 'fleetplan\'s version and the kustomize, Helm, git and Jsonnet it finds (also --version, -v)',
  usage: `Usage: fleetplan version [-o text|json|yaml] [--kustomize PATH] [--helm PATH] [--jsonnet PATH]

Prints fleetplan's version, then for kustomize, Helm and git the version, the path and where it
was found. Every command looks for kustomize and Helm in this order: --kustomize / --helm, then
FLEETPLAN_KUSTOMIZE / FLEETPLAN_HELM, then PATH (kustomize before kubectl), then the .tools/bin of
the fleetplan package (where \`npm ci\` puts Helm 3 and kubectl in a checkout). A flag or variable
names the one binary used; from PATH, a refused tool (Helm 4, which kustomize's helmCharts cannot
run; kustomize older than 5) is skipped for the next one, and listed with the reason.
Jsonnet (for directory sources with .jsonnet files) is found the same way: --jsonnet, then
FLEETPLAN_JSONNET, then go-jsonnet or jsonnet on PATH.
Exit 0 even when a tool is missing: only the commands that need it fail.`,
  examples: [
    { what: 'the version and the tools found', run: 'fleetplan version' },
    { what: 'the same as JSON, for a bug report', run: 'fleetplan version -o json' },
    { what: 'what a given helm would be', run: 'fleetplan version --helm /usr/local/bin/helm', notRun: 'depends on a helm at that path' },
  ],
  options: { output: { type: 'string', short: 'o' }, kustomize: { type: 'string' }, helm: { type: 'string' }, jsonnet: { type: 'string' } },
  complete: { flags: { output: FORMATS, kustomize: 'file', helm: 'file', jsonnet: 'file' } },
};
