/**
 * Differential test of the Go template engine against Go itself: generates random templates and
 * data from a seeded generator, executes them with fleetplan and with Go's text/template + sprig
 * (bench/go-gotemplate-oracle, built from Debian's Go packages), and reports every difference in
 * success, output or error text. Not part of `npm test` (which must not need Go).
 *
 *   node dist/bench/gotemplate-fuzz.js [--cases N] [--seed S] [--yaml] [--record FILE]
 *
 * `--yaml` generates `{{ toYaml . }}` cases over random structures and YAML-sensitive strings.
 *
 * `--record FILE` writes the Go results of the generated cases as a fixture for the recorded
 * differential test (test/gotemplate/go-recorded.test.ts), which runs without Go.
 *
 * Known, intended differences (Go 1.19 is older than the Go Argo CD builds with) are filtered:
 * see `intended()`.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GoTemplateError, compileGoTemplate, goValueFromJsonArgoCD } from '../src/gotemplate/index.js';
import { buildGoProgram } from './go-build.js';

export interface FuzzCase {
  template: string;
  data: unknown;
  missingkey: '' | 'zero' | 'error';
}
export interface FuzzResult {
  ok: boolean;
  output: string;
  error: string;
}

/** mulberry32: a small seeded PRNG, so a failing case can be regenerated from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ['a', 'b', 'name', 'n', 'list', 'path', 'x1', 'Z'];
const STRINGS = [
  '', 'x', 'hello world', 'a,b,c', 'true', '1.5', 'héllo', 'a\nb', ' pad ', 'github.com/org/repo', '0', 'yes', 'UPPER lower', '- dash', 'a: b',
  'tab\there', 'trail ', '#hash', 'it\'s', '"dq"', 'multi\nline\n', 'x: y: z', '@at', '0x1F', '1e3', '~', 'null', 'N', '2021-01-02', '1:20',
  'a very long string with many words that goes well past the eighty column limit of the yaml emitter folding',
  'HTTPServer_v2 Name-x', '<b>&amp;</b>', 'ünïcödé ★', '{"j":1}', '[1,2]', '%d %s', '\\back',
]
const NUMBERS = [0, 1, -1, 2, 3, 1.5, -2.25, 1000000, 123456, 1e21, 0.0001, 1e-7, 255, 17];

function genData(r: () => number, depth: number): unknown {
  const k = r();
  if (depth > 2 || k < 0.35) {
    const s = r();
    if (s < 0.45) return STRINGS[Math.floor(r() * STRINGS.length)];
    if (s < 0.8) return NUMBERS[Math.floor(r() * NUMBERS.length)];
    if (s < 0.9) return r() < 0.5;
    return null;
  }
  if (k < 0.55) return Array.from({ length: Math.floor(r() * 4) }, () => genData(r, depth + 1));
  const m: Record<string, unknown> = {};
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) m[KEYS[Math.floor(r() * KEYS.length)]!] = genData(r, depth + 1);
  return m;
}

const FUNCS: [string, number][] = [
  ['print', 2], ['printf "%v|%d|%s|%q|%5.2f|%x|%T"', 3], ['printf "%-8v|%+.3e|%08.2f|%#x|% d|%6.2s|%U|%c|%t"', 3],
  ['printf "%g %G %e %.0f %.10g %#v %+q %x %X"', 3], ['printf "%[2]v %[1]v %*d"', 3], ['printf "%v %v"', 1], ['printf "%!"', 1], ['println', 1], ['len', 1], ['index', 2], ['not', 1], ['and', 2], ['or', 2],
  ['eq', 2], ['ne', 2], ['lt', 2], ['ge', 2], ['html', 1], ['js', 1], ['urlquery', 1], ['slice', 2],
  ['upper', 1], ['lower', 1], ['title', 1], ['trim', 1], ['quote', 2], ['squote', 1], ['default', 2], ['empty', 1], ['coalesce', 2],
  ['toJson', 1], ['toPrettyJson', 1], ['toYaml', 1], ['toString', 1], ['toStrings', 1], ['join ","', 1], ['split ","', 1],
  ['splitList ","', 1], ['replace "o" "0"', 1], ['trunc 3', 1], ['add', 2], ['sub', 2], ['mul', 2], ['max', 2], ['addf', 2],
  ['int', 1], ['int64', 1], ['float64', 1], ['typeOf', 1], ['kindOf', 1], ['list', 2], ['dict "k"', 1], ['keys', 1], ['values', 1],
  ['first', 1], ['last', 1], ['rest', 1], ['uniq', 1], ['has', 2], ['sortAlpha', 1], ['b64enc', 1], ['sha1sum', 1], ['normalize', 1],
  ['regexReplaceAll "[aeiou]" "_"', 1], ['regexFind "[a-z]+"', 1], ['snakecase', 1], ['camelcase', 1], ['base', 1], ['indent 2', 1],
  ['nindent 2', 1], ['contains "a"', 1], ['hasPrefix "h"', 1], ['ternary "y" "n"', 1], ['semverCompare ">=1.0"', 1], ['cat', 2],
];

function genOperand(r: () => number, vars: string[], depth: number): string {
  const k = r();
  if (k < 0.4) {
    const n = 1 + Math.floor(r() * 2);
    return Array.from({ length: n }, () => '.' + KEYS[Math.floor(r() * KEYS.length)]).join('');
  }
  if (k < 0.5 && vars.length > 0) return vars[Math.floor(r() * vars.length)]!;
  if (k < 0.6) return String(NUMBERS[Math.floor(r() * NUMBERS.length)]);
  if (k < 0.72) return JSON.stringify(STRINGS[Math.floor(r() * STRINGS.length)]);
  if (k < 0.76) return r() < 0.5 ? 'true' : 'nil';
  if (k < 0.82) return '.';
  if (depth < 2) return '(' + genPipeline(r, vars, depth + 1) + ')';
  return '$';
}

function genCommand(r: () => number, vars: string[], depth: number, piped: boolean): string {
  if (!piped && r() < 0.35) return genOperand(r, vars, depth);
  const [f, arity] = FUNCS[Math.floor(r() * FUNCS.length)]!;
  const n = Math.max(0, arity - (piped ? 1 : 0));
  return [f, ...Array.from({ length: n }, () => genOperand(r, vars, depth))].join(' ');
}

function genPipeline(r: () => number, vars: string[], depth: number): string {
  const n = 1 + (r() < 0.3 ? 1 : 0);
  const cmds = [genCommand(r, vars, depth, false)];
  for (let i = 1; i < n; i++) cmds.push(genCommand(r, vars, depth, true));
  return cmds.join(' | ');
}

function genTemplate(r: () => number, vars: string[], depth: number): string {
  let out = '';
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    const k = r();
    const trimL = r() < 0.2 ? '- ' : '';
    const trimR = r() < 0.2 ? ' -' : '';
    if (k < 0.2) out += ['x', ' ', '\n', ' - ', 'a:b '][Math.floor(r() * 5)];
    else if (k < 0.25) out += `{{${trimL}/* c */${trimR}}}`;
    else if (k < 0.3 && depth === 0) {
      const name = `t${Math.floor(r() * 3)}`;
      out += r() < 0.5 ? `{{define "${name}"}}${genTemplate(r, [], depth + 1)}{{end}}` : `{{template "${name}" ${genOperand(r, vars, 0)}}}`;
    } else if (k < 0.6 || depth > 1) out += `{{${trimL}${genPipeline(r, vars, 0)}${trimR}}}`;
    else if (k < 0.72) out += `{{${trimL}if ${genPipeline(r, vars, 0)}${trimR}}}${genTemplate(r, vars, depth + 1)}{{else}}${genTemplate(r, vars, depth + 1)}{{end}}`;
    else if (k < 0.82) out += `{{with ${genPipeline(r, vars, 0)}}}${genTemplate(r, vars, depth + 1)}{{end}}`;
    else if (k < 0.94) {
      const v = `$v${depth}`;
      out += `{{range $i${depth}, ${v} := ${genOperand(r, vars, 0)}}}${genTemplate(r, [...vars, v, `$i${depth}`], depth + 1)}{{else}}E{{end}}`;
    } else {
      const v = `$x${depth}${i}`;
      out += `{{${v} := ${genPipeline(r, vars, 0)}}}`;
      vars = [...vars, v];
    }
  }
  return out;
}

/** Strings that exercise go-yaml v2's quoting, folding and block styles. */
const YAML_STRINGS = [
  '', 'x', 'a b', 'true', 'yes', 'Y', 'n', 'null', '~', '1', '1.0', '-1', '+1', '0x1f', '0o17', '1e5', '.5', '1_000', '1:30', '2020-01-02',
  '2020-01-02T03:04:05Z', '- a', '? a', ': a', 'a: b', 'a #b', '#a', '&a', '*a', '!a', '|a', '>a', "'a'", '"a"', '%a', '@a', '`a', 'a,b', '[a]',
  '{a}', ' lead', 'trail ', 'tab\tx', 'multi\nline', 'multi\nline\n', 'ml\n\n', '\nlead nl', 'a \nb', 'a\n b', 'ünïcödé', '日本語', 'emoji 🎉',
  'x'.repeat(90), 'word '.repeat(25).trim(), 'long ' + 'y'.repeat(100) + ' z', 'a  b', '---', '...', 'key:', 'a- b', '-', '=', '<<', '.inf',
  '-.INF', '.NaN', 'on', 'Off', '0b101', '00', '08', '0.0', '-0', 'a\u2028b', 'bell\u0007', 'quote\'s and "dq"', 'back\\slash', 'a\u00a0b',
  'a\u0085b', 'r\rs',
];
const YAML_KEYS = ['a', 'b', 'A', 'B', '_x', 'a1', 'a10', 'a2', 'a02', '1', '10', '2', 'x y', 'n', 'y', 'true', '', 'key:', '-k', 'ü', 'a.b'];

