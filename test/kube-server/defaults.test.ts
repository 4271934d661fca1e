/**
 * The Kubernetes API test server defaults objects as the real API server does (ADR 0258): key
 * fields with a schema default (`protocol` of container and Service ports) before server-side
 * apply merges, and the built-in defaults of the fields bootstrap's objects use on every write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore } from '../support/kube-server/index.js';
import { BUILTIN_TYPES } from '../support/kube-server/resources.js';
import type { Obj } from '../support/kube-server/types.js';

const type = (kind: string) => BUILTIN_TYPES.find((t) => t.kind === kind)!;

function store(): ObjectStore {
  const s = new ObjectStore({ clock: { now: () => new Date('2026-01-01T00:00:00Z') }, historyLimit: 100 });
  s.create(type('Namespace'), undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } }, { fieldManager: 'test-setup' });
  return s;
}

const deployment = (containers: Obj[]): Obj => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'repo-server', namespace: 'argocd' },
  spec: { selector: { matchLabels: { app: 'r' } }, template: { metadata: { labels: { app: 'r' } }, spec: { containers } } },
});

const fieldsOf = (o: Obj, manager: string): string => JSON.stringify(o.metadata.managedFields.find((m: Obj) => m.manager === manager)?.fieldsV1);

test('a container port applied without protocol is the live TCP port: one element, keyed with the default protocol', () => {
  const s = store();
  s.apply(type('Deployment'), 'argocd', 'repo-server', deployment([{ name: 'server', image: 'argocd:v3', ports: [{ containerPort: 8081, protocol: 'TCP', name: 'server' }] }]), { fieldManager: 'upstream' });
  const o = s.apply(type('Deployment'), 'argocd', 'repo-server', deployment([{ name: 'server', ports: [{ containerPort: 8081, name: 'server' }, { containerPort: 8084 }] }]), { fieldManager: 'fleetplan' });
  assert.deepEqual(o.spec.template.spec.containers[0].ports, [
    { containerPort: 8081, protocol: 'TCP', name: 'server' },
    { containerPort: 8084, protocol: 'TCP' },
  ]);
  // Owned under the element's full key, as the real server records it.
  assert.match(fieldsOf(o, 'fleetplan'), /k:\{\\"containerPort\\":8084,\\"protocol\\":\\"TCP\\"\}/);
  assert.match(fieldsOf(o, 'fleetplan'), /k:\{\\"containerPort\\":8081,\\"protocol\\":\\"TCP\\"\}/);
});

test('a Service port applied without protocol is the live TCP port; type, sessionAffinity and targetPort are defaulted', () => {
  const s = store();
  const svc = (ports: Obj[]): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'argocd' }, spec: { selector: { app: 'r' }, ports } });
  s.apply(type('Service'), 'argocd', 's', svc([{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }]), { fieldManager: 'upstream' });
  const o = s.apply(type('Service'), 'argocd', 's', svc([{ port: 80, targetPort: 8080 }, { name: 'metrics', port: 8084 }]), { fieldManager: 'fleetplan' });
  assert.equal(o.spec.type, 'ClusterIP');
  assert.equal(o.spec.sessionAffinity, 'None');
  assert.deepEqual(o.spec.ports, [
    { name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 },
    { name: 'metrics', port: 8084, protocol: 'TCP', targetPort: 8084 },
  ]);
});

test('containers get imagePullPolicy (Always for :latest or no tag) and termination message defaults; a Deployment its replicas and strategy', () => {
  const s = store();
  const o = s.apply(
    type('Deployment'),
    'argocd',
    'repo-server',
    deployment([{ name: 'a', image: 'quay.io/x/a:v1' }, { name: 'b', image: 'quay.io/x/b' }, { name: 'c', image: 'registry:5000/c:latest' }, { name: 'd', image: 'x/d@sha256:0123' }]),
    { fieldManager: 'fleetplan' },
  );
  const cs = o.spec.template.spec.containers as Obj[];
  assert.deepEqual(cs.map((c) => c.imagePullPolicy), ['IfNotPresent', 'Always', 'Always', 'IfNotPresent']);
  assert.ok(cs.every((c) => c.terminationMessagePath === '/dev/termination-log' && c.terminationMessagePolicy === 'File'));
  assert.equal(o.spec.replicas, 1);
  assert.deepEqual(o.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(o.spec.template.spec.restartPolicy, 'Always');
  assert.equal(o.spec.template.spec.dnsPolicy, 'ClusterFirst');
});

test('defaulted fields belong to no manager under apply; set fields are not overwritten by defaults', () => {
  const s = store();
  const o = s.apply(type('Deployment'), 'argocd', 'repo-server', { ...deployment([{ name: 'a', image: 'a:latest', imagePullPolicy: 'IfNotPresent' }]), spec: { ...deployment([]).spec, replicas: 3, template: deployment([{ name: 'a', image: 'a:latest', imagePullPolicy: 'IfNotPresent' }]).spec.template } }, { fieldManager: 'fleetplan' });
  assert.equal(o.spec.replicas, 3);
  assert.equal(o.spec.template.spec.containers[0].imagePullPolicy, 'IfNotPresent');
  const owned = fieldsOf(o, 'fleetplan');
  assert.doesNotMatch(owned, /terminationMessagePath|revisionHistoryLimit|dnsPolicy/);
  assert.match(owned, /f:imagePullPolicy/);
});
