/**
 * Runs a command as a child process the way a user would, and measures its wall time (spawn to
 * exit, node start-up included) and, for a Node program, its peak resident memory (./peak-rss.ts
 * is preloaded and reports getrusage's maxrss on exit, the same figure as VmHWM or
 * `/usr/bin/time -v`'s "Maximum resident set size").
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export interface ChildRun {
  ms: number;
  /** Peak RSS in MB and CPU time in ms (Node children only). */
  maxRssMB?: number;
  cpuMs?: number;
}

const PEAK_RSS = new URL('./peak-rss.js', import.meta.url).href;

/** Runs `cmd args`; stdout goes to `stdoutFile` (or is discarded). Throws when it fails. */
export function runChild(cmd: string, args: readonly string[], options: { stdoutFile?: string; cwd?: string } = {}): ChildRun {
  const out = openSync(options.stdoutFile ?? '/dev/null', 'w');
  try {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { cwd: options.cwd, stdio: ['ignore', out, 'pipe'], encoding: 'utf8', maxBuffer: 64 << 20 });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr ?? String(r.error)).slice(-2000)}`);
    return { ms };
  } finally {
    closeSync(out);
  }
}

/** Runs a Node program (`node SCRIPT args`) and reports its peak RSS as well. */
export function runNodeChild(script: string, args: readonly string[], options: { stdoutFile?: string; cwd?: string } = {}): Required<ChildRun> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-bench-rss-'));
  const rssFile = join(dir, 'rss');
  try {
    process.env['FLEETPLAN_BENCH_RSS_FILE'] = rssFile;
    const r = runChild(process.execPath, ['--import', PEAK_RSS, script, ...args], options);
    const u = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssBytes: number; cpuMs: number };
    return { ms: r.ms, maxRssMB: u.maxRssBytes / (1 << 20), cpuMs: u.cpuMs };
  } finally {
    delete process.env['FLEETPLAN_BENCH_RSS_FILE'];
    rmSync(dir, { recursive: true, force: true });
  }
}
