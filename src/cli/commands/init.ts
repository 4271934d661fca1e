import type { CommandSpec } from '../command.js';

export const initCommand: CommandSpec = {
  name: 'init',
  summary: 'scaffold a fleet repository (--example lab: a hub and two spokes)',
  usage: `Usage: fleetplan init [DIR] [--example NAME]

Writes a new fleet repository into DIR (default: the current directory): fleet.yaml,
clusters/, groups/ and components/. With --example lab, writes the example fleet of a hub and
two spokes (etl4, etl6). Never overwrites an existing file.`,
  examples: [
    { what: 'a new fleet (one hub, one group, one component) in the directory my-fleet', run: 'fleetplan init my-fleet' },
    { what: 'the lab example (a hub and two spokes) in the directory lab', run: 'fleetplan init lab --example lab' },
  ],
  complete: { flags: { example: 'example' }, positionals: ['dir'] },
  options: { example: { type: 'string' } },
  allowPositionals: true,
};
