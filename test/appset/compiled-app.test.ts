// A template compiled once into its holes (src/appset/compiled-app.ts, ADR 0273) must give what
// rendering every Application as an object gives: the same objects (key order included), the
// same bytes in every output format, the same rejected Applications, the same errors. Checked on
// generated ApplicationSets (goTemplate and flat, templated keys, values that need quoting,
// multi-line strings, numbers as strings, finalizers, templatePatch, missing keys).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateApplications } from '../../src/appset/applications.js';
import type { GenerateOptions, GenerateResult } from '../../src/appset/applications.js';
import { CompiledApplication } from '../../src/appset/compiled-app.js';
import { formatApplicationBytes, formatApplications } from '../../src/appset/format.js';
import type { FormatOptions } from '../../src/appset/format.js';
import type { ApplicationSet, JsonObject } from '../../src/appset/types.js';
import { goEngine } from './go-engine.js';
import { Renderer, slotJoiner } from '../../src/appset/render.js';
import { seededRandom } from '../support/random.js';

const rng = seededRandom;

/** Strings a YAML printer must quote, fold or keep as they are. */
const AWKWARD = [
  'plain',
  'with-dash.dot/slash',
  'true',
  'No',
  'yes',
  'null',
  '~',
  '123',
  '0x1F',
  '1e3',
  '-.5',
  '.inf',
  '08',
  '1_000',
  'a: b',
  '- x',
  ' lead',
  'trail ',
  '#comment',
  '',
  'ünïcødé ✓ 𝄞',
  "it's",
  '"q"',
  '@at',
  '*star',
  '&amp',
  '!tag',
  '%pct',
  '`tick',
  '{x}',
  '[y]',
  ',',
  '?',
  'a\tb',
  'line1\nline2',
  'line1\n\n  line3\n',
  'trailing newline\n',
  ' \n',
  'x'.repeat(120),
  '<html>&',
];

interface Case {
  appSet: ApplicationSet;
  description: string;
}

function makeCase(seed: number): Case {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const goTemplate = r() < 0.6;
  const hole = (key: string): string => (goTemplate ? pick([`{{ .${key} }}`, `{{.${key}}}`]) : pick([`{{${key}}}`, `{{ ${key} }}`]));
  const flatKeys = ['a', 'b', 'multi', 'num'];
  const templatedString = (): string => {
    const k = pick(flatKeys);
    const choices = [hole(k), `pre-${hole(k)}-post`, `${hole('a')}/${hole('b')}`, hole('missing')];
    if (goTemplate) choices.push('{{ upper .a }}', '{{ .a | quote }}', '{{ printf "%v" .n }}', '{{ .n }}', '{{ if .flag }}on{{ else }}off{{ end }}', '{{ .a }}{{ "\\n" }}{{ .b }}');
    else choices.push('{{ unknown }}', 'literal {{ a }} and {{b}}');
    return pick(choices);
  };
  const leaf = (): unknown => {
    const x = r();
    if (x < 0.45) return templatedString();
    if (x < 0.75) return pick(AWKWARD);
    if (x < 0.82) return pick([0, -0, 1.5, 42, 1e21, -3]);
    if (x < 0.88) return r() < 0.5;
    if (x < 0.92) return null;
    if (x < 0.96) return {};
    return [];
  };
  let templatedKeys = false;
  const tree = (depth: number): unknown => {
    if (depth > 3 || r() < 0.35) return leaf();
    if (r() < 0.35) return Array.from({ length: 1 + Math.floor(r() * 3) }, () => tree(depth + 1));
    const o: Record<string, unknown> = {};
    const n = 1 + Math.floor(r() * 4);
    for (let i = 0; i < n; i++) {
      let key = pick(['zeta', 'alpha', 'Mid', 'b-key', 'a.b/c', '10', '2', 'true', 'with space', 'ü']);
      if (r() < 0.04) {
        key = `k-${hole('a')}`;
        templatedKeys = true;
      }
      o[key] = tree(depth + 1);
    }
    return o;
  };
  const metadata: Record<string, unknown> = {};
  const nameChoice = r();
  // Mostly unique names; sometimes a constant (duplicates), none, or a missing key.
  if (nameChoice < 0.7) metadata['name'] = `${hole('a')}-${hole('i')}`;
  else if (nameChoice < 0.8) metadata['name'] = `${hole('b')}`;
  else if (nameChoice < 0.88) metadata['name'] = 'fixed';
  else if (nameChoice < 0.94) metadata['name'] = hole('missing');
  if (r() < 0.5) metadata['labels'] = { env: templatedString(), team: pick(AWKWARD) };
  if (r() < 0.3) metadata['annotations'] = { note: templatedString() };
  const fin = r();
  if (fin < 0.2) metadata['finalizers'] = [];
  else if (fin < 0.4) metadata['finalizers'] = ['custom', hole('a')];
  if (r() < 0.1) metadata['namespace'] = 'elsewhere';
  const spec = { project: r() < 0.8 ? 'default' : hole('a'), ...(tree(0) as object) } as JsonObject;
  if (r() < 0.3) spec['source'] = { repoURL: 'https://git.example.com/r.git', path: templatedString(), helm: { valueFiles: ['values.yaml', `${hole('a')}.yaml`] } };
  const elements: Record<string, unknown>[] = [];
  const count = 1 + Math.floor(r() * 12);
  for (let i = 0; i < count; i++) {
    const e: Record<string, unknown> = { a: pick(AWKWARD), b: pick(['x', 'y', 'line\nbreak', '7']), i: String(i), multi: pick(AWKWARD.filter((s) => s.includes('\n'))) };
    if (goTemplate) {
      e['n'] = pick([1, 2.5, 1e21, 0]);
      e['flag'] = r() < 0.5;
    } else e['num'] = pick(['1', '01', '1.0']);
    // An empty parameter set gives the template untouched (the general path, even when compiled).
    elements.push(r() < 0.05 ? {} : e);
  }
  const appSetSpec: ApplicationSet['spec'] = { goTemplate, generators: [{ list: { elements } }], template: { metadata, spec } };
  if (goTemplate && r() < 0.15) appSetSpec.goTemplateOptions = ['missingkey=error'];
  if (r() < 0.1) appSetSpec.templatePatch = goTemplate ? 'metadata:\n  labels:\n    patched: {{ .i | quote }}\n' : 'metadata:\n  labels:\n    patched: "{{i}}"\n';
  if (r() < 0.2) appSetSpec.syncPolicy = { preserveResourcesOnDeletion: true };
  return {
    appSet: { metadata: { name: `set-${seed}`, namespace: 'argocd' }, spec: appSetSpec },
    description: `seed ${seed} (${goTemplate ? 'goTemplate' : 'flat'}${templatedKeys ? ', templated keys' : ''}${appSetSpec.templatePatch ? ', templatePatch' : ''})`,
  };
}

