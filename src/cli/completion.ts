/**
 * Dynamic shell completion in cobra's style: the scripts of `fleetplan completion SHELL` call the
 * hidden `fleetplan __complete WORD... CURRENT` with the words before the cursor and the word being
 * completed (possibly empty). It prints the candidates that start with CURRENT, one per line
 * (`value<TAB>description` where there is one), then `:N`, a directive for the script (cobra's
 * bits): 4 = do not fall back to file names, 16 = complete directory names only; 0 = when there
 * are no candidates, complete file names.
 *
 * Candidates: command names; the flags of a command; a flag's values where they are known (the -o
 * formats of that command, cluster, app and sector names and label pairs of the fleet in --repo or
 * the current directory, example names); file or directory names for path flags. Reading the
 * fleet never prints anything: a broken or missing repository just offers no names. The library's
 * loading stages are imported only when a fleet's names are asked for, so that completing a command
 * or flag name stays as cheap as `--help` (docs/adr/0288-lazy-command-line.md).
 */
import { resolve } from 'node:path';
import type { Command, OptionSpec, ValueKind } from './command.js';
import { commonOptions } from './command.js';
import { clusterSelectorLabels } from '../entry/core.js';
import type { Fleet } from '../entry/core.js';
import { listExamples } from '../adapters/examples.js';

export const DIRECTIVE_NO_FILES = 4;
export const DIRECTIVE_DIRS = 16;

export interface Completion {
  candidates: string[];
  directive: number;
}

/** What a flag's value is when its command does not say: by flag name. */
const DEFAULT_KINDS: Readonly<Record<string, ValueKind>> = {
  repo: 'dir',
  cluster: 'cluster',
  selector: 'selector',
  app: 'app',
  out: 'dir',
};

/** Top-level words besides the commands. */
const TOP_FLAGS = ['--help', '--version'];

export interface CompleteOptions {
  cwd: string;
  /** The fleet of a repository directory; default: loadFleet. Throws or returns undefined: no names. */
  readFleet?: (root: string) => Fleet | undefined | Promise<Fleet | undefined>;
}

export async function complete(args: readonly string[], commands: readonly Command[], options: CompleteOptions): Promise<Completion> {
  const current = args.length > 0 ? args[args.length - 1]! : '';
  const before = args.slice(0, -1);
  const visible = commands.filter((c) => !c.name.startsWith('__'));
  const names = (): string[] => [...visible.map((c) => `${c.name}\t${c.summary}`), 'help\thelp about a command'];
  if (before.length === 0) {
    return current.startsWith('-') ? list(TOP_FLAGS, current) : list(names(), current);
  }
  const [name, ...rest] = before;
  if (name === 'help') return rest.length === 0 ? list(names().filter((n) => !n.startsWith('help\t')), current) : none();
  const command = visible.find((c) => c.name === name);
  if (!command) return none();
  const spec: OptionSpec = { ...commonOptions, ...command.options };
  const shortToLong = new Map(Object.entries(spec).flatMap(([long, o]) => (o.short ? [[o.short, long] as const] : [])));

  // Walk the words typed so far: flags used, values given, positionals, and a flag waiting for its value.
  const used = new Set<string>();
  const values: Record<string, string> = {};
  let pending: string | undefined;
  let positionals = 0;
  let terminated = false;
  for (const w of rest) {
    if (pending !== undefined) {
      values[pending] = w;
      pending = undefined;
    } else if (terminated || !w.startsWith('-') || w === '-') {
      positionals++;
    } else if (w === '--') {
      terminated = true;
    } else if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const flag = eq >= 0 ? w.slice(2, eq) : w.slice(2);
      const o = spec[flag];
      if (!o) continue;
      used.add(flag);
      if (eq >= 0) values[flag] = w.slice(eq + 1);
      else if (o.type === 'string') pending = flag;
    } else {
      // -c hub, -chub, -o json, -ojson
      const flag = shortToLong.get(w[1]!);
      if (!flag) continue;
      used.add(flag);
      if (spec[flag]!.type === 'string') {
        if (w.length > 2) values[flag] = w.slice(2);
        else pending = flag;
      }
    }
  }
  const context: ValueContext = { command, options, repo: resolve(options.cwd, values.repo ?? '.') };
  if (pending !== undefined) return valuesOf(kindOf(command, pending), current, context);
  if (!terminated && current.startsWith('--') && current.includes('=')) {
    const flag = current.slice(2, current.indexOf('='));
    if (spec[flag]?.type !== 'string') return none();
    const prefix = current.slice(0, current.indexOf('=') + 1);
    const r = await valuesOf(kindOf(command, flag), current.slice(prefix.length), context);
    return { candidates: r.candidates.map((c) => prefix + c), directive: r.directive };
  }
  if (!terminated && current.startsWith('-')) {
    const flags = Object.entries(spec)
      .filter(([long, o]) => o.multiple === true || !used.has(long))
      .map(([long]) => `--${long}`)
      .sort();
    return list(flags, current);
  }
  const kind = command.complete?.positionals?.[positionals];
  return kind === undefined ? none() : valuesOf(kind, current, context);
}

