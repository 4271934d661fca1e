/**
 * `fleetplan gotemplate FILE --data DATA.json`: renders a Go template with the data, as Argo CD's
 * ApplicationSet controller would (sprig + Argo CD functions, JSON/YAML numbers as float64). Prints
 * the output; on a template error prints Go's message to stderr and exits 1. Its name, help and
 * flags are in ../commands/gotemplate.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { resolve } from 'node:path';
import { readTextFile } from '../../adapters/fs.js';
import { InputError, UsageError } from '../../entry/core.js';
import { GoTemplateError, renderGoTemplate } from '../../entry/gotemplate.js';
import { parseYaml } from '../../entry/yaml.js';
import type { FuncSet } from '../../entry/gotemplate.js';
import { MISSINGKEY, FUNCS } from '../commands/gotemplate.js';

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

export async function run(ctx: CommandContext): Promise<number> {
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
}
