// The block-mapping reader (src/yaml/block-mapping.ts, ADR 0326) against the general parsers, over
// generated YAML streams: wherever it answers, its documents are exactly those both YAML 1.2 core
// parsers give (the positioned `yaml` package and js-yaml), and parseClusterSecrets (which tries it
// first) gives exactly what the positioned path gives — the same Secrets or the same error at the
// same place. The generator is seeded, so a failure names a case that can be replayed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlockMappingStream } from '../../src/yaml/block-mapping.js';
import { parseAllDocuments, parseYamlAll } from '../../src/yaml/index.js';
import { parseClusterSecrets, parseClusterSecretsWithPositions } from '../../src/appset/load.js';
import { sortApplications } from '../../src/appset/format.js';
import type { GeneratedApplication } from '../../src/appset/applications.js';
import { seededRandom } from '../support/random.js';

const prng = seededRandom;

const KEYS = [
  'name', 'namespace', 'env', 'argocd.argoproj.io/secret-type', 'cluster_type', 'a.b/c-d_e', 'x', 'config', 'server',
  // outside the subset or read otherwise by a core schema
  '1abc', '10', 'true', 'Null', '~', '__proto__', 'a b', '-a', '<<', '.inf', "'q'", '"q"', 'k:', '?k', '&a', 'ü',
];
const VALUES = [
  'prod', 'cluster', 'https://c.example.com:6443', 'main', 'it\'s', 'a#b', 'a  b', 'x:y', '{}', '=', '<<', 'yes', 'no', 'on',
  'ünïcødé ✓ 𝄞', 'a\\b', '2001-12-14', 'a b :c', 'a,b', 'a]b',
  // read as something else than a string, or outside the subset
  '+.5', '1_000', '0x1F', '0o17', '1e3', '.5', '-.5', '5.', '.inf', '-.Inf', '.NaN', '10', '-1', 'true', 'True', 'FALSE', 'null', '~', '',
  'a #b', 'a: b', 'a:', '- x', '-x', '[a]', '{a: b}', '!t x', '!!str x', '&a x', '*a', '|', '>', '%x', '@x', '`x', '? x', ':x', '#x',
  "'", '"', 'a"b', "a'b", ' lead', 'trail ', 'a\tb', 'a\rb', 'a\u0085b', '\ufeffx',
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function scalar(r: () => number, v: string): string {
  const q = r();
  if (q < 0.6) return v;
  if (q < 0.8) return `'${v.replaceAll("'", "''")}'`;
  return `"${v}"`;
}

/** A block mapping as lines, at an indentation step that is usually 2. */
function mapping(r: () => number, depth: number, indent: number, step: number, lines: string[]): void {
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const pad = ' '.repeat(indent);
    const key = r() < 0.95 ? pick(r, KEYS.slice(0, 9)) : pick(r, KEYS);
    if (depth < 3 && r() < 0.3) {
      lines.push(`${pad}${key}:${r() < 0.1 ? ' # open' : r() < 0.1 ? ' ' : r() < 0.02 ? ' x' : ''}`);
      if (r() < 0.05) lines.push(`${pad}  # a comment`);
      mapping(r, depth + 1, indent + (r() < 0.98 ? step : step + 1), step, lines);
    } else {
      const v = r() < 0.92 ? pick(r, VALUES.slice(0, 20)) : pick(r, VALUES);
      lines.push(`${pad}${key}:${r() < 0.05 ? '  ' : ' '}${scalar(r, v)}${r() < 0.1 ? ' # comment' : r() < 0.05 ? '  ' : r() < 0.03 ? '#x' : ''}`);
      if (r() < 0.01) lines.push(`${pad}${' '.repeat(step)}continued`);
    }
    if (r() < 0.05) lines.push('');
  }
}

