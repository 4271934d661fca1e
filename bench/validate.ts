/**
 * Issue 5's benchmark: `validate` against `plan` on the synthetic fleet (1,000 clusters × 40 apps
 * by default). Goal: validate takes at most twice as long as plan. Both run as fresh child
 * processes, interleaved (`runs` rounds); the ratio per round is what counts, absolute times are
 * for context.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Measurement } from './fleet.js';
import { measure } from './fleet.js';
import { fmtRatio, fmtTimes, interleave, loadLine, pairedRatios, spread } from './stats.js';
import { writeSyntheticFleet } from './synthetic.js';

export interface ValidateBenchResult {
  clusters: number;
  apps: number;
  plan: Measurement[];
  validate: Measurement[];
  /** Median of the per-round validate time / plan time. */
  ratio: number;
}

export async function benchValidate(options: { clusters?: number; appsPerCluster?: number; runs?: number } = {}): Promise<ValidateBenchResult> {
  const clusters = options.clusters ?? 1000;
  const appsPerCluster = options.appsPerCluster ?? 40;
  const runs = Math.max(3, options.runs ?? 3);
  const dir = mkdtempSync(join(tmpdir(), `fleetplan-bench-validate-${clusters}-`));
  try {
    writeSyntheticFleet(dir, { clusters, appsPerCluster });
    // measure() throws when a command exits non-zero: validate must be clean on the synthetic fleet.
    const r = await interleave(runs, {
      plan: () => measure(['plan', '-o', 'json', '--repo', dir]),
      validate: () => measure(['validate', '-o', 'json', '--repo', dir]),
    });
    const plan = r['plan']!;
    const validate = r['validate']!;
    const ratios = pairedRatios(validate.map((m) => m.ms), plan.map((m) => m.ms));
    console.log(`validate vs plan: ${clusters} clusters × ${appsPerCluster} apps; ${runs} interleaved runs; min / median / max; goal: ratio ≤ 2; ${loadLine()}`);
    console.log(`  ${'command'.padEnd(14)} ${'wall'.padEnd(26)} ${'peak MB'.padStart(8)}`);
    for (const [name, ms] of [['plan -o json', plan], ['validate', validate]] as const) {
      console.log(`  ${name.padEnd(14)} ${fmtTimes(spread(ms.map((m) => m.ms))).padEnd(26)} ${spread(ms.map((m) => m.maxRssMB)).max.toFixed(0).padStart(8)}`);
    }
    console.log(`  ratio validate / plan, per round: ${fmtRatio(ratios)} ${ratios.median <= 2 ? '(within the goal)' : '(OVER the goal of 2×)'}`);
    return { clusters, apps: clusters * appsPerCluster, plan, validate, ratio: ratios.median };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
