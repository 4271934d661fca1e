// The command registry. One file per command; add a line here to register it.
import type { Command } from '../command.js';
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
  initCommand,
  planCommand,
  renderCommand,
  validateCommand,
  diffCommand,
  appsetCommand,
  gotemplateCommand,
  schemaCommand,
  cmpCommand,
  bootstrapCommand,
  mirrorCommand,
  promoteCommand,
  serveCommand,
  completionCommand,
  versionCommand,
];
