#!/usr/bin/env node
// Runs every compiled test file with Node's test runner. Node 20 does not expand
// globs in `--test`, so the files are listed here. Extra arguments filter by substring:
//   node scripts/test.mjs gotemplate layering
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
let files = walk('dist/test', []);
// dist/test/real/ is the real-data suite (it reads the shared directory): it runs only when a
// filter names it (`node scripts/test.mjs real/`), never in the default run `npm test` makes.
if (!filters.some((s) => s.startsWith('real'))) files = files.filter((f) => !f.startsWith(join('dist', 'test', 'real') + sep));
if (filters.length > 0) files = files.filter((f) => filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('no test files found under dist/test (run `tsc -p .` first)');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
