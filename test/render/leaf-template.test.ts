/**
 * The leaf template (src/render/leaves/template.ts, ADR 0332) against the general path it stands
 * in for: substitution on the built text, parsing, one dump per object. On generated build outputs
 * and values, the template either gives byte-identical files with the same names, or declines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OutputFile } from '../../src/ports/build-cache.js';
import { objectFileName, parseManifests, placeInNamespace, serializeObject, substituteStream } from '../../src/render/leaves/manifests.js';
import { LEAF_TEMPLATE_HOOKS, buildLeafTemplate, fillLeafTemplate, plainBothWays } from '../../src/render/leaves/template.js';
import { seededRandom } from '../support/random.js';

type Vars = Record<string, string>;

function general(text: string, vars: Vars | undefined, namespace?: string): OutputFile[] | Error {
  try {
    const t = vars === undefined ? text : substituteStream(text, { lookup: (n) => (Object.hasOwn(vars, n) ? vars[n] : undefined), path: 'x', hint: () => '' });
    const parsed = parseManifests(t, 'x (built)');
    const objects = namespace === undefined ? parsed : placeInNamespace(parsed, namespace).objects;
    return objects.map((o, i) => ({ name: objectFileName(i, objects.length, o), content: serializeObject(o) }));
  } catch (e) {
    return e as Error;
  }
}

function fast(text: string, vars: Vars | undefined, memo?: Map<string, boolean>, namespace?: string): OutputFile[] | undefined {
  const t = buildLeafTemplate(text, vars !== undefined, 'x (built)', namespace !== undefined);
  return t && fillLeafTemplate(t, (n) => (vars !== undefined && Object.hasOwn(vars, n) ? vars[n] : undefined), memo, namespace);
}

/** Destination namespaces (ADR 0420): names, and strings a plain scalar cannot hold unchanged. */
const NAMESPACES = ['web', 'prod-1', 'a.b', 'team-${A}', '123', 'null', 'true', 'yes', '~', 'QfpvQ0Qz', 'a: b'];
/** Kinds of every scope: namespaced, cluster-scoped, unknown, one a CustomResourceDefinition of the stream makes cluster-scoped. */
const KINDS = ['ConfigMap', 'ConfigMap', 'ClusterRole', 'Namespace', 'Widget', 'Gadget'];
const GADGET_CRD = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: gadgets.example.com\nspec:\n  group: ${G:-example.com}\n  names: { kind: Gadget, plural: gadgets }\n  scope: Cluster\n';
let withNamespaces = false;

const rng = seededRandom;

const VALUES = [
  'prod', 'c001', 'eu-west-1', 'example.com', 'c001.example.com', 'https://git.example.com/x.git', '10.0.0.0/8', 'a_b',
  '3', '010', '0x1F', '1e3', '-1', '+1', '.5', '.inf', '-.inf', '.nan', '1_000', 'true', 'True', 'false', 'yes', 'no', 'on', 'off', 'y', 'n',
  'null', 'Null', '~', '', ' ', ' lead', 'trail ', '2024-01-01', '12:30:00', '<<', '=',
  'a: b', 'a:', ':a', 'a:b', 'x #y', '#y', 'x#y', "it's", "'q'", 'say "hi"', '"', '\\', 'a\\nb', 'line1\nline2', 'tab\there', 'cr\rx',
  '-', '- x', '-x', '?', '? x', '@x', '`x', '*x', '&x', '!x', '!!str x', '%x', '|', '>', '[a]', '{a}', 'a,b', 'a]', '{', '---', '...', '--- x',
  'ünïcödé', '日本', '\u00a0nbsp', '\u2028', 'emoji😀', '${A}', '$${B}', '$C', 'QfpvQ0Qz', 'fpvQ', '}', 'x}y',
];

const SCALARS = [
  '${A}', '${B}', 'pre-${A}', '${A}-post', '${A}-${B}', '${A}.${B}.example.com', 'x ${A} y', '${A:-dflt}', '${B:-}', '${C:-d e}', '${D}',
  'https://${A}/path', '${A}:${B}', '$${A}', 'lit $${B} and ${A}', '${not a name}', '$A', 'plain', '3', "'${A}'", "'it''s ${A}'", '"${A}"', '"q \\"${B}\\""',
  '${A} #c', '#${A}', '- ${A}', '${A}: z', '[${A}]', '{${A}}', '&anchor ${A}', '!tag ${A}', '|', '${A:-x: y}',
];

/** Mostly the scalars the template takes (as in real builds), sometimes any. */
const TAKEN = SCALARS.slice(0, 14);
let adversarial = 0.3;
function scalar(r: () => number): string {
  const from = r() < adversarial ? SCALARS : TAKEN;
  return from[Math.floor(r() * from.length)]!;
}

