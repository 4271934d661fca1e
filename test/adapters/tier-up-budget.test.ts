// V8's tier-up budget raised at run time for `render --leaves` (docs/adr/0373): the setting must
// take effect in the running process (V8 may ignore flags changed after start), and a budget the
// user gave node on its command line is left alone (NODE_OPTIONS does not allow V8's flags).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { budgetSetByUser } from '../../src/adapters/tier-up.js';

const ADAPTER = fileURLToPath(new URL('../../src/adapters/tier-up.js', import.meta.url));

/**
 * A child that calls a small function 2,500 times and says whether V8 optimised it: with V8's
 * default budget it is optimised after fewer than 1,000 calls, with the raised one after more than
 * 5,000 (compilation on the main thread, so the answer does not depend on timing).
 */
function optimisedAfterCalls(raise: boolean, nodeFlags: string[] = []): string {
  const script = `
    const { raiseTierUpBudget } = await import(${JSON.stringify(ADAPTER)});
    if (${raise}) raiseTierUpBudget();
    function f(a) { let s = 0; for (let i = 0; i < 4; i++) s += a * i; return s; }
    let t = 0;
    for (let i = 0; i < 2500; i++) t += f(i);
    console.log((%GetOptimizationStatus(f) & 16) !== 0 ? 'optimised' : 'not optimised', t > 0);`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', ...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('V8 optimises a hot function later once the budget is raised, in the same process', () => {
  assert.equal(optimisedAfterCalls(false), 'optimised true', 'the control: the default budget optimises it');
  assert.equal(optimisedAfterCalls(true), 'not optimised true');
});

test("a budget given on node's command line is kept", () => {
  assert.equal(optimisedAfterCalls(true, ['--interrupt-budget=67584']), 'optimised true');
});

test('the user sets the budget with --interrupt-budget or --interrupt_budget', () => {
  assert.equal(budgetSetByUser([]), false);
  assert.equal(budgetSetByUser(['--enable-source-maps', '--max-old-space-size=400']), false);
  assert.equal(budgetSetByUser(['--interrupt-budget=5000']), true);
  assert.equal(budgetSetByUser(['--interrupt_budget', '9000']), true);
  assert.equal(budgetSetByUser(['--interrupt-budget-for-feedback-allocation=10']), false, 'another flag whose name starts the same');
});
