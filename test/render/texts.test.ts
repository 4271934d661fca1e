// Content-keyed YAML texts (src/render/texts.ts, ADR 0360): an object equal to one emitted before
// gets that text back; the bytes are always toYaml's, also for values whose JSON says less than
// their YAML (NaN, -0, Dates, boxed primitives, symbols), which are never remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTextMemo, plainData } from '../../src/render/texts.js';
import { toYaml } from '../../src/yaml/serialize.js';
import { seededRandom } from '../support/random.js';
import { loadFleet } from '../../src/api/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { renderCluster } from '../../src/render/fleet.js';
import { writeSyntheticFleet } from '../../bench/synthetic.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Pairs whose JSON texts are equal while their YAML texts are not: each must get its own YAML, in either order. */
const lookAlikes: [string, unknown, unknown][] = [
  ['NaN / null', { a: NaN }, { a: null }],
  ['Infinity / null', { a: Infinity }, { a: null }],
  ['-Infinity / null', { a: [-Infinity] }, { a: [null] }],
  ['-0 / 0', { a: -0 }, { a: 0 }],
  ['-0 in a list / 0', { a: [1, -0] }, { a: [1, 0] }],
  ['a Date / its ISO string', { a: new Date(0) }, { a: '1970-01-01T00:00:00.000Z' }],
  ['toJSON / its value', { a: { toJSON: () => 'x', b: 1 } }, { a: 'x' }],
  ['a boxed string / the string', { a: Object('xy') as unknown }, { a: 'xy' }],
  ['a boxed number / the number', { a: Object(7) as unknown }, { a: 7 }],
  ['a symbol value / no key', { a: Symbol('s'), b: 1 }, { b: 1 }],
  ['undefined in a list / null', [undefined, 1], [null, 1]],
  ['a hole / null', [, 1], [null, 1]], // eslint-disable-line no-sparse-arrays
  ['a function in a list / null', [() => 1], [null]],
  ['a Buffer / its toJSON', { a: Buffer.from('hi') }, { a: { type: 'Buffer', data: [104, 105] } }],
  ['a Map / an empty map', { a: new Map([['k', 'v']]) }, { a: {} }],
  ['a class instance / a plain object', { a: new (class K { x = 1 })() }, { a: { x: 1 } }],
  ['a map of undefined values only / an empty map', { a: { b: undefined } }, { a: {} }],
  ['a document of undefined values only / an empty one', { b: undefined }, {}],
];

for (const [name, x, y] of lookAlikes) {
  test(`look-alikes get their own text, in either order: ${name}`, () => {
    for (const [first, second] of [
      [x, y],
      [y, x],
    ]) {
      const memo = createTextMemo();
      for (let round = 0; round < 2; round++) {
        assert.equal(memo.yaml(first), toYaml(first));
        assert.equal(memo.yaml(second), toYaml(second));
      }
    }
  });
}

test('plainData takes exactly plain maps, lists, strings, booleans, null and finite numbers other than -0', () => {
  for (const [i, v] of ['', 'x', true, false, null, 0, 1.5, -3, 1e21, [], {}, [1, 'a', null, { b: [true] }], { a: undefined, b: 1 }, Object.create(null) as unknown].entries()) {
    assert.equal(plainData(v), true, `plain: #${i}`);
  }
  for (const [, x] of lookAlikes) assert.equal(plainData(x), false, `not plain: ${toYaml(x)}`);
  for (const v of [undefined, -0, NaN, 10n, Symbol('s'), () => 1, { f: () => 1 }, new Date(0), [undefined]]) assert.equal(plainData(v), false);
  let deep: unknown = 'leaf';
  for (let i = 0; i < 150; i++) deep = { d: deep };
  assert.equal(plainData(deep), false, 'deeper than 100 levels is not taken');
});

test('an equal object gets the same text back without emitting; other key orders are still right', () => {
  const memo = createTextMemo();
  const a = { kind: 'Application', metadata: { name: 'x', labels: { a: '1', b: '2' } }, spec: { list: [1, 2, { c: 'd' }] } };
  const first = memo.yaml(a);
  const again = memo.yaml(structuredClone(a));
  assert.equal(again, first);
  assert.deepEqual(memo.stats, { hits: 1, misses: 1, unkeyed: 0, size: 1 });
  const reordered = { spec: { list: [1, 2, { c: 'd' }] }, metadata: { labels: { b: '2', a: '1' }, name: 'x' }, kind: 'Application' };
  assert.equal(memo.yaml(reordered), toYaml(a));
  // A value that differs by one list entry is another text.
  assert.notEqual(memo.yaml({ ...a, spec: { list: [1, 2, { c: 'e' }] } }), first);
});

