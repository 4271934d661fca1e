import type { Command } from '../command.js';
import { choice, yamlOfJson } from '../common.js';
import { UsageError, KINDS, schemas } from '../../index.js';

const FORMATS = ['json', 'yaml'] as const;

export const schemaCommand: Command = {
  name: 'schema',
  summary: 'print the JSON Schema of a file kind (Fleet, Cluster, Group)',
  usage: `Usage: fleetplan schema [KIND] [-o json|yaml]

Prints the JSON Schema of fleet.yaml (Fleet), clusters/<name>/cluster.yaml (Cluster) or
groups/<name>/group.yaml (Group), for editors and CI. Without KIND, lists the kinds.
  -o json   the schema as JSON (default)
  -o yaml   the same schema in YAML`,
  examples: [
    { what: 'the kinds there are schemas for', run: 'fleetplan schema' },
    { what: 'the schema of clusters/<name>/cluster.yaml, for an editor', run: 'fleetplan schema Cluster' },
    { what: 'the schema of fleet.yaml in YAML', run: 'fleetplan schema fleet -o yaml' },
  ],
  options: { output: { type: 'string', short: 'o' } },
  complete: { flags: { output: FORMATS }, positionals: [KINDS] },
  allowPositionals: true,
  async run(ctx) {
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
  },
};
