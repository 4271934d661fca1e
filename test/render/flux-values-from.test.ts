/**
 * HelmRelease valuesFrom as helm-controller reads it (ChartValuesFromReferences): ConfigMaps and
 * Secrets in order, valuesKey, targetPath (typed as `helm --set`), optional, then spec.values; a
 * Secret's values never reach a rendered file (docs/adr/0280-helmrelease-values-from-secrets.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { helmReleaseCharts, redactedValue, valuesFromReference } from '../../src/render/leaves/flux.js';
import { parseManifests } from '../../src/render/leaves/manifests.js';

type Obj = Record<string, unknown>;

const repoChart = (valuesFrom: Obj[], values?: Obj): Obj => ({
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  metadata: { name: 'web', namespace: 'apps' },
  spec: { chart: { spec: { chart: './charts/web', sourceRef: { kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' } } }, valuesFrom, ...(values ? { values } : {}) },
});

const cm = (name: string, data: Obj): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'apps' }, data });
const secret = (name: string, body: Obj): Obj => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'apps' }, ...body });

function charts(objects: Obj[]) {
  return helmReleaseCharts(objects, () => undefined, (n) => n === 'flux-system');
}

test('flux-values-from: ConfigMaps and Secrets merge in order, then spec.values', () => {
  const [rc] = charts([
    repoChart([{ kind: 'ConfigMap', name: 'a' }, { kind: 'Secret', name: 's', valuesKey: 'extra.yaml' }, { kind: 'ConfigMap', name: 'b' }], { replicas: 5 }),
    cm('a', { 'values.yaml': 'replicas: 1\nimage:\n  tag: a\n' }),
    secret('s', { data: { 'extra.yaml': Buffer.from('auth:\n  password: hunter2\n').toString('base64') } }),
    cm('b', { 'values.yaml': 'image:\n  tag: b\n' }),
  ]);
  assert.equal(rc!.problem, undefined);
  assert.deepEqual(rc!.values, { replicas: 5, image: { tag: 'b' }, auth: { password: redactedValue('s', 'auth_password') } });
  assert.doesNotMatch(JSON.stringify(rc), /hunter2/);
});

test('flux-values-from: a Secret\'s stringData is read as the API server stores it', () => {
  const [rc] = charts([repoChart([{ kind: 'Secret', name: 's' }]), secret('s', { stringData: { 'values.yaml': 'token: abc\n' } })]);
  assert.deepEqual(rc!.values, { token: redactedValue('s', 'token') });
});

test('flux-values-from: targetPath sets the key\'s text at the path, typed as helm --set does', () => {
  const [rc] = charts([
    repoChart([{ kind: 'ConfigMap', name: 'a', valuesKey: 'n', targetPath: 'resources.limits.cpu' }, { kind: 'ConfigMap', name: 'a', valuesKey: 'host', targetPath: 'ingress.hosts[0].name' }]),
    cm('a', { n: '2', host: 'web.example.org' }),
  ]);
  assert.deepEqual(rc!.values, { resources: { limits: { cpu: 2 } }, ingress: { hosts: [{ name: 'web.example.org' }] } });
});

test('flux-values-from: optional references that are absent are skipped; a missing required one or key is named', () => {
  let [rc] = charts([repoChart([{ kind: 'Secret', name: 'gone', optional: true }, { kind: 'ConfigMap', name: 'a', valuesKey: 'nope', optional: true }]), cm('a', {})]);
  assert.equal(rc!.problem, undefined);
  [rc] = charts([repoChart([{ kind: 'Secret', name: 'gone' }])]);
  assert.match(rc!.problem ?? '', /valuesFrom Secret\/gone is not in the Kustomization's output or the repository/);
  [rc] = charts([repoChart([{ kind: 'ConfigMap', name: 'a', valuesKey: 'nope' }]), cm('a', {})]);
  assert.match(rc!.problem ?? '', /has no key nope/);
});

test('flux-values-from: a ConfigMap\'s values text is read as helm-controller reads it (go-yaml v2): 0755 is 493, on is true', () => {
  const cm = { kind: 'ConfigMap', metadata: { name: 'v' }, data: { 'values.yaml': 'mode: 0755\nenabled: on\nratio: -.5\nduration: 1:20\n' } };
  assert.deepEqual(valuesFromReference({ kind: 'ConfigMap', name: 'v' }, cm), { value: { mode: 493, enabled: true, ratio: -0.5, duration: '1:20' }, secret: false });
});

test('flux-values-from: spec.values of a built HelmRelease with an integer beyond 2^53 (a BigInt, parseManifests) can be handed to helm as JSON', () => {
  const [hr] = parseManifests(
    'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: web\n  namespace: apps\nspec:\n  chart:\n    spec:\n      chart: ./charts/web\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n  values:\n    big: 9007199254740993\n    list: [9007199254740993]\n',
    'built.yaml',
  );
  const [rc] = charts([hr!]);
  assert.equal(JSON.stringify(rc!.values), '{"big":9007199254740992,"list":[9007199254740992]}');
});
