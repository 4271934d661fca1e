/**
 * `fleetplan bootstrap` of a helmfile + Flux repository, end to end against the Kubernetes API
 * test server with the real Helm 3 (.tools/bin/helm): the CRD phase, releases in needs order with
 * their hooks, then Flux Kustomizations Ready in dependsOn order (docs/adr/0231-helmfile-bootstrap.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadFleet } from '../../src/api/fleet.js';
import { bootstrapHelmfile } from '../../src/api/helmfile-bootstrap.js';
import { planHelmfileBootstrap } from '../../src/order/helmfile-plan.js';
import type { BootstrapEvent } from '../../src/apply/events.js';
import type { BootstrapResult } from '../../src/apply/change-set.js';
import { systemClock } from '../../src/adapters/clock.js';
import { parseYamlAll } from '../../src/yaml/index.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startKubeServer, type KubeServer } from '../support/kube-server/index.js';
import { startFluxController, type FluxController } from '../support/kube-server/flux-controller.js';
import type { Obj } from '../support/kube-server/types.js';
import { writeTree, removeTree, cli } from '../support/fleet-fixture.js';
import { helmfileRepo } from '../support/helmfile-repo.js';

const HELM = resolve('.tools/bin/helm');

interface Harness {
  dir: string;
  home: string;
  server: KubeServer;
  flux: FluxController;
  kubeconfig: string;
  close(): Promise<void>;
}

async function harness(): Promise<Harness> {
  const dir = writeTree(helmfileRepo());
  const home = mkdtempSync(join(tmpdir(), 'fleetplan-helm-home-'));
  const server = await startKubeServer();
  const flux = startFluxController(server);
  // What Flux finds in Git: cluster-apps creates the Kustomizations of the ks.yaml files below it.
  const children = parseYamlAll(readFileSync(join(dir, 'kubernetes/apps/apps/podinfo/ks.yaml'), 'utf8')) as Obj[];
  flux.setManifests('flux-system', 'cluster-apps', children);
  const kubeconfig = server.writeKubeconfig(join(home, 'kubeconfig'));
  return {
    dir, home, server, flux, kubeconfig,
    async close() {
      flux.stop();
      await server.close();
      removeTree(dir);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

async function run(h: Harness, opts: { environment?: string; timeoutMs?: number; abortAfter?: string; events?: BootstrapEvent[] } = {}): Promise<BootstrapResult> {
  const { fleet } = loadFleet(h.dir);
  const ac = new AbortController();
  return bootstrapHelmfile(fleet, {
    cluster: 'cluster',
    environment: opts.environment ?? 'infra',
    kubeconfig: h.kubeconfig,
    env: { PATH: process.env.PATH, HOME: h.home },
    helm: HELM,
    clock: systemClock,
    reporter: {
      event(e) {
        opts.events?.push(e);
        if (e.type === 'stage-done' && e.stage === opts.abortAfter) ac.abort();
      },
    },
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: ac.signal,
  });
}

function helmSecrets(server: KubeServer, ns: string): string[] {
  return server.snapshot().filter((o) => o.kind === 'Secret' && o.metadata.namespace === ns && o.metadata.labels?.owner === 'helm').map((o) => String(o.metadata.name)).sort();
}

test('plan of a helmfile + Flux repository: CRDs, releases in needs order with their hooks, then Flux Kustomizations by dependsOn', () => {
  const dir = writeTree(helmfileRepo());
  try {
    const plan = planHelmfileBootstrap(loadFleet(dir).fleet, 'cluster', 'infra');
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(plan.steps.map((s) => s.name), [
      'crds',
      'release apps/podinfo',
      'release flux-system/flux-operator',
      'postsync flux-system/flux-operator',
      'postsync flux-system/flux-operator #2',
      'flux 0',
      'flux 1',
      'flux 2',
    ]);
    const podinfo = plan.steps[1]!;
    assert.ok(podinfo.kind === 'release');
    assert.deepEqual(podinfo.release.values, [{ file: 'bootstrap/clusters/infra/podinfo.yaml' }, { inline: { replicas: 2 } }]);
    const flux = plan.steps.filter((s) => s.kind === 'flux').map((s) => (s.kind === 'flux' ? s.kustomizations.map((k) => k.name) : []));
    assert.deepEqual(flux, [['cluster-apps'], ['podinfo'], ['podinfo-config']]);
  } finally {
    removeTree(dir);
  }
});

test('plan: values a helmfile template reads from the Flux HelmRelease (bases + defaultInherit) are those spec.values', () => {
  const dir = writeTree({
    ...helmfileRepo(),
    'bootstrap/helmfile.d/default.yaml': `templates:
  default:
    values:
      - ./templates/values.yaml.gotmpl
`,
    'bootstrap/helmfile.d/templates/values.yaml.gotmpl': '{{ (fromYaml (readFile (printf "../../../kubernetes/apps/%s/%s/app/helmrelease.yaml" .Release.Namespace .Release.Name))).spec.values | toYaml }}\n',
    'bootstrap/helmfile.d/01-apps.yaml': `bases: [../environments.yaml, default.yaml]
defaultInherit: default
releases:
  - name: podinfo
    namespace: apps
    chart: ../charts/podinfo
  - name: other
    namespace: apps
    chart: ../charts/podinfo
`,
    'kubernetes/apps/apps/podinfo/app/helmrelease.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: podinfo
spec:
  values:
    replicas: 3
`,
  });
  try {
    const plan = planHelmfileBootstrap(loadFleet(dir).fleet, 'cluster', 'infra');
    const release = (id: string) => plan.steps.find((s) => s.kind === 'release' && s.release.id === id);
    const podinfo = release('apps/podinfo');
    assert.ok(podinfo?.kind === 'release');
    assert.deepEqual(podinfo.release.values, [{ inline: { replicas: 3 }, from: 'bootstrap/helmfile.d/templates/values.yaml.gotmpl (helmfile template)' }]);
    // Without a HelmRelease the template cannot be read: the plan says bootstrap cannot run it.
    assert.equal(release('apps/other'), undefined);
    assert.match(plan.problems.join('\n'), /release apps\/other: values "\.\/templates\/values\.yaml\.gotmpl" is a helmfile template/);
  } finally {
    removeTree(dir);
  }
});

test('plan text prints the helmfile bootstrap phases', async () => {
  const dir = writeTree(helmfileRepo());
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n').map((l) => l.trim()).filter((l) => /^(crds|release|postsync|flux \d)/.test(l)).map((l) => l.replace(/\s{2,}.*$/, ''));
    assert.deepEqual(lines, ['crds', 'release apps/podinfo', 'release flux-system/flux-operator', 'postsync flux-system/flux-operator', 'postsync flux-system/flux-operator #2', 'flux 0', 'flux 1', 'flux 2']);
    assert.match(r.stdout, /helm upgrade --install podinfo bootstrap\/charts\/podinfo -n apps \(bootstrap\/clusters\/default\/podinfo\.yaml, inline values\)/);
    assert.match(r.stdout, /wait: Kustomization flux-system\/podinfo-config Ready/);
  } finally {
    removeTree(dir);
  }
});

const PHASES_GOLDEN = resolve('test/golden/plan/helmfile-bootstrap-phases.txt');

test('plan golden: the bootstrap phases of the helmfile + Flux fixture', async () => {
  const dir = writeTree(helmfileRepo());
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    const from = lines.indexOf('  bootstrap');
    const to = lines.findIndex((l, i) => i > from && /^ {2}wave /.test(l));
    const phases = lines.slice(from, to).join('\n') + '\n';
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(PHASES_GOLDEN)) {
      mkdirSync(dirname(PHASES_GOLDEN), { recursive: true });
      writeFileSync(PHASES_GOLDEN, phases);
    }
    assert.equal(phases, readFileSync(PHASES_GOLDEN, 'utf8'));
  } finally {
    removeTree(dir);
  }
});

test('fleetplan bootstrap (CLI) on a helmfile + Flux repository converges, then changes nothing', async () => {
  const h = await harness();
  try {
    const args = ['bootstrap', '--repo', h.dir, '--cluster', 'cluster', '--kubeconfig', h.kubeconfig, '--environment', 'apps', '--helm', HELM, '--timeout', '60s'];
    const env = { PATH: process.env.PATH, HOME: h.home };
    const first = await cli(args, process.cwd(), env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /created\s+HelmRelease\/apps\/podinfo/);
    assert.equal(h.server.object('apps/v1', 'Deployment', 'podinfo', 'apps')!.spec.template.spec.containers[0].image, 'example/podinfo:apps');
    const second = await cli(args, process.cwd(), env);
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stdout, /^\s+(created|configured)\s/m);
    assert.match(second.stdout, /unchanged\s+HelmRelease\/apps\/podinfo\s+\(Helm release revision 1\)/);
  } finally {
    await h.close();
  }
});

test('bootstrap converges with the real Helm: CRDs only from the CRD phase, Helm releases with the environment values, hooks, Flux Ready', async () => {
  const h = await harness();
  try {
    const result = await run(h);
    assert.equal(result.outcome, 'converged');
    const crds = h.server.snapshot().filter((o) => o.kind === 'CustomResourceDefinition').map((o) => String(o.metadata.name)).sort();
    assert.deepEqual(crds, ['gitrepositories.source.toolkit.fluxcd.io', 'kustomizations.kustomize.toolkit.fluxcd.io', 'widgets.example.com']);
    assert.equal(h.server.object('apps/v1', 'Deployment', 'widgets-controller', 'widgets'), undefined, 'the CRD phase applies CRDs only');
    // Real Helm releases, as helm-controller finds them (same name and namespace).
    assert.deepEqual(helmSecrets(h.server, 'apps'), ['sh.helm.release.v1.podinfo.v1']);
    assert.deepEqual(helmSecrets(h.server, 'flux-system'), ['sh.helm.release.v1.flux-operator.v1']);
    const podinfo = h.server.object('apps/v1', 'Deployment', 'podinfo', 'apps')!;
    assert.equal(podinfo.spec.replicas, 2);
    assert.equal(podinfo.spec.template.spec.containers[0].image, 'example/podinfo:infra');
    // The hook's objects, and the Kustomizations Flux created from them, all Ready.
    assert.ok(h.server.object('source.toolkit.fluxcd.io/v1', 'GitRepository', 'flux-system', 'flux-system'));
    for (const k of ['cluster-apps', 'podinfo', 'podinfo-config']) {
      const o = h.server.object('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', k, 'flux-system')!;
      assert.equal(o.status.conditions[0].status, 'True', k);
    }
    const actions = Object.fromEntries(result.changes.entries.map((c) => [c.ref, c.action]));
    assert.equal(actions['HelmRelease/apps/podinfo'], 'created');
    assert.equal(actions['CustomResourceDefinition/widgets.example.com'], 'created');
    assert.equal(actions['Kustomization/flux-system/cluster-apps'], 'created');
  } finally {
    await h.close();
  }
});

test('a second bootstrap changes nothing: no object written, no new Helm revision', async () => {
  const h = await harness();
  try {
    await run(h);
    const versions = () => new Map(h.server.snapshot().map((o) => [`${String(o.kind)}/${o.metadata.namespace ?? ''}/${String(o.metadata.name)}`, String(o.metadata.resourceVersion)]));
    const before = versions();
    const second = await run(h);
    assert.deepEqual(second.changes.with('created', 'configured'), []);
    assert.deepEqual(helmSecrets(h.server, 'apps'), ['sh.helm.release.v1.podinfo.v1']);
    const after = versions();
    assert.deepEqual([...after].filter(([k, rv]) => before.get(k) !== rv).map(([k]) => k), [], 'objects written by the second run');
  } finally {
    await h.close();
  }
});

test('another environment upgrades the release to its values (a new Helm revision)', async () => {
  const h = await harness();
  try {
    await run(h);
    const again = await run(h, { environment: 'apps' });
    assert.equal(again.changes.entries.find((c) => c.ref === 'HelmRelease/apps/podinfo')?.action, 'configured');
    assert.equal(h.server.object('apps/v1', 'Deployment', 'podinfo', 'apps')!.spec.template.spec.containers[0].image, 'example/podinfo:apps');
    assert.deepEqual(helmSecrets(h.server, 'apps'), ['sh.helm.release.v1.podinfo.v1', 'sh.helm.release.v1.podinfo.v2']);
  } finally {
    await h.close();
  }
});

test('killed after each phase, a rerun picks up where it stopped and converges', async () => {
  const h = await harness();
  try {
    const phases = ['crds', 'release apps/podinfo', 'postsync flux-system/flux-operator #2', 'flux 1'];
    for (const [i, phase] of phases.entries()) {
      const events: BootstrapEvent[] = [];
      await assert.rejects(run(h, { abortAfter: phase, events }), /cancelled/);
      const done = events.filter((e) => e.type === 'stage-done').map((e) => (e.type === 'stage-done' ? e.stage : ''));
      assert.equal(done[done.length - 1], phase);
      if (i > 0) {
        // What an earlier run did is not done again.
        const changed = events.filter((e) => e.type === 'change' && e.action !== 'unchanged' && e.stage === phases[i - 1]);
        assert.deepEqual(changed, [], `rerun ${i} redid ${phases[i - 1]}`);
      }
    }
    const last = await run(h);
    assert.equal(last.outcome, 'converged');
    assert.deepEqual(helmSecrets(h.server, 'apps'), ['sh.helm.release.v1.podinfo.v1']);
    assert.deepEqual(helmSecrets(h.server, 'flux-system'), ['sh.helm.release.v1.flux-operator.v1']);
    assert.deepEqual(last.changes.with('created', 'configured'), []);
  } finally {
    await h.close();
  }
});

test('a Kustomization that never becomes Ready times out, named with its condition', async () => {
  const h = await harness();
  try {
    h.flux.hold('flux-system', 'podinfo', 'timeout waiting for: [Deployment/apps/podinfo status: InProgress]');
    await assert.rejects(run(h, { timeoutMs: 20_000 }), (err: Error) => {
      assert.match(err.message, /stage "flux 1"/);
      assert.match(err.message, /Kustomization\/flux-system\/podinfo/);
      assert.match(err.message, /Ready=False \(HealthCheckFailed\): timeout waiting for: \[Deployment\/apps\/podinfo status: InProgress\]/);
      assert.doesNotMatch(err.message, /cluster-apps/);
      return true;
    });
  } finally {
    await h.close();
  }
});
