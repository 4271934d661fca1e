import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GoTemplateOptions } from '../../src/gotemplate/index.js';
import {
  GoTemplateError,
  TypedInt,
  compileGoTemplate,
  goValueFromJsonArgoCD,
  goValueFromJsonIntegralAsInt,
  parseGoTemplateOptions,
} from '../../src/gotemplate/index.js';
import { formatFloat } from '../../src/gotemplate/strconv.js';
import { sprintf } from '../../src/gotemplate/fmt.js';

interface Case {
  name: string;
  template: string;
  data?: unknown;
  options?: GoTemplateOptions;
  /** Data decoded with integral numbers as Go ints instead of Argo CD's float64. */
  ints?: boolean;
  output?: string;
  error?: string;
}

const cases: Case[] = [
  // Argo CD's number reality: JSON numbers are float64.
  { name: 'prints a large integral float64 in exponent form, as Go does', template: '{{ .n }}', data: { n: 1000000 }, output: '1e+06' },
  { name: 'prints a small integral float64 without exponent', template: '{{ .n }}', data: { n: 123456 }, output: '123456' },
  { name: 'prints %d of a float64 as a bad verb', template: '{{ printf "%d" .n }}', data: { n: 17 }, output: '%!d(float64=17)' },
  { name: 'converts with sprig int before %d', template: '{{ int .n | printf "%d" }}', data: { n: 17 }, output: '17' },
  {
    name: 'fails to compare a float64 parameter with an int literal',
    template: '{{ if eq .replicas 3 }}three{{ end }}',
    data: { replicas: 3 },
    error: 'template: base:1:6: executing "base" at <eq .replicas 3>: error calling eq: incompatible types for comparison',
  },
  { name: 'compares ints when the data is read with integral numbers as ints', template: '{{ if eq .replicas 3 }}three{{ end }}', data: { replicas: 3 }, ints: true, output: 'three' },
  {
    name: 'rejects a float64 where sprig wants an int',
    template: '{{ trunc .n "abcdef" }}',
    data: { n: 3 },
    error: 'template: base:1:9: executing "base" at <.n>: wrong type for value; expected int; got float64',
  },
  // Missing keys, nil and missingkey modes.
  { name: 'prints <no value> for a missing key', template: '{{ .a.b }}', data: { x: 1 }, output: '<no value>' },
  {
    name: 'fails on a missing key with missingkey=error',
    template: '{{ .a.b }}',
    data: { x: 1 },
    options: { missingkey: 'error' },
    error: 'template: base:1:5: executing "base" at <.a.b>: map has no entry for key "a"',
  },
  {
    name: 'fails through a JSON null in a field chain',
    template: '{{ .a.b }}',
    data: { a: null },
    error: 'template: base:1:5: executing "base" at <.a.b>: nil pointer evaluating interface {}.b',
  },
  { name: 'prints <no value> for missingkey=zero on interface maps', template: '{{ .y }}', data: {}, options: { missingkey: 'zero' }, output: '<no value>' },
  { name: 'passes a missing key to a function as nil', template: '{{ print .missing }}', data: {}, output: '<nil>' },
  // Syntax.
  { name: 'trims whitespace around trim markers', template: 'a  {{- "b" -}}  c', output: 'abc' },
  { name: 'drops comments', template: 'a{{/* note */}}b{{- /* trimmed */ -}} c', output: 'abc' },
  { name: 'ranges over a map in sorted key order', template: '{{ range $k, $v := . }}{{ $k }}={{ $v }};{{ end }}', data: { b: 1, a: 2 }, output: 'a=2;b=1;' },
  { name: 'ranges over an integer (Go 1.22)', template: '{{ range $i := 3 }}{{ $i }}{{ end }}', output: '012' },
  { name: 'supports else with (Go 1.23)', template: '{{ with .a }}a{{ else with .b }}{{ . }}{{ end }}', data: { b: 'B' }, output: 'B' },
  { name: 'breaks and continues in range', template: '{{ range . }}{{ if eq . "c" }}{{ continue }}{{ end }}{{ if eq . "e" }}{{ break }}{{ end }}{{ . }}{{ end }}', data: ['a', 'c', 'd', 'e', 'f'], output: 'ad' },
  { name: 'assigns a variable declared outside a range', template: '{{ $x := "" }}{{ range . }}{{ $x = . }}{{ end }}{{ $x }}', data: ['a', 'b'], output: 'b' },
  { name: 'short-circuits or (Go 1.18)', template: '{{ or .a (index .missing 1) }}', data: { a: 'x' }, output: 'x' },
  { name: 'calls defined templates and blocks', template: '{{ define "t" }}[{{ . }}]{{ end }}{{ template "t" .a }}{{ block "b" .a }}({{ . }}){{ end }}', data: { a: 1 }, output: '[1](1)' },
  // Parse errors.
  { name: "reports Go's parse error for a stray brace", template: '{{ .a }', error: 'template: base:1: unexpected "}" in operand' },
  { name: 'reports an undefined variable at parse time', template: '{{ $x }}', error: 'template: base:1: undefined variable "$x"' },
  { name: 'treats env as an undefined function, as Argo CD does', template: '{{ env "HOME" }}', error: 'template: base:1: function "env" not defined' },
  { name: 'treats getHostByName as undefined', template: '{{ getHostByName "localhost" }}', error: 'template: base:1: function "getHostByName" not defined' },
  { name: 'names the template in messages', template: '{{ .a }', options: { name: 'app' }, error: 'template: app:1: unexpected "}" in operand' },
  // Function sets.
  { name: 'has no sprig functions in the go set', template: '{{ upper "a" }}', options: { funcs: 'go' }, error: 'template: base:1: function "upper" not defined' },
  { name: 'has no Argo CD functions in the sprig set', template: '{{ normalize "A" }}', options: { funcs: 'sprig' }, error: 'template: base:1: function "normalize" not defined' },
  { name: "uses Go's slice in the go set", template: '{{ slice "abc" 1 }}', options: { funcs: 'go' }, output: 'bc' },
  { name: "uses sprig's slice in the argocd set", template: '{{ slice (list 1 2 3) 1 }}', output: '[2 3]' },
  // Argo CD functions.
  { name: 'normalizes cluster names', template: '{{ normalize "-.--CLUSTER/name  -./.-" }}', output: 'cluster-name' },
  { name: 'slugifies with smart truncation', template: '{{ slugify 20 true "feature/My Branch_with_a_long_name" }}', output: 'feature-my-branch' },
  {
    name: 'writes YAML as sigs.k8s.io/yaml does',
    template: '{{ toYaml . }}',
    data: { b: ['x', 'true'], a: { n: 1.5, s: '' } },
    output: 'a:\n  "n": 1.5\n  s: ""\nb:\n- x\n- "true"',
  },
  { name: 'reads YAML with YAML 1.1 booleans', template: '{{ (fromYaml "a: yes\\nb: 3").a }} {{ (fromYaml "b: 3").b | typeOf }}', output: 'true float64' },
  { name: 'reads a YAML array', template: '{{ fromYamlArray "- a\\n- b" | last }}', output: 'b' },
];

