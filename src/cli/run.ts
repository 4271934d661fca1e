/**
 * The one error boundary of the command line: parses the command name and flags, runs the
 * command, and turns errors into messages and exit codes (0 ok, 1 findings or failed
 * operation, 2 usage or input error). No other module prints or exits.
 */
import { parseArgs } from 'node:util';
import { FleetplanError, InputError, UsageError } from '../entry/core.js';
import type { CliIO, Command, CommandContext, OptionSpec } from './command.js';
import { commonOptions } from './command.js';
import { commandNames, loadCommand } from './commands/table.js';
import { didYouMean } from './suggest.js';
import { paletteFor } from './color.js';

// Help, completion and the list of every command are imported where they are asked for: a run of
// one command loads its own spec only (ADR 0376).
const allCommands = async (): Promise<Command[]> => (await import('./commands/index.js')).commands;
const help = () => import('./help.js');

/** A usage error that ends with a suggestion on its own line (`did you mean plan?`). */
class UnknownNameError extends UsageError {
  constructor(
    message: string,
    readonly suggestion: string | undefined,
    readonly helpCommand: string,
  ) {
    super(message, { code: 'unknown-name' });
  }
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  const color = { stdout: paletteFor(io.stdout, io.env), stderr: paletteFor(io.stderr, io.env) };
  if (name === undefined) {
    io.stdout.write((await help()).topHelp(await allCommands()));
    return 2;
  }
  if (name === '--help' || name === '-h') {
    io.stdout.write((await help()).topHelp(await allCommands()));
    return 0;
  }
  if (name === '__complete') {
    // Hidden: the shell scripts' entry point. Never an error, never stderr.
    const { complete, formatCompletion } = await import('./completion.js');
    io.stdout.write(formatCompletion(await complete(rest, await allCommands(), { cwd: io.cwd })));
    return 0;
  }
  let command: Command | undefined;
  let label = name;
  try {
    if (name === 'help') {
      const [topic, ...extra] = rest;
      if (topic === undefined) {
        io.stdout.write((await help()).topHelp(await allCommands()));
        return 0;
      }
      if (extra.length > 0) throw new UsageError(`help takes one command, got ${rest.length}`, { hint: 'fleetplan help COMMAND' });
      io.stdout.write((await help()).commandHelp(await findCommand(topic)));
      return 0;
    }
    if (name === '--version' || name === '-v') {
      command = await findCommand('version');
      label = 'version';
    } else if (name.startsWith('-')) {
      const flag = name.replace(/=.*$/, '');
      throw new UnknownNameError(`unknown flag ${flag}`, flag.startsWith('--') ? didYouMean(flag.slice(2), ['help', 'version'], (c) => `--${c}`) : undefined, 'fleetplan --help');
    } else {
      command = await findCommand(name);
    }
    const options = { ...commonOptions, ...command.options };
    rejectUnknownFlags(rest, options, command);
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options, allowPositionals: command.allowPositionals ?? false, strict: true });
    } catch (e) {
      throw new UsageError(`${(e as Error).message.replace(/^.*?: /, '')}`, {
        hint: `see \`fleetplan ${command.name} --help\``,
      });
    }
    if (parsed.values.help) {
      io.stdout.write((await help()).commandHelp(command));
      return 0;
    }
    const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
    const ctx: CommandContext = { io, values, positionals: parsed.positionals, color };
    return await command.run(ctx);
  } catch (e) {
    const prefix = command || name === 'help' ? `fleetplan ${label}` : 'fleetplan';
    if (e instanceof UnknownNameError) {
      io.stderr.write(`${prefix}: ${e.message}\n${e.suggestion ? `${e.suggestion}\n` : ''}Run \`${e.helpCommand}\` for usage.\n`);
      return 2;
    }
    if (e instanceof FleetplanError) {
      io.stderr.write(`${prefix}: ${e.format()}\n`);
      return e instanceof UsageError || e instanceof InputError ? 2 : 1;
    }
    const err = e as Error;
    io.stderr.write(`${prefix}: internal error: ${err?.stack ?? String(e)}\n`);
    return 1;
  }
}

async function findCommand(name: string): Promise<Command> {
  const command = loadCommand(name);
  if (command) return command;
  throw new UnknownNameError(`unknown command "${name}"`, didYouMean(name, commandNames), 'fleetplan --help');
}

/**
 * An unknown flag is named with the closest known ones. parseArgs' own message for it is long and
 * suggests `--` instead, so unknown flags are found first with a lenient parse of the same options.
 */
function rejectUnknownFlags(args: string[], options: OptionSpec, command: Command): void {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const t of tokens) {
    if (t.kind !== 'option' || Object.hasOwn(options, t.name)) continue;
    const long = t.rawName.startsWith('--');
    throw new UnknownNameError(
      `unknown flag ${t.rawName}`,
      long ? didYouMean(t.name, Object.keys(options), (c) => `--${c}`) : undefined,
      `fleetplan ${command.name} --help`,
    );
  }
}
