import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { conflictMessage, fromFieldsV1, leafPaths, serverSideApply, toFieldsV1, type Conflict } from '../support/kube-server/fields.js';
import { configMap, deployment, harness, statusOf, until, type Harness } from './helpers.js';

describe('server-side apply field ownership (pure)', () => {
  const live = (managers: Array<{ manager: string; operation?: 'Apply' | 'Update'; fields: string[][] }>, body: Record<string, unknown>) => ({
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: {
      name: 'c', namespace: 'default',
      managedFields: managers.map((m) => ({ manager: m.manager, operation: m.operation ?? 'Apply', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(m.fields) })),
    },
    ...body,
  });
  const cases: Array<{ name: string; live: any; applied: any; force?: boolean; conflicts?: string[]; data?: Record<string, string>; owners?: Record<string, string[]> }> = [
    {
      name: 'a new field is taken without conflict',
      live: live([{ manager: 'other', fields: [['data', 'a']] }], { data: { a: '1' } }),
      applied: { data: { b: '2' } }, data: { a: '1', b: '2' }, owners: { other: ['.data.a'], me: ['.data.b'] },
    },
    {
      name: 'a different value for a field another manager owns conflicts',
      live: live([{ manager: 'other', fields: [['data', 'a']] }], { data: { a: '1' } }),
      applied: { data: { a: '2' } }, conflicts: ['conflict with "other": .data.a'],
    },
    {
      name: 'the same value makes the managers co-owners',
      live: live([{ manager: 'other', fields: [['data', 'a']] }], { data: { a: '1' } }),
      applied: { data: { a: '1' } }, data: { a: '1' }, owners: { other: ['.data.a'], me: ['.data.a'] },
    },
    {
      name: 'force takes the field from the other manager',
      live: live([{ manager: 'other', fields: [['data', 'a'], ['data', 'b']] }], { data: { a: '1', b: '1' } }),
      applied: { data: { a: '2' } }, force: true, data: { a: '2', b: '1' }, owners: { other: ['.data.b'], me: ['.data.a'] },
    },
    {
      name: 'a field the applier no longer sets and nobody else owns is removed',
      live: live([{ manager: 'me', fields: [['data', 'a'], ['data', 'b']] }], { data: { a: '1', b: '2' } }),
      applied: { data: { a: '1' } }, data: { a: '1' }, owners: { me: ['.data.a'] },
    },
    {
      name: 'a field the applier drops stays when another manager shares it',
      live: live([{ manager: 'me', fields: [['data', 'a'], ['data', 'b']] }, { manager: 'other', fields: [['data', 'b']] }], { data: { a: '1', b: '2' } }),
      applied: { data: { a: '1' } }, data: { a: '1', b: '2' }, owners: { me: ['.data.a'], other: ['.data.b'] },
    },
    {
      name: 'an Update manager is named with its apiVersion and time',
      live: live([{ manager: 'kubectl-edit', operation: 'Update', fields: [['data', 'a']] }], { data: { a: '1' } }),
      applied: { data: { a: '2' } }, conflicts: ['conflict with "kubectl-edit" using v1 at 2026-01-01T00:00:00Z: .data.a'],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const res = serverSideApply({ live: c.live, manager: 'me', apiVersion: 'v1', time: '2026-01-02T00:00:00Z' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, ...c.applied }, c.force === true);
      if (c.conflicts) {
        assert.deepEqual(res.conflicts.map((x) => conflictMessage([x]).replace(/^Apply failed with 1 conflict: /, '')), c.conflicts);
        return;
      }
      assert.deepEqual(res.conflicts, []);
      assert.deepEqual(res.object.data, c.data);
      const owners = Object.fromEntries((res.object.metadata.managedFields as any[]).map((e) => [e.manager, fromFieldsV1(e.fieldsV1).map((p) => `.${p.join('.')}`)]));
      assert.deepEqual(owners, c.owners);
    });
  }

  test('the conflict message groups several conflicts by manager, as the API server does', () => {
    const conflicts: Conflict[] = [
      { manager: 'b', managerLabel: '"b"', path: ['spec', 'x'] },
      { manager: 'a', managerLabel: '"a"', path: ['spec', 'y'] },
      { manager: 'a', managerLabel: '"a"', path: ['spec', 'z'] },
    ];
    assert.equal(conflictMessage(conflicts), 'Apply failed with 3 conflicts: conflicts with "a":\n- .spec.y\n- .spec.z\nconflicts with "b":\n- .spec.x');
  });

  test('leaf paths leave out identity and server metadata; lists are one field', () => {
    const paths = leafPaths({ apiVersion: 'v1', kind: 'X', metadata: { name: 'n', resourceVersion: '1', labels: { a: 'b' } }, spec: { list: [1, 2], empty: {} } });
    assert.deepEqual(paths, [['metadata', 'labels', 'a'], ['spec', 'list'], ['spec', 'empty']]);
  });
});