/** A build output in the style kustomize writes, with variables in many YAML contexts. */
function document(r: () => number, n: number): string {
  const kind = withNamespaces ? KINDS[Math.floor(r() * KINDS.length)]! : 'ConfigMap';
  const apiVersion = kind === 'Gadget' ? 'example.com/v1' : kind === 'Widget' ? 'example.org/v1' : kind === 'ClusterRole' ? 'rbac.authorization.k8s.io/v1' : 'v1';
  const lines = [`apiVersion: ${withNamespaces && r() < 0.05 ? scalar(r) : apiVersion}`, `kind: ${r() < 0.1 ? scalar(r) : kind}`, 'metadata:'];
  lines.push(`  name: ${r() < 0.4 ? scalar(r) : `cm-${n}`}`);
  if (r() < (withNamespaces ? 0.3 : 0.6)) lines.push(`  namespace: ${scalar(r)}`);
  if (r() < 0.3) lines.push('  labels:', `    app.kubernetes.io/name: ${scalar(r)}`);
  lines.push('data:');
  const keys = 1 + Math.floor(r() * 4);
  for (let k = 0; k < keys; k++) {
    const form = r();
    if (form < 0.85) lines.push(`  k${k}: ${scalar(r)}`);
    else if (form < 0.88) lines.push(`  k${k}: |`, `    first ${scalar(r)}`, `    second`);
    else if (form < 0.91) lines.push(`  k${k}: ${scalar(r)}`, `    continued ${r() < 0.5 ? '${B}' : 'x'}`);
    else if (form < 0.94) lines.push(`  \${A}k${k}: v`);
    else lines.push(`  k${k}: >-`, `    folded ${scalar(r)}`);
  }
  if (r() < 0.4) {
    lines.push('list:');
    const items = 1 + Math.floor(r() * 3);
    for (let i = 0; i < items; i++) lines.push(r() < 0.5 ? `- ${scalar(r)}` : `- name: n${i}`, ...(r() < 0.5 ? [`  value: ${scalar(r)}`] : []));
  }
  if (r() < 0.1) lines.push('# a comment ${A}');
  return `${lines.join('\n')}\n`;
}

function stream(r: () => number): string {
  const docs = 1 + Math.floor(r() * 3);
  const parts: string[] = [];
  for (let d = 0; d < docs; d++) {
    if (withNamespaces && r() < 0.1) parts.push(r() < 0.5 ? GADGET_CRD.replace('${G:-example.com}', 'example.com') : GADGET_CRD);
    else if (r() < 0.08) parts.push('apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: ${A}\n');
    else if (r() < 0.05) parts.push('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &n ${A}\ndata:\n  again: *n\n');
    else parts.push(document(r, d));
  }
  return parts.join('---\n');
}

function vars(r: () => number): Vars | undefined {
  if (r() < 0.05) return undefined;
  const v: Vars = {};
  // Mostly values the template takes, as a fleet's are; a third of the time any value.
  for (const name of ['A', 'B', 'C', 'D']) if (r() < 0.95) v[name] = VALUES[Math.floor(r() * (r() < 0.66 ? 8 : VALUES.length))]!;
  return v;
}

