/**
 * `npm run bench [SUITE...]`: runs the benchmark suites (all by default). Every suite prints its
 * figures as ratios against a baseline measured in the same run; absolute times are for context.
 * Figures, not assertions: the machine is shared and noisy.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchFleet } from './fleet.js';
import { runGotemplateBench } from './gotemplate.js';
import { benchLeaves } from './leaves.js';
import { benchBootstrap } from './bootstrap.js';
import { benchValidate } from './validate.js';

const appsetBench = fileURLToPath(new URL('./appset.js', import.meta.url));

const suites: Record<string, () => Promise<void>> = {
  fleet: () => benchFleet(),
  // The ApplicationSet matrix runs in its own process so that each peak-memory figure is its own.
  appset: async () => {
    for (const mode of ['go', 'flat']) process.stdout.write(execFileSync(process.execPath, [appsetBench, mode], { encoding: 'utf8' }));
  },
  validate: async () => {
    await benchValidate();
  },
  leaves: () => benchLeaves(),
  gotemplate: async () => {
    for (const line of runGotemplateBench()) console.log(line);
  },
  bootstrap: async () => void (await benchBootstrap()),
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
