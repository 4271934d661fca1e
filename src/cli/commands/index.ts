// The command registry. One file per command; add a line here to register it.
import type { Command } from '../command.js';
import { appsetCommand } from './appset.js';
import { gotemplateCommand } from './gotemplate.js';

export const commands: Command[] = [
  appsetCommand,
  gotemplateCommand,
];
