/**
 * jsonOf prints a value already in JSON order (every object's keys sorted) with V8's
 * JSON.stringify and anything else with the sorting printer (ADR 0290): both give the same bytes,
 * and `plan` builds its objects in that order so that the fast path is the one taken.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inJsonOrder, jsonOf, sortDeep } from '../../src/yaml/serialize.js';
import { writeSyntheticFleet } from '../../bench/synthetic.js';

/**
 * What jsonOf prints, written plainly: every object's own keys (Object.keys) sorted, undefined and
 * function values left out, null for them in a list, scalars as JSON.stringify writes them, two
 * spaces a level, nested lines indented by `indent`.
 */
function expected(v: unknown, indent: string): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[\n' + Array.from(v, (x: unknown) => inner + expected(x === undefined || typeof x === 'function' ? null : x, inner)).join(',\n') + '\n' + indent + ']';
  }
  const o = v as Record<string, unknown>;
  const entries = Object.keys(o).sort().filter((k) => o[k] !== undefined && typeof o[k] !== 'function');
  if (entries.length === 0) return '{}';
  return '{\n' + entries.map((k) => inner + JSON.stringify(k) + ': ' + expected(o[k], inner)).join(',\n') + '\n' + indent + '}';
}

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

const orderCases: { name: string; value: unknown; inOrder: boolean }[] = [
  { name: 'sorted plain objects, lists and scalars', value: { a: [1, 'x', null, true, { b: [], c: {} }], d: { e: -0.5, f: 'é"\n' } }, inOrder: true },
  { name: 'undefined and function values (left out), and holes in a list (null)', value: { a: undefined, b: () => 1, c: [undefined, () => 1, new Array<unknown>(1)[0], 2], d: new Array<unknown>(2) }, inOrder: true },
  { name: 'an empty object and an empty list', value: { a: {}, b: [] }, inOrder: true },
  { name: 'keys out of order at the top', value: { b: 1, a: 2 }, inOrder: false },
  { name: 'keys out of order deep in a list', value: { a: [{ x: 1 }, { z: 1, y: 2 }] }, inOrder: false },
  { name: 'keys by UTF-16 code units, not locale', value: { B: 1, a: 2, é: 3 }, inOrder: true },
  { name: 'integer-like keys, which V8 lists first', value: sortDeep({ 10: 'a', 9: 'b', x: 'c' }), inOrder: false },
  { name: 'an integer-like key that also sorts first', value: { 1: 'a', b: 'b' }, inOrder: true },
  { name: 'a Date (toJSON)', value: { a: new Date(0) }, inOrder: false },
  { name: 'an own toJSON', value: { toJSON: () => 'x' }, inOrder: false },
  { name: 'a list with a toJSON', value: { a: Object.assign([1], { toJSON: () => 'x' }) }, inOrder: false },
  { name: 'a boxed number', value: { a: Object(5) as unknown }, inOrder: false },
  { name: 'a Map', value: { a: new Map([['k', 1]]) }, inOrder: false },
  { name: 'a class instance', value: { a: new Point(1, 2) }, inOrder: false },
  { name: 'an object without a prototype', value: { a: Object.assign(Object.create(null) as object, { k: 1 }) }, inOrder: false },
  { name: 'a symbol value (JSON.stringify would leave it out of an object)', value: { a: Symbol('s') }, inOrder: false },
  { name: 'an own __proto__ key', value: JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown, inOrder: true },
];

for (const c of orderCases) {
  test(`inJsonOrder: ${c.name}`, () => {
    assert.equal(inJsonOrder(c.value), c.inOrder);
  });
  test(`jsonOf prints the sorted-key JSON at every indent: ${c.name}`, () => {
    for (const indent of ['', '  ', '    ', '      ', '   ']) assert.equal(jsonOf(c.value, indent), expected(c.value, indent), JSON.stringify(indent));
  });
}

test('jsonOf of a list nested in lists at several indents cuts off only the wrapping', () => {
  const v = [[[]], [{ a: [[1]] }], 'x'];
  for (const indent of ['', '  ', '    ', '        ']) assert.equal(jsonOf(v, indent), expected(v, indent));
});

test('plan builds every cluster plan in JSON order, so that plan -o json takes the native printer', async () => {
  const { loadFleet, resolveFleet, planFleet } = await import('../../src/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-json-order-'));
  try {
    writeSyntheticFleet(dir, { clusters: 12, appsPerCluster: 16 });
    for (const repo of ['examples/lab', dir]) {
      const plan = planFleet(resolveFleet(loadFleet(repo).fleet));
      assert.ok(plan.clusters.length > 1);
      for (const c of plan.clusters) assert.ok(inJsonOrder(c), `${repo}: cluster ${c.name}'s plan is not in JSON order`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