/**
 * The bytes `fleetplan appset` writes (formatApplicationBytes with reused buffers: each piece is
 * copied when it arrives, as stdout is done with it before the next piece is asked for).
 */
function printedBytes(apps: GenerateResult['applications'], options: FormatOptions): string {
  const pieces: Buffer[] = [];
  for (const piece of formatApplicationBytes(apps, options, { reuse: true })) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces).toString('utf8');
}

/** Everything a caller can see of a result: objects in key order, every output format, the rejected. */
function observe(res: GenerateResult): unknown {
  return {
    objects: JSON.stringify(res.applications.map((g) => g.application)),
    yaml: formatApplications(res.applications, { output: 'yaml', explain: false }),
    bytes: printedBytes(res.applications, { output: 'yaml', explain: false }),
    explainBytes: printedBytes(res.applications, { output: 'yaml', explain: true }),
    explain: formatApplications(res.applications, { output: 'yaml', explain: true }),
    json: formatApplications(res.applications, { output: 'json', explain: true }),
    invalid: res.invalid.map((i) => ({ name: i.name, message: i.message, generator: i.generated.generator, app: JSON.stringify(i.generated.application) })),
  };
}

async function outcome(appSet: ApplicationSet, options: GenerateOptions): Promise<{ result?: unknown; error?: unknown; compiled: number }> {
  try {
    const res = await generateApplications(structuredClone(appSet), options);
    const compiled = [...res.applications, ...res.invalid.map((i) => i.generated)].filter((g) => g instanceof CompiledApplication).length;
    return { result: observe(res), compiled };
  } catch (e) {
    const err = e as Error & { location?: unknown; hint?: string };
    return { error: { message: err.message, location: err.location, hint: err.hint }, compiled: 0 };
  }
}

test('compiled templates give the objects, bytes, rejections and errors of rendering each Application (400 generated ApplicationSets)', async () => {
  let compiledCases = 0;
  let fallbackCases = 0;
  let errorCases = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const c = makeCase(seed);
    const fast = await outcome(c.appSet, { ...goEngine });
    const general = await outcome(c.appSet, { ...goEngine, compileTemplates: false });
    assert.equal(general.compiled, 0, c.description);
    assert.deepEqual({ ...fast, compiled: 0 }, general, c.description);
    if (fast.error) errorCases++;
    else if (fast.compiled > 0) compiledCases++;
    else fallbackCases++;
  }
  // The generated cases exercise all three: the compiled path, the fallback and errors.
  assert.ok(compiledCases > 150, `compiled: ${compiledCases}`);
  assert.ok(fallbackCases > 20, `fallback: ${fallbackCases}`);
  assert.ok(errorCases > 5, `errors: ${errorCases}`);
});

