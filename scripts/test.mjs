#!/usr/bin/env node
// Runs the compiled test files of one suite with Node's test runner (ADR 0150). Node 20 does not
// expand globs in `--test`, so the files are listed here.
//
//   node scripts/test.mjs [--suite base|real] [substring...]
//
// base (the default, `npm test`): every test under dist/test except dist/test/real. It must pass
//   on a bare clone, so it runs with FLEETPLAN_SHARED pointing at a directory that does not
//   exist: a base test that reaches for the shared data fails on every machine, not only on CI.
// real (`npm run test:real`): the tests under dist/test/real, which read the shared data
//   (real repositories, upstream CRDs, conformance vectors) from $FLEETPLAN_SHARED, else from
//   `shared` beside the repository. Without that directory the suite is skipped (exit 0) with
//   the reason, except under CI=true, where it fails: CI must not pass without having run it.
// Extra arguments keep the files whose path contains one of them:
//   node scripts/test.mjs gotemplate layering
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUITES = ['base', 'real'];
/** The subfolders of the shared data the real suite reads. */
const SHARED_PARTS = ['realrepos', 'crds', 'conformance'];

function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

function usage(message) {
  console.error(`${message}\nusage: node scripts/test.mjs [--suite ${SUITES.join('|')}] [substring...]`);
  process.exit(2);
}

let suite = 'base';
const filters = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--suite') suite = args[++i] ?? usage('--suite needs a value');
  else if (a.startsWith('--suite=')) suite = a.slice('--suite='.length);
  else if (a.startsWith('--')) usage(`unknown option ${a}`);
  else filters.push(a);
}
if (!SUITES.includes(suite)) usage(`unknown suite "${suite}"`);

// Tests read examples/, test/fixtures/ and .tools/ relative to the repository root.
process.chdir(ROOT);
const env = { ...process.env };
const realDir = join('dist', 'test', 'real');

if (suite === 'real') {
  const shared = process.env.FLEETPLAN_SHARED ? resolve(process.env.FLEETPLAN_SHARED) : resolve(ROOT, '..', 'shared');
  const ci = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';
  if (!existsSync(shared)) {
    const why = `the shared data directory ${shared} does not exist (set FLEETPLAN_SHARED, or put the shared folder beside the repository)`;
    if (ci) {
      console.error(`test:real FAILED: ${why}. CI must run the real-data suite.`);
      process.exit(1);
    }
    console.log(`test:real skipped: ${why}.`);
    process.exit(0);
  }
  const missing = SHARED_PARTS.filter((p) => !existsSync(join(shared, p)));
  if (missing.length > 0) {
    console.error(`test:real FAILED: ${shared} has no ${missing.map((p) => `${p}/`).join(', ')} (the real-data tests read ${SHARED_PARTS.map((p) => `${p}/`).join(', ')})`);
    process.exit(1);
  }
  env.FLEETPLAN_SHARED = shared;
} else {
  env.FLEETPLAN_SHARED = join(ROOT, '.no-shared-data-in-the-base-suite');
}

if (!existsSync(join('dist', 'test'))) {
  console.error('no compiled tests under dist/test (run `tsc -p .` first)');
  process.exit(1);
}
let files = suite === 'real'
  ? (existsSync(realDir) ? walk(realDir, []) : [])
  : walk(join('dist', 'test'), []).filter((f) => !f.startsWith(realDir + '/'));
// A compiled test whose source was moved or deleted stays in dist/ (tsc does not remove it): run
// only the files that still have their test/**/*.test.ts.
const stale = files.filter((f) => !existsSync(f.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts')));
if (stale.length > 0) {
  console.error(`ignoring ${stale.length} compiled test file(s) without a source in test/ (stale dist): ${stale.join(', ')}`);
  files = files.filter((f) => !stale.includes(f));
}
if (filters.length > 0) files = files.filter((f) => filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no ${suite} test files found under dist/test${filters.length ? ` matching ${filters.join(', ')}` : ''} (run \`tsc -p .\` first)`);
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', ...files], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
