/**
 * A bootstrap kustomization that inflates a remote chart of Argo CD Applications (`helmCharts`
 * with `repo: https://…`, run by hand as `kustomize build --enable-helm DIR | kubectl apply -f -`)
 * cannot be built offline. It used to be passed over in silence, so the plan showed only the few
 * stray Applications found elsewhere (ADR 0337): now the plan names it as not read, with the chart.
 * Not named: a kustomize Component, a kustomization whose remote chart shows no sign of writing
 * Applications, and one an Application reads (its chart is a leaf, built by render --leaves).
 * The home cluster of a root under `clusters/overlays/<name>/` is named <name>, not "overlays".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const remoteChart = (name: string, extra = ''): string =>
  `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nhelmCharts:\n- name: ${name}\n  version: 1.2.3\n  repo: https://charts.example.com\n  valuesFile: values.yaml\n${extra}`;

function repo(): string {
  const dir = writeTree({
    // The bootstrap: its patch targets the Applications the chart writes.
    'bootstrap/overlays/prod/kustomization.yaml': remoteChart('cluster-apps', 'patches:\n- target:\n    kind: Application\n    name: monitoring\n  patch: |-\n    - op: replace\n      path: /spec/source/path\n      value: monitoring/prod\n'),
    'bootstrap/overlays/prod/values.yaml': 'apps: [monitoring]\n',
    // Named as Argo CD applications by its chart's name.
    'bootstrap/overlays/dev/kustomization.yaml': remoteChart('argocd-apps'),
    'bootstrap/overlays/dev/values.yaml': 'applications: {}\n',
    // Not roots: a Component, an ordinary chart, and a chart an Application reads.
    'bootstrap/components/extra/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nhelmCharts:\n- name: argocd-apps\n  repo: https://charts.example.com\n',
    'ingress/kustomization.yaml': remoteChart('ingress-nginx'),
    'ingress/values.yaml': 'controller: {}\n',
    'nested/kustomization.yaml': remoteChart('argocd-apps'),
    'nested/values.yaml': 'applications: {}\n',
    'apps/nested.yaml': argoApplication('nested', '    repoURL: https://github.com/acme/platform.git\n    targetRevision: main\n    path: nested\n'),
    // A second root group under clusters/overlays/<name>.
    'clusters/overlays/east/kustomization.yaml': 'resources:\n- app.yaml\n',
    'clusters/overlays/east/app.yaml': argoApplication('east-app', '    repoURL: https://github.com/acme/platform.git\n    targetRevision: main\n    path: ingress\n'),
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

test('plan names a bootstrap kustomization with a remote chart of Applications as not read', async () => {
  const dir = repo();
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    const note = /note: not read: (.*)/.exec(r.stdout)?.[1] ?? '';
    assert.match(note, /kustomize build bootstrap\/overlays\/dev \(chart argocd-apps 1\.2\.3 from https:\/\/charts\.example\.com\)/);
    assert.match(note, /kustomize build bootstrap\/overlays\/prod \(chart cluster-apps 1\.2\.3 from https:\/\/charts\.example\.com, which its kustomization or values name as kind Application\)/);
    assert.doesNotMatch(note, /bootstrap\/components|ingress|nested/);
    assert.match(r.stderr + r.stdout, /warning: bootstrap\/overlays\/dev\/kustomization\.yaml: not read: .*\[bootstrap-not-read\]/);
  } finally {
    removeTree(dir);
  }
});

test('the home cluster of a root under clusters/overlays/<name> is <name>', async () => {
  const dir = repo();
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^east {2}\(role standalone/m);
    assert.doesNotMatch(r.stdout, /^overlays /m);
  } finally {
    removeTree(dir);
  }
});