for (const c of cases) {
  test(c.name, () => {
    const data = c.ints ? goValueFromJsonIntegralAsInt(c.data ?? null) : goValueFromJsonArgoCD(c.data ?? null);
    if (c.error !== undefined) {
      assert.throws(
        () => compileGoTemplate(c.template, c.options).execute(data),
        (e: unknown) => e instanceof GoTemplateError && e.message === c.error,
      );
    } else {
      assert.equal(compileGoTemplate(c.template, c.options).execute(data), c.output);
    }
  });
}

test('executes a compiled template many times without carrying state between executions', () => {
  const t = compileGoTemplate('{{ $n := .n }}{{ range .l }}{{ $n = . }}{{ end }}{{ $n }}');
  assert.equal(t.execute({ n: 'a', l: ['b'] }), 'b');
  assert.equal(t.execute({ n: 'c', l: [] }), 'c');
});

test('tells parse errors from execution errors', () => {
  assert.throws(() => compileGoTemplate('{{ if }}'), (e: unknown) => e instanceof GoTemplateError && e.phase === 'parse');
  assert.throws(
    () => compileGoTemplate('{{ index .l 5 }}').execute({ l: [] }),
    (e: unknown) => e instanceof GoTemplateError && e.phase === 'exec',
  );
});

test('converts JSON numbers as Argo CD does (float64) or as the vectors do (integral → int)', () => {
  assert.deepEqual(goValueFromJsonArgoCD({ a: [1, 1.5] }), { a: [1, 1.5] });
  const ints = goValueFromJsonIntegralAsInt({ a: [1, 1.5] }) as { a: unknown[] };
  assert.deepEqual(ints.a, [1n, 1.5]);
});

