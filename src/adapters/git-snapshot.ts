/**
 * A fleet repository at a revision, as a real directory, without touching the user's working
 * tree, index or refs: `git clone --shared --no-checkout` of the repository into a temporary
 * directory (objects are borrowed through git's alternates, nothing is copied or fetched), then
 * `git checkout --detach COMMIT` there. Every reader, kustomize and Helm then see the revision
 * as files, and `delivery: applicationset` planning still finds a git repository (its local
 * branches are the clone's `origin/<name>`, which adapters/git.ts resolves). Decisions:
 * docs/adr/0225-fleetplan-diff.md.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { InputError, ToolError } from '../errors/index.js';
import { toolEnv } from './tool-env.js';

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

// Only what git needs (src/adapters/tool-env.ts, ADR 0212): a git hook runs fleetplan with GIT_DIR,
// GIT_INDEX_FILE and GIT_WORK_TREE set for the user's repository, and git given those would read the
// user's repository instead of the snapshot and write the user's index (docs/adr/0406).
const gitEnv = (): NodeJS.ProcessEnv => toolEnv(process.env, { GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_LFS_SKIP_SMUDGE: '1' });

async function git(dir: string, args: readonly string[], ahead?: GitAhead): Promise<GitResult> {
  // Through the diff's shell when it is given one (the command's stderr is then not read).
  const answer = ahead !== undefined ? await (ahead.take(dir, args) ?? ahead.ask(dir, args)) : undefined;
  if (answer !== undefined) return answer;
  return new Promise((done, fail) => {
    const child = spawn('git', ['-C', dir, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // No pager, prompts, hooks or locale surprises; never the network (the clone is local).
      env: gitEnv(),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'ENOENT' ? new ToolError('git is not installed or not on PATH', { code: 'git-missing', hint: 'install git', cause: e }) : new ToolError(`cannot run git: ${e.message}`, { cause: e })),
    );
    child.on('close', (code) => done({ code: code ?? 1, stdout: stdout.trim(), stderr: stderr.trim() }));
  });
}

const shellWord = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

interface Waiting {
  tag: string;
  done: (r: GitResult | undefined) => void;
}

/**
 * Git commands run through one long-lived `sh` the diff starts once (each `git -C DIR ARGS
 * </dev/null 2>/dev/null` with the environment git() gives it, or another environment through
 * `env -i`): Node forks its whole process for every child, which costs the diff more than the git
 * command run, while the shell's forks are cheap (docs/adr/0314-diff-warm-path.md,
 * docs/adr/0334-diff-warm-path-one-shell.md). Each output is framed by a line with a random
 * 128-bit tag and the exit status. Commands queued ahead (`queue`, `run`) serve the identical git()
 * call that follows, once (`take`); git() given the shell asks it for any other command (`ask`).
 * Any doubt — the shell cannot start or dies, an output holds the tag, git is not found (126, 127)
 * — answers undefined, and git() runs the command on its own. Callers use it for commands whose
 * stderr they do not read.
 */
export class GitAhead {
  private readonly answers = new Map<string, Promise<GitResult | undefined>[]>();
  private shell: ChildProcessByStdio<Writable, Readable, null> | undefined;
  private broken = false;
  private readonly stem = `fleetplan-${randomBytes(16).toString('hex')}`;
  private seq = 0;
  private buf = '';
  /** How far buf has been searched for the first waiting tag. */
  private searched = 0;
  private readonly waiting: Waiting[] = [];

  private static key(dir: string, args: readonly string[]): string {
    return JSON.stringify([dir, args]);
  }

  /** The answer queued ahead for `git -C dir args`, once. */
  take(dir: string, args: readonly string[]): Promise<GitResult | undefined> | undefined {
    const k = GitAhead.key(dir, args);
    const list = this.answers.get(k);
    const a = list?.shift();
    if (list?.length === 0) this.answers.delete(k);
    return a;
  }

