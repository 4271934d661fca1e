/**
 * `fleetplan bootstrap` of a native fleet with `gitops.engine: flux`, end to end against the
 * Kubernetes API test server with its simulated kustomize-controller: Flux's own components (CRDs
 * first, awaited Established; then the controllers, awaited available), the GitRepository and the
 * root Kustomization of render --out DIR/<cluster>/bootstrap, then every Kustomization Ready in
 * dependsOn order (docs/adr/0261-native-flux-bootstrap.md).
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadFleet } from '../../src/api/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { kustomizationFor } from '../../src/generate/flux.js';
import { planFluxBootstrap } from '../../src/order/flux-bootstrap-plan.js';
import { customResourceDefinition } from '../support/fleet-fixture.js';
import { startKubeServer, type KubeServer, type RequestMatch } from '../support/kube-server/index.js';
import { startFluxController, type FluxController } from '../support/kube-server/flux-controller.js';
import type { Obj } from '../support/kube-server/types.js';
import { cli } from '../support/fleet-fixture.js';

const FLEET = resolve('test/fixtures/flux');
const CLUSTER = 'edge-1';
const KS = 'kustomize.toolkit.fluxcd.io/v1';

const crd = (group: string, kind: string, plural: string): string => customResourceDefinition(kind, group, 'Namespaced', plural);

function controller(name: string): string {
  // No namespace: the bootstrap puts Flux's namespaced objects into the cluster's Flux namespace.
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {serviceAccountName: ${name}, containers: [{name: manager, image: example/${name}:1}]}
`;
}

/** A stand-in for `flux install --export`: the CRDs, the namespace, RBAC and three controllers. */
const FLUX_MANIFESTS = [
  'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: flux-system\n',
  crd('source.toolkit.fluxcd.io', 'GitRepository', 'gitrepositories'),
  crd('source.toolkit.fluxcd.io', 'HelmRepository', 'helmrepositories'),
  crd('source.toolkit.fluxcd.io', 'OCIRepository', 'ocirepositories'),
  crd('kustomize.toolkit.fluxcd.io', 'Kustomization', 'kustomizations'),
  crd('helm.toolkit.fluxcd.io', 'HelmRelease', 'helmreleases'),
  'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: kustomize-controller\n',
  'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: flux-reconciler\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\nsubjects: [{kind: ServiceAccount, name: kustomize-controller, namespace: flux-system}]\n',
  controller('source-controller'),
  controller('kustomize-controller'),
  controller('helm-controller'),
].join('---\n');

interface Harness {
  dir: string;
  server: KubeServer;
  flux: FluxController;
  kubeconfig: string;
  manifests: string;
  close(): Promise<void>;
}

/** The app Kustomizations the root Kustomization finds in <renderedPath>/<cluster>/apps. */
function appKustomizations(): Obj[] {
  const { fleet } = loadFleet(FLEET);
  const c = resolveFleet(fleet, { clusters: [CLUSTER] }).clusters[0]!;
  return c.apps.flatMap((a) => kustomizationFor(fleet, c, a)) as Obj[];
}

async function harness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-flux-native-'));
  const server = await startKubeServer();
  const flux = startFluxController(server);
  flux.setManifests('flux-system', 'flux-system', appKustomizations());
  const kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig'));
  const manifests = join(dir, 'flux.yaml');
  writeFileSync(manifests, FLUX_MANIFESTS);
  return {
    dir, server, flux, kubeconfig, manifests,
    async close() {
      flux.stop();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function args(h: Harness, ...more: string[]): string[] {
  return ['bootstrap', '--repo', FLEET, '--cluster', CLUSTER, '--kubeconfig', h.kubeconfig, '--flux-manifests', h.manifests, '--timeout', '60s', ...more];
}

function env(h: Harness): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: h.dir };
}

function ready(o: Obj | undefined): boolean {
  return Array.isArray(o?.status?.conditions) && (o!.status.conditions as Obj[]).some((c) => c.type === 'Ready' && c.status === 'True');
}

