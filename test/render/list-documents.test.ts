/**
 * List documents (docs/adr/0300-list-documents.md): a document whose `items` is an array — `kind:
 * List`, `ConfigMapList`, … — is applied as its items by Argo CD's repo-server (every source type)
 * and by Flux's kustomize-controller; fleetplan kept it as one object. Now render --leaves, the
 * objects validate reads from plain folders, and the argocd layout's search for Applications all
 * expand it the same way (src/model/k8s-list.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { ListItemError, expandListDocument } from '../../src/model/k8s-list.js';
import { parseManifests } from '../../src/load/manifests.js';

const cm = (name: string, indent = '') => `${indent}apiVersion: v1\n${indent}kind: ConfigMap\n${indent}metadata:\n${indent}  name: ${name}\n`;
const list = (kind: string, items: string[]) => `apiVersion: v1\nkind: ${kind}\nitems:\n${items.map((i) => i.replace(/^ {2}/, '- ')).join('')}`;

function repo(files: Record<string, string>): string {
  const dir = writeTree({
    'apps/web.yaml': argoApplication('web', '    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: web\n'),
    ...files,
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

test('expandListDocument: any items array is a list (List, ConfigMapList), a null list is dropped, a list in a list is one item, a non-object item is an error', () => {
  const a = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
  const inner = { apiVersion: 'v1', kind: 'List', items: [a] };
  assert.deepEqual(expandListDocument({ apiVersion: 'v1', kind: 'List', items: [a, inner] }), [a, inner]);
  assert.deepEqual(expandListDocument({ apiVersion: 'v1', kind: 'ConfigMapList', items: [a] }), [a]);
  assert.deepEqual(expandListDocument({ apiVersion: 'v1', kind: 'List', items: [] }), []);
  assert.deepEqual(expandListDocument({ apiVersion: 'v1', kind: 'List', items: null }), []);
  const withSpec = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec: {}, items: null };
  assert.deepEqual(expandListDocument(withSpec), [withSpec]);
  assert.deepEqual(expandListDocument(a), [a]);
  assert.throws(() => expandListDocument({ apiVersion: 'v1', kind: 'List', items: ['x'] }), ListItemError);
});

test('render --leaves: a directory source\'s List and ConfigMapList are written as their items, each its own file', async () => {
  const dir = repo({
    'web/list.yaml': list('List', [cm('a', '  '), cm('b', '  ')]),
    'web/cms.yaml': list('ConfigMapList', [cm('c', '  ')]),
    'web/one.yaml': cm('d'),
  });
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 0, r.stderr);
    const files = readdirSync(join(out, 'in-cluster', 'manifests', 'web')).sort();
    // Each item in the sync's namespace, the Application's destination `web` (ADR 0420).
    assert.deepEqual(files, ['01-configmap-web-c.yaml', '02-configmap-web-a.yaml', '03-configmap-web-b.yaml', '04-configmap-web-d.yaml']);
    assert.doesNotMatch(readFileSync(join(out, 'in-cluster', 'manifests', 'web', files[1]!), 'utf8'), /kind: List|items:/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('render --leaves: a list whose item is not an object fails the app at that file, with a hint', async () => {
  const dir = repo({ 'web/list.yaml': 'apiVersion: v1\nkind: List\nitems:\n  - just a string\n' });
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /item 1 of List is not an object/);
    assert.match(r.stderr, /every item of a list must be a Kubernetes object/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('parseManifests (what validate reads): a SecretList is its items, each at its own line, with the lines of its keys', () => {
  const text = 'apiVersion: v1\nkind: SecretList\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: s1\n  data:\n    k: dg==\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: s2\n  data:\n    k: dg==\n';
  const objs = parseManifests('web/secrets.yaml', text);
  assert.deepEqual(objs.map((o) => [o.kind, o.name, o.line, o.keyLines.data]), [['Secret', 's1', 4, 8], ['Secret', 's2', 10, 14]]);
  // A flow-style list cannot be placed item by item: its items point at the list.
  const flow = parseManifests('x.yaml', 'apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]\n');
  assert.deepEqual(flow.map((o) => [o.kind, o.name, o.line]), [['ConfigMap', 'a', 1]]);
});

test('validate: a Secret with data inside a SecretList of a plain folder is secret-in-git at the item\'s data line', async () => {
  const dir = repo({ 'web/secrets.yaml': 'apiVersion: v1\nkind: SecretList\nitems:\n  - apiVersion: v1\n    kind: Secret\n    metadata:\n      name: s1\n      namespace: web\n    data:\n      password: aHVudGVyMg==\n' });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; file?: string; line?: number; message: string }[] }).findings;
    const s = findings.filter((f) => f.code === 'secret-in-git');
    assert.deepEqual(s.map((f) => [f.file, f.line]), [['web/secrets.yaml', 9]], JSON.stringify(findings));
  } finally {
    removeTree(dir);
  }
});

test('argocd layout: an Application inside a List of an app-of-apps folder is followed like one written alone', async () => {
  const child = (name: string) => argoApplication(name, '    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: web\n').split('\n').map((l) => (l ? `  ${l}` : l)).join('\n').replace(/^ {2}/, '- ');
  const dir = repo({
    'apps/web.yaml': argoApplication('root', '    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: children\n'),
    'children/list.yaml': `apiVersion: v1\nkind: List\nitems:\n${child('one')}${child('two')}`,
    'web/one.yaml': cm('d'),
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout) as { clusters: { apps: { name: string }[] }[] };
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)).sort(), ['one', 'root', 'two']);
  } finally {
    removeTree(dir);
  }
});