  /** Queues `commands` (`git -C dir ARGS` each) without waiting: their answers serve take(). */
  queue(dir: string, commands: readonly (readonly string[])[]): void {
    for (const args of commands) {
      const k = GitAhead.key(dir, args);
      this.answers.set(k, [...(this.answers.get(k) ?? []), this.ask(dir, args)]);
    }
  }

  /** Queues `commands` and waits until they have answered. */
  async run(dir: string, commands: readonly (readonly string[])[]): Promise<void> {
    this.queue(dir, commands);
    const asked = commands.flatMap((args) => this.answers.get(GitAhead.key(dir, args)) ?? []);
    await Promise.all(asked);
  }

  /**
   * `git -C dir args` run by the shell now (after what is queued): its exit status and trimmed
   * stdout, stderr dropped; with `env`, run with exactly that environment instead of git()'s; with
   * `input`, those lines (none holding a newline) on its standard input instead of nothing.
   * Undefined when the shell cannot answer it exactly (the caller then runs it on its own).
   */
  ask(dir: string, args: readonly string[], env?: NodeJS.ProcessEnv, input?: readonly string[]): Promise<GitResult | undefined> {
    const vars = env === undefined ? [] : Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined);
    // env -i finds git on the given PATH: without one, the command is left to spawn.
    if ((env !== undefined && env.PATH === undefined) || [dir, ...args, ...vars.flat(), ...(input ?? [])].some((a) => a.includes('\0')) || input?.some((l) => l.includes('\n')) || !this.start()) return Promise.resolve(undefined);
    const tag = `${this.stem}-${this.seq++}`;
    const prefix = env === undefined ? '' : `env -i ${vars.map(([k, v]) => shellWord(`${k}=${v}`)).join(' ')} `;
    // With `input`, git reads those lines on its standard input (printf is the shell's own).
    const stdin = input === undefined ? '' : `printf '%s\\n' ${input.map(shellWord).join(' ')} | `;
    const line = `${stdin}${prefix}git -C ${shellWord(dir)} ${args.map(shellWord).join(' ')} ${input === undefined ? '</dev/null ' : ''}2>/dev/null; printf '\\n%s %d\\n' ${tag} $?\n`;
    return new Promise((done) => {
      this.waiting.push({ tag, done });
      this.reference(true);
      this.shell!.stdin.write(line);
    });
  }

  /**
   * Removes `dir` (recursively) after the commands already sent, in the shell: the process does
   * not wait for it, and the shell, ended by close(), finishes it after the process has exited.
   * False when the shell is not running (the caller removes it itself).
   */
  removeLater(dir: string): boolean {
    if (this.broken || this.shell === undefined || dir.includes('\0')) return false;
    this.shell.stdin.write(`rm -rf -- ${shellWord(dir)} </dev/null >/dev/null 2>&1\n`);
    return true;
  }

  /** Ends the shell (it exits when its input ends); what is still waiting answers undefined. */
  close(): void {
    this.broken = true;
    for (const w of this.waiting.splice(0)) w.done(undefined);
    this.shell?.stdin.end();
  }

  private start(): boolean {
    if (this.broken) return false;
    if (this.shell !== undefined) return true;
    try {
      this.shell = spawn('sh', [], { stdio: ['pipe', 'pipe', 'ignore'], env: gitEnv() });
    } catch {
      this.broken = true;
      return false;
    }
    this.shell.stdout.setEncoding('utf8').on('data', (s: string) => {
      this.buf += s;
      this.drain();
    });
    this.shell.on('error', () => this.fail());
    this.shell.on('close', () => this.fail());
    this.shell.stdin.on('error', () => this.fail());
    return true;
  }

  /** The shell keeps the process alive only while a command waits. */
  private reference(on: boolean): void {
    const s = this.shell;
    if (s === undefined) return;
    for (const x of [s, s.stdin, s.stdout] as { ref(): void; unref(): void }[]) {
      if (on) x.ref();
      else x.unref();
    }
  }

  private drain(): void {
    while (this.waiting.length > 0) {
      const w = this.waiting[0]!;
      const mark = `\n${w.tag} `;
      const i = this.buf.indexOf(mark, Math.max(0, this.searched - mark.length));
      if (i < 0) {
        this.searched = this.buf.length;
        return;
      }
      const j = this.buf.indexOf('\n', i + mark.length);
      if (j < 0) {
        this.searched = i;
        return;
      }
      const code = this.buf.slice(i + mark.length, j);
      const out = this.buf.slice(0, i);
      this.buf = this.buf.slice(j + 1);
      this.searched = 0;
      this.waiting.shift();
      // An output holding the stem could have forged a frame: nothing after it is trusted.
      if (!/^\d+$/.test(code) || out.includes(this.stem)) {
        w.done(undefined);
        this.fail();
        return;
      }
      // 126/127: the shell could not run git (a spawn would say why).
      w.done(code === '126' || code === '127' ? undefined : { code: Number(code), stdout: out.trim(), stderr: '' });
    }
    this.reference(false);
  }

  private fail(): void {
    const wasBroken = this.broken;
    this.broken = true;
    for (const w of this.waiting.splice(0)) w.done(undefined);
    if (!wasBroken) this.shell?.kill();
  }
}

