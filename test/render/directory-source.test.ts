/**
 * Argo CD's directory source type (docs/adr/0287-directory-sources-in-leaves.md): a source path with
 * no kustomization and no Chart.yaml is read as the repo-server reads it — its .yaml, .yml and
 * .json files, subdirectories only with directory.recurse, kept by include and dropped by exclude —
 * and files that hold no Kubernetes object are skipped. Before, render --leaves ran kustomize on it,
 * which fails ("unable to find one of 'kustomization.yaml'…").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { directoryFileManifests, selectDirectoryFiles } from '../../src/render/leaves/directory.js';

function application(name: string, source: string): string {
  return argoApplication(name, `    repoURL: https://github.com/acme/platform\n    targetRevision: main\n${source}`);
}

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

function repo(extra: Record<string, string> = {}): string {
  const dir = writeTree({
    'apps/flat.yaml': application('flat', '    path: web\n'),
    'apps/deep.yaml': application('deep', '    path: web\n    directory:\n      recurse: true\n      exclude: "{skip.yaml,*.json}"\n'),
    'web/a.yaml': `${cm('a')}---\n${cm('b')}`,
    'web/c.json': JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }),
    'web/values.yaml': 'replicas: 3\nimage: nginx\n',
    'web/README.md': '# not read\n',
    'web/sub/d.yml': cm('d'),
    'web/sub/skip.yaml': cm('skipped'),
    ...extra,
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

test('selectDirectoryFiles keeps .yaml/.yml/.json, subdirectories only with recurse, include and exclude globs', () => {
  const files = ['a.yaml', 'c.json', 'README.md', 'sub/d.yml', 'sub/skip.yaml'];
  assert.deepEqual(selectDirectoryFiles(files, {}), ['a.yaml', 'c.json']);
  assert.deepEqual(selectDirectoryFiles(files, { recurse: true }), ['a.yaml', 'c.json', 'sub/d.yml', 'sub/skip.yaml']);
  assert.deepEqual(selectDirectoryFiles(files, { recurse: true, exclude: '{skip.yaml,*.json}' }), ['a.yaml', 'sub/d.yml']);
  assert.deepEqual(selectDirectoryFiles(files, { recurse: true, include: 'sub/*' }), ['sub/d.yml', 'sub/skip.yaml']);
});

test('directoryFileManifests skips files that hold no Kubernetes object and refuses broken or mixed ones', () => {
  assert.equal(directoryFileManifests('replicas: 3\n'), undefined);
  assert.equal(directoryFileManifests('{{ not yaml: [\n'), undefined);
  assert.equal(directoryFileManifests(cm('a')), cm('a'));
  assert.throws(() => directoryFileManifests(`${cm('a')}---\nreplicas: 3\n`), /some documents are Kubernetes objects/);
  assert.throws(() => directoryFileManifests('apiVersion: v1\nkind: ConfigMap\nmetadata: [\n'));
});

test('render --leaves builds a directory source as Argo CD reads it, with recurse, include and exclude', async () => {
  const dir = repo();
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 0, r.stderr);
    // The files as Argo CD reads them, in the sync's namespace: the Application's destination (ADR 0420).
    assert.deepEqual(readdirSync(join(out, 'in-cluster', 'manifests', 'flat')).sort(), ['01-configmap-flat-a.yaml', '02-configmap-flat-b.yaml', '03-configmap-flat-c.yaml']);
    assert.deepEqual(readdirSync(join(out, 'in-cluster', 'manifests', 'deep')).sort(), ['01-configmap-deep-a.yaml', '02-configmap-deep-b.yaml', '03-configmap-deep-d.yaml']);
    assert.match(r.stderr, /leaves: 2 of 2 apps rendered, 6 objects/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('render --leaves names the file of a directory source that looks like a manifest but does not parse', async () => {
  const dir = repo({ 'web/broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: [\n' });
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /web\/broken\.yaml is not valid manifests/);
    assert.match(r.stderr, /directory\.exclude/);
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'flat')), false);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('render --leaves without Jsonnet does not build a directory source with Jsonnet files, and names them (ADR 0303)', async () => {
  const dir = repo({ 'web/sub/lib.jsonnet': '{ a: 1 }\n' });
  const out = writeTree({});
  try {
    // No PATH: no jsonnet to find, so the app that reads the file fails and says why.
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /cluster in-cluster, app deep: not built: web\/sub\/lib\.jsonnet needs Jsonnet: jsonnet not found/);
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'deep')), false);
    // Without recurse the file is not read, so the flat app builds (in its destination namespace, ADR 0420).
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'flat', '01-configmap-flat-a.yaml')), true);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('an Application that writes the fleet repository\'s URL another way (.git, trailing slash, host case, scp form) still reads it', async () => {
  const dir = repo({
    'apps/flat.yaml': application('flat', '    path: web\n').replace('https://github.com/acme/platform', 'https://GitHub.com/acme/platform.git'),
    'apps/deep.yaml': application('deep', '    path: web\n').replace('https://github.com/acme/platform', 'git@github.com:acme/platform.git'),
    'apps/other.yaml': application('other', '    path: web\n').replace('https://github.com/acme/platform', 'https://github.com/acme/platform-other'),
  });
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 0, r.stderr);
    // Each in its destination namespace, as the sync places it (ADR 0420).
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'flat', '01-configmap-flat-a.yaml')), true, r.stderr);
    assert.equal(existsSync(join(out, 'in-cluster', 'manifests', 'deep', '01-configmap-deep-a.yaml')), true, r.stderr);
    assert.match(r.stderr, /note: in-cluster\/other not rendered: source https:\/\/github\.com\/acme\/platform-other is another repository/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
