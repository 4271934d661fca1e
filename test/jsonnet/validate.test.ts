/**
 * validate reads the Jsonnet Argo CD evaluates (issue #12 parts 4 and 5,
 * docs/adr/0319-validate-reads-jsonnet.md): imports outside the repository and missing imports at
 * the importing line, syntax and evaluation errors at the line Jsonnet names (with the real
 * binary), and nothing about a .jsonnet file no source evaluates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { PATH_ENV, application, repo, skipWithoutJsonnet } from './jsonnet-fixture.js';
import { jsonnetStdLibraryGap } from '../../src/render/leaves/jsonnet.js';
import { locateJsonnet } from '../../src/adapters/jsonnet.js';

interface JsonFinding {
  severity: string;
  code: string;
  message: string;
  file?: string;
  line?: number;
  app?: string;
}

/** `fleetplan validate -o json` of `dir`: its findings whose code starts with `jsonnet`. */
async function jsonnetFindings(dir: string, env: Record<string, string | undefined> = PATH_ENV): Promise<{ code: number; findings: JsonFinding[]; all: string }> {
  const r = await cli(['validate', '--repo', dir, '-o', 'json'], process.cwd(), env);
  const parsed = JSON.parse(r.stdout) as { findings: JsonFinding[] } | JsonFinding[];
  const list = Array.isArray(parsed) ? parsed : parsed.findings;
  return { code: r.code, findings: list.filter((f) => f.code.startsWith('jsonnet-') && f.code !== 'jsonnet-not-followed'), all: `${r.stdout}\n${r.stderr}` };
}

const where = (f: JsonFinding) => [f.severity, f.code, f.file, f.line];

test('validate reports a Jsonnet import outside the repository at the importing file and line, without running Jsonnet', async () => {
  const parent = writeTree({ 'outside.libsonnet': '{}\n' });
  const dir = repo(
    {
      'apps/web.yaml': application('web', '    path: web\n'),
      'web/main.jsonnet': "local lib = import 'lib.libsonnet';\n[lib]\n",
      'web/lib.libsonnet': "// a library that climbs out\n(import '../../outside.libsonnet') + { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }\n",
    },
    join(parent, 'repo'),
  );
  try {
    const r = await jsonnetFindings(dir, { ...PATH_ENV, FLEETPLAN_JSONNET: '/nonexistent/jsonnet' });
    const outside = r.findings.filter((f) => f.code === 'jsonnet-outside-repo');
    assert.deepEqual(outside.map(where), [['error', 'jsonnet-outside-repo', 'web/lib.libsonnet', 2]], r.all);
    assert.match(outside[0]!.message, /import "\.\.\/\.\.\/outside\.libsonnet" would read .*outside\.libsonnet, outside the repository \(reached from web\/main\.jsonnet, read by Application web \(apps\/web\.yaml:\d+\) on cluster in-cluster\)/);
    assert.equal(r.code, 1);
  } finally {
    removeTree(parent);
  }
});

test('validate reports a missing Jsonnet import at its line (an error: the evaluation reaches it)', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n    directory:\n      jsonnet:\n        libs: [vendor]\n'),
    'web/main.jsonnet': "local k = import 'k.libsonnet';\nlocal gone = import 'gone.libsonnet';\n[k.cm(gone.name)]\n",
    'vendor/k.libsonnet': "{ cm(n):: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n } } }\n",
  });
  try {
    const r = await jsonnetFindings(dir);
    assert.deepEqual(r.findings.map(where), [['error', 'jsonnet-import-missing', 'web/main.jsonnet', 2]], r.all);
    assert.match(r.findings[0]!.message, /^import "gone\.libsonnet" names no file beside web\/main\.jsonnet, in the libs or in web/);
  } finally {
    removeTree(dir);
  }
});

test('a missing import the evaluation never reaches is a warning, not an error (Jsonnet reads imports lazily)', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n'),
    'web/main.jsonnet': "local unused = import 'gone.libsonnet';\n[{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }]\n",
  });
  try {
    const r = await jsonnetFindings(dir);
    assert.deepEqual(r.findings.map(where), [['warning', 'jsonnet-import-missing', 'web/main.jsonnet', 1]], r.all);
    // A directory whose only manifests are Jsonnet is not empty: Argo CD evaluates it.
    assert.doesNotMatch(r.all, /empty-source/);
    assert.equal(r.code, 0, r.all);
  } finally {
    removeTree(dir);
  }
});

test('validate reports a Jsonnet syntax error (from jsonnet itself) at its file and line, in an imported library too', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n'),
    'apps/db.yaml': application('db', '    path: db\n'),
    'web/main.jsonnet': "[\n  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }\n]\n",
    'db/main.jsonnet': "(import 'lib.libsonnet').all\n",
    'db/lib.libsonnet': "{\n  all: [],\n  broken: ,\n}\n",
  });
  try {
    const r = await jsonnetFindings(dir);
    assert.deepEqual(r.findings.map(where).sort(), [
      ['error', 'jsonnet-syntax', 'db/lib.libsonnet', 3],
      ['error', 'jsonnet-syntax', 'web/main.jsonnet', 3],
    ], r.all);
    assert.equal(r.findings.some((f) => f.message.includes(dir)), false, 'paths are relative to the repository');
    assert.equal(r.code, 1);
  } finally {
    removeTree(dir);
  }
});

