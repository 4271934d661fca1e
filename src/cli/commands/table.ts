// The command registry: one spec file per command here (name, help, flags: what --help,
// completion and did-you-mean read), one action file in ../actions (what it does). A run loads
// the spec of the command it runs and that command's action, nothing of the others
// (docs/adr/0288-lazy-command-line.md, 0376-fixed-cost-per-command.md); ./index.ts loads every
// spec, for help, completion and the tests. Add a line here to register a command.
import type { Command } from '../command.js';
import { lazyCommand } from '../command.js';

/** Each command's spec paired with its action, by name, in the order help lists them. */
const table: Record<string, () => Promise<Command>> = {
  init: async () => lazyCommand((await import('./init.js')).initCommand, () => import('../actions/init.js')),
  plan: async () => lazyCommand((await import('./plan.js')).planCommand, () => import('../actions/plan.js')),
  render: async () => lazyCommand((await import('./render.js')).renderCommand, () => import('../actions/render.js')),
  validate: async () => lazyCommand((await import('./validate.js')).validateCommand, () => import('../actions/validate.js')),
  diff: async () => lazyCommand((await import('./diff.js')).diffCommand, () => import('../actions/diff.js')),
  appset: async () => lazyCommand((await import('./appset.js')).appsetCommand, () => import('../actions/appset.js')),
  gotemplate: async () => lazyCommand((await import('./gotemplate.js')).gotemplateCommand, () => import('../actions/gotemplate.js')),
  schema: async () => lazyCommand((await import('./schema.js')).schemaCommand, () => import('../actions/schema.js')),
  cmp: async () => lazyCommand((await import('./cmp.js')).cmpCommand, () => import('../actions/cmp.js')),
  bootstrap: async () => lazyCommand((await import('./bootstrap.js')).bootstrapCommand, () => import('../actions/bootstrap.js')),
  mirror: async () => lazyCommand((await import('./mirror.js')).mirrorCommand, () => import('../actions/mirror.js')),
  promote: async () => lazyCommand((await import('./promote.js')).promoteCommand, () => import('../actions/promote.js')),
  serve: async () => lazyCommand((await import('./serve.js')).serveCommand, () => import('../actions/serve.js')),
  completion: async () => lazyCommand((await import('./completion.js')).completionCommand, () => import('../actions/completion.js')),
  version: async () => lazyCommand((await import('./version.js')).versionCommand, () => import('../actions/version.js')),
};

/** The command names, in the order help lists them. */
export const commandNames: readonly string[] = Object.keys(table);

/** The command called `name` (its spec loaded, its action on first run), or undefined when there is none. */
export function loadCommand(name: string): Promise<Command> | undefined {
  return Object.hasOwn(table, name) ? table[name]!() : undefined;
}