function stream(r: () => number): string {
  const docs: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let d = 0; d < n; d++) {
    const lines: string[] = [];
    const step = r() < 0.9 ? 2 : pick(r, [1, 3, 4]);
    if (r() < 0.05) lines.push('# a leading comment');
    mapping(r, 0, r() < 0.97 ? 0 : 2, step, lines);
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

test('the block-mapping reader answers only where both core parsers agree with it, over 4,000 generated streams', () => {
  const r = prng(0x5ec7e7);
  let answered = 0;
  let declined = 0;
  for (let c = 0; c < 4000; c++) {
    const text = stream(r);
    const fast = parseBlockMappingStream(text);
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

const SECRET_FIELDS = ['namespace', 'labels', 'annotations', 'type', 'data', 'stringData'] as const;

function secretStream(r: () => number): string {
  const docs: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let d = 0; d < n; d++) {
    const lines = ['apiVersion: v1', r() < 0.97 ? 'kind: Secret' : pick(r, ['kind: ConfigMap', "kind: 'Secret'", 'kind: "Secret"']), 'metadata:', `  name: ${scalar(r, r() < 0.9 ? `cluster-${d}` : pick(r, VALUES))}`];
    for (const f of SECRET_FIELDS) {
      if (r() < 0.3) continue;
      if (f === 'namespace') lines.push(`  namespace: ${r() < 0.9 ? 'argocd' : scalar(r, pick(r, VALUES))}`);
      else if (f === 'type') lines.push('type: Opaque');
      else {
        const top = f === 'labels' || f === 'annotations';
        lines.push(`${top ? '  ' : ''}${f}:`);
        const pad = top ? '    ' : '  ';
        const m = 1 + Math.floor(r() * 3);
        for (let i = 0; i < m; i++) {
          const key = f === 'labels' && i === 0 && r() < 0.8 ? 'argocd.argoproj.io/secret-type' : pick(r, KEYS.slice(0, 9));
          let v = key === 'argocd.argoproj.io/secret-type' ? 'cluster' : r() < 0.8 ? pick(r, VALUES.slice(0, 20)) : pick(r, VALUES);
          if (f === 'data') v = r() < 0.85 ? Buffer.from(v).toString('base64') : v;
          lines.push(`${pad}${key}: ${scalar(r, v)}${r() < 0.1 ? ' # c' : ''}`);
        }
      }
    }
    docs.push(lines.join('\n'));
  }
  return `---\n${docs.join('\n---\n')}\n`;
}

const outcome = (f: () => unknown): unknown => {
  try {
    return { ok: f() };
  } catch (e) {
    const err = e as Error & { location?: unknown; hint?: string; code?: string };
    return { error: err.message, location: err.location, hint: err.hint, code: err.code };
  }
};

test('cluster Secrets read through the block-mapping reader are the positioned path\'s Secrets or its error, over 2,000 generated streams', () => {
  const r = prng(0xc1a55);
  let answered = 0;
  for (let c = 0; c < 2000; c++) {
    const text = secretStream(r);
    if (parseBlockMappingStream(text) !== undefined) answered++;
    assert.deepStrictEqual(outcome(() => parseClusterSecrets(text, 'clusters.yaml')), outcome(() => parseClusterSecretsWithPositions(text, 'clusters.yaml')), `case ${c}: ${JSON.stringify(text)}`);
  }
  assert.ok(answered > 300, `answered ${answered}`);
});

const named: { name: string; text: string; docs: unknown[] | undefined }[] = [
  { name: 'reads nested block mappings of plain and quoted strings', text: "a: x\nb:\n  c: 'it''s'\n  d: \"q # not a comment\"\ne: f # a comment\n", docs: [{ a: 'x', b: { c: "it's", d: 'q # not a comment' }, e: 'f' }] },
  { name: 'leaves out empty documents and comments', text: '# c\n---\n---\na: b\n---\n# end\n', docs: [{ a: 'b' }] },
  { name: 'declines a value a core schema reads as a number', text: 'a: +.5\n', docs: undefined },
  { name: 'declines a key with no value (null)', text: 'a:\nb: c\n', docs: undefined },
  { name: 'declines a multi-line plain scalar', text: 'a: b\n  c\n', docs: undefined },
  { name: 'declines a flow mapping', text: 'a: {b: c}\n', docs: undefined },
  { name: 'declines a sequence', text: 'a:\n  - b\n', docs: undefined },
  { name: 'declines a duplicate key', text: 'a: b\na: c\n', docs: undefined },
  { name: 'declines an escape in a double-quoted scalar', text: 'a: "b\\n"\n', docs: undefined },
  { name: 'declines CRLF line ends', text: 'a: b\r\n', docs: undefined },
  { name: 'declines a __proto__ key', text: '__proto__: b\n', docs: undefined },
];

test('the block-mapping reader: named cases', () => {
  for (const c of named) assert.deepStrictEqual(parseBlockMappingStream(c.text), c.docs, c.name);
});

test('sortApplications orders by name, then generation order, as a stable sort of the Applications by name does', () => {
  const r = prng(0x50f7);
  const apps = Array.from({ length: 5000 }, (_, i) => ({ application: { metadata: { name: `app-${Math.floor(r() * 700)}${r() < 0.1 ? 'ü' : ''}` } }, params: {}, generator: `g${i}` }) as unknown as GeneratedApplication);
  const reference = [...apps].sort((x, y) => {
    const a = x.application.metadata.name!;
    const b = y.application.metadata.name!;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  assert.deepStrictEqual(sortApplications(apps).map((a) => a.generator), reference.map((a) => a.generator));
});
