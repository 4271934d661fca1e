import type { ParseArgsConfig } from 'node:util';

/** Where a command writes. stdout carries only the requested output; everything else goes to stderr. */
export interface CliIO {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  /** The process environment, passed in so that commands and tests never read `process.env` directly. */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Standard input, for commands that read it (CMP). */
  stdin?: NodeJS.ReadableStream;
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandContext {
  io: CliIO;
  /** Parsed flags. `repo` is always present (default: cwd). */
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export interface Command {
  name: string;
  /** One line for `fleetplan --help`. */
  summary: string;
  /** Usage text shown by `fleetplan CMD --help`. */
  usage: string;
  options: OptionSpec;
  /** Whether positionals are accepted. */
  allowPositionals?: boolean;
  /** Returns the exit code. Throws FleetplanError for usage/input/tool failures. */
  run(ctx: CommandContext): Promise<number>;
}

/** The flags every command takes. */
export const commonOptions: OptionSpec = {
  repo: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};
