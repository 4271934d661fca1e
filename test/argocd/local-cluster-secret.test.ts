/**
 * A cluster Secret whose server is https://kubernetes.default.svc renames Argo CD's local cluster
 * (gitops-bridge registers its hub so, with labels the addon ApplicationSets select). The plan
 * showed two clusters, "in-cluster" (the hub, with the roots) and "hub" (a spoke with the addons),
 * although they are one cluster; now the single Argo CD's home is that cluster, under its name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

function repo(): string {
  const dir = writeTree({
    'bootstrap/addons.yaml': `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: addons
  namespace: argocd
spec:
  generators:
    - clusters:
        selector:
          matchLabels:
            enable_metrics: 'true'
  template:
    metadata:
      name: 'metrics-{{name}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/platform.git
        targetRevision: main
        path: addons/metrics
      destination:
        name: '{{name}}'
        namespace: metrics
`,
    'addons/metrics/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: metrics\n',
    'clusters/hub-secret.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: hub-cluster
  namespace: argocd
  labels:
    argocd.argoproj.io/secret-type: cluster
    enable_metrics: 'true'
stringData:
  name: hub
  server: https://kubernetes.default.svc
`,
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

test('plan: a cluster Secret for the in-cluster server names the home cluster, which gets its apps', async () => {
  const dir = repo();
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /: 1 cluster \(argocd layout\)/);
    assert.match(r.stdout, /^hub {2}\(role standalone/m);
    assert.match(r.stdout, /ApplicationSet addons \(bootstrap\/addons\.yaml\) generates 1 Application: metrics-hub/);
    assert.doesNotMatch(r.stdout, /^in-cluster /m);
  } finally {
    removeTree(dir);
  }
});
