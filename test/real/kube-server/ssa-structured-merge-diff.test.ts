/**
 * The Kubernetes API test server's server-side apply against sigs.k8s.io/structured-merge-diff,
 * the library the real API server merges with: the same applies, in the same order, must give
 * the same object. Needs Go and Debian's golang-k8s-sigs-structured-merge-diff-dev (v4.1.2,
 * /usr/share/gocode); without them the test is skipped and says why. test/smd/main.go is built
 * in GOPATH mode against the Debian sources (nothing is downloaded).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ObjectStore } from '../../support/kube-server/index.js';
import { BUILTIN_TYPES } from '../../support/kube-server/resources.js';
import type { Obj } from '../../support/kube-server/types.js';
import { applyDefaults } from '../../support/kube-server/defaults.js';

const SMD = '/usr/share/gocode/src/sigs.k8s.io/structured-merge-diff';
const go = spawnSync('go', ['version'], { encoding: 'utf8' });
const missing = go.status !== 0 ? 'Go is not installed (apt-get install golang-go)'
  : !existsSync(join(SMD, 'merge', 'update.go')) ? `structured-merge-diff is not installed at ${SMD} (apt-get install golang-k8s-sigs-structured-merge-diff-dev)`
  : undefined;

/** The parts of the Deployment and Service schemas these objects touch; the rest is deduced. */
const SCHEMA = `types:
- name: deployment
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: __untyped_deduced_}}
    - {name: spec, type: {namedType: deploymentSpec}}
    elementType: {namedType: __untyped_deduced_}
- name: deploymentSpec
  map:
    fields:
    - {name: template, type: {namedType: podTemplate}}
    elementType: {namedType: __untyped_deduced_}
- name: podTemplate
  map:
    fields:
    - {name: spec, type: {namedType: podSpec}}
    elementType: {namedType: __untyped_deduced_}
- name: podSpec
  map:
    fields:
    - name: containers
      type: {list: {elementType: {namedType: container}, elementRelationship: associative, keys: [name]}}
    - name: initContainers
      type: {list: {elementType: {namedType: container}, elementRelationship: associative, keys: [name]}}
    - name: volumes
      type: {list: {elementType: {namedType: __untyped_deduced_}, elementRelationship: associative, keys: [name]}}
    elementType: {namedType: __untyped_deduced_}
- name: container
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - name: env
      type: {list: {elementType: {namedType: __untyped_deduced_}, elementRelationship: associative, keys: [name]}}
    - name: ports
      type: {list: {elementType: {namedType: containerPort}, elementRelationship: associative, keys: [containerPort, protocol]}}
    - name: volumeMounts
      type: {list: {elementType: {namedType: __untyped_deduced_}, elementRelationship: associative, keys: [mountPath]}}
    elementType: {namedType: __untyped_deduced_}
- name: containerPort
  map:
    fields:
    - {name: containerPort, type: {scalar: numeric}}
    - {name: protocol, type: {scalar: string}, default: TCP}
    elementType: {namedType: __untyped_deduced_}
- name: service
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: __untyped_deduced_}}
    - {name: spec, type: {namedType: serviceSpec}}
    elementType: {namedType: __untyped_deduced_}
- name: serviceSpec
  map:
    fields:
    - name: ports
      type: {list: {elementType: {namedType: __untyped_deduced_}, elementRelationship: associative, keys: [port, protocol]}}
    elementType: {namedType: __untyped_deduced_}
- name: __untyped_atomic_
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
  map: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
- name: __untyped_deduced_
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
  map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
`;

function buildChecker(): string {
  const root = join(tmpdir(), 'fleetplan-smdcheck');
  const bin = join(root, 'smdcheck');
  const link = join(root, 'src', 'sigs.k8s.io', 'structured-merge-diff', 'v4');
  mkdirSync(join(root, 'src', 'smdcheck'), { recursive: true });
  mkdirSync(join(root, 'src', 'sigs.k8s.io', 'structured-merge-diff'), { recursive: true });
  if (!existsSync(link)) symlinkSync(SMD, link);
  copyFileSync(resolve('test/smd/main.go'), join(root, 'src', 'smdcheck', 'main.go'));
  execFileSync('go', ['build', '-o', bin, '.'], {
    cwd: join(root, 'src', 'smdcheck'),
    env: { ...process.env, GO111MODULE: 'off', GOPATH: `${root}:/usr/share/gocode`, GOCACHE: join(root, 'cache'), GOFLAGS: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return bin;
}

interface Step {
  manager: string;
  object: Obj;
  force?: boolean;
}

function viaLibrary(bin: string, type: string, steps: Step[]): { object: Obj; conflicts: string[] } {
  const out = execFileSync(bin, { input: JSON.stringify({ schema: SCHEMA, type, applies: steps.map((s) => ({ ...s, force: s.force === true })) }), encoding: 'utf8' });
  return JSON.parse(out) as { object: Obj; conflicts: string[] };
}

function viaTestServer(kind: string, steps: Step[]): { object: Obj; conflicts: number } {
  const store = new ObjectStore({ clock: { now: () => new Date('2026-01-01T00:00:00Z') }, historyLimit: 100 });
  const rt = BUILTIN_TYPES.find((t) => t.kind === kind)!;
  store.create(BUILTIN_TYPES.find((t) => t.kind === 'Namespace')!, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } }, { fieldManager: 'test-setup' });
  let conflicts = 0;
  for (const s of steps) {
    try {
      store.apply(rt, 'argocd', String(s.object.metadata.name), s.object, { fieldManager: s.manager, ...(s.force ? { force: true } : {}) });
    } catch (err) {
      if ((err as { code?: number }).code !== 409) throw err;
      conflicts += 1;
    }
  }
  const o = store.find(rt, 'argocd', String(steps[0]!.object.metadata.name))!;
  return { object: o, conflicts };
}

/** What both sides set: the object without the server's metadata. */
function body(o: Obj): Obj {
  const { metadata, ...rest } = o;
  return { ...rest, metadata: { name: metadata.name, namespace: metadata.namespace, ...(metadata.labels ? { labels: metadata.labels } : {}) } };
}

const repoServer = (containers: Obj[], volumes: Obj[]): Obj => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'argocd-repo-server', namespace: 'argocd' },
  spec: { selector: { matchLabels: { app: 'argocd-repo-server' } }, template: { metadata: { labels: { app: 'argocd-repo-server' } }, spec: { containers, volumes } } },
});
const upstreamServer = { name: 'argocd-repo-server', image: 'quay.io/argoproj/argocd:v3.0.0', env: [{ name: 'ARGOCD_RECONCILIATION_TIMEOUT', value: '180s' }], ports: [{ containerPort: 8081, protocol: 'TCP' }, { containerPort: 8084, protocol: 'TCP' }], volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }, { name: 'plugins', mountPath: '/home/argocd/cmp-server/plugins' }] };
const sidecar = { name: 'fleetplan-plugin', image: 'quay.io/argoproj/argocd:v3.0.0', command: ['/var/run/argocd/argocd-cmp-server'], envFrom: [{ configMapRef: { name: 'environment-variables' } }], volumeMounts: [{ name: 'plugins', mountPath: '/home/argocd/cmp-server/plugins' }, { name: 'fleetplan-cmp-plugin', mountPath: '/home/argocd/cmp-server/config/plugin.yaml' }] };

