/**
 * helmfile's `--state-values-set KEY=VALUE` and `--state-values-file FILE` on plan, render and
 * validate (ADR 0405): merged over the environment values of the top-level helmfiles as helmfile
 * merges them (environment values, then the files in order, then the set values), again after every
 * part of a state; a sub-helmfile of `helmfiles:` does not get them. Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { baseFleet, cli, removeTree } from '../support/fleet-fixture.js';
import { WEB_CHART, appNames, committedRepo, renderLeaves, webHelmfile } from '../support/helmfile-cli.js';
import { parseStateValuesSet, mergeStateValues } from '../../src/load/helmfile-state-values.js';
import { InputError } from '../../src/errors/index.js';

const HELMFILE = webHelmfile('web.{{ .Values.ns }}.example.org');

function repo(files: Record<string, string> = {}): string {
  return committedRepo({ 'helmfile.yaml.gotmpl': HELMFILE, ...WEB_CHART, ...files });
}


test('plan --state-values-set: set values win over the environment\'s, the files\' over the environment\'s, and the plan says it read them', async () => {
  const dir = repo({ 'stage.yaml': 'ns: stage\n' });
  try {
    const cases: [string[], string][] = [
      [[], 'helmfile:dev/web'],
      [['--state-values-set', 'ns=qa'], 'helmfile:qa/web'],
      [['-e', 'prod', '--state-values-set', 'ns=qa'], 'helmfile:qa/web'],
      [['--state-values-file', join(dir, 'stage.yaml')], 'helmfile:stage/web'],
      [['--state-values-file', join(dir, 'stage.yaml'), '--state-values-set', 'ns=qa'], 'helmfile:qa/web'],
    ];
    for (const [flags, want] of cases) {
      const r = await cli(['plan', '--repo', dir, '-o', 'json', ...flags]);
      assert.equal(r.code, 0, `${flags.join(' ')}: ${r.stderr}`);
      assert.deepEqual(appNames(r.stdout), [want], flags.join(' '));
    }
    const text = await cli(['plan', '--repo', dir, '--state-values-set', 'ns=qa']);
    assert.match(text.stdout, /helmfile state values --state-values-set ns=qa: merged over the environment values of the top-level helmfiles/);
  } finally {
    removeTree(dir);
  }
});

test('render --leaves --state-values-set builds the release with the values its templates read from the set values', async () => {
  const dir = repo();
  try {
    const { text, code, stderr } = await renderLeaves(dir, ['--state-values-set', 'ns=qa']);
    assert.equal(code, 0, stderr);
    assert.match(text, /host: "?web\.qa\.example\.org"?/);
    assert.doesNotMatch(text, /web\.dev\.example\.org/);
  } finally {
    removeTree(dir);
  }
});

test('validate --state-values-set reads a template that fails without the value, as helmfile does', async () => {
  const dir = repo({ 'helmfile.yaml.gotmpl': HELMFILE.replace('namespace: {{ .Values.ns }}', 'namespace: {{ .Values.ns }}{{ if not (hasKey .Values "ticket") }}{{ fail "pass ticket" }}{{ end }}') });
  try {
    const without = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.match(without.stdout, /helmfile-template-not-read/);
    const withSet = await cli(['validate', '--repo', dir, '-o', 'json', '--state-values-set', 'ticket=123']);
    assert.doesNotMatch(withSet.stdout, /helmfile-template-not-read/, withSet.stdout);
  } finally {
    removeTree(dir);
  }
});

test('--state-values-set is not passed to a sub-helmfile of helmfiles:, as helmfile does not pass it', async () => {
  const dir = repo({
    'helmfile.yaml.gotmpl': `helmfiles:
  - sub/helmfile.yaml.gotmpl
---
${HELMFILE}`,
    'sub/helmfile.yaml.gotmpl': `environments:
  default:
    values:
      - ns: sub
---
releases:
  - name: api
    namespace: {{ .Values.ns }}
    chart: ../charts/web
`,
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json', '--state-values-set', 'ns=qa']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(appNames(r.stdout).sort(), ['helmfile:qa/web', 'helmfile:sub/api']);
  } finally {
    removeTree(dir);
  }
});

test('state values flags that fleetplan cannot read, or on a repository without helmfiles, are usage errors that say why', async () => {
  const dir = repo({ 'values.gotmpl': 'ns: x\n' });
  try {
    const cases: [string[], RegExp][] = [
      [['plan', '--repo', dir, '--state-values-set', 'ns'], /--state-values-set ns: "ns" is not KEY=VALUE/],
      [['plan', '--repo', dir, '--state-values-set', 'list[0]=x'], /list indexes \(list\[0\]\) are not read by fleetplan/],
      [['plan', '--repo', dir, '--state-values-file', join(dir, 'values.gotmpl')], /a values template, which helmfile renders and fleetplan does not read/],
    ];
    for (const [args, want] of cases) {
      const r = await cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, want);
    }
    const other = await cli(['plan', '--repo', 'examples/lab', '--state-values-set', 'ns=x']);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /--state-values-set ns=x: helmfile's state values apply to helmfile \+ Flux repositories only \(this repository is read as the native layout/);
  } finally {
    removeTree(dir);
  }
});

test('--state-values-set values are typed and merged as helmfile types and merges them', () => {
  const cases: [string[], Record<string, unknown>][] = [
    [['a=true,b=False,c=null'], { a: true, b: false, c: null }],
    [['n=42', 'z=0', 'lead=007', 'neg=-3', 'big=99999999999999999999'], { n: 42, z: 0, lead: '007', neg: -3, big: '99999999999999999999' }],
    [['a.b.c=x', 'a.d=y'], { a: { b: { c: 'x' }, d: 'y' } }],
    [['a=1', 'a.b=2'], { a: { b: 2 } }],
    [['dotted\\.key=v', 'url=http://x/?q=1'], { 'dotted.key': 'v', url: 'http://x/?q=1' }],
  ];
  for (const [args, want] of cases) assert.deepEqual(parseStateValuesSet(args), want, args.join(' '));
  assert.throws(() => parseStateValuesSet(['novalue']), InputError);
  // A null never replaces a value that is there; a list without nulls replaces, one with nulls merges by index.
  assert.deepEqual(mergeStateValues({ a: 1, l: [1, 2, 3], m: [{ x: 1 }, 2] }, { a: null, b: null, l: [9], m: [{ y: 2 }, null] }), { a: 1, b: null, l: [9], m: [{ x: 1, y: 2 }, 2] });
});

test('--state-values-file is read as helmfile reads it: from the helmfile\'s folder when it reads one state file, from the current folder when helmfile.d/ holds several', async () => {
  const single = repo({ 'stage.yaml': 'ns: stage\n', 'elsewhere/stage.yaml': 'ns: other\n', 'elsewhere/only-here.yaml': 'ns: x\n' });
  const twoStates = HELMFILE.replace('name: web', 'name: {{ .Values.name }}');
  const several = committedRepo({
    'helmfile.d/a.yaml.gotmpl': twoStates.replace("- ns: dev\n", "- ns: dev\n        name: web\n").replace("- ns: prod\n", "- ns: prod\n        name: web\n"),
    'helmfile.d/b.yaml.gotmpl': twoStates.replace("- ns: dev\n", "- ns: dev\n        name: api\n").replace("- ns: prod\n", "- ns: prod\n        name: api\n").replace('./charts/web', '../charts/web'),
    ...WEB_CHART,
    'stage.yaml': 'ns: stage\n',
    'elsewhere/stage.yaml': 'ns: other\n',
  });
  try {
    const plan = async (dir: string, cwd: string) => {
      const r = await cli(['plan', '--repo', dir, '-o', 'json', '--state-values-file', 'stage.yaml'], cwd);
      assert.equal(r.code, 0, r.stderr);
      return appNames(r.stdout).sort();
    };
    // `helmfile -f DIR/helmfile.yaml.gotmpl --state-values-file stage.yaml` changes into DIR first.
    assert.deepEqual(await plan(single, single), ['helmfile:stage/web']);
    assert.deepEqual(await plan(single, join(single, 'elsewhere')), ['helmfile:stage/web']);
    // Several state files are read in parallel from where helmfile was started.
    assert.deepEqual(await plan(several, several), ['helmfile:stage/api', 'helmfile:stage/web']);
    assert.deepEqual(await plan(several, join(several, 'elsewhere')), ['helmfile:other/api', 'helmfile:other/web']);
    // A file only in the current folder, not in the helmfile's: helmfile does not find it either.
    const missing = await cli(['plan', '--repo', single, '--state-values-file', 'only-here.yaml'], join(single, 'elsewhere'));
    assert.equal(missing.code, 2, missing.stdout + missing.stderr);
    assert.match(missing.stderr, /--state-values-file only-here\.yaml: helmfile reads it from the folder of helmfile\.yaml\.gotmpl \(only-here\.yaml is not a file of the repository\)/);
  } finally {
    removeTree(single);
    removeTree(several);
  }
});

test('--state-values-file with bootstrap/helmfile.yaml (helmfile -f bootstrap/helmfile.yaml): a relative file is the one in bootstrap/, from any folder', async () => {
  const dir = committedRepo({ 'bootstrap/helmfile.yaml.gotmpl': HELMFILE.replace('./charts/web', '../charts/web'), ...WEB_CHART, 'bootstrap/stage.yaml': 'ns: boot\n', 'stage.yaml': 'ns: root\n' });
  try {
    for (const cwd of [dir, join(dir, 'bootstrap')]) {
      const r = await cli(['plan', '--repo', dir, '-o', 'json', '--state-values-file', 'stage.yaml'], cwd);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(appNames(r.stdout), ['helmfile:boot/web'], cwd);
    }
  } finally {
    removeTree(dir);
  }
});

test('diff and validate --base read both revisions with the same state values', async () => {
  const dir = repo({ 'stage.yaml': 'ns: stage\n' });
  try {
    writeFileSync(join(dir, 'helmfile.yaml.gotmpl'), HELMFILE.replace('web.{{ .Values.ns }}.example.org', 'www.{{ .Values.ns }}.example.org'));
    for (const flags of [['--state-values-set', 'ns=qa'], ['--state-values-file', join(dir, 'stage.yaml')]]) {
      const want = flags[0] === '--state-values-set' ? 'qa' : 'stage';
      const r = await cli(['diff', '--repo', dir, '-o', 'json', ...flags]);
      assert.equal(r.code, 0, `${flags.join(' ')}: ${r.stderr}`);
      const objects = (JSON.parse(r.stdout) as { clusters: { objects: { change: string; name: string; namespace?: string; fields: { path: string; from: unknown; to: unknown }[] }[] }[] }).clusters.flatMap((c) => c.objects);
      // Both sides read in the namespace the flag gives: one release changed there, none added or removed.
      assert.deepEqual(objects.map((o) => [o.change, o.namespace, o.name, o.fields.map((f) => [f.path, f.from, f.to])]), [['changed', want, 'web', [['values.host', `web.${want}.example.org`, `www.${want}.example.org`]]]], flags.join(' '));
    }
  } finally {
    removeTree(dir);
  }
});

test('validate --base --state-values-set: both revisions read with the set values (a fail() the values satisfy on both sides is no finding)', async () => {
  const failing = HELMFILE.replace('namespace: {{ .Values.ns }}', 'namespace: {{ .Values.ns }}{{ if not (hasKey .Values "ticket") }}{{ fail "pass ticket" }}{{ end }}');
  const dir = repo({ 'helmfile.yaml.gotmpl': failing });
  try {
    writeFileSync(join(dir, 'helmfile.yaml.gotmpl'), failing.replace('web.{{ .Values.ns }}.example.org', 'www.{{ .Values.ns }}.example.org'));
    const withSet = await cli(['validate', '--repo', dir, '--base', 'main', '-o', 'json', '--state-values-set', 'ticket=1']);
    assert.equal(withSet.code, 0, withSet.stderr + withSet.stdout);
    const delta = JSON.parse(withSet.stdout) as { introduced: unknown[]; fixed: unknown[] };
    assert.deepEqual([delta.introduced, delta.fixed], [[], []]);
    // Read with the values on one side only, the base's failed template would be "fixed".
    const without = await cli(['validate', '--repo', dir, '--base', 'main', '-o', 'json']);
    assert.deepEqual((JSON.parse(without.stdout) as { fixed: unknown[] }).fixed, []);
  } finally {
    removeTree(dir);
  }
});

test('-e and the state values flags on a repository without helmfiles: the same usage error from plan, diff and validate --base', async () => {
  const dir = committedRepo(baseFleet());
  try {
    writeFileSync(join(dir, 'touched.yaml'), 'ns: x\n');
    const cases: [string[], RegExp][] = [
      [['--state-values-set', 'ns=x'], /--state-values-set ns=x: helmfile's state values apply to helmfile \+ Flux repositories only \(this repository is read as the native layout/],
      [['--state-values-file', join(dir, 'touched.yaml')], /--state-values-file .*touched\.yaml: helmfile's state values apply to helmfile \+ Flux repositories only/],
      [['-e', 'prod'], /--environment is the helmfile environment: it applies to helmfile \+ Flux repositories only/],
    ];
    for (const [flags, want] of cases) {
      for (const command of [['plan'], ['diff'], ['validate', '--base', 'main']]) {
        // Twice: a diff answered from its records refuses them too.
        for (const r of [await cli([...command, '--repo', dir, ...flags]), await cli([...command, '--repo', dir, ...flags])]) {
          assert.equal(r.code, 2, `${command.join(' ')} ${flags.join(' ')}: ${r.stdout}${r.stderr}`);
          assert.match(r.stderr, want, `${command.join(' ')} ${flags.join(' ')}`);
        }
      }
    }
  } finally {
    removeTree(dir);
  }
});
