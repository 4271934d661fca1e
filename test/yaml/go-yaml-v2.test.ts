/**
 * The `kubernetes` schema (src/yaml/go-yaml.ts) reads a plain scalar as kubectl does (go-yaml v2
 * through sigs.k8s.io/yaml), checked against the real kubectl; and a string written with it reads
 * back, through kubectl, as the same string.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dumpYaml, parseYaml } from '../../src/yaml/index.js';
import { startKubectlReader } from '../support/kubectl-read.js';
import type { KubectlReader } from '../support/kubectl-read.js';

// Plain scalars whose meaning differs between YAML 1.1, YAML 1.2 core and go-yaml v2.
const SCALARS = [
  '0755', '0o755', '+0755', '-0755', '08', '0', '00', '0x1F', '-0x1F', '0X1f', '0b101', '-0b101', '1_000', '-_1', '0x_1F',
  '1:20', '190:20:30', 'on', 'On', 'ON', 'off', 'yes', 'No', 'y', 'Y', 'n', 'true', 'False', '~', 'null', 'NULL',
  '1e3', '1E3', '1.', '.5', '-.5', '+.5', '.5_0', '1_0.5', '1.5e1_0', '1e999', '-1e999',
  '2024-01-01', '2024-1-2', '2001-12-14t21:59:43.10-05:00', '9007199254740993', '-9223372036854775808', '9223372036854775807',
  '1e', '0x', '0o8', '0b2', '+', '.', '._5', '1__0', 'Infinity', 'NaN', '12e+3', '-0', '-0.0', '0.0', '3.14',
];

// Floats JSON cannot carry: kubectl refuses the document.
const NON_FINITE: [string, number][] = [['.inf', Infinity], ['-.Inf', -Infinity], ['+.INF', Infinity], ['.nan', NaN]];

let kubectl: KubectlReader;
before(async () => {
  kubectl = await startKubectlReader();
});
after(async () => {
  await kubectl?.close();
});

const configMap = (lines: string[]) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scalars\ndata:\n${lines.join('\n')}\n`;

test('the kubernetes schema reads every plain scalar as kubectl does', async () => {
  const text = configMap(SCALARS.map((s, i) => `  k${i}: ${s}`));
  const theirs = ((await kubectl.read(text))[0] as { data: Record<string, unknown> }).data;
  const ours = (parseYaml(text, { schema: 'kubernetes' }) as { data: Record<string, unknown> }).data;
  SCALARS.forEach((s, i) => {
    // JSON carries no -0 (kubectl prints 0) and no big-integer exactness beyond float64 here.
    const mine = ours[`k${i}`];
    assert.deepEqual(typeof mine === 'number' && Object.is(mine, -0) ? 0 : mine, theirs[`k${i}`], `${s}`);
  });
});

test('the kubernetes schema reads .inf and .nan as floats, which kubectl refuses to send', async () => {
  for (const [s, v] of NON_FINITE) {
    assert.deepEqual(parseYaml(`a: ${s}\n`, { schema: 'kubernetes' }), { a: v });
    await assert.rejects(kubectl.read(configMap([`  a: ${s}`])), /unsupported value: (\+|-)?(Inf|NaN)/);
  }
});

test('the core schema does not: 0755 is 755 and on a string there, which is why manifests are not read with it', () => {
  const core = parseYaml('a: 0755\nb: on\n', { schema: 'core' }) as Record<string, unknown>;
  assert.deepEqual(core, { a: 755, b: 'on' });
  assert.deepEqual(parseYaml('a: 0755\nb: on\n', { schema: 'kubernetes' }), { a: 493, b: true });
});

test('a string written with the kubernetes schema reads back through kubectl as the same string', async () => {
  const strings = [...SCALARS, 'plain', 'a: b', '#x', ''];
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'strings' }, data: Object.fromEntries(strings.map((s, i) => [`k${i}`, s])) };
  const text = dumpYaml(obj, { sortKeys: true, lineWidth: -1, noRefs: true, schema: 'kubernetes' });
  const theirs = ((await kubectl.read(text))[0] as { data: Record<string, unknown> }).data;
  strings.forEach((s, i) => assert.equal(theirs[`k${i}`], s, `${JSON.stringify(s)} written as ${JSON.stringify(text.split('\n').find((l) => l.startsWith(`  k${i}:`)))}`));
});

test('a string that is a float only by its syntax (1e999, out of range) is quoted too, for YAML 1.2 readers that make Infinity of it', () => {
  assert.equal(dumpYaml({ a: '1e999', b: '-.5e999', c: 'x1e999' }, { schema: 'kubernetes' }), "a: '1e999'\nb: '-.5e999'\nc: x1e999\n");
});
