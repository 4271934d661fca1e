// dumpSorted prints the same bytes as js-yaml's dump with the options `fleetplan appset` uses:
// a table of cases (scalars js-yaml quotes, block scalars at several depths, empty collections,
// undefined values, nested sequences, the values it hands to js-yaml itself), then many
// pseudo-random documents built from those scalars with a fixed seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dump } from 'js-yaml';
import { dumpSorted } from '../../src/yaml/sorted-dump.js';

const OPTIONS = { sortKeys: true, lineWidth: -1, noRefs: true } as const;

const STRINGS = [
  '', 'a', 'plain-name', 'cluster-7.example.com', 'argocd/config/component-001', 'A_b.c/d-e',
  'true', 'True', 'FALSE', 'null', 'Null', '~', 'yes', 'No', 'on', 'OFF', 'y', 'N',
  '1', '-1', '+1', '0x1F', '0o17', '1_000', '1e3', '.5', '.inf', '-.Inf', '.NaN', '12:30:45', '2026-01-01', '2026-01-01T00:00:00Z', '<<',
  'https://cluster-1.example.com:6443', '$values/deploy/staging/region-1/argocd/x-values.yaml', '{{ .name }}', '- item', '? q', ': c', 'a: b', 'a #b', 'a#b', '#c',
  'trailing ', ' leading', 'colon:', "it's", '"quoted"', '[x]', '{x}', 'a,b', '@at', '`tick', '%pct', '!bang', '&amp', '*star', '|pipe', '>gt', '=eq',
  'line1\nline2', 'line1\nline2\n', 'ends\n\n', '\n', '\nleading newline', ' indented\nsecond', 'a\n\nb\n', 'tab\there', 'bell\u0007', 'nel\u0085x', 'emoji 🚀', 'ünïcödé', 'x'.repeat(1100),
];

const cases: { name: string; value: unknown }[] = [
  { name: 'every scalar as a value', value: Object.fromEntries(STRINGS.map((s, i) => [`k${String(i).padStart(3, '0')}`, s])) },
  { name: 'every single-line scalar as a key', value: Object.fromEntries(STRINGS.filter((s) => !s.includes('\n')).map((s, i) => [s, i])) },
  { name: 'a key with a line break (js-yaml itself)', value: { 'a\nb': 1, c: 2 } },
  { name: 'a key longer than 1024 characters (js-yaml itself)', value: { ['k'.repeat(1100)]: 'v' } },
  { name: 'block scalars at depth 0 to 4', value: { a: 'x\ny\n', b: { c: 'x\n\ny', d: { e: ['p\nq\n', { f: ' lead\nz' }] } } } },
  { name: 'a top-level block scalar', value: 'one\ntwo\n' },
  { name: 'top-level scalars', value: ['yes', 0, -0, 1.5, 1e21, NaN, -Infinity, null, true] },
  { name: 'numbers', value: { int: 42, neg: -7, zero: 0, negzero: -0, float: 0.1, big: 2 ** 64, exp: 1e-7, inf: Infinity, nan: NaN } },
  { name: 'empty collections', value: { m: {}, l: [], nested: [{}, [], [[]], { x: {} }] } },
  { name: 'undefined values are left out, undefined items are null', value: { a: undefined, b: 1, c: [undefined, 2], d: { e: undefined } } },
  { name: 'nested sequences', value: [[1, [2, [3]]], [{ a: [{ b: 1, c: [] }] }]] },
  { name: 'an empty mapping and an empty sequence at the top', value: {} },
  { name: 'an empty sequence at the top', value: [] },
  { name: 'a Date (js-yaml itself)', value: { when: new Date(0) } },
  { name: 'a null-prototype object', value: Object.assign(Object.create(null) as object, { b: 1, a: 'x' }) },
  { name: 'keys sort by UTF-16 code units', value: { b: 1, B: 2, _: 3, '-': 4, 'é': 5, a1: 6, a10: 7, a2: 8 } },
  {
    name: 'an Application',
    value: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'cluster-1-component-001', namespace: 'argocd', labels: { cluster: 'cluster-1' }, finalizers: ['resources-finalizer.argocd.argoproj.io'] },
      spec: {
        project: 'default',
        sources: [
          { path: 'argocd/config/component-001', repoURL: 'https://github.com/example/fleet.git', targetRevision: 'main', helm: { valueFiles: ['values.yaml', '$values/deploy/staging/region-1/argocd/regional-cluster-values.yaml'], values: 'replicas: 2\nimage:\n  tag: "1.0"\n' } },
          { ref: 'values', repoURL: 'https://github.com/example/fleet.git', targetRevision: 'main' },
        ],
        destination: { server: 'https://cluster-1.example.com:6443', namespace: 'component-001' },
        syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
      },
    },
  },
];

for (const c of cases) {
  test(`dumpSorted equals js-yaml's dump: ${c.name}`, () => {
    assert.equal(dumpSorted(c.value), dump(c.value, OPTIONS));
  });
}

test("dumpSorted equals js-yaml's dump on 2,000 pseudo-random documents", () => {
  let seed = 20260101;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const scalar = (): unknown => {
    const r = rand(10);
    if (r < 7) return STRINGS[rand(STRINGS.length)];
    if (r === 7) return rand(3) === 0 ? null : rand(2) === 0;
    return rand(2) === 0 ? rand(1000) - 500 : rand(1000) / 7;
  };
  const value = (depth: number): unknown => {
    const r = rand(depth > 3 ? 1 : 4);
    if (r === 0) return scalar();
    if (r === 1) return Array.from({ length: rand(4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = rand(5); i > 0; i--) o[String(STRINGS[rand(STRINGS.length)]).slice(0, 40)] = value(depth + 1);
    return o;
  };
  for (let i = 0; i < 2000; i++) {
    const v = value(0);
    assert.equal(dumpSorted(v), dump(v, OPTIONS), JSON.stringify(v));
  }
});
