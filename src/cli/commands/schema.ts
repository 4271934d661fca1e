import type { Command } from '../command.js';
import { UsageError, KINDS, schemas } from '../../index.js';

export const schemaCommand: Command = {
  name: 'schema',
  summary: 'print the JSON Schema of a file kind (Fleet, Cluster, Group)',
  usage: `Usage: fleetplan schema [KIND]

Prints the JSON Schema of fleet.yaml (Fleet), clusters/<name>/cluster.yaml (Cluster) or
groups/<name>/group.yaml (Group), for editors and CI. Without KIND, lists the kinds.`,
  options: {},
  allowPositionals: true,
  async run(ctx) {
    const [kind, ...extra] = ctx.positionals;
    if (extra.length) throw new UsageError(`one KIND at most, got ${ctx.positionals.length}`);
    if (kind === undefined) {
      ctx.io.stdout.write(KINDS.join('\n') + '\n');
      return 0;
    }
    const match = KINDS.find((k) => k.toLowerCase() === kind.toLowerCase());
    if (!match) throw new UsageError(`unknown kind "${kind}"`, { hint: `kinds: ${KINDS.join(', ')}` });
    ctx.io.stdout.write(JSON.stringify(schemas[match], null, 2) + '\n');
    return 0;
  },
};
