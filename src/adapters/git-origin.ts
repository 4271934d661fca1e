/**
 * The repository's origin (remote URL and branch) read with real git, and the environment every
 * git process of the adapters gets. A module of its own: `diff` answered from its records needs the
 * origin (it keys the records) and none of the rest of ./git.ts
 * (docs/adr/0396-diff-warm-path-fixed-cost.md).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RepositoryOrigin } from '../ports/git-repo.js';
import { toolEnv } from './tool-env.js';

/** No pager, no prompts, and no locale surprises in messages parsed below. */
export function gitEnv(): NodeJS.ProcessEnv {
  // Only what git needs (src/adapters/tool-env.ts toolEnv): GIT_DIR and the like from the caller's
  // environment would point `git -C DIR` at another repository.
  return toolEnv(process.env, { GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
}

/**
 * Whether git could find a work tree for `dir`: a `.git` in it or in a parent of its real path (git
 * discovers from the physical directory; GIT_DIR is not passed on, gitEnv). False spares the
 * three git processes of readRepositoryOrigin outside any clone.
 */
function mayBeInWorkTree(dir: string): boolean {
  let d: string;
  try {
    d = realpathSync.native(dir);
  } catch {
    return true; // let git say
  }
  for (;;) {
    if (existsSync(join(d, '.git'))) return true;
    const parent = dirname(d);
    if (parent === d) return false;
    d = parent;
  }
}

/**
 * The repository's own address as Argo CD would be told it: the URL of the `origin` remote and the
 * branch checked out (`undefined` for a detached HEAD or when there is no remote). Read with real
 * git, synchronously, once per load: layout readers take repoURL and revision from the
 * repository's objects first and from this only where the repository says nothing.
 */
export function readRepositoryOrigin(dir: string): RepositoryOrigin {
  const run = repositoryOriginCommands(dir);
  return run === undefined ? {} : repositoryOriginOf(gitOutputs(dir, run.commands));
}

/**
 * The git commands readRepositoryOrigin runs in `dir` (`git -C dir ARGS`, stdin and stderr
 * closed) and their environment, for a caller that runs them its own way and hands the outputs to
 * repositoryOriginOf (api/diff-core.ts runs them in its shell); undefined when `dir` is in no work
 * tree (the origin is then `{}`).
 */
export function repositoryOriginCommands(dir: string): { commands: string[][]; env: NodeJS.ProcessEnv } | undefined {
  if (!mayBeInWorkTree(dir)) return undefined;
  return { commands: [['rev-parse', '--is-inside-work-tree'], ['config', '--get', 'remote.origin.url'], ['symbolic-ref', '--quiet', '--short', 'HEAD']], env: gitEnv() };
}

/** The origin from the outputs of repositoryOriginCommands (each trimmed stdout, undefined when it failed or printed nothing). */
export function repositoryOriginOf([inside, url, branch]: readonly (string | undefined)[]): RepositoryOrigin {
  if (inside !== 'true') return {};
  return { ...(url ? { url } : {}), ...(branch ? { branch } : {}) };
}

/**
 * Several `git -C dir ARGS` run synchronously in one `sh` (a process costs more than these git
 * commands): each one's trimmed stdout, undefined when it failed or printed nothing. Should the
 * shell fail or an output hold the boundary, each command runs on its own instead.
 */
function gitOutputs(dir: string, commands: readonly (readonly string[])[]): (string | undefined)[] {
  const one = (args: readonly string[]): string | undefined => {
    try {
      const out = execFileSync('git', ['-C', dir, ...args], { env: gitEnv(), stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' }).trim();
      return out === '' ? undefined : out;
    } catch {
      return undefined;
    }
  };
  const word = (w: string): string => `'${w.replace(/'/g, `'\\''`)}'`;
  const boundary = `fleetplan-${randomBytes(16).toString('hex')}`;
  const script = commands.map((args) => `git -C ${word(dir)} ${args.map(word).join(' ')} </dev/null 2>/dev/null; printf '\\n%s %d\\n' ${boundary} $?`).join('\n');
  let out: string;
  try {
    out = execFileSync('sh', ['-c', script], { env: gitEnv(), stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' });
  } catch {
    return commands.map(one);
  }
  const parts = out.split(new RegExp(`\\n${boundary} (\\d+)\\n`));
  if (parts.length !== commands.length * 2 + 1 || parts[parts.length - 1] !== '' || dir.includes('\0')) return commands.map(one);
  return commands.map((_, i) => {
    const text = parts[i * 2]!.trim();
    return parts[i * 2 + 1] === '0' && text !== '' ? text : undefined;
  });
}
