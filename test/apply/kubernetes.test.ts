/**
 * A non-OpenShift cluster: upstream Argo CD from a local manifest file (fleetplan never downloads
 * it), the plugin sidecar merged into the manifests' repo-server, and a second run unchanged.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { setGitContent } from '../support/bootstrap-cluster.js';
import { crdsNamed, startKubeServer, type KubeServer, type Obj } from '../support/kube-server/index.js';

function workload(kind: 'Deployment' | 'StatefulSet', name: string, extra: Obj = {}): Obj {
  return {
    apiVersion: 'apps/v1', kind, metadata: { name, labels: { 'app.kubernetes.io/part-of': 'argocd' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: { metadata: { labels: { 'app.kubernetes.io/name': name } }, spec: { containers: [{ name, image: 'quay.io/argoproj/argocd:v3.1.0' }], ...extra } },
    },
  };
}

/** A small stand-in for upstream's install.yaml: CRDs, namespaced objects without a namespace. */
function installYaml(): string {
  const objects: Obj[] = [
    ...crdsNamed(['applications.argoproj.io', 'appprojects.argoproj.io', 'applicationsets.argoproj.io']),
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'argocd-server' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cm', labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' } } },
    workload('Deployment', 'argocd-server'),
    workload('Deployment', 'argocd-repo-server', { volumes: [{ name: 'var-files', emptyDir: {} }, { name: 'plugins', emptyDir: {} }] }),
    workload('Deployment', 'argocd-redis'),
    workload('StatefulSet', 'argocd-application-controller'),
  ];
  return objects.map((o) => yaml.dump(o)).join('---\n');
}

describe('bootstrap of a plain Kubernetes cluster', () => {
  let server: KubeServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const d of dirs.splice(0)) removeTree(d);
  });

  test('upstream manifests from a file, CRDs first; the plugin sidecar joins the repo-server; a rerun changes nothing', async () => {
    const files = baseFleet();
    files['fleet.yaml'] = files['fleet.yaml']!.replace('  revision: main\n', '  revision: main\n  platform: kubernetes\n  gitops:\n    plugin:\n      image: registry.example.com/fleetplan-cmp:0.1.0\n')
      // Child Applications sync by themselves, as the bootstrap expects.
      .replace('  defaults:\n', '  defaults:\n    syncPolicy:\n      automated:\n        selfHeal: true\n');
    const repo = writeTree(files);
    const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-k8s-'));
    dirs.push(repo, tmp);
    writeFileSync(join(tmp, 'install.yaml'), installYaml());
    server = await startKubeServer({ controllers: { applicationsNeedArgoCD: false } });
    setGitContent(server, repo, 'one', 'argocd');
    const kubeconfig = server.writeKubeconfig(join(tmp, 'kubeconfig'));
    const run = () => cli(['bootstrap', '--repo', repo, '--cluster', 'one', '--argocd-manifests', join(tmp, 'install.yaml'), '--timeout', '60s'], process.cwd(), { KUBECONFIG: kubeconfig, HOME: tmp });

    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^one: converged in /m);
    assert.match(first.stderr, /ready {6}CustomResourceDefinition\/applications\.argoproj\.io: Established/);
    const repoServer = server.object('apps/v1', 'Deployment', 'argocd-repo-server', 'argocd')!;
    assert.deepEqual(repoServer.spec.template.spec.containers.map((c: Obj) => c.name), ['argocd-repo-server', 'fleetplan']);
    assert.deepEqual(repoServer.spec.template.spec.volumes.map((v: Obj) => v.name), ['var-files', 'plugins', 'fleetplan-cmp-plugin', 'fleetplan-cmp-tmp']);
    assert.match(String(server.object('v1', 'ConfigMap', 'argocd-cm', 'argocd')?.data['resource.customizations.health.argoproj.io_Application']), /hs.status/);

    const second = await run();
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^one: converged in .*: 0 created, 0 configured, \d+ unchanged$/m);
  });
});
