/**
 * The schema check reports each issue at its own path, whichever way the check descended (list
 * items, properties, pattern properties, additional properties, alternatives): the path is one
 * list extended and shortened on the way, so every issue must hold a copy of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchema } from '../../src/load/json-schema.js';
import { validateSchema } from '../../src/load/json-schema.js';

const schema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: { type: 'string' } } },
    named: { type: 'object', patternProperties: { '^[a-z]+$': { $ref: '#/$defs/leaf' } }, additionalProperties: false },
    either: { anyOf: [{ type: 'string' }, { type: 'object', properties: { x: { enum: ['a', 'b'] } } }] },
  },
  $defs: { leaf: { type: 'string', pattern: '^v[0-9]+$' } },
};

test('schema issues carry the path of the value they are about', () => {
  const issues = validateSchema(
    { list: [{ n: 1 }, { n: 'two', extra: 3 }], named: { ok: 'v1', bad: 'w2', UPPER: 'v3' }, either: { x: 'c' }, stray: true },
    schema,
  );
  assert.deepEqual(
    issues.map((i) => [i.path, i.message]),
    [
      [['list', 1, 'n'], 'expected an integer, got "two"'],
      [['list', 1, 'extra'], 'expected a string, got 3'],
      [['named', 'bad'], '"w2" does not match the pattern ^v[0-9]+$'],
      [['named', 'UPPER'], 'unknown field "UPPER"'],
      [['either', 'x'], '"c" is not one of "a", "b"'],
      [['stray'], 'unknown field "stray"'],
    ],
  );
});

test('a pattern is tested on every value it applies to, not only the first', () => {
  const s: JsonSchema = { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } };
  assert.deepEqual(
    validateSchema(['a', 'B', 'c', 'D'], s).map((i) => i.path),
    [[1], [3]],
  );
});

test('enum compares strings exactly and other values as JSON', () => {
  const s: JsonSchema = { type: 'array', items: { enum: ['1', 2, null, { k: [1] }] } };
  assert.deepEqual(
    validateSchema(['1', 1, '2', 2, null, { k: [1] }, { k: [2] }], s).map((i) => i.path),
    [[1], [2], [6]],
  );
});