test('plan of a Flux fleet: Flux components, GitRepository, root Kustomization, then every Kustomization by dependsOn', () => {
  const { fleet } = loadFleet(FLEET);
  const c = resolveFleet(fleet, { clusters: [CLUSTER] }).clusters[0]!;
  const plan = planFluxBootstrap(fleet, c, { fluxManifests: [] });
  assert.deepEqual(plan.stages.map((s) => s.name), ['namespaces', 'flux-components', 'flux-source', 'root-kustomization', 'flux 0', 'flux 1', 'flux 2', 'flux 3', 'flux 4']);
  const waits = plan.stages.filter((s) => s.kind === 'flux').map((s) => s.waits.map((w) => w.object.name));
  assert.deepEqual(waits, [['flux-system'], ['metrics'], ['ingress'], ['ingress-config'], ['greeter']]);
  const source = plan.stages.find((s) => s.name === 'flux-source')!.objects[0]!;
  assert.deepEqual(source.spec, { interval: '10m', url: 'https://git.example.com/platform/flux-golden.git', ref: { branch: 'main' } });
});

test('plan text of a Flux fleet prints the bootstrap phases', async () => {
  const r = await cli(['plan', '--repo', FLEET, '--cluster', CLUSTER]);
  assert.equal(r.code, 0, r.stderr);
  const names = r.stdout.split('\n').map((l) => /^ {4}(\S+(?: \d+)?)\s{2,}/.exec(l)?.[1]).filter((x): x is string => x !== undefined);
  assert.deepEqual(names, ['namespaces', 'flux-components', 'flux-source', 'root-kustomization', 'flux 0', 'flux 1', 'flux 2', 'flux 3', 'flux 4']);
  assert.match(r.stdout, /note: Flux's own components are not installed by this run: pass --flux-manifests/);
  assert.match(r.stdout, /wait: Kustomization flux-system\/greeter Ready/);
});

test('bootstrap of a Flux fleet converges: CRDs Established before the controllers, root at the cluster revision, every Kustomization Ready', async () => {
  const h = await harness();
  try {
    const r = await cli(args(h), process.cwd(), env(h));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^edge-1: converged in /m);
    for (const name of ['source-controller', 'kustomize-controller', 'helm-controller']) {
      assert.ok(h.server.object('apps/v1', 'Deployment', name, 'flux-system'), name);
    }
    // CRDs are applied before any controller: the first Deployment write follows every CRD write.
    const writes = h.server.requests({ verb: 'apply', when: (q) => !q.query.includes('dryRun') });
    const lastCrd = writes.map((w) => w.resource).lastIndexOf('customresourcedefinitions');
    const firstDeployment = writes.map((w) => w.resource).indexOf('deployments');
    assert.ok(lastCrd >= 0 && firstDeployment > lastCrd, 'CRDs before controllers');
    const repo = h.server.object('source.toolkit.fluxcd.io/v1', 'GitRepository', 'flux-system', 'flux-system')!;
    assert.equal(repo.spec.url, 'https://git.example.com/platform/flux-golden.git');
    assert.deepEqual(repo.spec.ref, { branch: 'main' });
    const root = h.server.object(KS, 'Kustomization', 'flux-system', 'flux-system')!;
    assert.equal(root.spec.path, './rendered/edge-1/apps');
    for (const k of ['flux-system', 'metrics', 'ingress', 'ingress-config', 'greeter']) assert.ok(ready(h.server.object(KS, 'Kustomization', k, 'flux-system')), k);
    assert.match(r.stdout, /created\s+Kustomization\/flux-system\/flux-system/);
    assert.match(r.stdout, /durations[\s\S]*flux 4/);
  } finally {
    await h.close();
  }
});

test('a second bootstrap of a Flux fleet writes nothing', async () => {
  const h = await harness();
  try {
    assert.equal((await cli(args(h), process.cwd(), env(h))).code, 0);
    const versions = () => new Map(h.server.snapshot().map((o) => [`${String(o.kind)}/${o.metadata.namespace ?? ''}/${String(o.metadata.name)}`, String(o.metadata.resourceVersion)]));
    const before = versions();
    const second = await cli(args(h), process.cwd(), env(h));
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stdout, /^\s+(created|configured)\s/m);
    const after = versions();
    assert.deepEqual([...after].filter(([k, rv]) => before.get(k) !== rv).map(([k]) => k), [], 'objects written by the second run');
  } finally {
    await h.close();
  }
});

