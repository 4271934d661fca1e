/**
 * Helm renders every file of a chart's templates/ folder (except `_` partials and NOTES.txt),
 * whatever its extension. An app-of-apps chart whose templates are `*.yaml.tpl`
 * (kuadrant/deployment: five ApplicationSets) was not recognised as writing Argo CD objects: its
 * Application was planned alone and what it applies was dropped in silence.
 * Its Application passes `helm.parameters` with Argo CD's build environment
 * (`value: $ARGOCD_APP_SOURCE_REPO_URL`), which the repo-server substitutes before templating;
 * the follower passed them as written, so the children named the repository `$ARGOCD_APP_SOURCE_REPO_URL`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const URL = 'https://github.com/acme/platform.git';

const root = argoPathApplication({ name: 'app-of-apps', path: 'charts/apps', namespace: 'argocd', repoURL: URL });

const child = argoPathApplication({ name: '{{ .Values.name }}', path: 'web', namespace: 'web', repoURL: URL });

test('an app-of-apps chart whose templates are *.yaml.tpl: the Applications it writes are followed; partials are not output', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': root,
    'charts/apps/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 0.1.0\n',
    'charts/apps/values.yaml': 'name: web\n',
    'charts/apps/templates/web-application.yaml.tpl': child,
    'charts/apps/templates/_helpers.tpl': '{{- define "apps.name" -}}apps{{- end -}}\n',
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', URL]);
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { apps: { name: string }[] }[] };
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)).sort(), ['app-of-apps', 'web']);
  } finally {
    removeTree(dir);
  }
});

test('an app-of-apps chart gets its helm.parameters with the build environment substituted, as the repo-server does', async () => {
  const withParams = root.replace('    path: charts/apps\n', '    path: charts/apps\n    helm:\n      parameters:\n        - name: repoURL\n          value: $ARGOCD_APP_SOURCE_REPO_URL\n        - name: revision\n          value: $ARGOCD_APP_SOURCE_TARGET_REVISION\n');
  const dir = writeTree({
    'bootstrap/root.yaml': withParams,
    'charts/apps/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 0.1.0\n',
    'charts/apps/values.yaml': 'name: web\nrepoURL: none\nrevision: none\n',
    'charts/apps/templates/web.yaml': child.replace(`repoURL: ${URL}\n    targetRevision: main`, 'repoURL: {{ .Values.repoURL }}\n    targetRevision: {{ .Values.revision }}'),
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', URL]);
  try {
    const r = await cli(['render', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /name: web\n[^]*repoURL: https:\/\/github\.com\/acme\/platform\.git\n\s+targetRevision: main/);
    assert.doesNotMatch(r.stdout, /repoURL: \$ARGOCD_APP/, "the root keeps its parameters as written; the children get the values");
  } finally {
    removeTree(dir);
  }
});

test('a leaf kustomization inflating a remote chart is not built while following, in a repository that has an app-of-apps chart', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': root,
    'charts/apps/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 0.1.0\n',
    'charts/apps/values.yaml': 'name: web\n',
    'charts/apps/templates/web.yaml': child,
    'web/kustomization.yaml': 'helmCharts:\n  - name: redis\n    repo: https://charts.invalid/stable\n    version: 1.0.0\n    releaseName: redis\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', URL]);
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    const plan = JSON.parse(p.stdout) as { clusters: { apps: { name: string }[] }[]; findings: { code: string; message: string }[] };
    assert.deepEqual(plan.findings.filter((f) => f.code === 'kustomize-build-failed'), [], 'a leaf needs no build to follow, and offline a remote chart fails');
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)).sort(), ['app-of-apps', 'web']);
  } finally {
    removeTree(dir);
  }
});
