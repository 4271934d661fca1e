/**
 * Validated Patterns: what the cluster reads. Each local chart is built as Argo CD builds it from
 * the Application the clustergroup chart writes (value files, ignoreMissingValueFiles, parameters,
 * no variable substitution), and validate judges only files Argo CD reads (a kustomization.yaml
 * beside a chart built with Helm is never read). On multicloud-gitops itself:
 * test/real/layouts/validated-patterns-leaves.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { VP_GLOBAL, vpHubValues } from '../support/validated-patterns.js';

/** A hub with one local chart app `web` (namespace web) whose templates read what the clustergroup chart passes. */
function pattern(extra: Record<string, string> = {}, app = 'name: web\n      namespace: web\n      path: charts/web\n'): Record<string, string> {
  return {
    'values-global.yaml': VP_GLOBAL,
    'values-hub.yaml': vpHubValues(app),
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/values.yaml': 'greeting: hello\n',
    'charts/web/templates/cm.yaml': [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: web-settings',
      'data:',
      '  hub: {{ .Values.clusterGroup.isHubCluster | quote }}',
      '  group: {{ .Values.clusterGroup.name | quote }}',
      '  pattern: {{ .Values.global.pattern | quote }}',
      '  namespace: {{ .Values.global.namespace | quote }}',
      '  greeting: {{ .Values.greeting | quote }}',
      '',
    ].join('\n'),
    ...extra,
  };
}

async function renderLeaves(files: Record<string, string>): Promise<{ code: number; stderr: string; leaf(app: string): string }> {
  const dir = writeTree(files);
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-vp-leaves-'));
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    const leaves = new Map<string, string>();
    for (const app of ['web']) {
      const d = join(out, 'hub', 'manifests', app);
      let names: string[] = [];
      try {
        names = readdirSync(d).sort();
      } catch {
        names = [];
      }
      leaves.set(app, names.map((n) => readFileSync(join(d, n), 'utf8')).join('---\n'));
    }
    return { code: r.code, stderr: r.stderr, leaf: (app) => leaves.get(app) ?? '' };
  } finally {
    removeTree(dir);
    rmSync(out, { recursive: true, force: true });
  }
}

test('render --leaves builds a local chart with values-global.yaml, values-<group>.yaml and the global.pattern/global.namespace parameters', async () => {
  const r = await renderLeaves(pattern());
  assert.equal(r.code, 0, r.stderr);
  const cm = r.leaf('web');
  assert.match(cm, /hub: 'true'/);
  assert.match(cm, /group: hub/);
  assert.match(cm, /pattern: demo/);
  // global.namespace is $ARGOCD_APP_NAMESPACE: the Application's destination namespace.
  assert.match(cm, /namespace: web/);
  assert.match(cm, /greeting: hello/);
});

test('render --leaves applies the app overrides as parameters, after the value files', async () => {
  const r = await renderLeaves(pattern({}, 'name: web\n      namespace: web\n      path: charts/web\n      overrides:\n        - name: greeting\n          value: hi, there\n'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.leaf('web'), /greeting: hi, there/);
});

test('render --leaves substitutes no variables in a Validated Patterns chart: a ${BASE} in a script is the script\'s', async () => {
  const r = await renderLeaves(pattern({
    'charts/web/templates/script.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: script\ndata:\n  run.sh: |\n    echo "${BASE}/${URL}"\n',
  }));
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /undefined variable/);
  assert.match(r.leaf('web'), /echo "\$\{BASE\}\/\$\{URL\}"/);
});

test('validate does not read a kustomization.yaml beside a chart that Argo CD builds with Helm', async () => {
  const dir = writeTree(pattern({ 'charts/web/kustomization.yaml': 'resources:\n- not-there.yaml\n' }));
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const codes = (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    assert.ok(!codes.includes('kustomize-missing-path'), r.stdout);
    assert.equal(r.code, 0, r.stdout);
  } finally {
    removeTree(dir);
  }
});

test('validate still reads the kustomization of an app with kustomize: true, which Argo CD builds with kustomize', async () => {
  const dir = writeTree(pattern({ 'charts/web/kustomization.yaml': 'resources:\n- not-there.yaml\n' }, 'name: web\n      namespace: web\n      path: charts/web\n      kustomize: true\n'));
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const found = (JSON.parse(r.stdout) as { findings: { code: string; file: string; line: number }[] }).findings.filter((f) => f.code === 'kustomize-missing-path');
    assert.deepEqual(found.map((f) => [f.file, f.line]), [['charts/web/kustomization.yaml', 2]]);
  } finally {
    removeTree(dir);
  }
});

test('render --leaves: a chart that fails on a value the operator sets per cluster says so, naming the value', async () => {
  const r = await renderLeaves(pattern({
    'charts/web/templates/nfd.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nfd\ndata:\n  image: x{{ ternary "-rhel9" "" (semverCompare ">=4.15.0" .Values.global.clusterVersion) }}\n',
  }));
  assert.equal(r.code, 1);
  // helm's own message stays; what it means is added: the value is unknown offline, not missing from the repository.
  assert.match(r.stderr, /helm template of charts\/web failed: .*\.Values\.global\.clusterVersion/);
  assert.match(r.stderr, /global\.clusterVersion is set per cluster by the Validated Patterns operator and left empty in this build: on the cluster the chart gets it/);
});
