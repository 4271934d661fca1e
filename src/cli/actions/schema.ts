/**
 * `fleetplan schema`: the JSON Schema of the fleet's own files. Its name, help and flags are in
 * ../commands/schema.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { choice, yamlOfJson } from '../common.js';
import { UsageError } from '../../entry/core.js';
import { KINDS, schemas } from '../../entry/schema.js';
import { FORMATS } from '../commands/schema.js';

export async function run(ctx: CommandContext): Promise<number> {
  const format = choice(ctx, 'output', FORMATS, 'json');
  const [kind, ...extra] = ctx.positionals;
  if (extra.length) throw new UsageError(`one KIND at most, got ${ctx.positionals.length}`);
  if (kind === undefined) {
    ctx.io.stdout.write(KINDS.join('\n') + '\n');
    return 0;
  }
  const match = KINDS.find((k) => k.toLowerCase() === kind.toLowerCase());
  if (!match) throw new UsageError(`unknown kind "${kind}"`, { hint: `kinds: ${KINDS.join(', ')}` });
  const json = JSON.stringify(schemas[match], null, 2) + '\n';
  ctx.io.stdout.write(format === 'yaml' ? yamlOfJson(json) : json);
  return 0;
}