describe('server-side apply over HTTP', () => {
  let h: Harness;
  before(async () => {
    // No controllers: a status write between two applies would change the resourceVersion.
    h = await harness({ controllers: { disabled: ['deployments'] } });
  });
  after(() => h.close());

  test('apply creates, records the manager in managedFields, and a repeated apply changes nothing', async () => {
    const first = await h.api.apply(deployment('web', 2), { fieldManager: 'fleetplan' });
    assert.equal(first.metadata.managedFields.length, 1);
    assert.deepEqual([first.metadata.managedFields[0].manager, first.metadata.managedFields[0].operation], ['fleetplan', 'Apply']);
    assert.ok(first.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas']);
    const again = await h.api.apply(deployment('web', 2), { fieldManager: 'fleetplan' });
    assert.equal(again.metadata.resourceVersion, first.metadata.resourceVersion);
  });

  test('another manager changing an owned field conflicts, naming the owner; force takes it', async () => {
    await h.api.apply(deployment('owned', 2), { fieldManager: 'other-manager' });
    const { code, body } = await statusOf(h.api.apply(deployment('owned', 3), { fieldManager: 'fleetplan' }));
    assert.equal(code, 409);
    assert.equal(body.reason, 'Conflict');
    assert.equal(body.message, 'Apply failed with 1 conflict: conflict with "other-manager": .spec.replicas');
    assert.deepEqual(body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "other-manager"', field: '.spec.replicas' }]);
    const forced = await h.api.apply(deployment('owned', 3), { fieldManager: 'fleetplan', force: true });
    assert.equal(forced.spec.replicas, 3);
    const other = forced.metadata.managedFields.find((e: any) => e.manager === 'other-manager');
    assert.equal(other.fieldsV1['f:spec']['f:replicas'], undefined, 'the other manager lost .spec.replicas');
  });

  test('fields unknown to the typed model survive an apply of a built-in kind', async () => {
    const d = deployment('extra');
    d.spec.template.spec.containers[0].futureField = { on: true };
    await h.api.apply(d, { fieldManager: 'fleetplan' });
    const stored = h.server.object('apps/v1', 'Deployment', 'extra', 'default');
    assert.deepEqual(stored?.spec.template.spec.containers[0].futureField, { on: true });
  });

  test('an update records its manager with operation Update for the fields it changed', async () => {
    await h.api.apply(configMap('upd', { a: '1', b: '1' }), { fieldManager: 'fleetplan' });
    await h.api.patch({ ...configMap('upd'), data: { b: '2' } }, undefined, undefined, 'kubectl-edit', undefined, 'application/merge-patch+json');
    const live = h.server.object('v1', 'ConfigMap', 'upd', 'default')!;
    const entries = Object.fromEntries((live.metadata.managedFields as any[]).map((e) => [`${e.manager}/${e.operation}`, Object.keys(e.fieldsV1['f:data'] ?? {})]));
    assert.deepEqual(entries, { 'fleetplan/Apply': ['f:a'], 'kubectl-edit/Update': ['f:b'] });
    const { code, body } = await statusOf(h.api.apply(configMap('upd', { a: '1', b: '3' }), { fieldManager: 'fleetplan' }));
    assert.equal(code, 409);
    assert.match(body.message, /^Apply failed with 1 conflict: conflict with "kubectl-edit" using v1 at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: \.data\.b$/);
  });

  test('apply to /status sets only status, owned by that manager as a status subresource entry', async () => {
    await h.api.apply(deployment('st', 1), { fieldManager: 'fleetplan' });
    const res = await fetch(`${h.server.url}/apis/apps/v1/namespaces/default/deployments/st/status?fieldManager=controller`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'st' }, spec: { replicas: 9 }, status: { readyReplicas: 1 } }),
    });
    assert.equal(res.status, 200);
    const live = h.server.object('apps/v1', 'Deployment', 'st', 'default')!;
    assert.deepEqual([live.spec.replicas, live.status.readyReplicas], [1, 1]);
    const entry = (live.metadata.managedFields as any[]).find((e) => e.manager === 'controller');
    assert.deepEqual([entry.subresource, Object.keys(entry.fieldsV1)], ['status', ['f:status']]);
  });

  test('an apply without fieldManager is Invalid', async () => {
    const res = await fetch(`${h.server.url}/api/v1/namespaces/default/configmaps/nofm`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nofm\n',
    });
    assert.equal(res.status, 422);
    assert.match(((await res.json()) as any).message, /fieldManager: Required value/);
  });

  test('YAML apply bodies are accepted', async () => {
    const res = await fetch(`${h.server.url}/api/v1/namespaces/default/configmaps/yaml?fieldManager=fleetplan`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml\ndata:\n  k: v\n',
    });
    assert.equal(res.status, 201);
    assert.deepEqual(((await res.json()) as any).data, { k: 'v' });
  });
});

