import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type * as k8s from '@kubernetes/client-node';
import { crdsNamed, preloadCrds } from '../support/kube-server/index.js';
import { configMap, deployment, harness, statusOf, type Harness } from './helpers.js';

describe('kube-server CRUD', () => {
  let h: Harness;
  before(async () => {
    h = await harness({ namespaces: ['apps'] });
  });
  after(() => h.close());

  test('create sets uid, creationTimestamp and a resourceVersion; get returns it', async () => {
    const c = await h.api.create(configMap('c1', { a: '1' }));
    assert.match(String(c.metadata?.uid), /^[0-9a-f-]{36}$/);
    assert.ok(c.metadata?.creationTimestamp);
    assert.match(String(c.metadata?.resourceVersion), /^\d+$/);
    const got = (await h.api.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace: 'default' } })) as any;
    assert.deepEqual(got.data, { a: '1' });
  });

  test('generateName makes a unique name', async () => {
    const a = await h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-', namespace: 'default' } } as k8s.KubernetesObject);
    const b = await h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-', namespace: 'default' } } as k8s.KubernetesObject);
    assert.match(String(a.metadata?.name), /^gen-[a-z0-9]{5}$/);
    assert.notEqual(a.metadata?.name, b.metadata?.name);
  });

  test('list filters by labelSelector and fieldSelector=metadata.name; built-in items carry no kind', async () => {
    await h.api.create(configMap('l1', {}, { labels: { tier: 'a' } }));
    await h.api.create(configMap('l2', {}, { labels: { tier: 'b' } }));
    const byLabel = await h.api.list('v1', 'ConfigMap', 'default', undefined, undefined, undefined, undefined, 'tier in (a,c)');
    assert.deepEqual(byLabel.items.map((i) => i.metadata?.name), ['l1']);
    const byName = await h.api.list('v1', 'ConfigMap', undefined, undefined, undefined, undefined, 'metadata.name=l2');
    assert.deepEqual(byName.items.map((i) => i.metadata?.name), ['l2']);
    const raw = (await (await fetch(`${h.server.url}/api/v1/namespaces/default/configmaps?labelSelector=tier`)).json()) as any;
    assert.equal(raw.kind, 'ConfigMapList');
    assert.equal(raw.items[0].kind, undefined);
    assert.match(raw.metadata.resourceVersion, /^\d+$/);
  });

  const failures: Array<{ name: string; run: (h: Harness) => Promise<unknown>; code: number; reason: string; message: RegExp }> = [
    { name: 'get of a missing object is NotFound', run: (x) => x.api.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nope', namespace: 'default' } }), code: 404, reason: 'NotFound', message: /^configmaps "nope" not found$/ },
    { name: 'a second create is AlreadyExists', run: async (x) => { await x.api.create(configMap('dup')); return x.api.create(configMap('dup')); }, code: 409, reason: 'AlreadyExists', message: /^configmaps "dup" already exists$/ },
    { name: 'an update with a stale resourceVersion is a Conflict', run: async (x) => { const c = await x.api.create(configMap('stale')); await x.api.replace({ ...c, data: { v: '1' } }); return x.api.replace({ ...c, data: { v: '2' } }); }, code: 409, reason: 'Conflict', message: /the object has been modified/ },
    { name: 'an invalid name is Invalid', run: (x) => x.api.create(configMap('Bad_Name')), code: 422, reason: 'Invalid', message: /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value/ },
    { name: 'illegal base64 in a Secret is Invalid', run: (x) => x.api.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, data: { k: 'not base64!' } } as k8s.KubernetesObject), code: 422, reason: 'Invalid', message: /illegal base64/ },
    { name: 'an object in a missing namespace is NotFound for the namespace', run: (x) => x.api.create({ ...configMap('x'), metadata: { name: 'x', namespace: 'ghost' } }), code: 404, reason: 'NotFound', message: /^namespaces "ghost" not found$/ },
    { name: 'a non-apply patch with force is refused', run: (x) => x.api.patch(configMap('c1'), undefined, undefined, 'me', true, 'application/merge-patch+json'), code: 422, reason: 'Invalid', message: /force/ },
  ];
  for (const f of failures) {
    test(f.name, async () => {
      const { code, body } = await statusOf(f.run(h));
      assert.equal(code, f.code);
      assert.equal(body.kind, 'Status');
      assert.equal(body.reason, f.reason);
      assert.match(body.message, f.message);
    });
  }

  test('merge, strategic-merge and JSON patches change the object', async () => {
    await h.api.create(configMap('p', { a: '1', b: '2' }));
    await h.api.patch({ ...configMap('p'), data: { a: null, c: '3' } } as any, undefined, undefined, 'me', undefined, 'application/merge-patch+json');
    await h.api.patch({ ...configMap('p'), data: { d: '4' } } as any, undefined, undefined, 'me', undefined, 'application/strategic-merge-patch+json');
    const r = await fetch(`${h.server.url}/api/v1/namespaces/default/configmaps/p`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/data/b', value: 'two' }, { op: 'add', path: '/metadata/labels', value: { x: 'y' } }]),
    });
    assert.equal(r.status, 200);
    const got = (await r.json()) as any;
    assert.deepEqual(got.data, { b: 'two', c: '3', d: '4' });
    assert.deepEqual(got.metadata.labels, { x: 'y' });
  });

  test('generation bumps on spec changes only; main writes ignore status; /status changes only status', async () => {
    h.server.controllers.hold({ kind: 'Deployment', namespace: 'apps', name: 'gen' });
    const d = (await h.api.create({ ...deployment('gen', 1, 'apps'), status: { replicas: 99 } })) as any;
    assert.equal(d.metadata.generation, 1);
    assert.equal(d.status, undefined, 'status on create is dropped');
    const labelled = (await h.api.patch({ ...deployment('gen', 1, 'apps'), metadata: { name: 'gen', namespace: 'apps', labels: { a: 'b' } } }, undefined, undefined, 'me', undefined, 'application/merge-patch+json')) as any;
    assert.equal(labelled.metadata.generation, 1, 'metadata changes keep the generation');
    const scaled = (await h.api.patch({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'gen', namespace: 'apps' }, spec: { replicas: 3 }, status: { replicas: 7 } } as any, undefined, undefined, 'me', undefined, 'application/merge-patch+json')) as any;
    assert.equal(scaled.metadata.generation, 2);
    assert.equal(scaled.status, undefined);
    const put = await fetch(`${h.server.url}/apis/apps/v1/namespaces/apps/deployments/gen/status`, {
      method: 'PUT', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...scaled, spec: { ...scaled.spec, replicas: 1 }, status: { replicas: 3 } }),
    });
    const afterStatus = (await put.json()) as any;
    assert.deepEqual([afterStatus.status.replicas, afterStatus.spec.replicas, afterStatus.metadata.generation], [3, 3, 2]);
  });

  test('delete with finalizers sets deletionTimestamp; removing the last finalizer deletes', async () => {
    await h.api.create(configMap('fin', {}, { finalizers: ['example.com/hold'] }));
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fin', namespace: 'default' } };
    await h.api.delete(ref);
    const held = (await h.api.read(ref)) as any;
    assert.ok(held.metadata.deletionTimestamp);
    await h.api.patch({ ...ref, metadata: { ...ref.metadata, finalizers: null } } as any, undefined, undefined, 'me', undefined, 'application/merge-patch+json');
    const { code } = await statusOf(h.api.read(ref));
    assert.equal(code, 404);
  });

  test('Secret stringData is stored as base64 data', async () => {
    const s = (await h.api.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sd', namespace: 'default' }, stringData: { token: 'abc' } } as any)) as any;
    assert.deepEqual(s.data, { token: Buffer.from('abc').toString('base64') });
    assert.equal(s.stringData, undefined);
  });

  test('deleting a CRD stops serving its kind and deletes its objects', async () => {
    const [crd] = crdsNamed(['clusterimagesets.hive.openshift.io']);
    preloadCrds(h.server, [crd!]);
    await h.api.create({ apiVersion: 'hive.openshift.io/v1', kind: 'ClusterImageSet', metadata: { name: 'img' }, spec: { releaseImage: 'quay.io/x' } } as any);
    await h.api.delete({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'clusterimagesets.hive.openshift.io' } });
    assert.equal(h.server.typeFor('hive.openshift.io/v1', 'ClusterImageSet'), undefined);
    assert.equal(h.server.snapshot().some((o) => o.kind === 'ClusterImageSet'), false);
  });

  test('deleting a namespace deletes what is in it', async () => {
    await h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tmp' } });
    await h.api.create({ ...configMap('inside'), metadata: { name: 'inside', namespace: 'tmp' } });
    await h.api.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tmp' } });
    assert.equal(h.server.snapshot().filter((o) => o.metadata.namespace === 'tmp').length, 0);
  });
});
