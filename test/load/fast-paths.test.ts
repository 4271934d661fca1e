// The loading shortcuts of ADR 0165 (issue 11 part 5) read files exactly as the full paths do:
// a text without `*` skips the walk for YAML aliases, and schema patterns are compiled once and
// reused across values and files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlSource } from '../../src/yaml/source.js';
import { validateSchema } from '../../src/load/json-schema.js';
import type { JsonSchema } from '../../src/load/json-schema.js';

test('a file with aliases is still read through the positioned parser (merge keys applied, positions known)', () => {
  const text = 'base: &b {a: 1, l: [x]}\none: *b\ntwo:\n  <<: *b\n  c: 2\n';
  const r = parseYamlSource('f.yaml', text);
  assert.deepEqual(r.findings, []);
  const v = r.source!.value as Record<string, Record<string, unknown>>;
  assert.deepEqual(v, { base: { a: 1, l: ['x'] }, one: { a: 1, l: ['x'] }, two: { a: 1, l: ['x'], c: 2 } });
  assert.deepEqual(r.source!.locate(['two', 'c']), { line: 5, column: 6 });
});

test('a file with `*` only inside strings reads the same values, and positions are found on demand', () => {
  const text = 'a: "x*y"\nb: \'*\'\nc: [p*, q]\nd:\n  e: 1\n';
  const r = parseYamlSource('f.yaml', text);
  assert.deepEqual(r.findings, []);
  assert.deepEqual(r.source!.value, { a: 'x*y', b: '*', c: ['p*', 'q'], d: { e: 1 } });
  assert.deepEqual(r.source!.locate(['d', 'e']), { line: 5, column: 6 });
});

test('a file without `*` reads the same values as before and finds positions on demand', () => {
  const r = parseYamlSource('f.yaml', 'a:\n  - 1\n  - {b: c}\n');
  assert.deepEqual(r.source!.value, { a: [1, { b: 'c' }] });
  assert.deepEqual(r.source!.locate(['a', 1, 'b']), { line: 3, column: 9 });
});

test('schema patterns and pattern properties give the same issues on every check (compiled once, no state kept)', () => {
  const schema: JsonSchema = {
    type: 'object',
    patternProperties: { '^[a-z]+$': { type: 'string', pattern: '^v[0-9]+$' }, '^[A-Z]+$': { type: 'integer' } },
    additionalProperties: false,
  };
  const value = { ok: 'v1', bad: 'x', UP: 'no', 'Mixed-1': 1 };
  const expected = [
    { path: ['bad'], message: '"x" does not match the pattern ^v[0-9]+$' },
    { path: ['UP'], message: 'expected an integer, got "no"' },
    { path: ['Mixed-1'], message: 'unknown field "Mixed-1"', unknownField: true, hint: 'remove it' },
  ];
  for (let i = 0; i < 3; i++) assert.deepEqual(validateSchema(value, schema), expected, `check ${i + 1}`);
  assert.deepEqual(validateSchema({ ok: 'v2' }, schema), []);
});