describe('dry-run', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  test('dryRun=All on create, update, patch, apply and delete returns the would-be object and stores nothing', async () => {
    await h.api.create(configMap('kept', { a: '1' }));
    const before = h.server.snapshot();
    const rvBefore = h.server.store.resourceVersion;
    const created = await h.api.create(configMap('new', { a: '1' }), undefined, 'All');
    assert.equal(created.metadata?.name, 'new');
    const kept = (await h.api.read(configMap('kept'))) as any;
    const replaced = (await h.api.replace({ ...kept, data: { a: '2' } }, undefined, 'All')) as any;
    assert.deepEqual(replaced.data, { a: '2' });
    const patched = (await h.api.patch({ ...configMap('kept'), data: { b: '3' } }, undefined, 'All', 'me', undefined, 'application/merge-patch+json')) as any;
    assert.deepEqual(patched.data, { a: '1', b: '3' });
    const applied = await h.api.apply(configMap('kept', { a: '9' }), { fieldManager: 'fleetplan', force: true, dryRun: true });
    assert.deepEqual(applied.data, { a: '9' });
    const appliedNew = await h.api.apply(configMap('brand-new', { x: '1' }), { fieldManager: 'fleetplan', dryRun: true });
    assert.equal(appliedNew.metadata.name, 'brand-new');
    await h.api.delete(configMap('kept'), undefined, 'All');
    assert.deepEqual(h.server.snapshot(), before);
    assert.equal(h.server.store.resourceVersion, rvBefore);
  });

  test('a dry-run still validates', async () => {
    const { code } = await statusOf(h.api.create(configMap('Invalid!'), undefined, 'All'));
    assert.equal(code, 422);
  });
});

