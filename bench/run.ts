/**
 * `npm run bench [SUITE...]`: runs the benchmark suites (all by default). Every suite prints its
 * figures as ratios against a baseline measured in the same run; absolute times are for context.
 */
import { availableParallelism, cpus } from 'node:os';
import { benchFleet } from './fleet.js';
import { benchBootstrap } from './bootstrap.js';

const suites: Record<string, () => Promise<void>> = {
  fleet: () => benchFleet(),
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
