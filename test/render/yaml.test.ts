import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortDeep, toSortedJson, toYaml } from '../../src/yaml/serialize.js';

test('toSortedJson gives exactly the bytes of JSON.stringify over sorted keys', () => {
  const v = { b: [1, 'x', null, { z: true, a: [] }, [], {}], a: { d: undefined, c: 'é"\n', e: -0.5 }, u: undefined, n: null };
  assert.equal(toSortedJson(v), JSON.stringify(sortDeep(v), null, 2) + '\n');
  assert.equal(toSortedJson([]), '[]\n');
  assert.equal(toSortedJson('s'), '"s"\n');
});

const sortedJsonCases: { name: string; value: unknown }[] = [
  { name: 'keys already in order', value: { a: 1, b: { c: 2, d: [3] } } },
  { name: 'keys out of order, by UTF-16 code units', value: { b: 1, B: 2, a10: 3, a2: 4, é: 5, _: 6, '': 7 } },
  { name: 'undefined and function values left out, null in lists', value: { a: undefined, f: () => 1, l: [undefined, () => 1, 1], o: { x: undefined } } },
  { name: 'the same strings many times (remembered quoting)', value: Array.from({ length: 50 }, (_, i) => ({ name: `app-${i % 3}`, repo: 'https://git.example.com/a.git', note: 'é"\\\n\t\u0001' })) },
  { name: 'numbers and booleans', value: { n: [0, -0, 1.5, -2e-7, 1e21, NaN, Infinity, -Infinity], t: true, f: false } },
  { name: 'keys that need escaping', value: { 'a"b': 1, 'new\nline': 2, '\u2028': 3, 'ünï': 4 } },
  { name: 'nested empties', value: { a: {}, b: [], c: [{}, [], [[]]] } },
  {
    name: 'strings at the edges of the plain characters, and ones JSON.stringify escapes',
    value: Object.fromEntries(
      ['', ' ', '!', '"', '#', '[', '\\', ']', '~', '\u001f', '\u007f', '\u0080', 'é', '\u2028', '\ud800', '\udfff', '\ud83d\ude80', 'a b!#[]~', 'a\\b', 'a"b', 'ok\n'].map((c, i) => [`k${i}${c}`, `x${c}y`]),
    ),
  },
];
for (const c of sortedJsonCases) {
  test(`toSortedJson equals JSON.stringify over sorted keys: ${c.name}`, () => {
    assert.equal(toSortedJson(c.value), JSON.stringify(sortDeep(c.value), null, 2) + '\n');
  });
}

test('the plan streamed cluster by cluster (planFleetLazily) gives the bytes of the whole plan', async () => {
  const { loadFleet, planFleet, resolveFleet, resolveFleetLazily } = await import('../../src/index.js');
  const { planFleetLazily } = await import('../../src/order/plan.js');
  const { planJson, planJsonChunks } = await import('../../src/render/plan-format.js');
  const fleet = loadFleet('examples/lab').fleet;
  assert.equal([...planJsonChunks(planFleetLazily(resolveFleetLazily(fleet)))].join(''), planJson(planFleet(resolveFleet(fleet))));
  assert.equal([...planJsonChunks(planFleetLazily(resolveFleetLazily(fleet, { clusters: ['hub'] })))].join(''), planJson(planFleet(resolveFleet(fleet, { clusters: ['hub'] }))));
  // Findings are known only once every cluster has been resolved.
  assert.throws(() => planFleetLazily(resolveFleetLazily(fleet)).findings, /once every cluster is resolved/);
});

test('toYaml sorts keys, never folds lines and ends with one newline', () => {
  const long = 'x'.repeat(200);
  const y = toYaml({ b: long, a: { d: 1, c: 'yes' } });
  assert.equal(y, `a:\n  c: "yes"\n  d: 1\nb: ${long}\n`);
});

test('toYaml writes shared objects out in full (no anchors)', () => {
  const shared = { k: 'v' };
  assert.doesNotMatch(toYaml({ a: shared, b: shared }), /[&*]/);
});

test('the streamed plan JSON is the sorted JSON of the plan document', async () => {
  const { loadFleet, planFleet, resolveFleet } = await import('../../src/index.js');
  const { planJson, findingJson } = await import('../../src/render/plan-format.js');
  const plan = planFleet(resolveFleet(loadFleet('examples/lab').fleet));
  plan.findings.push({ severity: 'warning', code: 'x', message: 'm', file: 'f', line: 1 });
  const doc = { fleet: plan.fleet, layout: plan.layout, clusters: plan.clusters, findings: plan.findings.map(findingJson) };
  assert.equal(planJson(plan), toSortedJson(doc));
  assert.equal(planJson({ ...plan, clusters: [], findings: [] }), toSortedJson({ ...doc, clusters: [], findings: [] }));
});
