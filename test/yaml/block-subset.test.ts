/**
 * The position-free reader of plain block YAML (ADR 0328) gives exactly what js-yaml's core
 * schema gives, or nothing: every text it answers for is compared with `parseYaml(text, { schema:
 * 'core' })`, on a named table and on random documents and random damage to them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readBlockSubset } from '../../src/yaml/block-subset.js';
import { parseYaml } from '../../src/yaml/index.js';
import { parseYamlSource } from '../../src/yaml/source.js';
import { seededRandom } from '../support/random.js';

const core = (text: string): unknown => parseYaml(text, { schema: 'core' });

/** Texts inside the subset: read, and equal to js-yaml's value. */
const inside: { name: string; text: string }[] = [
  { name: 'a cluster file with nested maps, flow lists and variables', text: `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: c0000
spec:
  role: hub
  region: region-0
  groups: [all, region-0, tier-0]
  vars:
    CLUSTER_BASE_DOMAIN: \${CLUSTER_NAME}.\${PLATFORM_BASE_DOMAIN}
  apps:
    own-0:
      path: components/own-0
      needs: [platform-1]
      wave: 5
` },
  { name: 'core-schema scalars: null, booleans, integers, floats, and words that only look like them', text: `a: null
b: ~x
c: True
d: FALSE
e: 12
f: -3
g: 0x1F
h: 0o17
i: 1.5e3
j: .inf
k: .NaN
l: 0123
m: Nope
n: truex
o: 10m
p: 0123456789abcdef0123456789abcdef01234567
q: -1x
r: _x
s: /path/to
t: \${VAR:-default}
` },
  { name: 'flow lists of numbers and words, and empty collections', text: `a: [1, 2.5, x, .inf, null, true]
b: []
c: {}
d:
e: [ a ,b ]
` },
  { name: 'quoted scalars without escapes', text: `a: "5s"
b: 'yes: no # not a comment'
c: "true"
d: ''
` },
  { name: 'a sequence at the same indentation as its key, and one indented', text: `list:
- a
- 1
other:
  - x: 1
    y: [2]
  - z
` },
  { name: 'sequence items that are mappings, with extra spaces after the dash', text: `items:
  -   name: a
      value: b
  - name: c
` },
  { name: 'comments on their own lines and blank lines', text: `# header
a: 1

  # indented comment
b:
  # inside
  c: 2
` },
  { name: 'a top-level sequence', text: `- a
- b: c
` },
  { name: 'plain scalars with colons, hashes and braces that do not end them', text: `url: https://example.com/x#y
tmpl: a{{ .x }}
time: 12:30
` },
];

/** Texts outside the subset: left to js-yaml (undefined), whatever js-yaml makes of them. */
const outside: { name: string; text: string }[] = [
  { name: 'an anchor and an alias', text: 'a: &x 1\nb: *x\n' },
  { name: 'a block scalar', text: 'a: |\n  text\n' },
  { name: 'a multi-line plain scalar', text: 'a: one\n  two\n' },
  { name: 'a comment after a value', text: 'a: 1 # one\n' },
  { name: 'a duplicate key', text: 'a: 1\na: 2\n' },
  { name: 'a tab', text: 'a:\n\tb: 1\n' },
  { name: 'CRLF line ends', text: 'a: 1\r\nb: 2\r\n' },
  { name: 'a document marker', text: '---\na: 1\n' },
  { name: 'two documents', text: 'a: 1\n---\nb: 2\n' },
  { name: 'a tag', text: 'a: !!str 1\n' },
  { name: 'a flow mapping', text: 'a: {b: 1}\n' },
  { name: 'a flow list over two lines', text: 'a: [b,\n  c]\n' },
  { name: 'an escape in a double-quoted scalar', text: 'a: "x\\ny"\n' },
  { name: 'a key the core schema rewrites', text: 'true: 1\n' },
  { name: 'a numeric key', text: '1: a\n' },
  { name: 'a quoted key', text: '"a": 1\n' },
  { name: 'a __proto__ key', text: '__proto__: 1\n' },
  { name: 'non-ASCII text', text: 'a: é\n' },
  { name: 'a key without a space after its colon', text: 'a:1\n' },
  { name: 'a scalar document', text: 'hello\n' },
  { name: 'an empty text', text: '' },
  { name: 'a first line that is indented', text: '  a: 1\n' },
  { name: 'a line deeper than its siblings', text: 'a:\n  b: 1\n   c: 2\n' },
  { name: 'a line between two indentation levels', text: 'a:\n    b: 1\n  c: 2\n' },
  { name: 'a mapping followed by a sequence at the same level', text: 'a: 1\n- b\n' },
  { name: 'an item that is a bare dash', text: 'a:\n-\n- b\n' },
  { name: 'a byte-order mark', text: '\ufeffa: 1\n' },
];

for (const c of inside) {
  test(`block subset reads ${c.name} as js-yaml does`, () => {
    const v = readBlockSubset(c.text);
    assert.notEqual(v, undefined, 'expected the text to be inside the subset');
    assert.deepStrictEqual(v, core(c.text));
  });
}

