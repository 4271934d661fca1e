import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flattenParams, formatGoValue, goJsonMarshal, markStringSlice } from '../../src/appset/go-value.js';

const formats: [unknown, string][] = [
  [123, '123'],
  [1.5, '1.5'],
  [1000000, '1e+06'],
  [1234567, '1.234567e+06'],
  [123456, '123456'],
  [0.0001, '0.0001'],
  [0.00001, '1e-05'],
  [-0, '-0'],
  [true, 'true'],
  [null, '<nil>'],
  [['a', 1], '[a 1]'],
  [{ b: 1, a: 'x' }, 'map[a:x b:1]'],
];

for (const [v, want] of formats) {
  test(`%v of ${JSON.stringify(v)} is ${want}`, () => {
    assert.equal(formatGoValue(v), want);
  });
}

test('flatten: dotted keys, list indexes, empty maps and lists give no key, []string stays one leaf', () => {
  const segments = markStringSlice(['p1', 'app']);
  assert.deepEqual(flattenParams({ a: { b: { c: 1 } }, l: ['x', { y: true }], e: {}, el: [], path: { segments } }, true), {
    'a.b.c': '1',
    'l.0': 'x',
    'l.1.y': 'true',
    'path.segments': '[p1 app]',
  });
});

test('json.Marshal: sorted keys, HTML characters escaped', () => {
  assert.equal(goJsonMarshal({ b: '<&>', a: [1, null] }), '{"a":[1,null],"b":"\\u003c\\u0026\\u003e"}');
});
