/**
 * The limits of the hostile-input suite bite (limited-cli.ts, ADR 0258): a child that outgrows
 * 1 GiB, one that spins and one that blocks are each reported as a failure, so the suite's
 * "within limits" cannot pass by default.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertWithinLimits, runLimited } from './limited-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'fleetplan-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const script = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('a child that allocates past 1 GiB fails the limits', async () => {
  const r = await runLimited([], { script: script('grow.mjs', 'const a = []; for (;;) a.push(Buffer.alloc(64 * 1024 * 1024, 1));\n') });
  assert.throws(() => assertWithinLimits(r, 'grow'), /ran out of|ended by|peak resident set|killed/);
});

test('a child that never ends is killed at the wall-clock limit and fails the limits', async () => {
  const r = await runLimited([], { script: script('block.mjs', 'setInterval(() => {}, 1000);\n'), wallMs: 1500 });
  assert.ok(r.killedAfterMs !== undefined, 'killed by the test');
  assert.throws(() => assertWithinLimits(r, 'block'), /killed after .* must end by itself within 10 s/);
});

test('a quick run is within the limits', async () => {
  const r = await runLimited(['version']);
  assertWithinLimits(r, 'version');
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.maxRssBytes === undefined || r.maxRssBytes > 0);
});
