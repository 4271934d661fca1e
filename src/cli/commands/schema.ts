import type { CommandSpec } from '../command.js';

export const FORMATS = ['json', 'yaml'] as const;

/**
 * The kinds completion offers: the library's KINDS (load/schemas.ts), written out so that this
 * spec loads no stage; test/cli/lazy-loading.test.ts checks that the two agree.
 */
export const SCHEMA_KINDS = ['Fleet', 'Cluster', 'Group'] as const;

export const schemaCommand: CommandSpec = {
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
  complete: { flags: { output: FORMATS }, positionals: [SCHEMA_KINDS] },
  allowPositionals: true,
};