describe('server-side apply merges keyed lists by their merge keys', () => {
  let h: Harness;
  before(async () => {
    h = await harness({ controllers: { disabled: ['deployments'] } });
  });
  after(() => h.close());

  const withPod = (name: string, spec: Record<string, unknown>) => {
    const d = deployment(name, 1);
    d.spec.template.spec = spec;
    return d;
  };

  test('containers, env, ports and volumes of two managers merge by name, live order first', async () => {
    await h.api.apply(withPod('merge', {
      containers: [{ name: 'server', image: 'argocd:1', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 8080, protocol: 'TCP' }] }],
      volumes: [{ name: 'tmp', emptyDir: {} }],
    }), { fieldManager: 'upstream' });
    const merged = await h.api.apply(withPod('merge', {
      containers: [
        { name: 'plugin', image: 'cmp:1' },
        { name: 'server', env: [{ name: 'B', value: '2' }] },
      ],
      volumes: [{ name: 'plugins', emptyDir: {} }],
    }), { fieldManager: 'fleetplan' });
    const spec = JSON.parse(JSON.stringify(merged.spec.template.spec));
    // With the server's defaults (ADR 0258), as a real API server returns them.
    const defaulted = { imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' };
    assert.deepEqual(spec.containers, [
      { name: 'server', image: 'argocd:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], ports: [{ containerPort: 8080, protocol: 'TCP' }], ...defaulted },
      { name: 'plugin', image: 'cmp:1', ...defaulted },
    ]);
    assert.deepEqual(spec.volumes.map((v: { name: string }) => v.name), ['tmp', 'plugins']);
    const mine = merged.metadata.managedFields.find((m: { manager: string }) => m.manager === 'fleetplan');
    const containers = mine.fieldsV1['f:spec']['f:template']['f:spec']['f:containers'];
    assert.deepEqual(Object.keys(containers).sort(), ['k:{"name":"plugin"}', 'k:{"name":"server"}']);
    assert.deepEqual(containers['k:{"name":"server"}']['f:env']['k:{"name":"B"}'], { '.': {}, 'f:name': {}, 'f:value': {} });
  });

  test('a container the applier drops goes; the other manager\'s stays', async () => {
    const after = await h.api.apply(withPod('merge', { containers: [{ name: 'server', env: [{ name: 'B', value: '2' }] }] }), { fieldManager: 'fleetplan' });
    assert.deepEqual(after.spec.template.spec.containers.map((c: { name: string }) => c.name), ['server']);
    assert.deepEqual(after.spec.template.spec.volumes.map((v: { name: string }) => v.name), ['tmp']);
  });

  test('an env var the applier drops goes; the other manager\'s in the same container stays', async () => {
    await h.api.apply(withPod('envs', { containers: [{ name: 's', image: 'i', env: [{ name: 'U', value: '1' }] }] }), { fieldManager: 'upstream' });
    await h.api.apply(withPod('envs', { containers: [{ name: 's', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] }), { fieldManager: 'fleetplan' });
    const out = await h.api.apply(withPod('envs', { containers: [{ name: 's', env: [{ name: 'B', value: '3' }] }] }), { fieldManager: 'fleetplan' });
    assert.deepEqual(JSON.parse(JSON.stringify(out.spec.template.spec.containers[0].env)), [{ name: 'U', value: '1' }, { name: 'B', value: '3' }]);
  });

  test('a conflict inside an element names it by its key', async () => {
    const { code, body } = await statusOf(h.api.apply(withPod('merge', { containers: [{ name: 'server', image: 'argocd:2' }] }), { fieldManager: 'fleetplan' }));
    assert.equal(code, 409);
    assert.equal(body.message, 'Apply failed with 1 conflict: conflict with "upstream": .spec.template.spec.containers[name="server"].image');
  });

  test('a custom resource list with x-kubernetes-list-type: map merges by its list-map-keys; others stay atomic', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{
          name: 'v1', served: true, storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
            parts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['kind', 'id'], items: { type: 'object', properties: { kind: { type: 'string' }, id: { type: 'integer' }, size: { type: 'integer' } } } },
            tags: { type: 'array', items: { type: 'string' } },
          } } } } },
        }],
      },
    };
    await h.api.apply(crd, { fieldManager: 'test-setup' });
    await until(h.server, () => h.server.typeFor('example.com/v1', 'Widget') !== undefined);
    const w = (spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec });
    await h.api.apply(w({ parts: [{ kind: 'a', id: 1, size: 1 }], tags: ['x'] }), { fieldManager: 'one' });
    const out = await h.api.apply(w({ parts: [{ kind: 'a', id: 2, size: 2 }], tags: ['x'] }), { fieldManager: 'two' });
    assert.deepEqual(out.spec.parts, [{ kind: 'a', id: 1, size: 1 }, { kind: 'a', id: 2, size: 2 }]);
    assert.deepEqual(out.spec.tags, ['x']);
  });
});
