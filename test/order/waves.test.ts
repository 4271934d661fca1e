import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeWaves, formatCycle } from '../../src/layering/waves.js';
import type { WaveNode } from '../../src/layering/waves.js';

const n = (name: string, explicit?: number, needs: string[] = []): WaveNode => ({ name, explicit, needs });

const cases: { name: string; nodes: WaveNode[]; waves?: Record<string, number>; problems?: string[] }[] = [
  { name: 'an explicit wave is the effective wave', nodes: [n('a', 5)], waves: { a: 5 } },
  { name: 'an app without wave or needs gets the default wave', nodes: [n('a')], waves: { a: 0 } },
  { name: 'needs place an app one wave after its highest need', nodes: [n('op', 20), n('cfg', undefined, ['op'])], waves: { op: 20, cfg: 21 } },
  {
    name: 'needs chain through apps without explicit waves',
    nodes: [n('a', 3), n('b', undefined, ['a']), n('c', undefined, ['b', 'a'])],
    waves: { a: 3, b: 4, c: 5 },
  },
  { name: 'an explicit wave above its needs is kept', nodes: [n('op', 20), n('cfg', 25, ['op'])], waves: { op: 20, cfg: 25 } },
  {
    name: 'an explicit wave not above a need is a conflict naming both apps',
    nodes: [n('metallb-operator', 20), n('metallb-configuration', 6, ['metallb-operator'])],
    problems: ['wave-conflict metallb-configuration@6 needs metallb-operator@20'],
  },
  { name: 'an explicit wave equal to a need is a conflict', nodes: [n('a', 5), n('b', 5, ['a'])], problems: ['wave-conflict b@5 needs a@5'] },
  { name: 'a need naming no app is an error', nodes: [n('a', 1, ['ghost'])], problems: ['unknown-need a needs ghost'] },
  { name: 'a two-app cycle is printed a → b → a', nodes: [n('a', undefined, ['b']), n('b', undefined, ['a'])], problems: ['cycle a → b → a'] },
  { name: 'a self-need is a cycle', nodes: [n('a', undefined, ['a'])], problems: ['cycle a → a'] },
  {
    name: 'a longer cycle is reported once, from its smallest name',
    nodes: [n('c', undefined, ['a']), n('a', undefined, ['b']), n('b', undefined, ['c']), n('d', undefined, ['c'])],
    problems: ['cycle a → b → c → a'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const r = computeWaves(c.nodes);
    const problems = r.problems.map((p) =>
      p.kind === 'cycle'
        ? `cycle ${formatCycle(p.cycle)}`
        : p.kind === 'unknown-need'
          ? `unknown-need ${p.app} needs ${p.need}`
          : `wave-conflict ${p.app}@${p.wave} needs ${p.need}@${p.needWave}`,
    );
    assert.deepEqual(problems, c.problems ?? []);
    for (const [app, wave] of Object.entries(c.waves ?? {})) assert.equal(r.waves.get(app), wave, `wave of ${app}`);
  });
}

test('waves do not depend on the order apps are listed in', () => {
  const a = computeWaves([n('x', 1), n('y', undefined, ['x']), n('z', undefined, ['y'])]);
  const b = computeWaves([n('z', undefined, ['y']), n('y', undefined, ['x']), n('x', 1)]);
  assert.deepEqual([...a.waves.entries()].sort(), [...b.waves.entries()].sort());
});
