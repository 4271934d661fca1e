import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortDeep, toSortedJson, toYaml } from '../../src/yaml/serialize.js';

test('toSortedJson gives exactly the bytes of JSON.stringify over sorted keys', () => {
  const v = { b: [1, 'x', null, { z: true, a: [] }, [], {}], a: { d: undefined, c: 'é"\n', e: -0.5 }, u: undefined, n: null };
  assert.equal(toSortedJson(v), JSON.stringify(sortDeep(v), null, 2) + '\n');
  assert.equal(toSortedJson([]), '[]\n');
  assert.equal(toSortedJson('s'), '"s"\n');
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