function genYamlValue(r: () => number, depth: number): unknown {
  const k = r();
  if (depth > 3 || k < 0.5) {
    const t = r();
    if (t < 0.7) return YAML_STRINGS[Math.floor(r() * YAML_STRINGS.length)];
    if (t < 0.85) return [0, 1, -1, 1.5, 1e6, 1e21, 1e-7, 123456789, 0.1][Math.floor(r() * 9)];
    if (t < 0.95) return r() < 0.5;
    return null;
  }
  if (k < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => genYamlValue(r, depth + 1));
  const m: Record<string, unknown> = {};
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) m[YAML_KEYS[Math.floor(r() * YAML_KEYS.length)]!] = genYamlValue(r, depth + 1);
  return m;
}

/** `{{ toYaml . }}` over random structures: Argo CD's toYaml against sigs.k8s.io/yaml's go-yaml v2. */
export function generateYamlCases(count: number, seed: number): FuzzCase[] {
  const r = prng(seed);
  return Array.from({ length: count }, () => ({ template: '{{ toYaml . }}', data: { v: genYamlValue(r, 0), w: genYamlValue(r, 1) }, missingkey: '' as const }));
}

export function generateCases(count: number, seed: number): FuzzCase[] {
  const r = prng(seed);
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const data = genData(r, 0);
    const mk = r();
    cases.push({ template: genTemplate(r, [], 0), data, missingkey: mk < 0.15 ? 'error' : mk < 0.25 ? 'zero' : '' });
  }
  return cases;
}

