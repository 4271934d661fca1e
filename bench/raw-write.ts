/**
 * Baseline for `render --out`: writing the same files with nothing else (mkdir, write a temporary
 * file, rename), so that the render figure can be read as a ratio to what the file system costs.
 *   node dist/bench/raw-write.js SRC_DIR DEST_DIR
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const [src, dest] = process.argv.slice(2) as [string, string];
const files: { rel: string; content: Buffer }[] = [];
const walk = (d: string, rel: string) => {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) walk(p, join(rel, name));
    else files.push({ rel: join(rel, name), content: readFileSync(p) });
  }
};
walk(src, '');
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const made = new Set<string>();
for (const f of files) {
  const abs = join(dest, f.rel);
  const dir = join(abs, '..');
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  writeFileSync(abs + '.tmp', f.content);
  renameSync(abs + '.tmp', abs);
}
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ code: 0, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024, outputBytes: 0, files: files.length }) + '\n');
