/**
 * The argocd layout reads the repository's own Applications, which Argo CD uses as written: it
 * substitutes no `${…}` into their fields (a Helm valuesObject's `${username}` is the chart's), nor
 * into what it builds (a shell script's `${HOME}` in a ConfigMap). fleetplan's cluster variables
 * belong to its own layouts; here a `${…}` is neither an undefined-variable error nor replaced.
 * Found on a real repository (an undefined-variable error for a Helm value).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const files = {
  'apps/web.yaml': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: web
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://charts.example.com
    chart: web
    targetRevision: 1.0.0
    helm:
      valuesObject:
        login: \${username}
  destination:
    server: https://kubernetes.default.svc
    namespace: web
---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: scripts
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/apps.git
    targetRevision: main
    path: scripts
  destination:
    server: https://kubernetes.default.svc
    namespace: scripts
`,
  'scripts/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cm.yaml\n',
  'scripts/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: run\ndata:\n  run.sh: |\n    cd ${HOME}\n',
};

test('argocd layout: ${…} in an Application field or a built manifest is not an undefined-variable error', async () => {
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const codes = (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    assert.ok(!codes.includes('undefined-variable'), codes.join(', '));
  } finally {
    removeTree(dir);
  }
});

test('argocd layout: render writes the Application with ${…} as written', async () => {
  const dir = writeTree(files);
  try {
    const r = await cli(['render', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /login: "\$\{username\}"/);
  } finally {
    removeTree(dir);
  }
});
