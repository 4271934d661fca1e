// Every command, specs loaded (./table.ts is the registry): what help, completion and
// did-you-mean read. A run of one command loads only its own spec, through ./table.ts.
import type { Command } from '../command.js';
import { commandNames, loadCommand } from './table.js';

export const commands: Command[] = await Promise.all(commandNames.map((name) => loadCommand(name)!));