for (const c of outside) {
  test(`block subset leaves ${c.name} to js-yaml`, () => {
    assert.equal(readBlockSubset(c.text), undefined);
  });
}

test('block subset: parseYamlSource gives the same value and positions through either reader', () => {
  const text = inside[0]!.text;
  const src = parseYamlSource('clusters/c0000/cluster.yaml', text).source!;
  assert.deepStrictEqual(src.value, core(text));
  assert.deepStrictEqual(src.locate(['spec', 'apps', 'own-0', 'wave']), { line: 15, column: 13 });
  // A duplicate key is still an error at its place (the subset leaves it to the positioned parser).
  const dup = parseYamlSource('x.yaml', 'a: 1\na: 2\n');
  assert.equal(dup.source, undefined);
  assert.deepStrictEqual(dup.findings.map((f) => [f.code, f.line]), [['duplicate-key', 2]]);
});

const random = seededRandom;

/** Scalars the subset reads (as js-yaml does), and scalars it must leave to js-yaml. */
const SCALARS = ['a', 'x-1', 'null', 'Null', '~', '~x', 'true', 'False', 'yes', '0', '12', '-7', '0x1f', '0o7', '0b1', '1_000', '1.5', '-.5', '.inf', '.NaN', '1e3',
  '10m', '5s', '${X}', '$${Y}', 'a:b', 'a#b', '"q"', "'s'", '[a, b]', '[]', '[1,.5, x]', '{}', 'http://x:80/y', '0123', '+1', '1.2.3', '_', '/x', 'nul', 'tru', 'a{b}'];
const HARD = ['a: b', 'a #b', '"a\\"b"', "'it''s'", '{a: 1}', '-', '- a', '|', '>', '&a x', '*a', '!t x', '%x', '@x', '`x', '?', ':', 'é', 'key:', ' ', '[a,', '"'];

/** A random block document: maps, sequences, flow lists and the scalars above, in several indentations. */
function document(rnd: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const scalar = (): string => pick(rnd() < 0.05 ? HARD : SCALARS);
  const lines: string[] = [];
  const mapping = (indent: number, depth: number): void => {
    const n = 1 + Math.floor(rnd() * 4);
    for (let i = 0; i < n; i++) {
      const key = pick(['a', 'b', 'c', 'name', 'x.y/z', 'k-1', 'd', 'e', 'f', scalar()]);
      const pad = ' '.repeat(indent);
      const r = rnd();
      if (depth < 3 && r < 0.25) {
        lines.push(`${pad}${key}:`);
        mapping(indent + pick([1, 2, 4]), depth + 1);
      } else if (depth < 3 && r < 0.45) {
        lines.push(`${pad}${key}:`);
        sequence(indent + pick([0, 2]), depth + 1);
      } else if (r < 0.55) {
        lines.push(`${pad}${key}: [${Array.from({ length: Math.floor(rnd() * 4) }, () => scalar()).join(pick([', ', ',']))}]`);
      } else if (r < 0.6) {
        lines.push(`${pad}${key}:`);
      } else {
        lines.push(`${pad}${key}: ${scalar()}${pick(['', '', '', '', ' ', ' # c'])}`);
      }
      if (rnd() < 0.1) lines.push(pick(['', '# comment', `${pad}  # deeper comment`]));
    }
  };
  const sequence = (indent: number, depth: number): void => {
    const n = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < n; i++) {
      const pad = ' '.repeat(indent);
      const r = rnd();
      if (depth < 3 && r < 0.3) {
        const before = lines.length;
        mapping(indent + 2, depth + 1);
        lines[before] = `${pad}- ${lines[before]!.slice(indent + 2)}`;
      } else if (r < 0.33) {
        lines.push(`${pad}-`);
      } else {
        lines.push(`${pad}- ${scalar()}`);
      }
    }
  };
  if (rnd() < 0.9) mapping(0, 0);
  else sequence(0, 0);
  return lines.join('\n') + pick(['\n', '', '\n\n']);
}

/** Random damage: a character inserted, deleted or replaced somewhere. */
function damage(text: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (text.length + 1));
  const ch = ' -:#[]{},"\'\n\tab1&*!|>'[Math.floor(rnd() * 22)]!;
  const r = rnd();
  if (r < 0.4) return text.slice(0, at) + ch + text.slice(at);
  if (r < 0.7) return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + ch + text.slice(at + 1);
}

test('block subset: on random documents and random damage, every value it reads is js-yaml\'s', () => {
  const rnd = random(0x5eed);
  let read = 0;
  for (let i = 0; i < 6000; i++) {
    let text = document(rnd);
    if (i % 3 === 1) text = damage(text, rnd);
    if (i % 3 === 2) text = damage(damage(text, rnd), rnd);
    const v = readBlockSubset(text);
    if (v === undefined) continue;
    read++;
    let expected: unknown;
    try {
      expected = core(text);
    } catch (e) {
      assert.fail(`the subset read a text js-yaml refuses (${(e as Error).message}):\n${text}`);
    }
    assert.deepStrictEqual(v, expected, `different values for:\n${text}`);
  }
  // The generator must exercise the subset, not only its refusals.
  assert.ok(read > 600, `only ${read} of 6000 texts were inside the subset`);
});