test('keeps sprig integer results typed (add returns int64)', () => {
  assert.equal(compileGoTemplate('{{ add 1 2 | typeOf }} {{ len "ab" | typeOf }}').execute(null), 'int64 int');
  assert.ok(new TypedInt('int64', 3n).v === 3n);
});

const floats: [number, string, number, string][] = [
  [1e6, 'g', -1, '1e+06'],
  [123456, 'g', -1, '123456'],
  [1.5, 'g', -1, '1.5'],
  [0.0001, 'g', -1, '0.0001'],
  [0.00001, 'g', -1, '1e-05'],
  [2.5, 'f', 0, '2'],
  [3.5, 'f', 0, '4'],
  [1.005, 'f', 2, '1.00'],
  [1234.5678, 'e', 6, '1.234568e+03'],
  [0, 'e', 2, '0.00e+00'],
  [1234.5678, 'g', 3, '1.23e+03'],
  [-0, 'g', -1, '-0'],
];
for (const [v, fmt, prec, want] of floats) {
  test(`formats ${v} with strconv ${fmt} precision ${prec} as ${want}`, () => {
    assert.equal(formatFloat(v, fmt, prec), want);
  });
}

const printfs: [string, unknown[], string][] = [
  ['%5.2f|%-5d|%05d', [3.14159, 42n, -42n], ' 3.14|42   |-0042'],
  ['%v %v', ['a'], 'a %!v(MISSING)'],
  ['%d', [1n, 'x'], '1%!(EXTRA string=x)'],
  ['%[2]d %[1]d', [1n, 2n], '2 1'],
  ['%q %x %X', ['hi', 'hi', 255n], '"hi" 6869 FF'],
  ['%v', [{ b: 2, a: [1, null] }], 'map[a:[1 <nil>] b:2]'],
  ['%T %T %T', [1n, 1.5, null], 'int float64 <nil>'],
];
for (const [format, args, want] of printfs) {
  test(`sprintf ${JSON.stringify(format)} gives ${JSON.stringify(want)}`, () => {
    assert.equal(sprintf(format, args as never), want);
  });
}

test("reads ApplicationSet goTemplateOptions as Go's Template.Option does", () => {
  assert.deepEqual(parseGoTemplateOptions([]), { missingkey: 'default' });
  assert.deepEqual(parseGoTemplateOptions(['missingkey=error']), { missingkey: 'error' });
  assert.deepEqual(parseGoTemplateOptions(['missingkey=zero', 'missingkey=invalid']), { missingkey: 'default' });
  assert.throws(() => parseGoTemplateOptions(['missingkey=maybe']), /^GoTemplateError: unrecognized option: missingkey=maybe$/);
});

test('names templates "" as Argo CD does when asked', () => {
  assert.throws(
    () => compileGoTemplate('{{ .a.b }}', { name: '', missingkey: 'error' }).execute({}),
    (e: unknown) => e instanceof GoTemplateError && e.message === 'template: :1:5: executing "" at <.a.b>: map has no entry for key "a"',
  );
});

test('reads YAML as go-yaml v2 does (YAML 1.1 scalars, merge keys, last duplicate wins)', () => {
  const y = 'a: 0777\nb: 1_000\nc: 0b101\nd: 2001-12-14\ne: on\nbase: &b {x: 1}\nm:\n  <<: *b\n  z: 2\nf: 1\nf: 2\n';
  assert.equal(
    compileGoTemplate('{{ fromYaml .y | toJson }}').execute({ y }),
    '{"a":511,"b":1000,"base":{"x":1},"c":5,"d":"2001-12-14","e":true,"f":2,"m":{"x":1,"z":2}}',
  );
});
