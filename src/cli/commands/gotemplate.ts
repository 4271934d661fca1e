/**
 * `fleetplan gotemplate FILE --data DATA.json`: renders a Go template with the data, as Argo CD's
 * ApplicationSet controller would (sprig + Argo CD functions, JSON/YAML numbers as float64).
 * Prints the output; on a template error prints Go's message to stderr and exits 1.
 */
import { resolve } from 'node:path';
import { readTextFile } from '../../adapters/fs.js';
import { InputError, UsageError, GoTemplateError, renderGoTemplate, parseYaml } from '../../index.js';
import type { FuncSet } from '../../index.js';
import type { Command } from '../command.js';

const MISSINGKEY = ['default', 'zero', 'error'] as const;
const FUNCS = ['argocd', 'sprig', 'go'] as const;

function parseData(text: string, file: string): unknown {
  if (/\.ya?ml$/i.test(file)) {
    try {
      return parseYaml(text, { schema: 'core' }) ?? null;
    } catch (e) {
      throw new InputError(`cannot parse YAML: ${(e as Error).message.split('\n')[0]}`, { location: { file }, cause: e });
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new InputError(`cannot parse JSON: ${(e as Error).message}`, {
      location: { file },
      hint: 'give the data as JSON (or YAML with a .yaml extension)',
      cause: e,
    });
  }
}

export const gotemplateCommand: Command = {
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
  run(ctx) {
    const [file, ...extra] = ctx.positionals;
    if (file === undefined || extra.length > 0) {
      throw new UsageError('expected exactly one template FILE', { hint: 'see `fleetplan gotemplate --help`' });
    }
    const missingkey = (ctx.values.missingkey as string | undefined) ?? 'default';
    if (!(MISSINGKEY as readonly string[]).includes(missingkey)) {
      throw new UsageError(`--missingkey must be one of ${MISSINGKEY.join(', ')}, got "${missingkey}"`);
    }
    const funcs = (ctx.values.funcs as string | undefined) ?? 'argocd';
    if (!(FUNCS as readonly string[]).includes(funcs)) {
      throw new UsageError(`--funcs must be one of ${FUNCS.join(', ')}, got "${funcs}"`);
    }
    const text = readTextFile(resolve(ctx.io.cwd, file), file);
    const dataFile = ctx.values.data as string | undefined;
    const data = dataFile === undefined ? null : parseData(readTextFile(resolve(ctx.io.cwd, dataFile), dataFile), dataFile);
    try {
      ctx.io.stdout.write(renderGoTemplate(text, data, { missingkey: missingkey as (typeof MISSINGKEY)[number], funcs: funcs as FuncSet }));
      return Promise.resolve(0);
    } catch (e) {
      if (e instanceof GoTemplateError) {
        ctx.io.stderr.write(e.message + '\n');
        return Promise.resolve(1);
      }
      throw e;
    }
  },
};
