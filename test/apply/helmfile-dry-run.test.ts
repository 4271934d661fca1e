/**
 * `fleetplan bootstrap --dry-run` of a helmfile + Flux repository: per phase, what it would do
 * (CRDs, releases with namespace, chart, version and values files, hooks, Kustomizations to
 * await), with the real Helm 3 and the Kubernetes API test server, which sees no write
 * (docs/adr/0262-helmfile-dry-run-and-environments.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseYamlAll } from '../../src/yaml/index.js';
import { startKubeServer, WRITE_VERBS, type KubeServer } from '../support/kube-server/index.js';
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
  flux.setManifests('flux-system', 'cluster-apps', parseYamlAll(readFileSync(join(dir, 'kubernetes/apps/apps/podinfo/ks.yaml'), 'utf8')) as Obj[]);
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

function bootstrap(h: Harness, ...more: string[]) {
  return cli(['bootstrap', '--repo', h.dir, '--cluster', 'cluster', '--kubeconfig', h.kubeconfig, '--helm', HELM, '--timeout', '60s', ...more], process.cwd(), { PATH: process.env.PATH, HOME: h.home });
}

/** Writes the server saw (a server-side dry-run is not one). */
function writes(server: KubeServer): string[] {
  return server.requests({ verb: WRITE_VERBS, when: (r) => !r.query.includes('dryRun') }).map((r) => `${r.verb} ${r.resource}/${r.namespace ?? ''}/${r.name ?? ''}`);
}

test('bootstrap --dry-run on an empty cluster prints each phase and writes nothing', async () => {
  const h = await harness();
  try {
    const r = await bootstrap(h, '--dry-run', '--environment', 'infra');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(writes(h.server), [], 'the server saw writes');
    assert.match(r.stdout, /^cluster: dry run, nothing written \(helmfile environment infra\)$/m);
    assert.match(r.stdout, /note: helmfile environment infra: bootstrap\/environments\.yaml:2/);
    const phases = r.stdout.split('\n').filter((l) => /^ {2}\S/.test(l) && !l.startsWith('  note: ')).map((l) => l.trim().split(/\s{2,}/)[0]);
    assert.deepEqual(phases, ['crds', 'release apps/podinfo', 'release flux-system/flux-operator', 'postsync flux-system/flux-operator', 'postsync flux-system/flux-operator #2', 'flux 0', 'flux 1', 'flux 2']);
    // The CRD phase: what the server's dry-run says of each CRD.
    assert.match(r.stdout, /created\s+CustomResourceDefinition\/widgets\.example\.com/);
    // Releases with namespace, chart and the environment's values files, in needs order.
    assert.match(r.stdout, /release apps\/podinfo {2}helm upgrade --install podinfo bootstrap\/charts\/podinfo -n apps \(bootstrap\/clusters\/infra\/podinfo\.yaml, inline values\)/);
    assert.match(r.stdout, /created\s+HelmRelease\/apps\/podinfo {2}\(would install a Helm release/);
    assert.match(r.stdout, /after apps\/podinfo/);
    // The hook's objects need CRDs an earlier phase installs: skipped, with the reason.
    assert.match(r.stdout, /helmfile hook: kubectl apply --server-side --force-conflicts --filename=\.\.\/\.\.\/kubernetes\/flux\/cluster\/ks\.yaml/);
    assert.match(r.stdout, /skipped\s+GitRepository\/flux-system\/flux-system {2}\(dry run: GitRepository \(source\.toolkit\.fluxcd\.io\/v1\) is not served yet/);
    assert.match(r.stdout, /would wait: Kustomization flux-system\/podinfo-config Ready/);
    assert.equal(h.server.snapshot().filter((o) => o.kind === 'Secret' && o.metadata.labels?.owner === 'helm').length, 0, 'no Helm release');
  } finally {
    await h.close();
  }
});

test('bootstrap --dry-run after a bootstrap: unchanged, and another environment is an upgrade it would run', async () => {
  const h = await harness();
  try {
    const first = await bootstrap(h, '--environment', 'infra');
    assert.equal(first.code, 0, first.stderr);
    const before = writes(h.server).length;
    const same = await bootstrap(h, '--dry-run', '--environment', 'infra');
    assert.equal(same.code, 0, same.stderr);
    assert.doesNotMatch(same.stdout, /^\s+(created|configured)\s/m);
    assert.match(same.stdout, /unchanged\s+HelmRelease\/apps\/podinfo {2}\(Helm release revision 1\)/);
    const other = await bootstrap(h, '--dry-run', '--environment', 'apps');
    assert.equal(other.code, 0, other.stderr);
    assert.match(other.stdout, /configured\s+HelmRelease\/apps\/podinfo {2}\(would upgrade the Helm release from revision 1\)/);
    assert.match(other.stdout, /unchanged\s+HelmRelease\/flux-system\/flux-operator/);
    assert.deepEqual(writes(h.server).slice(before), [], 'the dry runs wrote');
    assert.equal(h.server.object('apps/v1', 'Deployment', 'podinfo', 'apps')!.spec.template.spec.containers[0].image, 'example/podinfo:infra');
  } finally {
    await h.close();
  }
});
