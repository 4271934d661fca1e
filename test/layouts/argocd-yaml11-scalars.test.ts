/**
 * Issue #12 for the fleet layer: an Argo CD repository's Application files are applied by kubectl
 * or by Argo CD (app of apps), both reading YAML with go-yaml v2 through sigs.k8s.io/yaml. The
 * Applications `render` writes must mean the same to that reader: `prune: yes` is true,
 * `valuesObject.mode: 0755` is 493, `-.5` a float, and a date-like annotation a string (it was
 * written as `{}`, a js-yaml Date dumped as a map).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { startKubectlReader } from '../support/kubectl-read.js';
import type { KubectlReader } from '../support/kubectl-read.js';

const APPLICATION = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: web
  namespace: argocd
  annotations:
    since: 2024-01-01
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
    namespace: web
  source:
    repoURL: https://github.com/acme/platform
    targetRevision: main
    path: web
    helm:
      valuesObject:
        mode: 0755
        enabled: on
        ratio: -.5
        count: 1_000
        duration: 1:20
        nothing: ~
        hex: 0x1F
  syncPolicy:
    automated:
      prune: yes
      selfHeal: off
`;

let kubectl: KubectlReader;
before(async () => {
  kubectl = await startKubectlReader();
});
after(async () => {
  await kubectl?.close();
});

test('render writes an Argo CD repository\'s Application so that kubectl reads what it reads from the file: yes, 0755, -.5, a date', async () => {
  const dir = writeTree({ 'apps/web.yaml': APPLICATION, 'web/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n' });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const written = readFileSync(join(out, 'in-cluster', 'apps', 'web.yaml'), 'utf8');
    const [expected] = await kubectl.read(APPLICATION);
    assert.deepEqual((await kubectl.read(written))[0], expected, written);
    const spec = (expected as { spec: { source: { helm: { valuesObject: Record<string, unknown> } }; syncPolicy: { automated: Record<string, unknown> } } }).spec;
    assert.deepEqual(spec.source.helm.valuesObject, { mode: 493, enabled: true, ratio: -0.5, count: 1000, duration: '1:20', nothing: null, hex: 31 });
    assert.deepEqual(spec.syncPolicy.automated, { prune: true, selfHeal: false });
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
