import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsYaml from 'js-yaml';
import { parse as yamlParse } from 'yaml';
import { emitYaml, plainSafe } from '../../src/yaml/emit.js';
import { referenceEmitYaml, referencePlainSafe } from '../support/yaml-emit-reference.js';
import { sortDeep } from '../../src/yaml/serialize.js';

/** Both YAML readers must read back exactly what was written. */
function roundTrip(v: unknown): void {
  const text = emitYaml(v);
  assert.ok(text.endsWith('\n') && !text.endsWith('\n\n') || /\|\+\n/.test(text), `one trailing newline:\n${text}`);
  const want = JSON.parse(JSON.stringify(sortDeep(v))) as unknown;
  assert.deepEqual(jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA }), want, `js-yaml reads back:\n${text}`);
  assert.deepEqual(jsYaml.load(text), want, `js-yaml default schema reads back:\n${text}`);
  assert.deepEqual(yamlParse(text, { version: '1.1' }), want, `YAML 1.1 reads back:\n${text}`);
  assert.deepEqual(yamlParse(text), want, `YAML 1.2 reads back:\n${text}`);
}

const tricky = [
  '', ' ', 'a b', 'yes', 'No', 'ON', 'off', 'y', 'N', 'null', '~', 'true', 'False', '0', '012', '0x1F', '1e3', '-1', '+1', '.5', '.inf', '-.Inf', '.NaN',
  '1:20', '2026-11-22', '2026-11-22T10:00:00Z', '=', '<<', '- x', '-x', 'a: b', 'a:b', 'a #b', 'a#b', '#a', '&a', '*a', '!a', '|', '>', "'", '"', '%', '@x', '`x',
  'http://x.example.com:6443/a?b=c&d', '${CLUSTER_NAME}', '$${X}', '{{ .path }}', '[a]', 'a,b', 'ends:', 'ends ', 'tab\there', 'é', '日本', '🙂',
  'line\nline2', 'trailing\n', 'two\n\n', '\nleading', '  indented\nx', 'a\r\nb', 'ServerSideApply=true', 'argocd.argoproj.io/sync-wave', '*', '-', '?', ':',
];

test('every tricky string reads back identically, as a value and as a key', () => {
  for (const s of tricky) {
    roundTrip({ v: s });
    roundTrip({ [s]: 'v' });
    roundTrip([s]);
  }
});

test('nested maps, lists, lists of maps and empty collections read back', () => {
  roundTrip({
    apiVersion: 'argoproj.io/v1alpha1',
    metadata: { annotations: { 'argocd.argoproj.io/sync-wave': '25' }, finalizers: ['resources-finalizer.argocd.argoproj.io'] },
    spec: {
      ignoreDifferences: [{ group: 'apps', jsonPointers: ['/spec/replicas'], kind: 'Deployment' }, {}],
      nested: [[1, 2], [], [[{ a: 1 }]]],
      empty: {},
      none: [],
      n: null,
      nums: [0, -0.5, 1e21, 3, -7],
      b: [true, false],
      lua: 'hs = {}\nif obj.status ~= nil then\n  hs.status = "Healthy"\nend\nreturn hs\n',
    },
  });
});

test('random documents read back identically', () => {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const gen = (depth: number): unknown => {
    const r = rand();
    if (depth > 3 || r < 0.4) return pick<unknown>([pick(tricky), Math.floor(rand() * 1000) - 500, rand() * 10, true, false, null]);
    if (r < 0.7) return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, () => [pick(tricky), gen(depth + 1)]));
    return Array.from({ length: Math.floor(rand() * 4) }, () => gen(depth + 1));
  };
  for (let i = 0; i < 300; i++) roundTrip({ doc: gen(0) });
});

test('a shared subtree is written in full wherever it appears, at each indent', () => {
  const shared = { automated: { prune: false, selfHeal: true }, syncOptions: ['A=1'] };
  const text = emitYaml({ a: { syncPolicy: shared }, b: shared, c: [shared] });
  assert.doesNotMatch(text, /[&*]/);
  roundTrip({ a: { syncPolicy: shared }, b: shared, c: [shared] });
});

// The single-pass plainSafe and the emitter without cut blocks (ADR 0312) against the emitter as
// it was (test/support/yaml-emit-reference.ts): the same answer for every string, the same bytes
// for every document.
const ALPHABET = ['a', 'Z', '0', '9', '_', '.', '/', '\\', '$', '(', ')', '{', '}', '<', '>', '=', '+', '^', '%', '@', ',', ';', ':', '!', '?', "'", '"', '*', '&', '#', '|', '`', '~', '[', ']', '-', ' ', '\t', '\n', '\r', 'é', '\u0085', 'i', 'n', 'f', 'N', 'a', 'y', 'o', 'e', 's', 'l', 'u', 'I', 'F'];

function randomStrings(count: number, seed0: number): string[] {
  let seed = seed0;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const n = Math.floor(rand() * 7);
    for (let j = 0; j < n; j++) s += ALPHABET[Math.floor(rand() * ALPHABET.length)]!;
    out.push(s);
  }
  return out;
}

/** Strings around every rule of plainSafe: reserved words in any case, number prefixes, `: ` and ` #`, indicators first and last. */
const EDGES = [
  ...tricky, '+', '+.', '+.5', '+.inf', '+.INF', '.iNf', '.infx', '.in', '.nanx', '.NAN', '+a', '+.x', '.', '..', '.x', '.0x', '<', '<<<', '<=', 'TRUE', 'tRuE', 'Y', 'nO', 'oN', 'NULL', 'Off', 'yes!',
  'a:', 'a: ', 'a:  b', ' #', 'a #', 'a# ', 'a:#', ':a', 'a :b', 'x\u0085', 'x\u2028', 'x\ufeff', 'x\u007f', 'x\u0000', 'a\\b', '(a)', ';a', '^a', '$a', '=a', '_a', '/a', '9a', 'a-', 'a?', 'a!', "a'", 'a"',
];

test('the single-pass plainSafe answers as the regular expressions did, for every edge case and 200,000 random strings', () => {
  for (const s of [...EDGES, ...randomStrings(200_000, 7)]) assert.equal(plainSafe(s), referencePlainSafe(s), JSON.stringify(s));
});

test('the emitter writes the same bytes as before for random documents, list items of maps and shared subtrees', () => {
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const strings = [...EDGES, ...randomStrings(2000, 3), 'line\nline2\n', 'a\n\n', 'x\ny'];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  // A large subtree reached several times (and at several indents): the memo's path.
  const shared = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key-${i}`, `value number ${i}`]));
  const gen = (depth: number): unknown => {
    const r = rand();
    if (depth > 4 || r < 0.35) return pick<unknown>([pick(strings), Math.floor(rand() * 1000) - 500, rand() * 10, true, false, null, undefined, -0, 1e21, 12n]);
    if (r < 0.42) return shared;
    if (r < 0.7) return Object.fromEntries(Array.from({ length: Math.floor(rand() * 5) }, () => [pick(strings), gen(depth + 1)]));
    return Array.from({ length: Math.floor(rand() * 4) }, () => gen(depth + 1));
  };
  for (let i = 0; i < 3000; i++) {
    const doc = gen(0);
    assert.equal(emitYaml(doc), referenceEmitYaml(doc), `document ${i}`);
  }
  // A map in a list whose keys all have undefined values: the same (odd) bytes as before.
  assert.equal(emitYaml({ a: [{ x: undefined }] }), referenceEmitYaml({ a: [{ x: undefined }] }));
  assert.equal(emitYaml([[shared, shared], [shared]]), referenceEmitYaml([[shared, shared], [shared]]));
});