const base = (template: ApplicationSet['spec']['template'], extra: Partial<ApplicationSet['spec']> = {}): ApplicationSet => ({
  metadata: { name: 'set', namespace: 'argocd' },
  spec: { goTemplate: true, generators: [{ list: { elements: [{ a: 'one' }, { a: 'two' }] } }], template, ...extra },
});

test('a template whose shape cannot change is compiled; templated keys, templatePatch and empty parameter sets are rendered as objects', async () => {
  const kinds = async (appSet: ApplicationSet) => (await generateApplications(appSet, { ...goEngine })).applications.map((g) => (g instanceof CompiledApplication ? 'compiled' : 'object'));
  const template = { metadata: { name: '{{ .a }}' }, spec: { project: 'default', destination: { namespace: '{{ .a }}' } } };
  assert.deepEqual(await kinds(base(template)), ['compiled', 'compiled']);
  assert.deepEqual(await kinds(base({ ...template, spec: { project: 'default', '{{ .a }}': 'x' } })), ['object', 'object']);
  assert.deepEqual(await kinds(base(template, { templatePatch: 'spec:\n  source:\n    path: {{ .a }}\n' })), ['object', 'object']);
  const withEmpty = base({ metadata: { name: 'fixed-{{ .a }}' }, spec: { project: 'default' } }, { generators: [{ list: { elements: [{}, { a: 'x' }] } }] });
  assert.deepEqual(await kinds(withEmpty), ['object', 'compiled']);
});

test('a compiled Application is built on first use, once, and can be replaced', async () => {
  const res = await generateApplications(base({ metadata: { name: '{{ .a }}' }, spec: { project: 'default', source: { path: 'apps/{{ .a }}', repoURL: 'r' } } }), { ...goEngine });
  const g = res.applications[0]!;
  assert.ok(g instanceof CompiledApplication);
  assert.equal(g.application, g.application);
  assert.deepEqual(g.application, {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'one', finalizers: ['resources-finalizer.argocd.argoproj.io'], namespace: 'argocd' },
    spec: { project: 'default', source: { path: 'apps/one', repoURL: 'r' } },
  });
  const other = structuredClone(g.application);
  other.metadata.name = 'changed';
  g.application = other;
  assert.equal(g.application.metadata.name, 'changed');
});

test('templates of text and {{ .field.chains }} only print what the Go template engine prints, errors included', () => {
  const texts = ['{{ .a }}', '{{.a}}-{{ .b.c }}', 'x{{ .a }}y}}z', '{{ .missing }}', '{{ .b.missing }}', '{{ .n }}', '{{ .list }}', '{{ .b }}', '{{ .nil }}', '{{ .a.b }}', '{{ .__proto__ }}', '{{ .constructor }}', '{{ .b.c.d }}', '{{  .a  }}{{ .a }}'];
  const data = [{ a: 'one', b: { c: 'two' }, n: 1.5, list: ['x'], nil: null }, { a: 'ü\n"q"', b: { c: '' } }, {}];
  for (const missingkey of [[], ['missingkey=zero'], ['missingkey=error']]) {
    const renderer = new Renderer({ goTemplate: true, goTemplateOptions: missingkey, ...goEngine });
    const mk = missingkey.length === 0 ? 'default' : (missingkey[0]!.split('=')[1] as 'zero' | 'error');
    for (const text of texts) {
      const engine = goEngine.compileGoTemplate(text, { name: 'base', missingkey: mk, funcs: 'argocd' });
      for (const d of data) {
        const got = (() => {
          try {
            return renderer.render(text, structuredClone(d));
          } catch (e) {
            return `error: ${(e as Error).message}`;
          }
        })();
        const want = (() => {
          try {
            return engine.execute(goEngine.toGoData(structuredClone(d)));
          } catch (e) {
            return `error: failed to execute go template ${text}: ${(e as Error).message}`;
          }
        })();
        assert.equal(got, want, `${text} ${JSON.stringify(d)} ${missingkey.join()}`);
      }
    }
  }
});