interface ValueContext {
  command: Command;
  options: CompleteOptions;
  repo: string;
}

function kindOf(command: Command, flag: string): ValueKind {
  return command.complete?.flags?.[flag] ?? DEFAULT_KINDS[flag] ?? 'none';
}

function none(): Completion {
  return { candidates: [], directive: DIRECTIVE_NO_FILES };
}

/** The candidates that start with `current` (before any tab), in the order given, without duplicates. */
function list(candidates: readonly string[], current: string): Completion {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of candidates) {
    const value = c.split('\t')[0]!;
    if (!value.startsWith(current) || seen.has(value)) continue;
    seen.add(value);
    out.push(c);
  }
  return { candidates: out, directive: DIRECTIVE_NO_FILES };
}

async function valuesOf(kind: ValueKind, current: string, ctx: ValueContext): Promise<Completion> {
  if (typeof kind !== 'string') return list(kind as readonly string[], current);
  switch (kind) {
    case 'file':
      return { candidates: [], directive: 0 };
    case 'dir':
      return { candidates: [], directive: DIRECTIVE_DIRS };
    case 'none':
      return none();
    case 'example':
      return list(safely(() => listExamples()) ?? [], current);
    default: {
      const fleet = await safelyAsync(() => (ctx.options.readFleet ?? readFleet)(ctx.repo));
      if (!fleet) return none();
      // After a comma of a selector (AND), complete the next requirement and keep what is before it.
      const comma = kind === 'selector' ? current.lastIndexOf(',') + 1 : 0;
      const r = list(safely(() => fleetValues(kind, fleet)) ?? [], current.slice(comma));
      return { ...r, candidates: r.candidates.map((c) => current.slice(0, comma) + c) };
    }
  }
}

function fleetValues(kind: 'cluster' | 'app' | 'sector' | 'selector', fleet: Fleet): string[] {
  switch (kind) {
    case 'cluster':
      return fleet.clusters
        .map((c) => `${c.name}\t${[`role ${c.spec.role}`, c.spec.sector && `sector ${c.spec.sector}`, c.spec.region && `region ${c.spec.region}`].filter(Boolean).join(', ')}`)
        .sort();
    case 'sector':
      return fleet.sectors.map((s) => s.name);
    case 'app': {
      const apps = new Set<string>();
      for (const c of fleet.clusters) for (const a of Object.keys(c.spec.apps ?? {})) apps.add(a);
      for (const g of fleet.groups.values()) for (const a of Object.keys(g.spec.apps ?? {})) apps.add(a);
      return [...apps].sort();
    }
    case 'selector': {
      // Every key=value the clusters have, so that `-l ro<TAB>` offers role=hub, role=spoke.
      const pairs = new Set<string>();
      for (const c of fleet.clusters) {
        for (const [k, v] of Object.entries(clusterSelectorLabels(c))) for (const x of typeof v === 'string' ? [v] : v) pairs.add(`${k}=${x}`);
      }
      return [...pairs].sort();
    }
  }
}

/** The fleet in `root`, read with the library's loading stages (imported here, on first use). */
async function readFleet(root: string): Promise<Fleet> {
  const { loadFleet } = await import('../entry/fleet.js');
  return loadFleet(root).fleet;
}

/** `await fn()`, or undefined when it throws or rejects. */
async function safelyAsync<T>(fn: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch {
    return undefined;
  }
}

/** `fn()`, or undefined when it throws: completion never reports an error. */
function safely<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** The protocol's output: candidates one per line, then `:directive`. */
export function formatCompletion(c: Completion): string {
  return [...c.candidates, `:${c.directive}`].join('\n') + '\n';
}
