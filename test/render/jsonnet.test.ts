/**
 * Jsonnet files of an Argo CD directory source (docs/adr/0303-jsonnet-directory-sources.md),
 * evaluated as the repo-server evaluates them: extVars and TLAs (code or string, with the build
 * environment substituted), libs relative to the repository root, imports kept inside the
 * repository, output an object or an array of objects; time and output bounded.
 *
 * The tests that run a Jsonnet binary are skipped with a message where there is none, except under
 * CI=true (.ci/run installs Debian's `jsonnet`), where they fail, as the browser tests do (ADR 0230).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { findCommand } from '../../src/adapters/process.js';
import { jsonnetArguments, locateJsonnet } from '../../src/adapters/jsonnet.js';
import { createSourceReader } from '../../src/adapters/source-reader.js';
import { createMemoryCache } from '../../src/adapters/build-cache.js';
import type { InputError } from '../../src/errors/index.js';
import { ToolError } from '../../src/errors/index.js';
import { renderLeafJobs } from '../../src/render/leaves/render.js';
import { jsonnetImports, jsonnetOutputManifests, jsonnetReads, jsonnetSearchPath, jsonnetSettings } from '../../src/render/leaves/jsonnet.js';

const PATH_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/** The `skip` option of a test that runs Jsonnet: a reason where there is none, false under CI=true. */
function skipWithoutJsonnet(): string | false {
  if (findCommand('go-jsonnet', PATH_ENV) ?? findCommand('jsonnet', PATH_ENV)) return false;
  const ci = process.env.CI;
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') return false;
  return 'no jsonnet on PATH (apt-get install jsonnet; .ci/run installs it)';
}

function application(name: string, source: string): string {
  return argoApplication(name, `    repoURL: https://github.com/acme/platform\n    targetRevision: main\n${source}`);
}

function repo(files: Record<string, string>): string {
  const dir = writeTree(files);
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

/** `fleetplan render --leaves` of the repository `dir` into `out`, with its build cache under `out`. */
const renderLeaves = (dir: string, out: string) => cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')], process.cwd(), PATH_ENV);

const read = (out: string, app: string) => {
  const d = join(out, 'in-cluster', 'manifests', app);
  return Object.fromEntries(readdirSync(d).sort().map((f) => [f, readFileSync(join(d, f), 'utf8')]));
};

test('jsonnetImports finds import, importstr and importbin with their string literals, not those in comments or strings', () => {
  const text = [
    "local a = import 'a.libsonnet';",
    '// import "commented.libsonnet"',
    '# import "hashed.libsonnet"',
    '/* import "block.libsonnet" */',
    'local s = "import \\"in-string.libsonnet\\"";',
    'local b = importstr @"dir\\b.txt";',
    "local c = importbin \"c\\u002ebin\";",
    'local t = |||',
    '  import "in-text-block.libsonnet"',
    '|||;',
    'local d = import |||',
    '  d.libsonnet',
    '|||;',
    "{ x: import '../up.libsonnet' }",
  ].join('\n');
  assert.deepEqual(jsonnetImports(text), [
    { kind: 'import', path: 'a.libsonnet', line: 1 },
    { kind: 'importstr', path: 'dir\\b.txt', line: 6 },
    { kind: 'importbin', path: 'c.bin', line: 7 },
    { kind: 'import', path: 'd.libsonnet\n', line: 11 },
    { kind: 'import', path: '../up.libsonnet', line: 14 },
  ]);
});

test('jsonnetSettings reads extVars and tlas (code or string, values substituted) and libs', () => {
  const s = jsonnetSettings(
    {
      directory: {
        jsonnet: {
          extVars: [{ name: 'env', value: '$ARGOCD_APP_NAME-prod' }, { name: 'n', value: '1 + 2', code: true }, { value: 'no name' }],
          tlas: [{ name: 'replicas', value: '3', code: true }],
          libs: ['vendor', 7],
        },
      },
    },
    (v) => v.replace('$ARGOCD_APP_NAME', 'web'),
  );
  assert.deepEqual(s, {
    extVars: [{ name: 'env', value: 'web-prod', code: false }, { name: 'n', value: '1 + 2', code: true }],
    tlas: [{ name: 'replicas', value: '3', code: true }],
    libs: ['vendor'],
  });
  assert.deepEqual(jsonnetSettings({}), { extVars: [], tlas: [], libs: [] });
});

test('jsonnetArguments passes NAME=VALUE (never a bare NAME, which reads the environment) and the search path, last searched first', () => {
  assert.deepEqual(
    jsonnetArguments({ file: '/r/web/a.jsonnet', searchPath: ['/r/web', '/r/vendor'], extVars: [{ name: 'e', value: 'x=y', code: false }, { name: 'c', value: '{}', code: true }], tlas: [{ name: 't', value: '', code: false }] }),
    ['-J', '/r/web', '-J', '/r/vendor', '--ext-str', 'e=x=y', '--ext-code', 'c={}', '--tla-str', 't=', '--', '/r/web/a.jsonnet'],
  );
});

test('jsonnetOutputManifests takes an object or an array of objects with a kind and refuses anything else', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
  assert.equal(jsonnetOutputManifests(JSON.stringify(cm)), `${JSON.stringify(cm)}\n`);
  assert.equal(jsonnetOutputManifests(JSON.stringify([cm, cm])), `${JSON.stringify(cm)}\n---\n${JSON.stringify(cm)}\n`);
  assert.equal(jsonnetOutputManifests('[]'), '');
  assert.throws(() => jsonnetOutputManifests('{"apiVersion": "v1"}'), /its output has no kind/);
  assert.throws(() => jsonnetOutputManifests(JSON.stringify([cm, null])), /element 1 of its output is null/);
  assert.throws(() => jsonnetOutputManifests(JSON.stringify([[cm]])), /element 0 of its output is an array/);
  assert.throws(() => jsonnetOutputManifests('"text"'), /its output is string/);
});

