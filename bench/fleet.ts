/**
 * Issue 2's benchmark: plan and render time and peak memory for 100, 1,000 and 5,000 clusters of
 * 40 apps each. Each figure is also shown as a ratio to the 100-cluster run of the same command
 * in the same run, so growth (linear would be 10× and 50×) is visible whatever the machine's speed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measurement;
}

/** Median of `runs` measurements by time (memory from the same run). */
export function median(args: string[], runs: number): Measurement {
  const ms = Array.from({ length: runs }, () => measure(args)).sort((a, b) => a.ms - b.ms);
  return ms[Math.floor(ms.length / 2)]!;
}

export async function benchFleet(options: { sizes?: number[]; runs?: number } = {}): Promise<void> {
  const sizes = options.sizes ?? [100, 1000, 5000];
  const runs = options.runs ?? 3;
  const commands: { name: string; args: (dir: string, out: string) => string[] }[] = [
    { name: 'plan -o json', args: (dir) => ['plan', '-o', 'json', '--repo', dir] },
    { name: 'render (stream)', args: (dir) => ['render', '--repo', dir] },
    { name: 'render --out', args: (dir, out) => ['render', '--repo', dir, '--out', out] },
  ];
  const baseline = new Map<string, Measurement>();
  console.log(`fleet: ${sizes.join(' / ')} clusters × 40 apps; median of ${runs}; ratio = time / time at ${sizes[0]} clusters`);
  console.log('render --out is also given as a ratio to writing the same files with nothing else (fs = mkdir + write + rename)');
  console.log(`${'command'.padEnd(18)} ${'clusters'.padStart(8)} ${'apps'.padStart(8)} ${'ms'.padStart(9)} ${'cpu ms'.padStart(9)} ${'ratio'.padStart(7)} ${'peak MB'.padStart(8)} ${'MB ratio'.padStart(8)}`);
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `fleetplan-bench-${n}-`));
    const out = mkdtempSync(join(tmpdir(), `fleetplan-bench-out-${n}-`));
    try {
      writeSyntheticFleet(dir, { clusters: n, appsPerCluster: 40 });
      for (const c of commands) {
        const m = median(c.args(dir, out), c.name === 'render --out' ? 1 : runs);
        if (m.code !== 0) throw new Error(`${c.name} on ${n} clusters exited ${m.code}`);
        if (!baseline.has(c.name)) baseline.set(c.name, m);
        const b = baseline.get(c.name)!;
        let extra = '';
        if (c.name === 'render --out') {
          const fsOut = mkdtempSync(join(tmpdir(), `fleetplan-bench-fs-${n}-`));
          try {
            const raw = measure([out, fsOut], 'dist/bench/raw-write.js');
            extra = `  fs alone ${raw.ms.toFixed(0)} ms → render --out is ${(m.ms / raw.ms).toFixed(2)}× the file system's own cost`;
          } finally {
            rmSync(fsOut, { recursive: true, force: true });
          }
        }
        console.log(
          `${c.name.padEnd(18)} ${String(n).padStart(8)} ${String(n * 40).padStart(8)} ${m.ms.toFixed(0).padStart(9)} ${m.cpuMs.toFixed(0).padStart(9)} ${(m.ms / b.ms).toFixed(1).padStart(6)}× ${m.maxRssMB.toFixed(0).padStart(8)} ${(m.maxRssMB / b.maxRssMB).toFixed(1).padStart(7)}×${extra}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  }
}
