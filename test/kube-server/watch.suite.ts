import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { configMap, harness, type Harness } from './helpers.js';

interface Seen {
  type: string;
  name: string;
  rv: string;
  raw: any;
}

/** Starts a client-node Watch and collects events until `stop`. */
async function collect(h: Harness, path: string, query: Record<string, string>) {
  const events: Seen[] = [];
  let done: (err: unknown) => void = () => {};
  const ended = new Promise<unknown>((resolve) => (done = resolve));
  const waiters: Array<() => void> = [];
  const ctl = await new k8s.Watch(h.kc).watch(path, query, (type, obj: any) => {
    events.push({ type, name: obj?.metadata?.name, rv: obj?.metadata?.resourceVersion, raw: obj });
    for (const w of waiters.splice(0)) w();
  }, (err) => done(err));
  const waitCount = async (n: number) => {
    while (events.length < n) await new Promise<void>((r) => waiters.push(r));
  };
  return { events, ended, waitCount, stop: () => ctl.abort() };
}

describe('kube-server watch', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  test('streams ADDED, MODIFIED and DELETED with increasing resourceVersions', async () => {
    const start = String(h.server.store.resourceVersion);
    const w = await collect(h, '/api/v1/namespaces/default/configmaps', { resourceVersion: start });
    await h.api.create(configMap('w1', { a: '1' }));
    await h.api.patch({ ...configMap('w1'), data: { a: '2' } }, undefined, undefined, 'me', undefined, 'application/merge-patch+json');
    await h.api.delete(configMap('w1'));
    await w.waitCount(3);
    w.stop();
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.name}`), ['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    const rvs = w.events.map((e) => Number(e.rv));
    assert.ok(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!, `resourceVersions increase: ${rvs.join(',')}`);
    assert.equal(w.events[0]!.raw.kind, 'ConfigMap');
  });

  test('resumes from a resourceVersion, replaying only later events', async () => {
    const a = await h.api.create(configMap('r1'));
    await h.api.create(configMap('r2'));
    const w = await collect(h, '/api/v1/namespaces/default/configmaps', { resourceVersion: String(a.metadata?.resourceVersion) });
    await w.waitCount(1);
    w.stop();
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.name}`), ['ADDED r2']);
  });

  test('without a resourceVersion, every current object comes first as ADDED', async () => {
    await h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } });
    await h.api.create({ ...configMap('f1'), metadata: { name: 'f1', namespace: 'fresh' } });
    const w = await collect(h, '/api/v1/namespaces/fresh/configmaps', {});
    await w.waitCount(1);
    w.stop();
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.name}`), ['ADDED f1']);
  });

  test('a too-old resourceVersion gets an ERROR event with a 410 Expired Status', async () => {
    await h.api.create(configMap('old1'));
    const old = String(h.server.store.resourceVersion - 1);
    h.server.store.compact();
    const w = await collect(h, '/api/v1/namespaces/default/configmaps', { resourceVersion: old });
    await w.waitCount(1);
    await w.ended;
    assert.equal(w.events[0]!.type, 'ERROR');
    assert.equal(w.events[0]!.raw.code, 410);
    assert.equal(w.events[0]!.raw.reason, 'Expired');
  });

  test('label selectors turn objects leaving the selection into DELETED and entering into ADDED', async () => {
    const w = await collect(h, '/api/v1/namespaces/default/configmaps', { resourceVersion: String(h.server.store.resourceVersion), labelSelector: 'sel=yes' });
    await h.api.create(configMap('s1', {}, { labels: { sel: 'no' } }));
    await h.api.patch({ ...configMap('s1'), metadata: { name: 's1', namespace: 'default', labels: { sel: 'yes' } } }, undefined, undefined, 'me', undefined, 'application/merge-patch+json');
    await h.api.patch({ ...configMap('s1'), metadata: { name: 's1', namespace: 'default', labels: { sel: 'no' } } }, undefined, undefined, 'me', undefined, 'application/merge-patch+json');
    await w.waitCount(2);
    w.stop();
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.name}`), ['ADDED s1', 'DELETED s1']);
  });

  test('fieldSelector=metadata.name watches one object', async () => {
    const w = await collect(h, '/api/v1/namespaces/default/configmaps', { resourceVersion: String(h.server.store.resourceVersion), fieldSelector: 'metadata.name=one' });
    await h.api.create(configMap('other'));
    await h.api.create(configMap('one'));
    await w.waitCount(1);
    w.stop();
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.name}`), ['ADDED one']);
  });

  test('bookmarks carry the current resourceVersion to watches that asked for them', async () => {
    const w = await collect(h, '/api/v1/namespaces/default/configmaps', { resourceVersion: String(h.server.store.resourceVersion), allowWatchBookmarks: 'true' });
    await h.api.create(configMap('bm'));
    await w.waitCount(1);
    h.server.sendBookmarks();
    await w.waitCount(2);
    w.stop();
    assert.equal(w.events[1]!.type, 'BOOKMARK');
    assert.equal(w.events[1]!.rv, String(h.server.store.resourceVersion));
  });

  test('closeWatches ends every open stream cleanly; clients that stop are forgotten', async () => {
    const w = await collect(h, '/api/v1/namespaces/default/configmaps', { resourceVersion: String(h.server.store.resourceVersion) });
    assert.equal(h.server.openWatches, 1);
    h.server.closeWatches();
    assert.equal(await w.ended, null);
    assert.equal(h.server.openWatches, 0);
  });
});
