/** The progress line: redrawn in place on a terminal, nothing elsewhere, never on stdout. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ansi, plain } from '../../src/cli/color.js';
import { progressLine, withStatus } from '../../src/cli/progress.js';
import type { Timers } from '../../src/cli/progress.js';
import { runCli } from '../../src/cli/run.js';
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';

const ERASE = '\r\x1b[2K';

function sink(isTTY: boolean, columns?: number) {
  const s = { out: '', isTTY, columns, write: (c: string) => (s.out += c) };
  return s;
}

test('progress: on a terminal each update replaces the line, at most every interval, and done erases it', () => {
  let t = 0;
  const tty = sink(true);
  const line = progressLine(tty, plain, { now: () => t, intervalMs: 100 });
  line.update('building 0/3 leaf sources…');
  t = 50;
  line.update('building 1/3 leaf sources…'); // too soon: skipped
  t = 150;
  line.update('building 2/3 leaf sources…');
  line.done();
  assert.equal(tty.out, `${ERASE}building 0/3 leaf sources…${ERASE}building 2/3 leaf sources…${ERASE}`);
  assert.ok(!tty.out.includes('\n'), 'one line, never a newline');
});

test('progress: coloured when the palette is, cut to the terminal width', () => {
  const tty = sink(true, 12);
  const line = progressLine(tty, ansi, { now: () => 0 });
  line.update('building 12/57 leaf sources…');
  assert.equal(tty.out, `${ERASE}\x1b[36mbuilding 1…\x1b[39m`);
});

test('progress: a pipe gets nothing, and done without an update writes nothing', () => {
  const pipe = sink(false);
  const line = progressLine(pipe, ansi);
  line.update('building 1/2 leaf sources…');
  line.done();
  assert.equal(pipe.out, '');
  const tty = sink(true);
  progressLine(tty, plain).done();
  assert.equal(tty.out, '');
});

function fakeTimers() {
  const pending = new Map<number, () => void>();
  let next = 0;
  const timers: Timers = {
    set: (fn) => {
      pending.set(++next, fn);
      return next;
    },
    clear: (h) => pending.delete(h as number),
  };
  return { timers, fire: () => [...pending.values()].forEach((f) => f()), pending };
}

test('withStatus: work that ends before the delay shows nothing', async () => {
  const tty = sink(true);
  const { timers, pending } = fakeTimers();
  assert.equal(await withStatus(progressLine(tty, plain), 'loading…', () => Promise.resolve(42), 1000, timers), 42);
  assert.equal(tty.out, '');
  assert.equal(pending.size, 0, 'the timer is cleared');
});

test('withStatus: work still running after the delay shows the line, erased when it ends, also on failure', async () => {
  const tty = sink(true);
  const ft = fakeTimers();
  await assert.rejects(
    withStatus(progressLine(tty, plain), 'building 2 cluster directories with kustomize…', async () => {
      ft.fire();
      await Promise.resolve();
      throw new Error('boom');
    }, 1000, ft.timers),
    /boom/,
  );
  assert.equal(tty.out, `${ERASE}building 2 cluster directories with kustomize…${ERASE}`);
});

async function renderLeaves(stderrTTY: boolean) {
  const dir = writeTree(baseFleet());
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-progress-'));
  let stdout = '';
  let stderr = '';
  try {
    // No tools on PATH: kustomize comes from the checkout's .tools/bin.
    const code = await runCli(['render', '--repo', dir, '--out', join(out, 'r'), '--leaves', '--cache-dir', join(out, 'cache')], {
      stdout: { write: (s: string) => (stdout += s), isTTY: true },
      stderr: { write: (s: string) => (stderr += s), isTTY: stderrTTY },
      env: { PATH: '/nonexistent', HOME: out, NO_COLOR: '1' },
      cwd: out,
    });
    return { code, stdout, stderr };
  } finally {
    removeTree(dir);
    removeTree(out);
  }
}

test('render --leaves: a progress line on a terminal stderr, erased before the summary; stdout untouched', async () => {
  const r = await renderLeaves(true);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.ok(r.stderr.includes(`${ERASE}building 0/2 leaf sources…`), r.stderr);
  assert.ok(r.stderr.includes(`${ERASE}leaves: 2 of 3 apps rendered`), r.stderr);
});

test('render --leaves: nothing but the summary when stderr is not a terminal', async () => {
  const r = await renderLeaves(false);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stderr.includes('\r') && !r.stderr.includes('building'), r.stderr);
  assert.match(r.stderr, /\nleaves: 2 of 3 apps rendered, .*; 1 not built \(fleetplan's own output: 1\)\n/);
});
