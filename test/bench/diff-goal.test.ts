/**
 * The goal line of the diff benchmark (bench/diff.ts): issue 14's ratio (≥ 20× the scripted
 * baseline) is the fleet layer's goal; for `--leaves` the goal is the time alone (under 2 s).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffGoalLine } from '../../bench/diff.js';

const cases: { name: string; leaves: boolean; ratio: number; ms: number; line: string }[] = [
  { name: 'fleet layer, both met', leaves: false, ratio: 21.5, ms: 450, line: 'goal ≥20× and under 2 s: ratio met, time met (median)' },
  { name: 'fleet layer, ratio short', leaves: false, ratio: 18.2, ms: 446, line: 'goal ≥20× and under 2 s: ratio NOT met, time met (median)' },
  { name: 'fleet layer, both short', leaves: false, ratio: 3, ms: 2500, line: 'goal ≥20× and under 2 s: ratio NOT met, time NOT met (median)' },
  { name: 'leaves, time met whatever the ratio', leaves: true, ratio: 1.9, ms: 1800, line: 'goal under 2 s (the ≥20× ratio is the fleet layer\'s goal, not this part\'s): time met (median)' },
  { name: 'leaves, time short', leaves: true, ratio: 25, ms: 2798, line: 'goal under 2 s (the ≥20× ratio is the fleet layer\'s goal, not this part\'s): time NOT met (median)' },
];

for (const c of cases) {
  test(`diff bench goal line: ${c.name}`, () => {
    assert.equal(diffGoalLine(c.leaves, c.ratio, c.ms), c.line);
  });
}