test('a remembered join of texts and values gives the plain concatenation, while remembering, after giving up and past its limit', () => {
  const next = rng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const words = ['', 'a', 'prod', 'ü', 'cluster-1', 'x'.repeat(40), '{{ .a }}', '\n', 'a: b'];
  for (let round = 0; round < 60; round++) {
    const n = 1 + Math.floor(next() * 4);
    const texts = Array.from({ length: n + 1 }, () => pick(words));
    // Few distinct values (remembered), unique values (the join gives up) or a mix.
    const distinct = pick([1, 3, 20, Infinity]);
    const limits = pick([{}, { max: 5, trial: 10 }, { max: 1000, trial: 50 }]);
    const join = slotJoiner(texts, limits);
    for (let call = 0; call < 1500; call++) {
      const slots = Array.from({ length: n }, (_, i) => (distinct === Infinity ? `v${call}-${i}` : `${pick(words)}${Math.floor(next() * distinct)}`));
      let want = texts[0]!;
      for (let i = 0; i < n; i++) want += slots[i]! + texts[i + 1]!;
      assert.equal(join(slots), want, `round ${round} call ${call} ${JSON.stringify({ texts, slots, limits })}`);
    }
  }
  assert.equal(slotJoiner(['only'])([]), 'only');
});

test('field-chain and flat templates rendered many times (remembered values, missing keys and numbers between them) print what the engine and fasttemplate print', () => {
  const next = rng(11);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const goTexts = ['{{ .a }}-{{ .b.c }}', 'x/{{ .a }}/{{ .b.c }}/{{ .a }}.yaml', '{{ .b.c }}', 'pre {{.a}}'];
  const flatTexts = ['{{a}}-{{b.c}}', 'x/{{ a }}/{{b.c}}/{{a}}.yaml', '{{ missing }}-{{a}}', 'pre {{a}} {{}}'];
  const values = ['one', 'two', 'ü\n"q"', '', 'a: b'];
  const goRenderer = new Renderer({ goTemplate: true, ...goEngine });
  const flatRenderer = new Renderer({ goTemplate: false });
  const engines = new Map(goTexts.map((t) => [t, goEngine.compileGoTemplate(t, { name: 'base', missingkey: 'default', funcs: 'argocd' })]));
  const fasttemplate = (text: string, params: Record<string, unknown>): string =>
    text.replace(/\{\{(.*?)\}\}/g, (tag, key: string) => {
      const v = Object.hasOwn(params, key.trim()) ? params[key.trim()] : undefined;
      return typeof v === 'string' ? v : tag;
    });
  for (let call = 0; call < 5000; call++) {
    // Mostly a few repeated values; now and then a unique one, a number or a missing key.
    const value = (): unknown => {
      const r = next();
      return r < 0.8 ? pick(values) : r < 0.9 ? `unique-${call}` : r < 0.95 ? 1.5 : undefined;
    };
    const a = value();
    const c = value();
    const go: Record<string, unknown> = { b: c === undefined ? {} : { c } };
    if (a !== undefined) go['a'] = a;
    const goText = pick(goTexts);
    assert.equal(goRenderer.render(goText, structuredClone(go)), engines.get(goText)!.execute(goEngine.toGoData(structuredClone(go))), `${goText} ${JSON.stringify(go)}`);
    const flat: Record<string, unknown> = { 'b.c': c };
    if (a !== undefined) flat['a'] = a;
    const flatText = pick(flatTexts);
    assert.equal(flatRenderer.render(flatText, flat), fasttemplate(flatText, flat), `${flatText} ${JSON.stringify(flat)}`);
  }
});

test('compiled Applications written as bytes (values remembered, given up on, non-ASCII, several reused pieces) are the bytes of the general path', async () => {
  const next = rng(23);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  // 6,000 parameter sets: a few repeated values per hole (remembered), a unique name (given up
  // after a few hundred documents), now and then a value that needs quoting or is not ASCII.
  const elements = Array.from({ length: 6000 }, (_, i) => ({
    name: `app-${(i * 7919) % 6000}`,
    env: pick(['prod', 'stage', 'dev', 'ü-env', 'true', 'a: b', 'line1\nline2']),
    region: pick(['eu', 'us', '123', '']),
    note: next() < 0.05 ? `unique ✓ ${i}` : pick(['x', 'y']),
  }));
  const appSet = (goTemplate: boolean): ApplicationSet => {
    const h = (k: string): string => (goTemplate ? `{{ .${k} }}` : `{{${k}}}`);
    return {
      metadata: { name: 'many', namespace: 'argocd' },
      spec: {
        goTemplate,
        generators: [{ list: { elements } }],
        template: {
          metadata: { name: h('name'), labels: { env: h('env'), region: h('region') }, annotations: { note: `${h('note')} at ${h('region')}` } },
          spec: { project: 'default', source: { repoURL: 'https://git.example.com/r.git', path: `envs/${h('env')}/${h('region')}` }, destination: { namespace: h('env') } },
        },
      },
    };
  };
  for (const goTemplate of [true, false]) {
    const fast = await generateApplications(appSet(goTemplate), { ...goEngine });
    const general = await generateApplications(appSet(goTemplate), { ...goEngine, compileTemplates: false });
    assert.ok(fast.applications.every((g) => g instanceof CompiledApplication));
    const want = formatApplications(general.applications, { output: 'yaml', explain: false });
    assert.ok(Buffer.byteLength(want) > 2 << 20, 'three pieces or more, so an output buffer is reused');
    assert.equal(printedBytes(fast.applications, { output: 'yaml', explain: false }), want, goTemplate ? 'goTemplate' : 'flat');
    assert.equal(printedBytes(fast.applications, { output: 'yaml', explain: true }), formatApplications(general.applications, { output: 'yaml', explain: true }));
  }
});