export function runFleetplan(c: FuzzCase): FuzzResult {
  try {
    const t = compileGoTemplate(c.template, c.missingkey ? { missingkey: c.missingkey } : {});
    return { ok: true, output: t.execute(goValueFromJsonArgoCD(c.data)), error: '' };
  } catch (e) {
    if (e instanceof GoTemplateError) return { ok: false, output: '', error: e.message };
    return { ok: false, output: '', error: 'INTERNAL: ' + ((e as Error).stack ?? String(e)) };
  }
}

/** Differences that come from Go 1.19 being older than the Go Argo CD uses, or from ADR 0040. */
function intended(c: FuzzCase, go: FuzzResult, ours: FuzzResult): boolean {
  // Range over an integer (Go 1.22).
  if (!go.ok && /range can't iterate over -?\d+$/.test(go.error)) return true;
  // index at len: Go 1.19 panics inside reflect; newer Go reports "index out of range: N".
  if (/reflect: (slice|string) index out of range$/.test(go.error) && /error calling index: index out of range: \d+$/.test(ours.error)) return true;
  // keys/values: Go's map order is random; fleetplan sorts.
  if (/\b(keys|values)\b/.test(c.template) && go.ok && ours.ok && [...go.output].sort().join('') === [...ours.output].sort().join('')) return true;
  return false;
}

function main(): void {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const count = Number(arg('--cases') ?? 2000);
  const seed = Number(arg('--seed') ?? 1);
  const cases = process.argv.includes('--yaml') ? generateYamlCases(count, seed) : generateCases(count, seed);
  const built = buildGoProgram(join('bench', 'go-gotemplate-oracle'));
  if (typeof built === 'string') {
    process.stdout.write(`gotemplate differential test skipped: ${built}\n`);
    return;
  }
  let goResults: FuzzResult[];
  try {
    goResults = JSON.parse(execFileSync(built.bin, [], { input: JSON.stringify(cases), encoding: 'utf8', maxBuffer: 1 << 28 })) as FuzzResult[];
  } finally {
    built.cleanup();
  }
  let outcome = 0;
  let message = 0;
  let skipped = 0;
  cases.forEach((c, i) => {
    const go = goResults[i]!;
    const ours = runFleetplan(c);
    if (go.ok === ours.ok && go.output === ours.output && go.error === ours.error) return;
    if (intended(c, go, ours)) {
      skipped++;
      return;
    }
    const kind = go.ok !== ours.ok || go.output !== ours.output || ours.error.startsWith('INTERNAL') ? 'OUTCOME' : 'MESSAGE';
    if (kind === 'OUTCOME') outcome++;
    else message++;
    process.stdout.write(
      `${kind} #${i} ${JSON.stringify(c.template)} data=${JSON.stringify(c.data)} mk=${c.missingkey}\n  go: ${JSON.stringify(go)}\n  fp: ${JSON.stringify(ours)}\n`,
    );
  });
  process.stdout.write(
    `gotemplate differential test: ${count} cases (seed ${seed}), ${outcome} outcome differences, ${message} message differences, ${skipped} intended differences\n`,
  );
  const record = arg('--record');
  if (record) {
    const rows = cases
      .map((c, i) => ({ ...c, go: goResults[i]! }))
      .filter((row) => {
        const ours = runFleetplan(row);
        return !intended(row, row.go, ours);
      });
    // One case per line: diffable, and small enough to keep in the repository.
    writeFileSync(record, '[\n' + rows.map((row) => JSON.stringify(row)).join(',\n') + '\n]\n');
    process.stdout.write(`recorded ${rows.length} cases to ${record}\n`);
  }
}

if (process.argv[1]?.endsWith('gotemplate-fuzz.js')) main();