test('a Flux Kustomization that never becomes Ready times out, named with its condition and only it', async () => {
  const h = await harness();
  try {
    h.flux.hold('flux-system', 'ingress', 'timeout waiting for: [Deployment/ingress/ingress-nginx status: InProgress]');
    const r = await cli(args(h, '--timeout', '15s'), process.cwd(), env(h));
    assert.equal(r.code, 1);
    const error = r.stderr.slice(r.stderr.indexOf('fleetplan bootstrap: edge-1: timed out'));
    assert.match(error, /stage "flux 2"/);
    assert.match(error, /Kustomization\/flux-system\/ingress: /);
    assert.match(error, /Ready=False \(HealthCheckFailed\): timeout waiting for: \[Deployment\/ingress\/ingress-nginx status: InProgress\]/);
    assert.doesNotMatch(error, /Kustomization\/flux-system\/metrics/);
  } finally {
    await h.close();
  }
});

test('--dry-run on a Flux fleet writes nothing and lists what it would apply', async () => {
  const h = await harness();
  try {
    const r = await cli(args(h, '--dry-run'), process.cwd(), env(h));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^edge-1: /m);
    assert.match(r.stdout, /created\s+Namespace\/flux-system/);
    assert.deepEqual(h.server.requests({ verb: ['create', 'update', 'patch', 'apply', 'delete'], when: (q) => !q.query.includes('dryRun') }).map((q) => `${q.verb} ${q.resource}`), []);
  } finally {
    await h.close();
  }
});

describe('a Flux bootstrap killed at each phase, then run again', () => {
  const phases: Array<{ phase: string; when: RequestMatch }> = [
    { phase: 'namespaces', when: { verb: 'apply', resource: 'customresourcedefinitions', when: (r) => !r.query.includes('dryRun') } },
    { phase: 'flux-components', when: { verb: 'apply', resource: 'deployments', when: (r) => !r.query.includes('dryRun') } },
    { phase: 'flux-source', when: { verb: 'apply', resource: 'gitrepositories', when: (r) => !r.query.includes('dryRun') } },
    { phase: 'root-kustomization', when: { verb: 'apply', resource: 'kustomizations', when: (r) => !r.query.includes('dryRun') } },
    { phase: 'the Flux waits', when: { verb: ['list', 'watch'], resource: 'kustomizations' } },
  ];
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  for (const p of phases) {
    test(`killed in ${p.phase}: a rerun converges with no object created twice`, async () => {
      h = await harness();
      const created = new Map<string, number>();
      h.server.store.subscribe((ev) => {
        if (ev.type !== 'ADDED') return;
        const ref = `${String(ev.object.kind)}/${ev.object.metadata.namespace ?? ''}/${String(ev.object.metadata.name)}`;
        created.set(ref, (created.get(ref) ?? 0) + 1);
      });
      const child = spawn(process.execPath, ['dist/src/cli/main.js', ...args(h)], { env: { ...process.env, HOME: h.dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<{ signal: NodeJS.Signals | null }>((done) => child.on('exit', (_code, signal) => done({ signal })));
      const began = h.server.waitForRequest(p.when).then(() => child.kill('SIGKILL'));
      const first = await Promise.race([exited, began.then(() => exited)]);
      assert.equal(first.signal, 'SIGKILL', `the first run was killed (it ended by itself otherwise):\n${output}`);
      const rerun = await cli(args(h), process.cwd(), env(h));
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.match(rerun.stdout, /^edge-1: converged in /m);
      assert.deepEqual([...created].filter(([, n]) => n > 1).map(([ref]) => ref), [], 'objects created twice');
      for (const k of ['flux-system', 'metrics', 'ingress', 'ingress-config', 'greeter']) assert.ok(ready(h.server.object(KS, 'Kustomization', k, 'flux-system')), k);
    });
  }
});