test('a goTemplate matrix rendered from the two halves of each pair gives what rendering the combined parameter sets gives (300 generated matrices)', async () => {
  let pairCases = 0;
  let errorCases = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const r = rng(1000 + seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    // Halves that overlap: the same keys on both sides, maps on one side or both (merged), a
    // map against a string, lists, numbers, null, and keys only one side has.
    const value = (depth: number): unknown => {
      const x = r();
      if (depth < 2 && x < 0.3) {
        const o: Record<string, unknown> = {};
        for (const k of ['x', 'y', 'z']) if (r() < 0.6) o[k] = value(depth + 1);
        return o;
      }
      if (x < 0.75) return pick(['one', 'two', 'ü', 'a: b', '', 'line\nbreak', 'true']);
      if (x < 0.85) return pick([1, 2.5, 0]);
      if (x < 0.9) return null;
      if (x < 0.95) return ['l'];
      return pick(['x', 'y']);
    };
    const half = (n: number): Record<string, unknown>[] =>
      Array.from({ length: n }, (_, i) => {
        const o: Record<string, unknown> = { i: `${i}` };
        for (const k of ['a', 'n', 'constructor']) if (r() < (k === 'constructor' ? 0.05 : 0.7)) o[k] = value(0);
        // `m` mostly a map on both sides (merged key by key), now and then something else.
        if (r() < 0.9) o['m'] = r() < 0.9 ? { x: value(1), ...(r() < 0.5 ? { y: value(1) } : {}) } : value(0);
        return o;
      });
    // Now and then a chain through a string or a number, which the engine rejects.
    const chain = (): string => (r() < 0.02 ? pick(['.m.x.z', '.a.x', '.n.y']) : pick(['.a', '.m', '.m.x', '.m.y', '.i', '.missing', '.constructor', '.n']));
    const hole = (): string =>
      pick([`{{ ${chain()} }}`, `{{${chain()}}}`, `p-{{ ${chain()} }}-{{ ${chain()} }}`, `{{ ${chain()} }}/{{ ${chain()} }}`, '{{ upper .i }}', '{{ .m | toJson }}']);
    const first = half(1 + Math.floor(r() * 4));
    const second = half(1 + Math.floor(r() * 4));
    if (r() < 0.1) first[0] = {};
    if (r() < 0.1) second[0] = {};
    const appSet: ApplicationSet = {
      metadata: { name: `matrix-${seed}`, namespace: 'argocd' },
      spec: {
        goTemplate: true,
        ...(r() < 0.2 ? { goTemplateOptions: [pick(['missingkey=error', 'missingkey=zero'])] } : {}),
        generators: [{ matrix: { generators: [{ list: { elements: first } }, { list: { elements: second } }] } }],
        template: {
          metadata: { name: `{{ .i }}-${hole()}-${hole()}`, labels: { a: hole(), b: hole() } },
          spec: { project: 'default', source: { repoURL: hole(), path: hole() }, destination: { namespace: hole() } },
        },
      },
    };
    const fast = await outcome(appSet, { ...goEngine });
    const general = await outcome(appSet, { ...goEngine, compileTemplates: false });
    assert.deepEqual({ ...fast, compiled: 0 }, general, `seed ${seed}`);
    if (fast.error) errorCases++;
    else if (fast.compiled > 0) pairCases++;
  }
  assert.ok(pairCases > 150, `pairs: ${pairCases}`);
  assert.ok(errorCases > 5, `errors: ${errorCases}`);
});

test("the Go engine's data of a parameter set is the set itself (what reading field chains from the halves of a pair relies on)", () => {
  const params = { a: 'x', n: 1.5, m: { l: ['y', null, true] }, e: {} };
  assert.equal(goEngine.toGoData(params), params);
});
