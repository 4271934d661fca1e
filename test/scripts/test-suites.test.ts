/**
 * The two test suites (ADR 0150): `npm test` must pass on a bare clone, so no base test may read
 * the shared data; `npm run test:real` is skipped without the shared data, except under CI, where
 * it fails and names the missing directory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** `node scripts/test.mjs ARGS` with the given environment additions (CI and FLEETPLAN_SHARED unset unless given). */
function runner(args: string[], env: Record<string, string>): { code: number | null; stdout: string; stderr: string } {
  const base = { ...process.env };
  delete base.CI;
  delete base.FLEETPLAN_SHARED;
  const r = spawnSync(process.execPath, ['scripts/test.mjs', ...args], { env: { ...base, ...env }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const MISSING = '/nonexistent/fleetplan-shared-data';

const cases: { name: string; args: string[]; env: Record<string, string>; code: number; out: RegExp; stream: 'stdout' | 'stderr' }[] = [
  {
    name: 'test:real without the shared data and without CI is skipped, says why, and exits 0',
    args: ['--suite', 'real'], env: { FLEETPLAN_SHARED: MISSING }, code: 0, stream: 'stdout',
    out: /^test:real skipped: the shared data directory \/nonexistent\/fleetplan-shared-data does not exist/,
  },
  {
    name: 'test:real without the shared data under CI=true fails and names the directory',
    args: ['--suite', 'real'], env: { FLEETPLAN_SHARED: MISSING, CI: 'true' }, code: 1, stream: 'stderr',
    out: /^test:real FAILED: the shared data directory \/nonexistent\/fleetplan-shared-data does not exist .* CI must run the real-data suite\./,
  },
  {
    name: 'test:real with a shared directory that lacks its subfolders fails and names them',
    args: ['--suite=real'], env: { FLEETPLAN_SHARED: 'test/fixtures' }, code: 1, stream: 'stderr',
    out: /has no realrepos\/, crds\/, conformance\//,
  },
  {
    name: 'an unknown suite is a usage error',
    args: ['--suite', 'everything'], env: {}, code: 2, stream: 'stderr',
    out: /unknown suite "everything"\nusage: node scripts\/test\.mjs \[--suite base\|real\]/,
  },
];

for (const c of cases) {
  test(c.name, () => {
    const r = runner(c.args, c.env);
    assert.equal(r.code, c.code, r.stdout + r.stderr);
    assert.match(r[c.stream], c.out);
  });
}

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (p !== join('test', 'real') && p !== join('test', 'fixtures') && p !== join('test', 'golden')) sources(p, out);
    } else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** What reaching for the shared data looks like in a test source. */
const SHARED_READS: RegExp[] = [
  /support\/shared\.js/,
  /['"]\.\.['"],\s*['"]shared['"]/,
  /\.\.\/shared\/(realrepos|crds|conformance|seeds)\b/,
  /\brealrepos\b/,
  /test\/vectors\//,
];

test('no base test reads the shared data: those tests live under test/real', () => {
  const offenders: string[] = [];
  const files = sources('test').filter((f) => f !== join('test', 'support', 'shared.ts') && f !== join('test', 'scripts', 'test-suites.test.ts'));
  assert.ok(files.length > 50, `${files.length} test sources`);
  for (const f of files) {
    const lines = readFileSync(f, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (SHARED_READS.some((re) => re.test(line))) offenders.push(`${f}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(offenders, []);
});

test('the guard recognises the ways a test reaches for the shared data', () => {
  for (const line of [
    "import { realRepo } from '../support/shared.js';",
    "const CRDS = resolve('..', 'shared', 'crds');",
    "const HOME_OPS = '../shared/realrepos/onedr0p__home-ops';",
    "JSON.parse(readFileSync('test/vectors/appset-vectors.json', 'utf8'))",
  ]) assert.ok(SHARED_READS.some((re) => re.test(line)), line);
  // A kustomize path inside a fleet written by a test is not the shared data.
  assert.ok(!SHARED_READS.some((re) => re.test("'components/config/kustomization.yaml': 'resources:\\n  - ../shared/app.yaml\\n'")));
});