test('a lib or an import that leads outside the repository is refused; imports are followed to their files', () => {
  const root = writeTree({
    'repo/web/main.jsonnet': "local p = import 'params.libsonnet'; local v = import 'k.libsonnet'; { a: p, b: v }\n",
    'repo/web/params.libsonnet': "{ x: importstr 'data.txt' }\n",
    'repo/web/data.txt': 'hello\n',
    'repo/vendor/k.libsonnet': '{}\n',
    'repo/web/bad.jsonnet': "\n\nimport '../../secret.libsonnet'\n",
    'repo/web/abs.jsonnet': `import '${'/etc/hostname'}'\n`,
    'secret.libsonnet': '{ password: 1 }\n',
  });
  const r = join(root, 'repo');
  try {
    const reader = createSourceReader(r);
    const display = (abs: string) => abs.slice(r.length + 1);
    const path = jsonnetSearchPath(r, join(r, 'web'), ['vendor'], 'apps/a.yaml:1');
    assert.deepEqual(jsonnetReads(reader, r, join(r, 'web/main.jsonnet'), path, display).map(display), ['web/main.jsonnet', 'web/params.libsonnet', 'vendor/k.libsonnet', 'web/data.txt']);
    assert.throws(() => jsonnetReads(reader, r, join(r, 'web/bad.jsonnet'), path, display), (e: InputError) => /^import "\.\.\/\.\.\/secret\.libsonnet" would read .*secret\.libsonnet, outside the repository$/.test(e.message) && e.location?.file === 'web/bad.jsonnet' && e.location.line === 3);
    assert.throws(() => jsonnetReads(reader, r, join(r, 'web/abs.jsonnet'), path, display), /import "\/etc\/hostname" would read \/etc\/hostname, outside the repository/);
    assert.throws(() => jsonnetSearchPath(r, join(r, 'web'), ['../..'], 'apps/a.yaml:1'), /apps\/a\.yaml:1: jsonnet lib "\.\.\/\.\." resolves outside the repository/);
    // Argo CD: a lib written absolute is still relative to the repository root.
    assert.deepEqual(jsonnetSearchPath(r, join(r, 'web'), ['/vendor'], 'x'), [join(r, 'web'), join(r, 'vendor')]);
  } finally {
    removeTree(root);
  }
});

