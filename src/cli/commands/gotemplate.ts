/**
 * `fleetplan gotemplate FILE --data DATA.json`: renders a Go template with the data, as Argo CD's
 * ApplicationSet controller would (sprig + Argo CD functions, JSON/YAML numbers as float64).
 * Prints the output; on a template error prints Go's message to stderr and exits 1.
 */
import type { CommandSpec } from '../command.js';

export const MISSINGKEY = ['default', 'zero', 'error'] as const;
export const FUNCS = ['argocd', 'sprig', 'go'] as const;

export const gotemplateCommand: CommandSpec = {
  name: 'gotemplate',
  summary: 'Render a Go template (sprig + Argo CD functions) with JSON/YAML data',
  usage: `Usage: fleetplan gotemplate FILE [--data DATA.json] [--missingkey default|zero|error] [--funcs argocd|sprig|go]

Renders FILE with Go's text/template as Argo CD's ApplicationSet controller does: the sprig
functions (without env, expandenv, getHostByName) plus normalize, slugify, toYaml, fromYaml and
fromYamlArray; every number in the data is a float64. Prints the output. On a template error,
prints Go's message and exits 1.

Flags:
  --data FILE         JSON (or .yaml) data for the template (default: no data)
  --missingkey MODE   what a missing map key gives: default (<no value>), zero, or error
  --funcs SET         function set: argocd (default), sprig, or go (builtins only)
`,
  examples: [
    { what: 'render template.txt with the values of data.json', run: 'fleetplan gotemplate template.txt --data data.json' },
    { what: 'fail on a missing key instead of printing <no value>', run: 'fleetplan gotemplate template.txt --data data.json --missingkey error' },
  ],
  complete: { flags: { data: 'file', missingkey: MISSINGKEY, funcs: FUNCS }, positionals: ['file'] },
  options: {
    data: { type: 'string' },
    missingkey: { type: 'string' },
    funcs: { type: 'string' },
  },
  allowPositionals: true,
};