/** Where the fleet sits in its git repository. */
export interface FleetCheckout {
  /** The top of the git work tree (real path). */
  top: string;
  /** The fleet root relative to `top`, forward slashes; '' when the fleet is the whole repository. */
  prefix: string;
}

/** The git work tree the fleet root is in; an InputError outside one (diff compares commits). */
export async function fleetCheckout(root: string, ahead?: GitAhead): Promise<FleetCheckout> {
  const r = await git(root, ['rev-parse', '--show-toplevel'], ahead);
  if (r.code !== 0) {
    throw new InputError(`${root} is not in a git repository`, {
      code: 'not-a-git-repo',
      hint: 'fleetplan diff compares two revisions of the fleet repository: run it in a git clone, or give one with --repo DIR',
    });
  }
  const top = realpathSync(r.stdout);
  const prefix = relative(top, realpathSync(root)).split(sep).join('/');
  return { top, prefix };
}

/** The git commands resolveCommit runs (in order, until one answers). */
export function resolveCommitCommands(revision: string): string[][] {
  return [revision, `refs/remotes/origin/${revision}`].map((candidate) => ['rev-parse', '--verify', '--quiet', '--end-of-options', `${candidate}^{commit}`]);
}

/** The full SHA of a commit-ish, or undefined when the repository has no such commit. */
export async function resolveCommit(top: string, revision: string, ahead?: GitAhead): Promise<string | undefined> {
  for (const args of resolveCommitCommands(revision)) {
    const r = await git(top, args, ahead);
    if (r.code === 0) return r.stdout;
  }
  return undefined;
}

/** The best common ancestor of two commits; undefined when they share none. */
export async function mergeBase(top: string, a: string, b: string): Promise<string | undefined> {
  const r = await git(top, ['merge-base', a, b]);
  return r.code === 0 && r.stdout !== '' ? r.stdout : undefined;
}