const cases: Array<{ name: string; kind: string; type: string; steps: Step[] }> = [
  {
    name: 'bootstrap\'s repo-server with the plugin sidecar over the upstream one (containers, volumes, mounts by key)',
    kind: 'Deployment', type: 'deployment',
    steps: [
      { manager: 'kubectl', object: repoServer([upstreamServer], [{ name: 'tmp', emptyDir: {} }, { name: 'plugins', emptyDir: {} }]) },
      { manager: 'fleetplan', object: repoServer([{ name: 'argocd-repo-server', env: [{ name: 'FLEETPLAN', value: 'yes' }] }, sidecar], [{ name: 'fleetplan-cmp-plugin', configMap: { name: 'fleetplan-cmp-plugin' } }]) },
    ],
  },
  {
    name: 'a second run that drops an env var and a volume removes only what fleetplan owned',
    kind: 'Deployment', type: 'deployment',
    steps: [
      { manager: 'kubectl', object: repoServer([upstreamServer], [{ name: 'tmp', emptyDir: {} }]) },
      { manager: 'fleetplan', object: repoServer([{ name: 'argocd-repo-server', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }, sidecar], [{ name: 'extra', emptyDir: {} }]) },
      { manager: 'fleetplan', object: repoServer([{ name: 'argocd-repo-server', env: [{ name: 'B', value: '3' }] }, sidecar], []) },
    ],
  },
  {
    name: 'a conflicting image inside a keyed element fails; forced, it is taken',
    kind: 'Deployment', type: 'deployment',
    steps: [
      { manager: 'kubectl', object: repoServer([upstreamServer], []) },
      { manager: 'fleetplan', object: repoServer([{ name: 'argocd-repo-server', image: 'other:1' }], []) },
      { manager: 'fleetplan', object: repoServer([{ name: 'argocd-repo-server', image: 'other:1' }], []), force: true },
    ],
  },
  {
    name: 'a container port without protocol is keyed by the schema default (TCP) and merges with the live port',
    kind: 'Deployment', type: 'deployment',
    steps: [
      { manager: 'kubectl', object: repoServer([upstreamServer], []) },
      { manager: 'fleetplan', object: repoServer([{ name: 'argocd-repo-server', ports: [{ containerPort: 8081, name: 'server' }, { containerPort: 9000 }] }], []) },
    ],
  },
  {
    name: 'Service ports merge by port and protocol',
    kind: 'Service', type: 'service',
    steps: [
      { manager: 'kubectl', object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'argocd' }, spec: { ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }] } } },
      { manager: 'fleetplan', object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'argocd' }, spec: { ports: [{ name: 'metrics', port: 8084, protocol: 'TCP' }, { port: 80, protocol: 'TCP', targetPort: 8080 }] } } },
    ],
  },
];

// .ci/run installs both: under CI=true a missing one fails instead of skipping.
test('Go and structured-merge-diff are installed under CI', { skip: process.env.CI !== 'true' }, () => {
  assert.equal(missing, undefined);
});

test('the test server merges like structured-merge-diff', { skip: missing }, async (t) => {
  const bin = buildChecker();
  for (const c of cases) {
    await t.test(c.name, () => {
      const lib = viaLibrary(bin, c.type, c.steps);
      const ours = viaTestServer(c.kind, c.steps);
      assert.equal(ours.conflicts, lib.conflicts.length, `conflicts: ${lib.conflicts.join('; ')}`);
      // The real server defaults the merged object (ADR 0258); the library alone does not.
      assert.deepEqual(body(ours.object), body(applyDefaults(c.kind, lib.object)));
    });
  }
});
