import type { ParseArgsConfig } from 'node:util';
import type { Palette } from './color.js';

/** Where a command writes. stdout carries only the requested output; everything else goes to stderr. */
export interface CliIO {
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  /**
   * Bytes to stdout, where it takes them (the process's stdout): large outputs are then encoded as
   * they are made. Returns once stdout is done with the chunk (written, or copied), or a promise
   * that settles then; after that the caller may write new bytes into the chunk's memory.
   */
  stdoutBytes?: (chunk: Uint8Array) => Promise<void> | void;
  stderr: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
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
  /** Colours for what goes to stdout and to stderr (plain when that stream is not a terminal). */
  color: { stdout: Palette; stderr: Palette };
}

/** One example of `fleetplan CMD --help`. test/cli/help.test.ts runs every offline one on examples/lab. */
export interface Example {
  /** What it shows, one line. */
  what: string;
  /** The command line, starting with `fleetplan`. */
  run: string;
  /** Why the help test cannot run it (needs a cluster, reads stdin); absent: it runs offline. */
  notRun?: string;
  /** The exit code the example gives on examples/lab (default 0). */
  exit?: number;
}

/**
 * What shell completion offers for a flag's value or a positional: a fixed list, or a kind the
 * completer knows (cluster, app and sector names and label pairs of the fleet in --repo, example
 * names, files, directories), or nothing.
 */
export type ValueKind = readonly string[] | 'cluster' | 'app' | 'sector' | 'selector' | 'example' | 'file' | 'dir' | 'none';

/**
 * What the command line knows of a command before running it: its name, help, flags and
 * completion. A spec module (src/cli/commands/<name>.ts) imports nothing of the library, so that
 * `--help`, `help CMD`, completion and did-you-mean load no stage (docs/adr/0288-lazy-command-line.md).
 */
export interface CommandSpec {
  name: string;
  /** One line for `fleetplan --help`. */
  summary: string;
  /** Usage text shown by `fleetplan CMD --help`. */
  usage: string;
  /** Shown under "Examples:" in `fleetplan CMD --help`. */
  examples: readonly Example[];
  options: OptionSpec;
  /** Whether positionals are accepted. */
  allowPositionals?: boolean;
  /** Completion of flag values (by long flag name; defaults by name in completion.ts) and positionals (by index). */
  complete?: { flags?: Readonly<Record<string, ValueKind>>; positionals?: readonly ValueKind[] };
}

/** What a command does: the module src/cli/actions/<name>.ts, loaded when the command runs. */
export interface CommandAction {
  /** Returns the exit code. Throws FleetplanError for usage/input/tool failures. */
  run(ctx: CommandContext): Promise<number>;
}

export interface Command extends CommandSpec, CommandAction {}

/** A command whose action module is imported only when it runs. */
export function lazyCommand(spec: CommandSpec, action: () => Promise<CommandAction>): Command {
  return { ...spec, run: async (ctx) => (await action()).run(ctx) };
}

/** The flags every command takes. */
export const commonOptions: OptionSpec = {
  repo: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/**
 * `--clusters FILE`: cluster Secrets (YAML) for a repository read as Argo CD reads it (the argocd
 * layout), in place of the repository's own, as the ApplicationSet controller would find them.
 * `--root FILE` (repeatable): the root Application(s) of such a repository, instead of guessing
 * them (ADR 0345).
 */
export const clusterSecretsOptions: OptionSpec = {
  clusters: { type: 'string' },
  root: { type: 'string', multiple: true },
};

/**
 * `-e NAME`: the helmfile environment (helmfile's `--environment`) whose values the helmfile
 * templates are rendered with, and whose helmfiles run (helmfile + Flux repositories only).
 */
export const helmfileEnvironmentOptions: OptionSpec = {
  environment: { type: 'string', short: 'e' },
};

/**
 * helmfile's `--state-values-file FILE` and `--state-values-set KEY=VALUE` (repeatable): state
 * values merged over the environment values of the top-level helmfiles (helmfile + Flux only).
 */
export const helmfileStateValuesOptions: OptionSpec = {
  'state-values-file': { type: 'string', multiple: true },
  'state-values-set': { type: 'string', multiple: true },
  // The variables a helmfile's env/requiredEnv read (fleetplan never reads its own environment; ADR 0413).
  'helmfile-env': { type: 'string', multiple: true },
};

/** The flags of every command that works on some of the fleet's clusters. */
export const clusterOptions: OptionSpec = {
  cluster: { type: 'string', multiple: true, short: 'c' },
  selector: { type: 'string', multiple: true, short: 'l' },
};