test('render --leaves without a jsonnet binary does not build a directory source with Jsonnet files and says what to install', async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n'),
    'apps/plain.yaml': application('plain', '    path: plain\n'),
    'web/main.jsonnet': "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }\n",
    'plain/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p\n',
  });
  const out = writeTree({});
  try {
    // An empty PATH and no FLEETPLAN_JSONNET: nothing to find.
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')], process.cwd(), { PATH: '' });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /cluster in-cluster, app web: not built: web\/main\.jsonnet needs Jsonnet: jsonnet not found/);
    assert.match(r.stderr, /apt-get install jsonnet/);
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'web')), false);
    // In the Application's destination namespace, as the sync places it (ADR 0420).
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'plain', '01-configmap-plain-p.yaml')), true, r.stderr);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('render --leaves evaluates .jsonnet files with extVars, TLAs and libs as Argo CD does, beside the YAML files', { skip: skipWithoutJsonnet() }, async () => {
  const source = [
    '    path: web',
    '    directory:',
    '      jsonnet:',
    '        libs: [vendor]',
    '        extVars:',
    '          - { name: env, value: $ARGOCD_APP_NAME-prod }',
    '          - { name: size, value: "2 * 3", code: true }',
    '        tlas:',
    '          - { name: replicas, value: "4", code: true }',
    '          - { name: image, value: "nginx:1.27" }',
    '',
  ].join('\n');
  const dir = repo({
    'apps/web.yaml': application('web', source),
    'web/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\n',
    'web/b.jsonnet': [
      "local k = import 'k.libsonnet';",
      "local p = import 'params.libsonnet';",
      'function(replicas, image) [',
      "  k.cm(std.extVar('env'), { size: std.toString(std.extVar('size')), greeting: p.greeting }),",
      "  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: replicas, template: { spec: { containers: [{ name: 'web', image: image }] } } } },",
      ']',
      '',
    ].join('\n'),
    'web/c.jsonnet': "{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'skipped' } } // +argocd:skip-file-rendering\n",
    'web/params.libsonnet': "{ greeting: 'hi' }\n",
    'vendor/k.libsonnet': "{ cm(name, data):: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: name }, data: data } }\n",
  });
  const out = writeTree({});
  try {
    const r = await renderLeaves(dir, out);
    assert.equal(r.code, 0, r.stderr);
    const files = read(out, 'web');
    // jsonnet's objects in the sync's namespace, the Application's destination `web` (ADR 0420).
    assert.deepEqual(Object.keys(files), ['01-configmap-web-from-yaml.yaml', '02-configmap-web-web-prod.yaml', '03-deployment-web-web.yaml']);
    assert.match(files['02-configmap-web-web-prod.yaml']!, /greeting: hi\n/);
    assert.match(files['02-configmap-web-web-prod.yaml']!, /size: '6'\n/);
    assert.match(files['03-deployment-web-web.yaml']!, /replicas: 4\n/);
    assert.match(files['03-deployment-web-web.yaml']!, /image: nginx:1\.27\n/);

    // The library is an input of the build: changing it rebuilds (no stale cache hit).
    writeTree({ 'vendor/k.libsonnet': "{ cm(name, data):: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: name + '-v2' }, data: data } }\n" }, dir);
    const again = await renderLeaves(dir, out);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(Object.keys(read(out, 'web')).includes('02-configmap-web-web-prod-v2.yaml'), again.stderr);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('Jsonnet import search: the importing file\'s directory first, then the libs last first, then the source path (go-jsonnet FileImporter)', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n    directory:\n      jsonnet:\n        libs: [lib1, lib2]\n'),
    'web/main.jsonnet': "local n = import 'name.libsonnet'; local h = import 'here.libsonnet'; local s = import 'sub/inner.libsonnet';\n[{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n + '-' + h + '-' + s } }]\n",
    'web/name.libsonnet': "'web'\n",
    'web/here.libsonnet': "'here'\n",
    'web/sub/inner.libsonnet': "import 'here.libsonnet'\n",
    'web/sub/here.libsonnet': "'beside'\n",
    'lib1/name.libsonnet': "'lib1'\n",
    'lib2/name.libsonnet': "'lib2'\n",
  });
  const out = writeTree({});
  try {
    const r = await renderLeaves(dir, out);
    assert.equal(r.code, 0, r.stderr);
    // name: beside main.jsonnet wins over the libs; inner's here.libsonnet is the one beside inner
    // (the file named with the sync's namespace `web`, ADR 0420).
    assert.deepEqual(Object.keys(read(out, 'web')), ['01-configmap-web-web-here-beside.yaml']);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('Jsonnet libs: the last lib is searched first, before the source path', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo({
    'apps/web.yaml': application('web', '    path: web\n    directory:\n      recurse: true\n      jsonnet:\n        libs: [lib1, lib2]\n'),
    'web/sub/main.jsonnet': "[{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: (import 'name.libsonnet') + '-' + (import 'only-web.libsonnet') } }]\n",
    'web/only-web.libsonnet': "'web'\n",
    'web/name.libsonnet': "'web'\n",
    'lib1/name.libsonnet': "'lib1'\n",
    'lib2/name.libsonnet': "'lib2'\n",
  });
  const out = writeTree({});
  try {
    const r = await renderLeaves(dir, out);
    assert.equal(r.code, 0, r.stderr);
    // name.libsonnet: not beside sub/main.jsonnet, so lib2 before lib1 and web; only-web.libsonnet: the source path.
    // The file named with the sync's namespace `web` (ADR 0420).
    assert.deepEqual(Object.keys(read(out, 'web')), ['01-configmap-web-lib2-web.yaml']);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('render --leaves refuses a Jsonnet import outside the repository before running jsonnet, naming the file, line and Application', { skip: skipWithoutJsonnet() }, async () => {
  const parent = writeTree({
    'outside.libsonnet': "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'leaked' } }\n",
    'repo/apps/web.yaml': application('web', '    path: web\n'),
    'repo/web/main.jsonnet': "// reads a file beside the repository\nimport '../../outside.libsonnet'\n",
  });
  const dir = join(parent, 'repo');
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  const out = writeTree({});
  try {
    const r = await renderLeaves(dir, out);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /web\/main\.jsonnet:2: cluster in-cluster, app web: import "\.\.\/\.\.\/outside\.libsonnet" would read .*outside\.libsonnet, outside the repository \(the directory source of Application web at apps\/web\.yaml:\d+\)/);
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'web')), false);
  } finally {
    removeTree(parent);
    removeTree(out);
  }
});

test('render --leaves turns a Jsonnet error (an infinite recursion, output that is no object) into an error naming the Jsonnet file and the Application', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo({
    'apps/loop.yaml': application('loop', '    path: loop\n'),
    'apps/text.yaml': application('text', '    path: text\n'),
    'loop/main.jsonnet': 'local f(x) = f(x + 1) + 1;\nf(0)\n',
    'text/main.jsonnet': '"not an object"\n',
  });
  const out = writeTree({});
  try {
    const r = await renderLeaves(dir, out);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /cluster in-cluster, app loop: jsonnet loop\/main\.jsonnet \(the directory source of Application loop at apps\/loop\.yaml:\d+\): .*(max stack frames exceeded|stack overflow)/i);
    // Jsonnet's own trace names files relative to the repository, not by the checkout's absolute path.
    assert.equal(r.stderr.includes(dir), false, r.stderr);
    assert.match(r.stderr, /cluster in-cluster, app text: jsonnet text\/main\.jsonnet \(the directory source of Application text at apps\/text\.yaml:\d+\): its output is string, not a Kubernetes object/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('a Jsonnet evaluation that runs too long or writes too much is stopped with the limit named', { skip: skipWithoutJsonnet() }, async () => {
  const root = writeTree({
    'forever/main.jsonnet': 'local f(x) = f(x + 1) tailstrict;\nf(0)\n',
    // 2^20 characters in one value, built by doubling: quick to make, too big to write.
    'huge/main.jsonnet': "local d(s, n) = if n == 0 then s else d(s + s, n - 1);\n{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { x: d('x', 20) } }\n",
  });
  try {
    const fail = () => Promise.reject(new ToolError('not used', { code: 'tool-missing' }));
    const build = (app: string, jsonnetLimits: { timeoutMs: number; maxOutputBytes: number }) =>
      renderLeafJobs(
        [{ cluster: 'c', app, source: { kind: 'directory', path: app, definedAt: `Application ${app} at apps/${app}.yaml:3` }, variables: undefined }],
        { reader: createSourceReader(root), kustomize: fail, helm: fail, jsonnet: () => locateJsonnet({ env: PATH_ENV, bundledDir: false }), jsonnetLimits, cache: createMemoryCache() },
        { repoRoot: root },
      ).then((run) => run.results[0]!);
    // Each bound alone: the other generous, so a loaded machine does not change which one stops it.
    const forever = await build('forever', { timeoutMs: 2000, maxOutputBytes: 100_000 });
    assert.equal(forever.error?.code, 'jsonnet-limit');
    assert.match(forever.error!.message, /cluster c, app forever: jsonnet forever\/main\.jsonnet \(the directory source of Application forever at apps\/forever\.yaml:3\): evaluation stopped: it ran longer than 2 s/);
    const huge = await build('huge', { timeoutMs: 120_000, maxOutputBytes: 100_000 });
    assert.equal(huge.error?.code, 'jsonnet-limit');
    assert.match(huge.error!.message, /jsonnet huge\/main\.jsonnet .*: evaluation stopped: its output exceeded 100000 bytes/);
  } finally {
    removeTree(root);
  }
});
