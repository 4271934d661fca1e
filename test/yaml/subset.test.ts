/**
 * The one position-free YAML subset reader (src/yaml/subset.ts, ADR 0349) against the general
 * parsers, for each of its contracts:
 * - one document, core-schema values (fleet files; was ADR 0328's block-subset reader): every
 *   value it gives is exactly `parseYaml(text, { schema: 'core' })` (js-yaml);
 * - a stream, strings only (cluster Secrets; was ADR 0326's block-mapping reader): its documents
 *   are exactly those both YAML 1.2 core parsers give (js-yaml and the positioned `yaml` package).
 * Named tables, both old generators unchanged (seeded, so a failure names a case that can be
 * replayed), one generator over the whole grammar for all four option pairs, and the security
 * promises: no throw on any input, linear time, `__proto__` refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ONE_CORE_DOCUMENT, STRING_STREAM, readYamlSubset } from '../../src/yaml/subset.js';
import type { SubsetOptions } from '../../src/yaml/subset.js';
import { parseAllDocuments, parseYaml, parseYamlAll } from '../../src/yaml/index.js';
import { parseYamlSource } from '../../src/yaml/source.js';
import { seededRandom } from '../support/random.js';
import { KEYS, VALUES, pick, scalar } from '../support/yaml-subset-cases.js';

const core = (text: string): unknown => parseYaml(text, { schema: 'core' });
/** The fleet-file contract: one document, js-yaml core values. */
const readOneCore = (text: string): unknown => readYamlSubset(text, ONE_CORE_DOCUMENT);
/** The cluster-Secret contract: a stream, strings both core parsers agree on. */
const readStringStream = (text: string): unknown[] | undefined => readYamlSubset(text, STRING_STREAM);

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
  // Left to js-yaml by the block-subset reader of ADR 0328; one grammar with the Secrets' reader now reads them (ADR 0349).
  { name: 'comments after values, quoted values and flow lists', text: `a: 1 # one
b: x # two
c: 'it''s' # three
d: "q # not a comment"
e: [a, 2] # four
f: {} # five
g: # six
  h: 1
` },
  { name: 'non-ASCII text in plain and quoted scalars', text: "a: é\nb: ünïcødé ✓ 𝄞\nc: 'ü'\n" },
];

/** Texts outside the subset: left to js-yaml (undefined), whatever js-yaml makes of them. */
const outside: { name: string; text: string }[] = [
  { name: 'an anchor and an alias', text: 'a: &x 1\nb: *x\n' },
  { name: 'a block scalar', text: 'a: |\n  text\n' },
  { name: 'a multi-line plain scalar', text: 'a: one\n  two\n' },
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
  { name: 'a key without a space after its colon', text: 'a:1\n' },
  { name: 'a scalar document', text: 'hello\n' },
  { name: 'an empty text', text: '' },
  { name: 'a first line that is indented', text: '  a: 1\n' },
  { name: 'a line deeper than its siblings', text: 'a:\n  b: 1\n   c: 2\n' },
  { name: 'a line between two indentation levels', text: 'a:\n    b: 1\n  c: 2\n' },
  { name: 'a mapping followed by a sequence at the same level', text: 'a: 1\n- b\n' },
  { name: 'an item that is a bare dash', text: 'a:\n-\n- b\n' },
  { name: 'a byte-order mark', text: '\ufeffa: 1\n' },
  { name: 'a document end marker', text: 'a: 1\n...\n' },
  { name: 'a directive', text: '%YAML 1.2\n---\na: 1\n' },
  { name: 'a lone surrogate (js-yaml refuses it)', text: 'a: x\ud800y\n' },
  { name: 'a key longer than 1,000 characters', text: `${'k'.repeat(1001)}: 1\n` },
  { name: 'a nested compact sequence', text: 'a:\n- - b\n' },
  { name: 'a flow list with a trailing comma', text: 'a: [b,]\n' },
  { name: 'a flow list followed by text', text: 'a: [b] c\n' },
  { name: 'a comment with no space before it', text: 'a: "b"# c\n' },
];

