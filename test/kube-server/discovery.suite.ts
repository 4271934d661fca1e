import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { CRD_SETS, crdsNamed } from '../support/kube-server/index.js';
import { harness, type Harness } from './helpers.js';

describe('kube-server discovery', () => {
  let h: Harness;
  before(async () => {
    h = await harness({ crds: CRD_SETS.olm });
  });
  after(() => h.close());

  test('serves /version through the client library', async () => {
    const v = await h.kc.makeApiClient(k8s.VersionApi).getCode();
    assert.equal(v.major, '1');
    assert.match(v.gitVersion, /^v1\./);
  });

  test('lists the core group and the named groups', async () => {
    const core = await h.kc.makeApiClient(k8s.CoreApi).getAPIVersions();
    assert.deepEqual(core.versions, ['v1']);
    const groups = await h.kc.makeApiClient(k8s.ApisApi).getAPIVersions();
    const names = groups.groups.map((g) => g.name);
    for (const g of ['apps', 'rbac.authorization.k8s.io', 'apiextensions.k8s.io', 'operators.coreos.com']) assert.ok(names.includes(g), g);
    assert.equal(names.includes('argoproj.io'), false, 'no CRD for argoproj.io was loaded');
  });

  test('resource lists name plural, kind, scope, verbs and the status subresource', async () => {
    const apps = await h.kc.makeApiClient(k8s.AppsV1Api).getAPIResources();
    const dep = apps.resources.find((r) => r.name === 'deployments');
    assert.equal(dep?.kind, 'Deployment');
    assert.equal(dep?.namespaced, true);
    assert.ok(dep?.verbs.includes('watch'));
    assert.ok(apps.resources.some((r) => r.name === 'deployments/status'));
    const crds = await h.kc.makeApiClient(k8s.ApiextensionsV1Api).getAPIResources();
    assert.equal(crds.resources.find((r) => r.name === 'customresourcedefinitions')?.namespaced, false);
  });

  test('a preloaded CRD kind is listed with its scope', async () => {
    const res = await fetch(`${h.server.url}/apis/operators.coreos.com/v1alpha1`);
    const list = (await res.json()) as { resources: Array<{ name: string; kind: string; namespaced: boolean }> };
    const sub = list.resources.find((r) => r.name === 'subscriptions');
    assert.deepEqual({ kind: sub?.kind, namespaced: sub?.namespaced }, { kind: 'Subscription', namespaced: true });
    assert.ok(list.resources.some((r) => r.name === 'subscriptions/status'));
  });

  test('an unknown group/version answers 404 with a Status body', async () => {
    const res = await fetch(`${h.server.url}/apis/example.com/v1`);
    assert.equal(res.status, 404);
    const body = (await res.json()) as { kind: string; reason: string };
    assert.deepEqual([body.kind, body.reason], ['Status', 'NotFound']);
  });

  test('KubernetesObjectApi resolves plural names through the resource lists', async () => {
    const created = await h.api.create({
      apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: 'og', namespace: 'default' }, spec: {},
    } as k8s.KubernetesObject);
    assert.equal(created.metadata?.name, 'og');
    const paths = h.server.requests({ verb: 'create' }).map((r) => r.path);
    assert.deepEqual(paths, ['/apis/operators.coreos.com/v1/namespaces/default/operatorgroups']);
  });

  test('every preloadable CRD in the table has a kind, plural and scope', () => {
    const all = Object.values(CRD_SETS).flat();
    for (const crd of crdsNamed(all)) {
      assert.ok(crd.spec.names.kind && crd.spec.names.plural && crd.spec.scope, String(crd.metadata.name));
    }
  });
});
