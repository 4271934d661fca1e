/**
 * A source built by the repository's own config-management plugin (`source.plugin`) is built by
 * the plugin's commands, which fleetplan never runs (ADR 0284): a directory holding only a
 * `flake.nix`, or a kustomization listing the `all.yaml` that the plugin's `helm template` writes
 * first, is what Argo CD builds without error. validate does not report them as empty-source or
 * kustomize-missing-path (the shapes of Argo CD's own example plugins); the same directories
 * without the plugin still are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, path: string, plugin: boolean) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/apps.git
    targetRevision: HEAD
    path: ${path}
${plugin ? `    plugin:\n      name: ${name}\n` : ''}  destination:
    server: https://kubernetes.default.svc
    namespace: ${name}
`;

function repo(plugin: boolean): Record<string, string> {
  return {
    'roots/apps.yaml': `${app('nix', 'plugins/nix', plugin)}---\n${app('kustomized-helm', 'plugins/kustomized-helm', plugin)}`,
    'plugins/nix/flake.nix': '{ outputs = { self }: { }; }\n',
    'plugins/kustomized-helm/Chart.yaml': 'apiVersion: v2\nname: kh\nversion: 0.1.0\n',
    'plugins/kustomized-helm/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ./all.yaml\n',
  };
}

async function codes(dir: string): Promise<string[]> {
  const r = await cli(['validate', '--repo', dir, '-o', 'json']);
  return (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
}

test('plugin sources: a directory the plugin builds is not judged as empty or as a broken kustomization', async () => {
  const dir = writeTree(repo(true));
  try {
    const found = await codes(dir);
    assert.ok(!found.includes('empty-source'), found.join(', '));
    assert.ok(!found.includes('kustomize-missing-path'), found.join(', '));
  } finally {
    removeTree(dir);
  }
});

test('the same directories without a plugin are still reported', async () => {
  const dir = writeTree(repo(false));
  try {
    const found = await codes(dir);
    assert.ok(found.includes('empty-source'), found.join(', '));
    assert.ok(found.includes('kustomize-missing-path'), found.join(', '));
  } finally {
    removeTree(dir);
  }
});