/** `refs/remotes/origin/HEAD`'s target branch (`origin/main`), if the clone has one. */
export async function originHead(top: string): Promise<string | undefined> {
  const r = await git(top, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']);
  return r.code === 0 && r.stdout !== '' ? r.stdout : undefined;
}

/** The branch HEAD is on (`main`), undefined when HEAD is detached. */
export async function currentBranch(top: string): Promise<string | undefined> {
  const r = await git(top, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.code === 0 && r.stdout !== '' ? r.stdout : undefined;
}

/** Whether `name` is a local branch (`refs/heads/name`) or a branch of origin. */
export async function branchRef(top: string, name: string): Promise<string | undefined> {
  for (const ref of [`refs/remotes/origin/${name}`, `refs/heads/${name}`]) {
    const r = await git(top, ['rev-parse', '--verify', '--quiet', ref]);
    if (r.code === 0) return ref.replace(/^refs\/(remotes|heads)\//, '');
  }
  return undefined;
}

/** A revision checked out in a temporary directory; `close()` removes it. */
export interface Snapshot {
  commit: string;
  /** The fleet root inside the checkout. */
  root: string;
  close(): void;
  /** Hands the removal to the diff's shell (GitAhead.removeLater) instead; false: not taken, close() it. */
  closeLater(ahead: GitAhead): boolean;
}

/** Checks `commit` out into a fresh temporary directory (the user's repository is only read). */
export async function checkoutSnapshot(where: FleetCheckout, commit: string): Promise<Snapshot> {
  // The checkout keeps the repository's directory name: layouts that name the fleet after its
  // directory must name it the same on both sides (and never after a temporary directory).
  const parent = mkdtempSync(join(tmpdir(), 'fleetplan-diff-'));
  const dir = join(parent, basename(where.top));
  const close = (): void => rmSync(parent, { recursive: true, force: true });
  try {
    const clone = await git(where.top, ['clone', '--quiet', '--shared', '--no-checkout', '--', where.top, dir]);
    if (clone.code !== 0) throw new ToolError(`git clone of ${where.top} failed: ${clone.stderr}`);
    const co = await git(dir, ['-c', 'core.hooksPath=/dev/null', '-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', commit]);
    if (co.code !== 0) throw new ToolError(`git checkout ${commit} failed: ${co.stderr}`);
  } catch (e) {
    close();
    throw e;
  }
  return { commit, root: where.prefix === '' ? dir : join(dir, ...where.prefix.split('/')), close, closeLater: (ahead) => ahead.removeLater(parent) };
}

/** What fleetTree asks git for: the fleet directory's tree at `commit`. */
export function fleetTreeName(where: FleetCheckout, commit: string): string {
  return `${commit}^{tree}${where.prefix === '' ? '' : `:${where.prefix}`}`;
}

/** The git command fleetTree runs. */
export function fleetTreeCommand(where: FleetCheckout, commit: string): string[] {
  return ['rev-parse', '--verify', '--quiet', '--end-of-options', fleetTreeName(where, commit)];
}

/**
 * Whether `revision^{commit}` may be looked up with `git cat-file --batch-check` (objectIds) in
 * place of resolveCommit's first `git rev-parse --verify`: both hand the name to the same lookup
 * of git, which rev-parse reaches only for a name that is no range (`a..b`), no parent shorthand
 * (`r^@`, `r^!`, `r^-`) and no negation (`^r`); a name is one line of cat-file's input, and one
 * with a space, a colon (`:/text`, `rev:path`) or a leading `-` is left to rev-parse too.
 */
export function batchableRevision(revision: string): boolean {
  return revision !== '' && !/[\s:\0]/.test(revision) && !revision.includes('..') && !/\^[@!-]/.test(revision) && !revision.startsWith('^') && !revision.startsWith('-');
}

/** objectIds' command: each input line's object id, or the line and `missing` (`ambiguous`) when git finds none. */
const BATCH_CHECK = ['cat-file', '--batch-check=%(objectname)'];
const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The object ids of several names (`main^{commit}`, `<commit>^{tree}`), asked of one `git cat-file
 * --batch-check` in the diff's shell instead of one `git rev-parse --verify` each
 * (docs/adr/0396-diff-warm-path-fixed-cost.md): each name's id, undefined where git finds none or
 * the shell cannot answer (the caller then asks rev-parse, which says the same or why not).
 */
export async function objectIds(ahead: GitAhead, top: string, names: readonly string[]): Promise<(string | undefined)[]> {
  if (names.length === 0) return [];
  const r = await ahead.ask(top, BATCH_CHECK, undefined, names);
  const lines = r !== undefined && r.code === 0 ? r.stdout.split('\n') : [];
  return names.map((_, i) => (lines.length === names.length && OBJECT_ID.test(lines[i]!) ? lines[i] : undefined));
}

/** The tree id of the fleet's directory at a commit (what its content is keyed by), undefined when there is none. */
export async function fleetTree(where: FleetCheckout, commit: string, ahead?: GitAhead): Promise<string | undefined> {
  const r = await git(where.top, fleetTreeCommand(where, commit), ahead);
  return r.code === 0 && /^[0-9a-f]{40,64}$/.test(r.stdout) ? r.stdout : undefined;
}

/** Whether a tree holds a symlink or a submodule anywhere (`git ls-tree -r`); undefined when git cannot tell. */
export async function treeHasLinks(where: FleetCheckout, tree: string): Promise<boolean | undefined> {
  const r = await git(where.top, ['ls-tree', '-r', '-z', '--end-of-options', tree]);
  if (r.code !== 0) return undefined;
  return r.stdout.split('\0').some((line) => line.startsWith('120000 ') || line.startsWith('160000 '));
}

const DIFF_CONFIG = ['-c', 'core.quotePath=false', '-c', 'diff.external=', '-c', 'core.fsmonitor=false'];

/** The git commands changedUnderFleet runs: `git diff --raw`, and for the working tree the two `ls-files`. */
export function changedCommands(where: FleetCheckout, from: string, to: string | null): string[][] {
  const spec = where.prefix === '' ? '.' : where.prefix;
  const diff = [...DIFF_CONFIG, '--no-optional-locks', 'diff', '--raw', '-z', '--no-renames', '--no-ext-diff', '--ignore-submodules=none', from, ...(to !== null ? [to] : []), '--', spec];
  if (to !== null) return [diff];
  return [diff, [...DIFF_CONFIG, 'ls-files', '-z', '-v', '--', spec], [...DIFF_CONFIG, '--no-optional-locks', 'ls-files', '-z', '--others', '--directory', '--', spec]];
}

/** A path under the fleet that differs between two revisions: `content` (same kind, other bytes) or `entry` (added, deleted, type changed, untracked). */
export interface GitChange {
  /** Relative to the fleet root. */
  path: string;
  change: 'content' | 'entry';
  /** A symlink or submodule on either side. */
  link: boolean;
}

/**
 * What differs under the fleet between commit `from` and commit `to`, or the working tree when
 * `to` is null (tracked changes, and untracked and ignored files and directories, as they are on
 * disk). Undefined when git cannot say exactly: a command failed, or the index hides files of the
 * working tree from git (skip-worktree, assume-unchanged, unmerged entries).
 */
export async function changedUnderFleet(where: FleetCheckout, from: string, to: string | null, ahead?: GitAhead): Promise<GitChange[] | undefined> {
  const strip = (p: string): string | undefined => (where.prefix === '' ? p : p === where.prefix ? '' : p.startsWith(`${where.prefix}/`) ? p.slice(where.prefix.length + 1) : undefined);
  const [diffArgs, hiddenArgs, othersArgs] = changedCommands(where, from, to);
  const raw = await git(where.top, diffArgs!, ahead);
  if (raw.code !== 0) return undefined;
  const out: GitChange[] = [];
  const fields = raw.stdout === '' ? [] : raw.stdout.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // ":100644 100644 abc… def… M" then the path.
    const m = /^:(\d{6}) (\d{6}) \S+ \S+ ([A-Z])/.exec(fields[i]!);
    const path = strip(fields[i + 1]!);
    if (!m || path === undefined) return undefined;
    const link = [m[1], m[2]].some((mode) => mode === '120000' || mode === '160000');
    // M: the same kind of entry with other bytes (or mode); A, D, T (type), U…: what is there changes.
    out.push({ path, change: m[3] === 'M' ? 'content' : 'entry', link });
  }
  if (to === null) {
    const hidden = await git(where.top, hiddenArgs!, ahead);
    if (hidden.code !== 0) return undefined;
    if (hidden.stdout.split('\0').some((l) => l !== '' && !l.startsWith('H '))) return undefined;
    const others = await git(where.top, othersArgs!, ahead);
    if (others.code !== 0) return undefined;
    for (const p of others.stdout.split('\0')) {
      if (p === '') continue;
      const path = strip(p.replace(/\/$/, ''));
      if (path === undefined) return undefined;
      // An untracked link is no different to git than a file: tell by looking.
      out.push({ path, change: 'entry', link: isLink(join(where.top, p)) });
    }
  }
  return out;
}

function isLink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return true;
  }
}
