import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectFileName, objectAtLine, parseManifests, serializeObject } from '../../src/render/leaves/manifests.js';

const names: { name: string; index: number; count: number; obj: Record<string, unknown>; expected: string }[] = [
  { name: 'names a namespaced object NN-kind-namespace-name', index: 0, count: 3, obj: { kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } }, expected: '01-deployment-shop-web.yaml' },
  { name: 'leaves the namespace out for cluster-scoped objects', index: 9, count: 12, obj: { kind: 'ClusterRole', metadata: { name: 'view' } }, expected: '10-clusterrole-view.yaml' },
  { name: 'replaces characters that do not belong in file names', index: 1, count: 2, obj: { kind: 'ClusterRole', metadata: { name: 'system:aggregate/x' } }, expected: '02-clusterrole-system_aggregate_x.yaml' },
  { name: 'widens the index past 99 objects so that files sort in build order', index: 4, count: 120, obj: { kind: 'Secret', metadata: { name: 's', namespace: 'n' } }, expected: '005-secret-n-s.yaml' },
];
for (const c of names) test(c.name, () => assert.equal(objectFileName(c.index, c.count, c.obj), c.expected));

test('serializes with sorted keys, no folding and one trailing newline', () => {
  const long = 'x'.repeat(150);
  assert.equal(serializeObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { z: long, a: '2024-01-01', b: 'yes' } }), `apiVersion: v1\ndata:\n  a: '2024-01-01'\n  b: 'yes'\n  z: ${long}\nkind: ConfigMap\n`);
});

test('keeps strings that look like other types as strings when parsing build output', () => {
  const [obj] = parseManifests("kind: ConfigMap\ndata:\n  a: '010'\n  b: 2024-01-01\n", 'x');
  assert.deepEqual(obj, { kind: 'ConfigMap', data: { a: '010', b: '2024-01-01' } });
});

test('finds the object around a line of a stream', () => {
  const text = 'kind: A\nmetadata:\n  name: a\n---\nkind: B\nmetadata:\n  name: b\n  namespace: ns\n';
  assert.equal(objectAtLine(text, 2), 'A/a');
  assert.equal(objectAtLine(text, 7), 'B/ns/b');
});
