/**
 * One of `render --out`'s baselines: a Node script that writes the same files with the same
 * contents into a fresh directory and does nothing else. The files are read into memory first
 * (not timed); then every directory is made (in order) and every file written with fs.promises, 32 at a
 * time (libuv's thread pool runs them in parallel). The other baseline is `cp -r` of the same
 * tree (bench/fleet.ts); the faster of the two is the figure.
 *   node dist/bench/raw-write.js SRC_DIR DEST_DIR   (DEST_DIR must not exist)
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const [src, dest] = process.argv.slice(2) as [string, string];
const files: { rel: string; content: Buffer }[] = [];
const dirs: string[] = [];
const walk = (d: string, rel: string) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    if (e.isDirectory()) {
      dirs.push(join(rel, e.name));
      walk(join(d, e.name), join(rel, e.name));
    } else files.push({ rel: join(rel, e.name), content: readFileSync(join(d, e.name)) });
  }
};
walk(src, '');
const t0 = performance.now();
const cpu0 = process.cpuUsage();
mkdirSync(dest);
// Parents before children: `dirs` is in walk order.
for (const d of dirs) mkdirSync(join(dest, d));
let next = 0;
const worker = async () => {
  while (next < files.length) {
    const f = files[next++]!;
    await writeFile(join(dest, f.rel), f.content);
  }
};
await Promise.all(Array.from({ length: 32 }, worker));
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ code: 0, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024, outputBytes: 0, files: files.length }) + '\n');
