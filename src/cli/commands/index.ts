// The command registry: one spec file per command here (name, help, flags: what --help,
// completion and did-you-mean read), one action file in ../actions (what it does), imported only
// when that command runs (docs/adr/0288-lazy-command-line.md). Add a line here to register one.
import type { Command } from '../command.js';
import { lazyCommand } from '../command.js';
import { appsetCommand } from './appset.js';
import { cmpCommand } from './cmp.js';
import { gotemplateCommand } from './gotemplate.js';
import { initCommand } from './init.js';
import { planCommand } from './plan.js';
import { renderCommand } from './render.js';
import { schemaCommand } from './schema.js';
import { validateCommand } from './validate.js';
import { diffCommand } from './diff.js';
import { bootstrapCommand } from './bootstrap.js';
import { mirrorCommand } from './mirror.js';
import { promoteCommand } from './promote.js';
import { serveCommand } from './serve.js';
import { completionCommand } from './completion.js';
import { versionCommand } from './version.js';

export const commands: Command[] = [
  lazyCommand(initCommand, () => import('../actions/init.js')),
  lazyCommand(planCommand, () => import('../actions/plan.js')),
  lazyCommand(renderCommand, () => import('../actions/render.js')),
  lazyCommand(validateCommand, () => import('../actions/validate.js')),
  lazyCommand(diffCommand, () => import('../actions/diff.js')),
  lazyCommand(appsetCommand, () => import('../actions/appset.js')),
  lazyCommand(gotemplateCommand, () => import('../actions/gotemplate.js')),
  lazyCommand(schemaCommand, () => import('../actions/schema.js')),
  lazyCommand(cmpCommand, () => import('../actions/cmp.js')),
  lazyCommand(bootstrapCommand, () => import('../actions/bootstrap.js')),
  lazyCommand(mirrorCommand, () => import('../actions/mirror.js')),
  lazyCommand(promoteCommand, () => import('../actions/promote.js')),
  lazyCommand(serveCommand, () => import('../actions/serve.js')),
  lazyCommand(completionCommand, () => import('../actions/completion.js')),
  lazyCommand(versionCommand, () => import('../actions/version.js')),
];
