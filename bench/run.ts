// `npm run bench`: every benchmark, one line (or a few) each. Figures, not assertions: the
// machine is shared and noisy, so each benchmark reports its fastest run as well. The
// ApplicationSet benchmarks run in their own process so that each peak-memory figure is its own.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runGotemplateBench } from './gotemplate.js';

const appsetBench = fileURLToPath(new URL('./appset.js', import.meta.url));
for (const mode of ['go', 'flat']) {
  process.stdout.write(execFileSync(process.execPath, [appsetBench, mode], { encoding: 'utf8' }));
}
for (const line of runGotemplateBench()) console.log(line);
