/**
 * `npm run bench [SUITE...]`: runs the benchmark suites (all by default). Every suite prints its
 * figures as ratios against a baseline measured in the same run; absolute times are for context.
 * Figures, not assertions: the machine is shared and noisy.
 */
import { availableParallelism, cpus } from 'node:os';
import { benchAppsetCli } from './appset-cli.js';
import { benchFleet } from './fleet.js';
import { runGotemplateBench } from './gotemplate.js';
import { benchLeaves } from './leaves.js';
import { benchBootstrap } from './bootstrap.js';
import { benchDiff } from './diff.js';
import { benchValidate } from './validate.js';
import { benchServe } from './serve.js';

const suites: Record<string, () => Promise<void>> = {
  fleet: () => benchFleet(),
  // Through the CLI, as child processes: each peak-memory figure is its own.
  appset: () => benchAppsetCli(),
  validate: async () => {
    await benchValidate();
  },
  leaves: () => benchLeaves(),
  gotemplate: async () => {
    for (const line of runGotemplateBench()) console.log(line);
  },
  bootstrap: async () => void (await benchBootstrap()),
  // In headless Chromium: the dashboard's matrix on 1,000 clusters × 40 apps.
  serve: () => benchServe(),
  diff: () => benchDiff(),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !(w in suites));
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; suites: ${Object.keys(suites).join(', ')}`);
  process.exit(2);
}
console.log(`machine: ${availableParallelism()} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}`);
for (const name of wanted.length ? wanted : Object.keys(suites)) {
  console.log(`\n== ${name}`);
  await suites[name]!();
}