test('random documents: the remembered text is always toYaml\'s', () => {
  const rand = seededRandom(360);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const strings = ['a', 'b', 'yes', '0', '-0', 'null', 'x: y', 'line\nline', '', ' ', 'é'];
  const leaf = (): unknown => pick<() => unknown>([() => pick(strings), () => Math.floor(rand() * 3) - 1, () => -0, () => NaN, () => null, () => true, () => undefined, () => new Date(0), () => 0.5])();
  const gen = (depth: number): unknown => {
    const r = rand();
    if (depth > 2 || r < 0.35) return leaf();
    if (r < 0.7) return Object.fromEntries(Array.from({ length: Math.floor(rand() * 3) }, () => [pick(strings), gen(depth + 1)]));
    return Array.from({ length: Math.floor(rand() * 3) }, () => gen(depth + 1));
  };
  // A small alphabet: many documents recur, and many look alike.
  const memo = createTextMemo({ generation: 64 });
  for (let i = 0; i < 5000; i++) {
    const d = { doc: gen(0) };
    assert.equal(memo.yaml(d), toYaml(d), JSON.stringify(d));
  }
  assert.ok(memo.stats.hits > 1000, `documents recur: ${JSON.stringify(memo.stats)}`);
  assert.ok(memo.stats.unkeyed > 100, `some are not plain data: ${JSON.stringify(memo.stats)}`);
});

test('memory is bounded: at most two generations of texts; a text in use stays', () => {
  const memo = createTextMemo({ generation: 4 });
  const shared = { kind: 'AppProject', metadata: { name: 'platform' } };
  for (let i = 0; i < 100; i++) {
    memo.yaml(shared);
    memo.yaml({ kind: 'Application', metadata: { name: `app-${i}` } });
    assert.ok(memo.stats.size <= 8, `size ${memo.stats.size}`);
  }
  assert.equal(memo.stats.misses, 101, 'the shared object was emitted once');
  assert.equal(memo.stats.hits, 99);
});

test('renderCluster with the run\'s texts gives the same files as without', () => {
  const root = mkdtempSync(join(tmpdir(), 'fleetplan-texts-'));
  try {
    writeSyntheticFleet(root, { clusters: 12, appsPerCluster: 16 });
    for (const repo of [root, 'examples/lab']) {
      const resolved = resolveFleet(loadFleet(repo).fleet);
      const texts = createTextMemo();
      for (const c of resolved.clusters) {
        const plain = renderCluster(resolved, c);
        const shared = renderCluster(resolved, c, undefined, { texts });
        assert.deepEqual(shared, plain, `${repo}: ${c.name}`);
      }
      assert.ok(texts.stats.hits > 0, `${repo}: clusters share objects (${JSON.stringify(texts.stats)})`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('an object changed after its text was remembered: later objects are compared with what was emitted, not with the changed object', () => {
  const memo = createTextMemo();
  const first = { kind: 'Application', metadata: { name: 'a', annotations: { x: '1' } }, spec: { list: ['p', 'q'] } };
  const text = memo.yaml(first);
  first.metadata.annotations.x = '2';
  first.spec.list.push('r');
  assert.equal(memo.yaml({ kind: 'Application', metadata: { name: 'a', annotations: { x: '1' } }, spec: { list: ['p', 'q'] } }), text);
  const changed = structuredClone(first);
  assert.equal(memo.yaml(changed), toYaml(changed));
  assert.notEqual(memo.yaml(changed), text);
});

test('many variants of one kind and name each get their own text, and the shared one stays found', () => {
  const memo = createTextMemo();
  const shared = { kind: 'Application', metadata: { name: 'app' }, spec: { project: 'platform', n: 0 } };
  for (let i = 0; i < 200; i++) {
    assert.equal(memo.yaml(structuredClone(shared)), toYaml(shared));
    const own = { kind: 'Application', metadata: { name: 'app' }, spec: { project: 'platform', n: i + 1 } };
    assert.equal(memo.yaml(own), toYaml(own));
    // Same shape and name, values that only Object.is tells apart.
    const zero = { kind: 'Application', metadata: { name: 'app' }, spec: { project: 'platform', z: i % 2 === 0 ? -0 : 0 } };
    assert.equal(memo.yaml(zero), toYaml(zero));
  }
  assert.equal(memo.stats.misses, 202, 'the shared object, 200 own ones and the 0 once (-0 is never remembered)');
  assert.ok(memo.stats.size <= 16 + 1, `at most PER_NAME texts for one kind and name (${memo.stats.size})`);
});

test('same entries, other prototype or shape: each gets its own text', () => {
  const memo = createTextMemo();
  const bare = Object.assign(Object.create(null) as Record<string, unknown>, { kind: 'K', metadata: { name: 'n' }, a: ['1'] });
  const cases: unknown[] = [
    { kind: 'K', metadata: { name: 'n' }, a: ['1'] },
    bare,
    { kind: 'K', metadata: { name: 'n' }, a: { 0: '1' } },
    { kind: 'K', metadata: { name: 'n' }, a: ['1', '1'] },
    { kind: 'K', metadata: { name: 'n' }, a: [1] },
    { kind: 'K', metadata: { name: 'n' }, a: ['1'], b: undefined },
    { kind: 'K', metadata: { name: 'n' } },
  ];
  for (let round = 0; round < 2; round++) for (const c of cases) assert.equal(memo.yaml(c), toYaml(c));
  assert.equal(memo.stats.hits, cases.length, 'each was found again in the second round');
});
