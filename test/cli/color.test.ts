/**
 * Colour: on for a terminal, off for a pipe, NO_COLOR or TERM=dumb, forced by FORCE_COLOR; used
 * for finding severities (error red, warning yellow) and plan headings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ansi, colorEnabled, paintFindingLine, paintFindingsText, paintPlanText, plain } from '../../src/cli/color.js';
import { runCli } from '../../src/cli/run.js';
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';

const ESC = '\x1b[';
const RED_ERROR = '\x1b[31merror\x1b[39m';

const decisions: { name: string; tty: boolean; env: Record<string, string>; color: boolean }[] = [
  { name: 'a terminal gets colour', tty: true, env: {}, color: true },
  { name: 'a pipe gets none', tty: false, env: {}, color: false },
  { name: 'NO_COLOR turns it off on a terminal', tty: true, env: { NO_COLOR: '1' }, color: false },
  { name: 'NO_COLOR with any non-empty value', tty: true, env: { NO_COLOR: 'false' }, color: false },
  { name: 'an empty NO_COLOR is ignored', tty: true, env: { NO_COLOR: '' }, color: true },
  { name: 'TERM=dumb turns it off', tty: true, env: { TERM: 'dumb' }, color: false },
  { name: 'FORCE_COLOR forces it on a pipe', tty: false, env: { FORCE_COLOR: '1' }, color: true },
  { name: 'FORCE_COLOR wins over NO_COLOR and TERM=dumb', tty: false, env: { FORCE_COLOR: '3', NO_COLOR: '1', TERM: 'dumb' }, color: true },
  { name: 'FORCE_COLOR=0 turns it off on a terminal', tty: true, env: { FORCE_COLOR: '0' }, color: false },
  { name: 'FORCE_COLOR=false turns it off', tty: true, env: { FORCE_COLOR: 'false' }, color: false },
  { name: 'an empty FORCE_COLOR is ignored', tty: false, env: { FORCE_COLOR: '' }, color: false },
];

for (const d of decisions) {
  test(`colour: ${d.name}`, () => {
    assert.equal(colorEnabled({ isTTY: d.tty }, d.env), d.color);
  });
}

test('paint: finding lines, validate text and plan headings; plain leaves text alone', () => {
  assert.equal(paintFindingLine(ansi, 'error: fleet.yaml:3:1: bad [schema]'), `${RED_ERROR}: fleet.yaml:3:1: bad [schema]`);
  assert.equal(paintFindingLine(ansi, 'warning: x [y]'), '\x1b[33mwarning\x1b[39m: x [y]');
  assert.equal(paintFindingLine(ansi, 'info: x [y]'), 'info: x [y]');
  const text = 'groups/base/group.yaml\n  9:7     error   unknown-need         a\n  -       warning wave-gap             b\n\n1 error, 1 warning\n';
  assert.equal(
    paintFindingsText(ansi, text),
    `\x1b[1mgroups/base/group.yaml\x1b[22m\n  9:7     ${RED_ERROR}   unknown-need         a\n  -       \x1b[33mwarning\x1b[39m wave-gap             b\n\n1 error, 1 warning\n`,
  );
  const plan = 'fleet t: 1 cluster\n\none  (role hub)\n  bootstrap\n    x  y\n  wave 5  a\n';
  assert.equal(paintPlanText(ansi, plan), '\x1b[1mfleet t: 1 cluster\x1b[22m\n\n\x1b[1mone  (role hub)\x1b[22m\n  \x1b[36mbootstrap\x1b[39m\n    x  y\n  \x1b[36mwave 5\x1b[39m  a\n');
  for (const s of [text, plan]) {
    assert.equal(paintFindingsText(plain, s), s);
    assert.equal(paintPlanText(plain, s), s);
  }
});

async function run(args: string[], streams: { stdoutTTY?: boolean; stderrTTY?: boolean }, env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s), isTTY: streams.stdoutTTY },
    stderr: { write: (s: string) => (stderr += s), isTTY: streams.stderrTTY },
    env,
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}

const broken = () => writeTree(baseFleet({ 'groups/base/group.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\nspec:\n  apps:\n    a:\n      path: components/operator\n      needs: [nope]\n' }));

const cliCases: { name: string; streams: { stdoutTTY?: boolean; stderrTTY?: boolean }; env?: Record<string, string>; stdout: boolean; stderr: boolean }[] = [
  { name: 'terminals: both coloured', streams: { stdoutTTY: true, stderrTTY: true }, stdout: true, stderr: true },
  { name: 'pipes: none', streams: {}, stdout: false, stderr: false },
  { name: 'stdout piped, stderr a terminal: only stderr', streams: { stderrTTY: true }, stdout: false, stderr: true },
  { name: 'NO_COLOR on terminals: none', streams: { stdoutTTY: true, stderrTTY: true }, env: { NO_COLOR: '1' }, stdout: false, stderr: false },
  { name: 'TERM=dumb on terminals: none', streams: { stdoutTTY: true, stderrTTY: true }, env: { TERM: 'dumb' }, stdout: false, stderr: false },
  { name: 'FORCE_COLOR on pipes: both', streams: {}, env: { FORCE_COLOR: '1' }, stdout: true, stderr: true },
];

for (const c of cliCases) {
  test(`CLI colour: ${c.name}`, async () => {
    const dir = broken();
    try {
      // validate prints findings on stdout, plan its headings on stdout and findings on stderr.
      const v = await run(['validate', '--repo', dir], c.streams, c.env);
      assert.equal(v.code, 1);
      assert.equal(v.stdout.includes(RED_ERROR), c.stdout, v.stdout);
      assert.equal(v.stdout.includes(ESC), c.stdout);
      const p = await run(['plan', '--repo', dir], c.streams, c.env);
      assert.equal(p.code, 1);
      assert.equal(p.stdout.startsWith('\x1b[1mfleet t: 1 cluster\x1b[22m\n'), c.stdout, p.stdout);
      assert.equal(p.stdout.includes(ESC), c.stdout);
      assert.equal(p.stderr.startsWith(`${RED_ERROR}: groups/base/group.yaml:9:`), c.stderr, p.stderr);
      assert.equal(p.stderr.includes(ESC), c.stderr);
    } finally {
      removeTree(dir);
    }
  });
}

test('CLI colour: machine output is never coloured', async () => {
  const dir = broken();
  try {
    for (const args of [['plan', '-o', 'json'], ['plan', '-o', 'yaml'], ['validate', '-o', 'json'], ['render', '-o', 'json']]) {
      const r = await run([...args, '--repo', dir], { stdoutTTY: true, stderrTTY: true }, { FORCE_COLOR: '1' });
      assert.ok(!r.stdout.includes(ESC), args.join(' '));
    }
  } finally {
    removeTree(dir);
  }
});
