/**
 * Issue 2's benchmark: plan and render for 100, 1,000 and 5,000 clusters of 40 apps each
 * (./synthetic.ts), every fleetplan run a fresh child process (./measure.ts).
 *
 * - `plan -o json` and `render` (streamed): no tool a user would run instead produces either, so
 *   each size is given as a ratio to the 100-cluster run of the same command, the sizes
 *   interleaved round by round (linear growth would be 10× and 50×). Goal: `plan` of 5,000
 *   clusters under 2 s.
 * - `render --out` into a fresh directory, against writing the same files with nothing else: the
 *   faster of `cp -r` of an earlier render's tree and ./raw-write.ts (Node, parallel writes),
 *   all three interleaved. Goal: within 1.2× of the faster copy. The directories are under
 *   os.tmpdir(): TMPDIR=/dev/shm measures on tmpfs, away from other users' disk traffic.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fmtMs, fmtRatio, fmtTimes, interleave, loadLine, pairedRatios, spread } from './stats.js';
import { writeSyntheticFleet } from './synthetic.js';

export interface Measurement {
  code: number;
  ms: number;
  cpuMs: number;
  maxRssMB: number;
  outputBytes: number;
}

export function measure(args: string[], script = 'dist/bench/measure.js'): Measurement {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`measure ${args.join(' ')} failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as Measurement;
  if (m.code !== 0) throw new Error(`${args.join(' ')} exited ${m.code}`);
  return m;
}

/** Median of `runs` measurements by time (memory from the same run). */
export function median(args: string[], runs: number): Measurement {
  const ms = Array.from({ length: runs }, () => measure(args)).sort((a, b) => a.ms - b.ms);
  return ms[Math.floor(ms.length / 2)]!;
}

const countFiles = (dir: string): number => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

export async function benchFleet(options: { sizes?: number[]; runs?: number; renderOutOnly?: boolean } = {}): Promise<void> {
  const sizes = options.sizes ?? [100, 1000, 5000];
  const runs = Math.max(3, options.runs ?? 3);
  const work = mkdtempSync(join(tmpdir(), 'fleetplan-bench-fleet-'));
  const fleet = (n: number) => join(work, `fleet-${n}`);
  try {
    for (const n of sizes) writeSyntheticFleet(fleet(n), { clusters: n, appsPerCluster: 40 });
    console.log(`fleet: ${sizes.join(' / ')} clusters × 40 apps; ${runs} interleaved runs of each; min / median / max; ${loadLine()}`);

    const base = sizes[0]!;
    for (const c of options.renderOutOnly ? [] : [
      { name: 'plan -o json', args: (dir: string) => ['plan', '-o', 'json', '--repo', dir], goal: { clusters: 5000, ms: 2000 } },
      { name: 'render (stream)', args: (dir: string) => ['render', '--repo', dir], goal: undefined },
    ]) {
      const r = await interleave(runs, Object.fromEntries(sizes.map((n) => [String(n), () => measure(c.args(fleet(n)))])));
      console.log(`\n  ${c.name}: ratio = time / time at ${base} clusters in the same round`);
      console.log(`  ${'clusters'.padStart(8)} ${'wall'.padEnd(26)} ${'cpu'.padEnd(26)} ${'peak MB'.padStart(7)}  ratio to ${base}`);
      for (const n of sizes) {
        const ms = r[String(n)]!.map((m) => m.ms);
        const cpu = spread(r[String(n)]!.map((m) => m.cpuMs));
        const rss = spread(r[String(n)]!.map((m) => m.maxRssMB));
        const ratio = n === base ? '' : fmtRatio(pairedRatios(ms, r[String(base)]!.map((m) => m.ms)), 1);
        const goal = c.goal?.clusters === n ? `  goal under ${fmtMs(c.goal.ms)}: ${spread(ms).median < c.goal.ms ? 'met' : 'NOT met'}` : '';
        console.log(`  ${String(n).padStart(8)} ${fmtTimes(spread(ms)).padEnd(26)} ${fmtTimes(cpu).padEnd(26)} ${rss.max.toFixed(0).padStart(7)}  ${ratio}${goal}`);
      }
    }

    console.log(`\n  render --out into a fresh directory vs writing the same files (baseline: the faster of cp -r and Node parallel writes, per round)`);
    console.log(`  ${'clusters'.padStart(8)} ${'files'.padStart(7)} ${'render --out'.padEnd(26)} ${'cp -r'.padEnd(26)} ${'node writes'.padEnd(26)} ratio to the faster copy`);
    for (const n of sizes) {
      // The tree the copies copy: an earlier render's output (not timed).
      const ref = join(work, `ref-${n}`);
      measure(['render', '--repo', fleet(n), '--out', ref]);
      const fresh = join(work, 'fresh');
      const once = <T>(f: () => T): T => {
        rmSync(fresh, { recursive: true, force: true });
        try {
          return f();
        } finally {
          rmSync(fresh, { recursive: true, force: true });
        }
      };
      const runsOf: Measurement[] = [];
      const r = await interleave(runs, {
        render: () =>
          once(() => {
            const m = measure(['render', '--repo', fleet(n), '--out', fresh]);
            runsOf.push(m);
            return m.ms;
          }),
        cp: () =>
          once(() => {
            const t0 = performance.now();
            const p = spawnSync('cp', ['-r', ref, fresh]);
            if (p.status !== 0) throw new Error(`cp -r failed: ${p.stderr.toString()}`);
            return performance.now() - t0;
          }),
        node: () => once(() => measure([ref, fresh], 'dist/bench/raw-write.js').ms),
      });
      const copy = r['cp']!.map((ms, i) => Math.min(ms, r['node']![i]!));
      const ratio = pairedRatios(r['render']!, copy);
      const goal = `  goal ≤1.2×: ${ratio.median <= 1.2 ? 'met' : 'NOT met'}`;
      console.log(
        `  ${String(n).padStart(8)} ${String(countFiles(ref)).padStart(7)} ${fmtTimes(spread(r['render']!)).padEnd(26)} ${fmtTimes(spread(r['cp']!)).padEnd(26)} ${fmtTimes(spread(r['node']!)).padEnd(26)} ${fmtRatio(ratio)}${goal}`,
      );
      // CPU time (both threads) and peak RSS of render --out: on a shared machine CPU time says more than wall time.
      console.log(`  ${''.padStart(8)} ${''.padStart(7)} render --out cpu ${fmtTimes(spread(runsOf.map((m) => m.cpuMs)))}, peak RSS ${spread(runsOf.map((m) => m.maxRssMB)).max.toFixed(0)} MB`);
      rmSync(ref, { recursive: true, force: true });
    }
    console.log(`  (${loadLine()})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