for (const c of inside) {
  test(`subset (one document, core values) reads ${c.name} as js-yaml does`, () => {
    const v = readOneCore(c.text);
    assert.notEqual(v, undefined, 'expected the text to be inside the subset');
    assert.deepStrictEqual(v, core(c.text));
  });
}

for (const c of outside) {
  test(`subset (one document, core values) leaves ${c.name} to js-yaml`, () => {
    assert.equal(readOneCore(c.text), undefined);
  });
}

test('subset: parseYamlSource gives the same value and positions through either reader', () => {
  const text = inside[0]!.text;
  const src = parseYamlSource('clusters/c0000/cluster.yaml', text).source!;
  assert.deepStrictEqual(src.value, core(text));
  assert.deepStrictEqual(src.locate(['spec', 'apps', 'own-0', 'wave']), { line: 15, column: 13 });
  // A duplicate key is still an error at its place (the subset leaves it to the positioned parser).
  const dup = parseYamlSource('x.yaml', 'a: 1\na: 2\n');
  assert.equal(dup.source, undefined);
  assert.deepStrictEqual(dup.findings.map((f) => [f.code, f.line]), [['duplicate-key', 2]]);
});

test('subset: parseYamlSource keeps a no-break space or a BOM at the start of a value (the block-subset reader of ADR 0328 trimmed them)', () => {
  for (const text of ['a: \u00a0x\n', 'a: \ufeffx\n', 'a:\n- \u3000x\n']) {
    assert.deepStrictEqual(parseYamlSource('x.yaml', text).source!.value, core(text), JSON.stringify(text));
  }
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

test('subset (one document, core values): on random documents and random damage, every value it reads is js-yaml\'s', () => {
  const rnd = random(0x5eed);
  let read = 0;
  for (let i = 0; i < 6000; i++) {
    let text = document(rnd);
    if (i % 3 === 1) text = damage(text, rnd);
    if (i % 3 === 2) text = damage(damage(text, rnd), rnd);
    const v = readOneCore(text);
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

// ---------------------------------------------------------------------------------------------
// The stream, strings-only contract (cluster Secrets; the generator of ADR 0326, unchanged).


/** A block mapping as lines, at an indentation step that is usually 2. */
function streamMapping(r: () => number, depth: number, indent: number, step: number, lines: string[]): void {
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const pad = ' '.repeat(indent);
    const key = r() < 0.95 ? pick(r, KEYS.slice(0, 9)) : pick(r, KEYS);
    if (depth < 3 && r() < 0.3) {
      lines.push(`${pad}${key}:${r() < 0.1 ? ' # open' : r() < 0.1 ? ' ' : r() < 0.02 ? ' x' : ''}`);
      if (r() < 0.05) lines.push(`${pad}  # a comment`);
      streamMapping(r, depth + 1, indent + (r() < 0.98 ? step : step + 1), step, lines);
    } else {
      const v = r() < 0.92 ? pick(r, VALUES.slice(0, 20)) : pick(r, VALUES);
      lines.push(`${pad}${key}:${r() < 0.05 ? '  ' : ' '}${scalar(r, v)}${r() < 0.1 ? ' # comment' : r() < 0.05 ? '  ' : r() < 0.03 ? '#x' : ''}`);
      if (r() < 0.01) lines.push(`${pad}${' '.repeat(step)}continued`);
    }
    if (r() < 0.05) lines.push('');
  }
}

function streamText(r: () => number): string {
  const docs: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let d = 0; d < n; d++) {
    const lines: string[] = [];
    const step = r() < 0.9 ? 2 : pick(r, [1, 3, 4]);
    if (r() < 0.05) lines.push('# a leading comment');
    streamMapping(r, 0, r() < 0.97 ? 0 : 2, step, lines);
    docs.push(lines.join('\n'));
  }
  const sep = (): string => (r() < 0.92 ? '---' : pick(r, ['--- ', '---\n...', '--- # c', '...\n---', '---\n---']));
  let text = (r() < 0.5 ? `${sep()}\n` : '') + docs.join(`\n${sep()}\n`) + (r() < 0.95 ? '\n' : '');
  if (r() < 0.05) {
    // One random character deleted or doubled: whatever it breaks, the reader must not answer differently.
    const at = Math.floor(r() * text.length);
    text = r() < 0.5 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + text[at] + text.slice(at);
  }
  if (r() < 0.02) text = text.replaceAll('\n', '\r\n');
  return text;
}

/** What the `yaml` package reads (documents without errors, null documents left out), or undefined on an error. */
function positioned(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text, { prettyErrors: false });
  if (!Array.isArray(docs)) return undefined;
  if (docs.some((d) => d.errors.length > 0)) return undefined;
  return docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown).filter((x) => x !== null && x !== undefined);
}

function jsYamlCore(text: string): unknown[] | undefined {
  try {
    return parseYamlAll(text, { schema: 'core' }).filter((x) => x !== null && x !== undefined);
  } catch {
    return undefined;
  }
}

test('subset (stream, strings): answers only where both core parsers agree with it, over 4,000 generated streams', () => {
  const r = seededRandom(0x5ec7e7);
  let answered = 0;
  let declined = 0;
  for (let c = 0; c < 4000; c++) {
    const text = streamText(r);
    const fast = readStringStream(text);
    if (fast === undefined) {
      declined++;
      continue;
    }
    answered++;
    assert.deepStrictEqual(fast, positioned(text), `case ${c} (yaml): ${JSON.stringify(text)}`);
    assert.deepStrictEqual(fast, jsYamlCore(text), `case ${c} (js-yaml core): ${JSON.stringify(text)}`);
  }
  // Neither side may be vacuous: the generator reaches the subset and its edges.
  assert.ok(answered > 600, `answered ${answered}`);
  assert.ok(declined > 800, `declined ${declined}`);
});

const named: { name: string; text: string; docs: unknown[] | undefined }[] = [
  { name: 'reads nested block mappings of plain and quoted strings', text: "a: x\nb:\n  c: 'it''s'\n  d: \"q # not a comment\"\ne: f # a comment\n", docs: [{ a: 'x', b: { c: "it's", d: 'q # not a comment' }, e: 'f' }] },
  { name: 'leaves out empty documents and comments', text: '# c\n---\n---\na: b\n---\n# end\n', docs: [{ a: 'b' }] },
  { name: 'reads no document in an empty text', text: '', docs: [] },
  // Declined by the block-mapping reader of ADR 0326; inside the one grammar of ADR 0349, and both parsers agree.
  { name: 'reads a block sequence of strings', text: 'a:\n  - b\n  - c: d\n    e: "f"\n', docs: [{ a: ['b', { c: 'd', e: 'f' }] }] },
  { name: 'reads a flow list of words and empty collections', text: 'a: [b, c/d]\ne: []\nf: {}\n', docs: [{ a: ['b', 'c/d'], e: [], f: {} }] },
  { name: 'declines a value a core schema reads as a number', text: 'a: +.5\n', docs: undefined },
  { name: 'declines a flow-list word a core schema reads as a number', text: 'a: [b, 1_000]\n', docs: undefined },
  { name: 'declines a key with no value (null)', text: 'a:\nb: c\n', docs: undefined },
  { name: 'declines a key with no value at a document end', text: 'a: b\nc:\n---\nd: e\n', docs: undefined },
  { name: 'declines a multi-line plain scalar', text: 'a: b\n  c\n', docs: undefined },
  { name: 'declines a flow mapping', text: 'a: {b: c}\n', docs: undefined },
  { name: 'declines a duplicate key', text: 'a: b\na: c\n', docs: undefined },
  { name: 'declines an escape in a double-quoted scalar', text: 'a: "b\\n"\n', docs: undefined },
  { name: 'declines CRLF line ends', text: 'a: b\r\n', docs: undefined },
  { name: 'declines a __proto__ key', text: '__proto__: b\n', docs: undefined },
  { name: 'declines a lone surrogate (js-yaml refuses the stream)', text: 'a: x\ud800y\n', docs: undefined },
  { name: 'declines a document end marker', text: 'a: b\n...\n', docs: undefined },
  { name: 'declines a marker with text after it', text: '--- a: b\n', docs: undefined },
];

for (const c of named) {
  test(`subset (stream, strings) ${c.name}`, () => {
    const docs = readStringStream(c.text);
    assert.deepStrictEqual(docs, c.docs);
    if (docs !== undefined) {
      assert.deepStrictEqual(docs, positioned(c.text), 'the yaml package');
      assert.deepStrictEqual(docs, jsYamlCore(c.text), 'js-yaml core');
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The whole grammar, for every pair of options: one generator that mixes what each old generator
// made (sequences, flow lists, core-schema look-alikes; several documents, all quoting styles,
// comments after values, non-ASCII), with random damage.

/** Scalars both core parsers read as the same string. */
const STRINGS = ['prod', 'x-1', 'yes', 'a:b', 'a#b', '~x', 'Nope', '10m', '${X}', 'http://x:80/y', '1.2.3', '/x', 'a{b}', "'it''s'", '"q # c"', "'a: b'", 'ünïcødé ✓ 𝄞', '"é"', 'a b :c', 'a,b', 'a]b', '-1x', '$x', '=', '<<', '+x', "''", '""'];
const ALL_SCALARS = [...SCALARS, 'prod', 'it\'s', "'it''s'", '"q # c"', "'a: b'", 'ünïcødé ✓ 𝄞', "'é'", '"é"', 'a b :c', 'a,b', 'a]b', 'x # c', '-1x', '$x', '=', '<<', '2001-12-14', '+.5', '+x'];
const ALL_KEYS = ['a', 'b', 'name', 'x.y/z', 'k-1', '$v', '/p', '_', 'Nope', 'nul', 'true', 'Null', '1a', '<<', '__proto__', 'a b', "'q'", 'é'];

const WORDS = ['a', 'b-1', 'c/d', 'x.y', '_', 'yes', 'Nope', '1.2.3'];

/** `strings`: mostly scalars both parsers read as strings (else most texts would hold a number or a null somewhere). */
function anyDocument(rnd: () => number, strings: boolean): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const scalar = (): string => pick(rnd() < 0.025 ? HARD : rnd() < (strings ? 0.93 : 0.7) ? STRINGS : ALL_SCALARS);
  const comment = (): string => (rnd() < 0.8 ? '' : pick([' # c', '  #c', '#c', ' ']));
  const lines: string[] = [];
  const mapping = (indent: number, depth: number): void => {
    const n = 1 + Math.floor(rnd() * 4);
    const used = new Set<string>();
    for (let i = 0; i < n; i++) {
      let key = rnd() < 0.98 ? pick(ALL_KEYS.slice(0, 9)) : pick(ALL_KEYS);
      // Mostly distinct keys (a duplicate is refused): a generator of refusals would test little.
      if (used.has(key) && rnd() < 0.95) key = `${key}${i}`;
      used.add(key);
      const pad = ' '.repeat(indent);
      const r = rnd();
      const open = (): string => (rnd() < 0.9 ? '' : pick([' # c', ' ', '#c']));
      if (depth < 3 && r < 0.25) {
        lines.push(`${pad}${key}:${open()}`);
        mapping(indent + pick([1, 2, 2, 4]), depth + 1);
      } else if (depth < 3 && r < 0.45) {
        lines.push(`${pad}${key}:${open()}`);
        sequence(indent + pick([0, 2]), depth + 1);
      } else if (r < 0.55) {
        const words = Array.from({ length: Math.floor(rnd() * 4) }, () => (rnd() < 0.92 ? pick(strings ? WORDS : [...WORDS, '.inf', '0x1f', 'null', 'True', '1_000']) : scalar()));
        lines.push(`${pad}${key}: [${words.join(pick([', ', ',', ' , ']))}]${comment()}`);
      } else if (r < (strings ? 0.552 : 0.57)) {
        lines.push(`${pad}${key}:${open()}`);
      } else if (r < 0.6) {
        lines.push(`${pad}${key}: {}${comment()}`);
      } else {
        lines.push(`${pad}${key}:${pick([' ', ' ', '  '])}${scalar()}${comment()}`);
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
        const at = pick([2, 2, 4]);
        mapping(indent + at, depth + 1);
        lines[before] = `${pad}-${' '.repeat(at - 1)}${lines[before]!.slice(indent + at)}`;
      } else if (r < 0.31) {
        lines.push(`${pad}-`);
      } else {
        lines.push(`${pad}- ${scalar()}${comment()}`);
      }
    }
  };
  const docs: string[] = [];
  const n = rnd() < 0.7 ? 1 : 1 + Math.floor(rnd() * 3);
  for (let d = 0; d < n; d++) {
    lines.length = 0;
    if (rnd() < 0.9) mapping(0, 0);
    else sequence(0, 0);
    docs.push(lines.join('\n'));
  }
  const sep = (): string => (rnd() < 0.95 ? '---' : pick(['--- ', '---\n...', '---\n---', '...']));
  return (rnd() < 0.1 ? `${sep()}\n` : '') + docs.join(`\n${sep()}\n`) + pick(['\n', '', '\n\n']);
}

/** What the reader must give under `options`, or undefined where it must not answer (a parser refuses, or the two disagree). */
function reference(text: string, options: SubsetOptions): { value: unknown } | undefined {
  const js = jsYamlCore(text);
  if (js === undefined) return undefined;
  if (options.scalars === 'strings' && !isDeepStrictEqual(js, positioned(text))) return undefined;
  if (options.documents === 'stream') return { value: js };
  return js.length === 1 ? { value: js[0] } : undefined;
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

/** Every scalar is a string (what the strings-only contract promises besides agreement). */
function onlyStrings(v: unknown): boolean {
  if (typeof v === 'string') return true;
  if (Array.isArray(v)) return v.every(onlyStrings);
  if (v !== null && typeof v === 'object') return Object.values(v).every(onlyStrings);
  return false;
}

const PAIRS: SubsetOptions[] = [
  { documents: 'one', scalars: 'core' },
  { documents: 'one', scalars: 'strings' },
  { documents: 'stream', scalars: 'core' },
  { documents: 'stream', scalars: 'strings' },
];

for (const options of PAIRS) {
  test(`subset (${options.documents}, ${options.scalars}): over 5,000 generated texts of the whole grammar, every answer is the parsers' value`, () => {
    const rnd = seededRandom(0x0a11 + PAIRS.indexOf(options));
    let read = 0;
    for (let i = 0; i < 5000; i++) {
      let text = anyDocument(rnd, options.scalars === 'strings');
      if (i % 5 === 1) text = damage(text, rnd);
      if (i % 5 === 2) text = damage(damage(text, rnd), rnd);
      const v = readYamlSubset(text, options);
      if (v === undefined) continue;
      read++;
      const ref = reference(text, options);
      assert.ok(ref !== undefined, `answered where a parser refuses or the two disagree (case ${i}): ${JSON.stringify(text)}`);
      assert.deepStrictEqual(v, ref.value, `case ${i}: ${JSON.stringify(text)}`);
      if (options.scalars === 'strings') assert.ok(onlyStrings(v), `a scalar that is not a string (case ${i}): ${JSON.stringify(text)}`);
    }
    // The generator must reach the subset under every contract, not only its refusals.
    assert.ok(read > 1000, `only ${read} of 5000 texts were inside the subset`);
  });
}

// ---------------------------------------------------------------------------------------------
// Security: never a throw, linear time, no prototype pollution.

test('subset: never throws, on random bytes and on damaged documents', () => {
  const rnd = seededRandom(0xbad);
  const alphabet = ' -:#[]{},"\'\n\r\tab1&*!|>.%\\~\u0085\ufeffé\ud800\udc00';
  for (let i = 0; i < 4000; i++) {
    const text = i % 2 === 0 ? Array.from({ length: Math.floor(rnd() * 60) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('') : damage(damage(anyDocument(rnd, i % 4 === 1), rnd), rnd);
    for (const options of PAIRS) assert.doesNotThrow(() => readYamlSubset(text, options), JSON.stringify(text));
  }
});

test('subset: refuses deep nesting instead of overflowing the stack', () => {
  const deep = Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + '\n';
  for (const options of PAIRS) assert.equal(readYamlSubset(deep, options), undefined);
  const items = Array.from({ length: 3000 }, (_, i) => `${' '.repeat(2 * i)}- a:`).join('\n') + '\n';
  for (const options of PAIRS) assert.equal(readYamlSubset(items, options), undefined);
});

/** CPU milliseconds `f` takes (CPU, not wall: the machine is shared). */
function cpuMs(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

const MB = 1 << 20;
const PATHOLOGICAL: { name: string; text: string }[] = [
  { name: 'a 1 MB plain value of spaces and colons', text: `a: x${' :x'.repeat(MB / 3)}\n` },
  { name: 'a 1 MB plain value of ` a#` (a comment search per character)', text: `a: x${' a#'.repeat(MB / 3)}\n` },
  { name: 'a 1 MB unterminated single-quoted value of quote pairs', text: `a: '${"''".repeat(MB / 2)}\n` },
  { name: 'a 1 MB unterminated double-quoted value', text: `a: "${'x '.repeat(MB / 2)}\n` },
  { name: 'a 1 MB unterminated flow list', text: `a: [${'a, '.repeat(MB / 3)}\n` },
  { name: 'a 1 MB key', text: `${'k'.repeat(MB)}: 1\n` },
  { name: 'a 1 MB line of dashes and spaces', text: `${'- '.repeat(MB / 2)}\n` },
  { name: '1 MB of short lines each with a comment', text: 'a:\n' + Array.from({ length: MB / 16 }, (_, i) => `  k${i}: v # c\n`).join('') },
  { name: '1 MB of short sequence items', text: 'a:\n' + '- x\n'.repeat(MB / 4) },
];

for (const c of PATHOLOGICAL) {
  test(`subset: reads ${c.name} in linear time`, () => {
    // Linear work is a few milliseconds per MB; a quadratic scan would be minutes. 2 s of CPU allows a loaded machine.
    for (const options of PAIRS) {
      const ms = cpuMs(() => readYamlSubset(c.text, options));
      assert.ok(ms < 2000, `${options.documents}/${options.scalars}: ${ms.toFixed(0)} ms of CPU`);
    }
  });
}

test('subset: refuses a __proto__ key anywhere, and the prototype stays clean', () => {
  for (const text of ['__proto__: {}\n', 'a:\n  __proto__:\n    polluted: yes\n', '- __proto__: x\n', 'a: 1\n---\n__proto__: b\n']) {
    for (const options of PAIRS) assert.equal(readYamlSubset(text, options), undefined, `${options.documents}/${options.scalars}: ${JSON.stringify(text)}`);
  }
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  // Other names of Object.prototype are ordinary own keys.
  const v = readYamlSubset('constructor: a\ntoString: b\n', ONE_CORE_DOCUMENT) as Record<string, unknown>;
  assert.deepStrictEqual(Object.entries(v), [['constructor', 'a'], ['toString', 'b']]);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
});