test('validate reports a Jsonnet evaluation error with the Application\'s ext vars at the line Jsonnet names', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n    directory:\n      jsonnet:\n        extVars:\n          - { name: env, value: prod }\n'),
    'web/main.jsonnet': "local env = std.extVar('env');\nif env == 'prod' then error 'no prod here' else []\n",
  });
  try {
    const r = await jsonnetFindings(dir);
    assert.deepEqual(r.findings.map(where), [['error', 'jsonnet-failed', 'web/main.jsonnet', 2]], r.all);
    assert.match(r.findings[0]!.message, /RUNTIME ERROR: no prod here/);
  } finally {
    removeTree(dir);
  }
});

test('a .jsonnet file in a directory Argo CD does not evaluate is not judged', { skip: skipWithoutJsonnet() }, async () => {
  const broken = "import '../../nowhere.libsonnet' + {\n";
  const dir = repo({
    // A kustomize source: Argo CD runs kustomize, never Jsonnet.
    'apps/kust.yaml': application('kust', '    path: kust\n'),
    'kust/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'kust/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k\n',
    'kust/broken.jsonnet': broken,
    // A directory source: a subfolder without recurse, an excluded file, a skip marker, a .libsonnet.
    'apps/dir.yaml': application('dir', "    path: dir\n    directory:\n      exclude: 'off.jsonnet'\n"),
    'dir/ok.jsonnet': "[{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok' } }]\n",
    'dir/sub/broken.jsonnet': broken,
    'dir/off.jsonnet': broken,
    'dir/skipped.jsonnet': `// +argocd:skip-file-rendering\n${broken}`,
    'dir/lib.libsonnet': broken,
    // No Application reads this folder.
    'unused/broken.jsonnet': broken,
  });
  try {
    const r = await jsonnetFindings(dir);
    assert.deepEqual(r.findings, [], r.all);
  } finally {
    removeTree(dir);
  }
});

test('without a Jsonnet, validate still checks imports and says which files it could not evaluate', async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n'),
    'web/main.jsonnet': "[\n  import 'gone.libsonnet',\n]\n",
  });
  try {
    const r = await jsonnetFindings(dir, { ...PATH_ENV, FLEETPLAN_JSONNET: '/nonexistent/jsonnet' });
    assert.deepEqual(r.findings.map(where), [
      ['info', 'jsonnet-not-evaluated', 'web/main.jsonnet', undefined],
      ['error', 'jsonnet-import-missing', 'web/main.jsonnet', 2],
    ], r.all);
    assert.match(r.findings[0]!.message, /1 Jsonnet file Argo CD evaluates was not checked for syntax and evaluation errors \(web\/main\.jsonnet\): .*nonexistent/);
  } finally {
    removeTree(dir);
  }
});

test('jsonnetStdLibraryGap names a std function the interpreter lacks only where the line Jsonnet points at calls it', () => {
  const lines: Record<string, string[]> = { 'web/a.jsonnet': ['{', '  x: std.objectKeysValues({ a: 1 }),', '  y: self.missing,', '}'] };
  const lineAt = (f: string, n: number) => lines[f]?.[n - 1];
  const err = (name: string, line: number) => `RUNTIME ERROR: field does not exist: ${name}\n\t/repo/web/a.jsonnet:${line}:6-30\tobject <anonymous>`;
  assert.equal(jsonnetStdLibraryGap(err('objectKeysValues', 2), '/repo', lineAt), 'objectKeysValues');
  // A field the file itself lacks is the file's error.
  assert.equal(jsonnetStdLibraryGap(err('missing', 3), '/repo', lineAt), undefined);
  assert.equal(jsonnetStdLibraryGap('RUNTIME ERROR: boom\n\t/repo/web/a.jsonnet:2:6', '/repo', lineAt), undefined);
});

test('a std function the Jsonnet found lacks (C++ 0.18 vs go-jsonnet) is a warning that names it, never a jsonnet-failed error', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n'),
    'web/main.jsonnet': "[\n  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { n: std.toString(std.length(std.objectKeysValues({ a: 1 }))) } },\n]\n",
  });
  try {
    const tool = await locateJsonnet({ env: PATH_ENV, bundledDir: false });
    const r = await jsonnetFindings(dir);
    if (tool.flavor === 'cpp' && tool.version.startsWith('0.18.')) {
      assert.deepEqual(r.findings.map(where), [['warning', 'jsonnet-std-missing', 'web/main.jsonnet', 2]], r.all);
      assert.match(r.findings[0]!.message, /calls std\.objectKeysValues, which the C\+\+ jsonnet 0\.18\.\d+ lacks/);
    } else {
      assert.deepEqual(r.findings, [], r.all);
    }
    assert.equal(r.code, 0, r.all);
  } finally {
    removeTree(dir);
  }
});
