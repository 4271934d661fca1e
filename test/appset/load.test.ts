import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadApplicationSet, parseClusterSecrets, splitPath } from '../../src/appset/load.js';
import { InputError } from '../../src/errors/index.js';

test('cluster Secrets: data is base64-decoded and stringData wins', () => {
  const secrets = parseClusterSecrets(
    `apiVersion: v1
kind: Secret
metadata:
  name: s1
  labels: {argocd.argoproj.io/secret-type: cluster}
  annotations: {git_revision: main}
data:
  name: YQ==
  server: aHR0cHM6Ly9h
stringData:
  server: https://b
`,
    'c.yaml',
  );
  assert.deepEqual(secrets, [
    { name: 's1', namespace: undefined, labels: { 'argocd.argoproj.io/secret-type': 'cluster' }, annotations: { git_revision: 'main' }, data: { name: 'a', server: 'https://b' } },
  ]);
});

test('cluster Secrets: a kind: List is read item by item', () => {
  const secrets = parseClusterSecrets('kind: List\nitems:\n  - kind: Secret\n    metadata: {name: a}\n  - kind: Secret\n    metadata: {name: b}\n', 'l.yaml');
  assert.deepEqual(
    secrets.map((s) => s.name),
    ['a', 'b'],
  );
});

const badSecrets: { name: string; yaml: string; message: RegExp; line: number }[] = [
  { name: 'rejects data that is not base64', yaml: 'kind: Secret\nmetadata: {name: a}\ndata:\n  name: not base64!\n', message: /data\.name: not valid base64/, line: 4 },
  { name: 'rejects a document that is not a Secret', yaml: 'kind: ConfigMap\nmetadata: {name: a}\n', message: /expected kind: Secret, got "ConfigMap"/, line: 1 },
  { name: 'rejects a label that is not a string', yaml: 'kind: Secret\nmetadata:\n  name: a\n  labels:\n    env: 3\n', message: /metadata\.labels\.env: expected a string/, line: 5 },
];

for (const c of badSecrets) {
  test(`cluster Secrets: ${c.name}`, () => {
    assert.throws(
      () => parseClusterSecrets(c.yaml, 'c.yaml'),
      (e: unknown) => e instanceof InputError && c.message.test(e.message) && e.location?.file === 'c.yaml' && e.location.line === c.line,
    );
  });
}

test('ApplicationSet: namespace defaults to argocd and non-ApplicationSet documents are skipped', () => {
  const loaded = loadApplicationSet('kind: ConfigMap\n---\nkind: ApplicationSet\nmetadata: {name: a}\nspec:\n  generators: [{list: {elements: []}}]\n', 'a.yaml');
  assert.equal(loaded.length, 1);
  assert.deepEqual(loaded[0]!.appSet.metadata, { name: 'a', namespace: 'argocd' });
  assert.deepEqual(loaded[0]!.locate('spec.generators[0].list'), { file: 'a.yaml', line: 6, column: 23, path: 'spec.generators[0].list' });
});

test('ApplicationSet: a file without one is an input error', () => {
  assert.throws(() => loadApplicationSet('kind: ConfigMap\n', 'x.yaml'), /no ApplicationSet in the file/);
});

test('ApplicationSet: a YAML syntax error names the line', () => {
  assert.throws(() => loadApplicationSet('kind: ApplicationSet\nspec: [\n', 'x.yaml'), (e: unknown) => e instanceof InputError && e.location?.file === 'x.yaml' && e.location.line !== undefined);
});

test('spec paths split into keys and indexes', () => {
  assert.deepEqual(splitPath('spec.generators[0].matrix.generators[1]'), ['spec', 'generators', 0, 'matrix', 'generators', 1]);
});
