/**
 * A build's output read and written back by render --leaves (parseManifests, serializeObject)
 * means to kubectl what the build's own text meant: map keys that are not strings (floats, big
 * integers, booleans) become the property names sigs.k8s.io/yaml makes of them, integers beyond
 * 2^53 keep their digits, and a key kubectl refuses (null, beyond int64) is refused at its line.
 * Checked against the real kubectl (ADR 0414).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifests, serializeObject } from '../../src/render/leaves/manifests.js';
import { InputError } from '../../src/errors/index.js';
import { goFloat32Key } from '../../src/yaml/sigs-yaml.js';
import { startKubectlReader } from '../support/kubectl-read.js';
import type { KubectlReader } from '../support/kubectl-read.js';

// Keys whose property name differs between JavaScript's String() and Go's; no two name the same
// property (Go's map order would choose which one kubectl keeps).
const KEYS = [
  '1.0', '1.5', '0.1', '1.23456789', '1e6', '1e3', '100000.0', '1.5e-5', '0.0001', '-0.0', '.inf', '-.Inf', '.nan',
  '12345678901234567890123', '9007199254740993', '-9223372036854775808', '0755', 'on', 'No', 'plain',
];
// Values beyond 2^53: kubectl keeps an int64's digits, and makes a float64 of a uint64.
const VALUES = ['9007199254740993', '-9223372036854775808', '9223372036854775807', '0x20000000000001', '9223372036854775808', '18446744073709551615', '12345678901234567890123', '1e6', '~', '1.0'];

let kubectl: KubectlReader;
before(async () => {
  kubectl = await startKubectlReader();
});
after(async () => {
  await kubectl?.close();
});

const configMap = (lines: string[]) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keys\nspec:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
const written = (text: string) => parseManifests(text, 'built.yaml').map(serializeObject).join('---\n');

test('keys that are not strings are written as kubectl names them', async () => {
  const text = configMap(KEYS.map((k, i) => `${k}: v${i}`));
  const mine = written(text);
  assert.equal(await kubectl.readText(mine), await kubectl.readText(text), mine);
});

test('integers beyond 2^53 keep the digits kubectl keeps', async () => {
  const text = configMap(VALUES.map((v, i) => `k${i}: ${v}`));
  const mine = written(text);
  assert.equal(await kubectl.readText(mine), await kubectl.readText(text), mine);
  assert.match(mine, /k0: 9007199254740993\n/);
});

test('a key kubectl refuses is refused, naming its line', async () => {
  const cases: [string[], RegExp, number][] = [
    [['a: 1', '~: x'], /a map key is null/, 7],
    [['null: x'], /a map key is null/, 6],
    [['b:', '  c: 1', '  NULL: x'], /a map key is null/, 8],
    [['m: {a: 1, ~: x}'], /a map key is null/, 6],
    [['? null', ': x'], /a map key is null/, 6],
    [['18446744073709551615: x'], /a map key is an integer beyond int64 \(18446744073709551615\)/, 6],
  ];
  for (const [lines, message, line] of cases) {
    const text = configMap(lines);
    await assert.rejects(kubectl.readText(text), /unsupported map key/);
    assert.throws(
      () => parseManifests(text, 'built.yaml'),
      (e: unknown) => e instanceof InputError && message.test(e.message) && e.location?.file === 'built.yaml' && e.location.line === line,
      lines.join(' | '),
    );
  }
});

test('a null value and a quoted "null" key stay what they are', () => {
  const objs = parseManifests(configMap(["'null': x", 'a: ~', 'b: [~, null]']), 'built.yaml');
  assert.deepEqual((objs[0] as { spec: unknown }).spec, { null: 'x', a: null, b: [null, null] });
});

test('float keys: strconv.FormatFloat(f, g, -1, 32)', () => {
  const table: [number, string][] = [[1, '1'], [1e6, '1e+06'], [123456, '123456'], [1.5e-5, '1.5e-05'], [0.0001, '0.0001'], [1.23456789, '1.2345679'], [-0, '-0'], [-2.5e-7, '-2.5e-07'], [3.4e39, '.inf'], [1e21, '1e+21'], [16777217, '1.6777216e+07']];
  for (const [f, key] of table) assert.equal(goFloat32Key(f), key, String(f));
});
