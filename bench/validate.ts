/**
 * Issue 5's benchmark: `validate` against `plan` on the synthetic fleet (1,000 clusters × 40 apps
 * by default). Goal: validate takes at most twice as long as plan. Both run as fresh child
 * processes (median of `runs`); the ratio is what counts, absolute times are for context.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Measurement } from './fleet.js';
import { median } from './fleet.js';
import { writeSyntheticFleet } from './synthetic.js';

export interface ValidateBenchResult {
  clusters: number;
  apps: number;
  plan: Measurement;
  validate: Measurement;
  /** validate time / plan time. */
  ratio: number;
}

export async function benchValidate(options: { clusters?: number; appsPerCluster?: number; runs?: number } = {}): Promise<ValidateBenchResult> {
  const clusters = options.clusters ?? 1000;
  const appsPerCluster = options.appsPerCluster ?? 40;
  const runs = options.runs ?? 3;
  const dir = mkdtempSync(join(tmpdir(), `fleetplan-bench-validate-${clusters}-`));
  try {
    writeSyntheticFleet(dir, { clusters, appsPerCluster });
    const plan = median(['plan', '-o', 'json', '--repo', dir], runs);
    const validate = median(['validate', '-o', 'json', '--repo', dir], runs);
    if (plan.code !== 0) throw new Error(`plan exited ${plan.code}`);
    if (validate.code !== 0) throw new Error(`validate exited ${validate.code} on the synthetic fleet (it should be clean)`);
    const ratio = validate.ms / plan.ms;
    console.log(`validate vs plan: ${clusters} clusters × ${appsPerCluster} apps; median of ${runs}; goal: ratio ≤ 2`);
    console.log(`${'command'.padEnd(14)} ${'ms'.padStart(8)} ${'peak MB'.padStart(8)}`);
    console.log(`${'plan -o json'.padEnd(14)} ${plan.ms.toFixed(0).padStart(8)} ${plan.maxRssMB.toFixed(0).padStart(8)}`);
    console.log(`${'validate'.padEnd(14)} ${validate.ms.toFixed(0).padStart(8)} ${validate.maxRssMB.toFixed(0).padStart(8)}`);
    console.log(`ratio ${ratio.toFixed(2)}× ${ratio <= 2 ? '(within the goal)' : '(OVER the goal of 2×)'}`);
    await Promise.resolve();
    return { clusters, apps: clusters * appsPerCluster, plan, validate, ratio };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