/** Runs the property over `n` cases; the differences found and how many the template answered. */
function property(seed: number, n: number): { mismatches: string[]; answered: number } {
  const r = rng(seed);
  const mismatches: string[] = [];
  let answered = 0;
  const memo = new Map<string, boolean>();
  for (let i = 0; i < n; i++) {
    const text = stream(r);
    // Several apps per build, as in a fleet: the template is built once per text.
    for (let a = 0; a < 4; a++) {
      const v = vars(r);
      const ns = withNamespaces && r() < 0.9 ? NAMESPACES[Math.floor(r() * (r() < 0.7 ? 3 : NAMESPACES.length))] : undefined;
      const want = general(text, v, ns);
      const got = fast(text, v, memo, ns);
      if (got === undefined) continue;
      answered++;
      if (want instanceof Error) mismatches.push(`${JSON.stringify(text)} with ${JSON.stringify(v)}: the general path fails (${want.message}), the template gave files`);
      else if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(`${JSON.stringify(text)} with ${JSON.stringify(v)}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
    }
  }
  return { mismatches, answered };
}

test('the leaf template gives the general path\'s files, byte for byte, on generated builds and values, or declines', () => {
  for (const [seed, share] of [[11, 0.3], [12, 0.05], [13, 0.6]] as const) {
    adversarial = share;
    const { mismatches, answered } = property(seed, 1000);
    assert.deepEqual(mismatches.slice(0, 3), []);
    // Not vacuous: the template answers a good share of the cases.
    assert.ok(answered > 250, `only ${answered} of 4000 cases answered by the template`);
  }
  adversarial = 0.3;
});

test('with a destination namespace (ADR 0420) the template still gives the general path\'s files, the namespace placed as the sync places it', () => {
  withNamespaces = true;
  try {
    for (const [seed, share] of [[21, 0.3], [22, 0.05]] as const) {
      adversarial = share;
      const { mismatches, answered } = property(seed, 1000);
      assert.deepEqual(mismatches.slice(0, 3), []);
      assert.ok(answered > 250, `only ${answered} of 4000 cases answered by the template`);
    }
  } finally {
    withNamespaces = false;
    adversarial = 0.3;
  }
});

test('one template serves every destination namespace: the namespace is a hole, filled per app', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: b\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\n---\napiVersion: example.org/v1\nkind: Widget\nmetadata:\n  name: w\n';
  const t = buildLeafTemplate(text, false, 'x (built)', true);
  assert.ok(t);
  assert.deepEqual(t.placed, { given: 2, unknown: ['Widget (example.org)'] });
  for (const ns of ['web', 'api']) {
    const files = fillLeafTemplate(t, () => undefined, undefined, ns);
    assert.deepEqual(files, general(text, undefined, ns));
    assert.deepEqual(files!.map((f) => f.name), [`01-configmap-${ns}-settings.yaml`, '02-clusterrole-reader.yaml', `03-widget-${ns}-w.yaml`]);
  }
  // A namespace js-yaml would quote takes the general path.
  assert.equal(fillLeafTemplate(t, () => undefined, undefined, '123'), undefined);
});

test('without the per-value check the property finds differences (the check is what makes it exact)', () => {
  LEAF_TEMPLATE_HOOKS.checkValues = false;
  try {
    const { mismatches } = property(11, 1000);
    assert.ok(mismatches.length > 0);
  } finally {
    LEAF_TEMPLATE_HOOKS.checkValues = true;
  }
});

const cases: { name: string; text: string; vars: Vars | undefined; expect: 'template' | 'general' }[] = [
  { name: 'fills a plain value after a key', text: 'kind: ConfigMap\nmetadata:\n  name: c\ndata:\n  cluster: ${A}\n', vars: { A: 'c001' }, expect: 'template' },
  { name: 'fills the namespace and names the file after it', text: 'kind: ConfigMap\nmetadata:\n  name: c\n  namespace: ns-${A}\n', vars: { A: 'prod' }, expect: 'template' },
  { name: 'fills a sequence item and a default', text: 'kind: X\nmetadata:\n  name: c\nlist:\n- ${A:-fallback}\n- name: e\n  value: ${A}.${B}\n', vars: { A: '', B: 'b' }, expect: 'template' },
  { name: 'declines a value that turns the scalar into a number', text: 'kind: X\nmetadata:\n  name: c\nspec:\n  replicas: ${A}\n', vars: { A: '010' }, expect: 'general' },
  { name: 'declines a value with ": " in it', text: 'kind: X\nmetadata:\n  name: c\ndata:\n  k: ${A}\n', vars: { A: 'a: b' }, expect: 'general' },
  { name: 'declines a value that is empty', text: 'kind: X\nmetadata:\n  name: c\ndata:\n  k: ${A}\n', vars: { A: '' }, expect: 'general' },
  { name: 'declines a quoted scalar', text: "kind: X\nmetadata:\n  name: c\ndata:\n  k: '${A}'\n", vars: { A: 'x' }, expect: 'general' },
  { name: 'declines a block scalar', text: 'kind: X\nmetadata:\n  name: c\ndata:\n  k: |\n    ${A}\n', vars: { A: 'x' }, expect: 'general' },
  { name: 'declines an escaped $${…}', text: 'kind: X\nmetadata:\n  name: c\ndata:\n  k: ${A}\n  l: $${A}\n', vars: { A: 'x' }, expect: 'general' },
  { name: 'declines a variable in a key', text: 'kind: X\nmetadata:\n  name: c\ndata:\n  ${A}: v\n', vars: { A: 'x' }, expect: 'general' },
  { name: 'declines a missing variable (the general path reports it)', text: 'kind: X\nmetadata:\n  name: c\ndata:\n  k: ${A}\n', vars: {}, expect: 'general' },
  { name: 'shares the files of a text without variables', text: 'kind: X\nmetadata:\n  name: c\ndata:\n  k: v\n', vars: { A: 'x' }, expect: 'template' },
  { name: 'shares the files when nothing is substituted', text: 'kind: X\nmetadata:\n  name: c\ndata:\n  k: ${A}\n', vars: undefined, expect: 'template' },
];
for (const c of cases) {
  test(`leaf template: ${c.name}`, () => {
    const got = fast(c.text, c.vars);
    const want = general(c.text, c.vars);
    if (c.expect === 'template') {
      assert.ok(got !== undefined, 'the template declined');
      assert.deepEqual(got, want);
    } else {
      assert.equal(got, undefined);
    }
  });
}

test('plainBothWays: a string is plain both ways only when it reads back as itself and dumps unquoted', () => {
  for (const s of ['prod', 'c001.example.com', 'https://x/y', 'a b', 'x:y']) assert.ok(plainBothWays(s), s);
  for (const s of ['', '3', '010', 'true', 'null', '~', 'a: b', 'x #y', '#y', "'q'", '- x', 'line\nbreak', ' lead', 'trail ', '2024-01-01', 'yes']) assert.ok(!plainBothWays(s), s);
});
