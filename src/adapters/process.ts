/**
 * Child processes for the external tools: run one with captured output, bound how many run at
 * once, and find a command on a PATH taken from the environment passed in (never process.env).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { ToolError } from '../errors/index.js';
import { toolEnv } from './tool-env.js';

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  /** The environment the tool's variables are taken from (see toolEnv); the rest is not passed. */
  env: Readonly<Record<string, string | undefined>>;
  /** Output above this many bytes (stdout) kills the process: a runaway build, not a manifest set. */
  maxStdoutBytes?: number;
  /** Kills the process after this long (default 10 minutes): a build that waits on the network forever. */
  timeoutMs?: number;
}

/**
 * A counting semaphore: `run(fn)` waits for a free slot, runs fn and frees the slot. `cancel(e)`
 * rejects every waiting and later `run` with `e` (what is running finishes).
 */
export class Limiter {
  private active = 0;
  private readonly waiting: { go: () => void; stop: (e: Error) => void }[] = [];
  private cancelled: Error | undefined;
  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`concurrency must be at least 1, got ${limit}`);
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.cancelled) throw this.cancelled;
    if (this.active >= this.limit) await new Promise<void>((go, stop) => this.waiting.push({ go, stop }));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.go();
    }
  }

  cancel(reason: Error): void {
    this.cancelled ??= reason;
    for (const w of this.waiting.splice(0)) w.stop(reason);
  }
}

/** The default bound on parallel tool processes: the number of cores. */
export function defaultConcurrency(): number {
  return Math.max(1, availableParallelism());
}

const sharedLimiters = new Map<number, Limiter>();
/** One limiter per concurrency value, shared by every tool in the process. */
export function sharedLimiter(concurrency = defaultConcurrency()): Limiter {
  let l = sharedLimiters.get(concurrency);
  if (!l) sharedLimiters.set(concurrency, (l = new Limiter(concurrency)));
  return l;
}

export { TOOL_ENV_NAMES, toolEnv } from './tool-env.js';

/** Runs `binary args` and collects its output. Rejects only when the process cannot start. */
export function runProcess(binary: string, args: readonly string[], options: RunOptions): Promise<ProcessResult> {
  const maxStdout = options.maxStdoutBytes ?? 512 * 1024 * 1024;
  return new Promise((resolvePromise, reject) => {
    // Only the variables a tool needs, never the whole environment passed in.
    const env = toolEnv(options.env);
    const timeoutMs = options.timeoutMs ?? 10 * 60 * 1000;
    const child = spawn(binary, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let overflow = false;
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > maxStdout) {
        overflow = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      // Keep the first 64 KiB of stderr: enough for any error message.
      if (errBytes < 65536) err.push(b);
      errBytes += b.length;
    });
    child.on('error', (e) => reject(e));
    child.on('close', (code, signal) => {
      let stderr = Buffer.concat(err).toString('utf8');
      if (overflow) stderr += `\noutput exceeded ${maxStdout} bytes`;
      else if (signal === 'SIGKILL' && code === null) stderr += `\nkilled after ${timeoutMs / 1000} s`;
      resolvePromise({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr });
    });
  });
}

/** Whether `file` is an executable regular file. */
export function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves a command: a value with a slash is a path (relative to `cwd`); a bare name is looked
 * up on the PATH of `env`. Returns undefined when nothing executable is found.
 */
export function findCommand(command: string, env: Readonly<Record<string, string | undefined>>, cwd?: string): string | undefined {
  if (command.includes('/')) {
    const abs = isAbsolute(command) ? command : resolve(cwd ?? '.', command);
    return isExecutable(abs) ? abs : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Starts a tool and turns a failure to start into a ToolError naming the binary. */
export async function runTool(binary: string, args: readonly string[], options: RunOptions, hint: string): Promise<ProcessResult> {
  try {
    return await runProcess(binary, args, options);
  } catch (e) {
    throw new ToolError(`cannot run ${binary}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, {
      code: 'tool-not-runnable',
      hint,
      cause: e,
    });
  }
}

/** The first `major.minor.patch` in a version string, e.g. `v5.6.0` or `{Version:kustomize/v4.5.7 …}`. */
export function parseVersion(text: string): { major: number; minor: number; patch: number; text: string } | undefined {
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(text);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), text: `${m[1]}.${m[2]}.${m[3]}` };
}
