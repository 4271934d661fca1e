/**
 * Runs the fleetplan CLI as a child process under the limits issue #13 sets for hostile input
 * (docs/adr/0258): 10 s and 1 GiB. The limits are imposed, not measured as a benchmark:
 *
 * - **Memory**: the child runs under `prlimit --data=1GiB` (RLIMIT_DATA counts the heap and every
 *   private writable mapping, so a Buffer or a string past the limit fails to allocate) and
 *   `node --max-old-space-size=1024`; its peak resident set is read from `/usr/bin/time -f %M`
 *   (the kernel's ru_maxrss of the child, its own children included) and must stay under 1 GiB.
 * - **Time**: RLIMIT_CPU of 10 s (`prlimit --cpu=10:11`; the kernel ends the child with SIGXCPU, SIGKILL a second later) and a
 *   wall-clock kill of the whole process group after 10 s, stretched by the machine's load (the
 *   test machines are shared: a run that waits for a core is not a slow run) but never beyond 60 s.
 *   A child that blocks (a FIFO read) uses no CPU and is caught by the wall-clock kill.
 *
 * Where `prlimit` or `/usr/bin/time` is missing, that part is skipped and the result says so.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

export const LIMITS = { seconds: 10, memoryBytes: 1024 * 1024 * 1024 } as const;

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => existsSync(p));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

export interface LimitedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident set of the child in bytes, when /usr/bin/time is there. */
  maxRssBytes?: number;
  /** Set when the test killed the child at the wall-clock limit. */
  killedAfterMs?: number;
  /** The command line, for messages. */
  command: string;
}

/** The wall-clock limit for this run: 10 s, times the load per core when the machine is busier than its cores. */
export function wallLimitMs(): number {
  const perCore = loadavg()[0]! / Math.max(1, cpus().length);
  return Math.round(LIMITS.seconds * 1000 * Math.min(6, Math.max(1, perCore)));
}

/** Runs `fleetplan ARGS` in a child process under the limits. */
export async function runLimited(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; /** Another script instead of the CLI (the runner's own tests). */ script?: string; /** Another wall-clock limit (the runner's own tests). */ wallMs?: number } = {},
): Promise<LimitedRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'fleetplan-limited-'));
  const timeFile = join(scratch, 'time');
  const node = [process.execPath, `--max-old-space-size=${LIMITS.memoryBytes / 1024 / 1024}`, options.script ?? CLI, ...args];
  const limited = PRLIMIT ? [PRLIMIT, `--data=${LIMITS.memoryBytes}`, `--cpu=${LIMITS.seconds}:${LIMITS.seconds + 1}`, '--', ...node] : node;
  const argv = TIME ? [TIME, '-o', timeFile, '-f', 'maxrss-kib=%M', ...limited] : limited;
  const env = options.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, LANG: 'C.UTF-8' };
  const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd ?? process.cwd(), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const limit = options.wallMs ?? wallLimitMs();
  let killedAfterMs: number | undefined;
  const started = Date.now();
  const timer = setTimeout(() => {
    killedAfterMs = Date.now() - started;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, limit);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((res) => child.on('close', (c, s) => res([c, s])));
  clearTimeout(timer);
  let maxRssBytes: number | undefined;
  let childSignal = signal;
  if (TIME && existsSync(timeFile)) {
    const t = readFileSync(timeFile, 'utf8');
    const m = /maxrss-kib=(\d+)/.exec(t);
    if (m) maxRssBytes = Number(m[1]) * 1024;
    // /usr/bin/time exits with the child's status; a signal is written to its report.
    const s = /terminated by signal (\d+)/.exec(t);
    if (s) childSignal = signalName(Number(s[1]));
  }
  rmSync(scratch, { recursive: true, force: true });
  return { code: childSignal ? null : code, signal: childSignal, stdout, stderr, maxRssBytes, killedAfterMs, command: `fleetplan ${args.join(' ')}` };
}

function signalName(n: number): NodeJS.Signals {
  const names: Record<number, NodeJS.Signals> = { 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 15: 'SIGTERM', 24: 'SIGXCPU', 25: 'SIGXFSZ' };
  return names[n] ?? 'SIGKILL';
}

/** The run finished by itself, within 10 s and 1 GiB, and did not die of running out of memory. */
export function assertWithinLimits(r: LimitedRun, what: string): void {
  const tail = `\n${r.command}\n${r.stderr.slice(-2000)}`;
  assert.equal(r.killedAfterMs, undefined, `${what}: killed after ${((r.killedAfterMs ?? 0) / 1000).toFixed(1)} s: a run must end by itself within ${LIMITS.seconds} s (it hangs or runs away)${tail}`);
  assert.ok(r.signal !== 'SIGXCPU' && !(r.signal === 'SIGKILL' && r.killedAfterMs === undefined), `${what}: used up ${LIMITS.seconds} s of CPU (RLIMIT_CPU)${tail}`);
  assert.doesNotMatch(r.stderr, /heap out of memory|Allocation failed|ERR_STRING_TOO_LONG|Array buffer allocation failed/, `${what}: ran out of its ${LIMITS.memoryBytes / 2 ** 20} MiB${tail}`);
  assert.equal(r.signal, null, `${what}: ended by ${r.signal}${tail}`);
  if (r.maxRssBytes !== undefined) {
    assert.ok(r.maxRssBytes < LIMITS.memoryBytes, `${what}: peak resident set ${(r.maxRssBytes / 2 ** 20).toFixed(0)} MiB, over ${LIMITS.memoryBytes / 2 ** 20} MiB${tail}`);
  }
}
