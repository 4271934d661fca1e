/**
 * The one error boundary of the command line: parses the command name and flags, runs the
 * command, and turns errors into messages and exit codes (0 ok, 1 findings or failed
 * operation, 2 usage or input error). No other module prints or exits.
 */
import { parseArgs } from 'node:util';
import { FleetplanError, InputError, UsageError, VERSION } from '../index.js';
import type { CliIO } from './command.js';
import { commonOptions } from './command.js';
import { commands } from './commands/index.js';

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(helpText());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === 'version') {
    io.stdout.write(`fleetplan ${VERSION}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`fleetplan: unknown command "${name}"\n\n${helpText()}`);
    return 2;
  }
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: { ...commonOptions, ...command.options },
        allowPositionals: command.allowPositionals ?? false,
        strict: true,
      });
    } catch (e) {
      throw new UsageError(`${(e as Error).message.replace(/^.*?: /, '')}`, {
        hint: `see \`fleetplan ${name} --help\``,
      });
    }
    if (parsed.values.help) {
      io.stdout.write(command.usage.endsWith('\n') ? command.usage : command.usage + '\n');
      return 0;
    }
    const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
    return await command.run({ io, values, positionals: parsed.positionals });
  } catch (e) {
    if (e instanceof FleetplanError) {
      io.stderr.write(`fleetplan ${name}: ${e.format()}\n`);
      return e instanceof UsageError || e instanceof InputError ? 2 : 1;
    }
    const err = e as Error;
    io.stderr.write(`fleetplan ${name}: internal error: ${err?.stack ?? String(e)}\n`);
    return 1;
  }
}



function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'fleetplan: plan, render, validate and bootstrap GitOps fleets',
    '',
    'Usage: fleetplan COMMAND [flags]   (every command takes --repo DIR, default: the current directory)',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `fleetplan COMMAND --help` for a command\'s flags.',
    '',
  ].join('\n');
}
