/**
 * A CRD-phase helmfile release (ADR 0365): helmfile-bootstrapped repositories run
 * `helmfile -f crds.yaml template -q | yq 'select(.kind == "CustomResourceDefinition")' | kubectl apply`
 * with `helmDefaults.args: [--include-crds, --no-hooks]`; the release is never synced. What reaches
 * the cluster is the chart's CustomResourceDefinitions and nothing else, so that is what
 * `render --leaves` writes for it; the same chart in the apps phase is still rendered whole.
 * A small chart packaged by the test into the chart cache; uses .tools/bin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { requireTools, toolEnv } from '../helpers/tools.js';

const crd = (plural: string, hook = '') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.example.org
${hook}spec:
  group: example.org
  names:
    kind: ${plural[0]!.toUpperCase()}${plural.slice(1, -1)}
    plural: ${plural}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
`;

/** A chart with a CRD in crds/, one in templates/, a hook CRD (left out by --no-hooks) and a ConfigMap. */
function packageChart(home: string): void {
  const src = join(home, 'src', 'widgets');
  mkdirSync(join(src, 'crds'), { recursive: true });
  mkdirSync(join(src, 'templates'), { recursive: true });
  writeFileSync(join(src, 'Chart.yaml'), 'apiVersion: v2\nname: widgets\nversion: 0.1.0\n');
  writeFileSync(join(src, 'values.yaml'), 'greeting: hello\n');
  writeFileSync(join(src, 'crds', 'widgets.yaml'), crd('widgets'));
  writeFileSync(join(src, 'templates', 'gadgets.yaml'), crd('gadgets'));
  writeFileSync(join(src, 'templates', 'hook.yaml'), crd('hooks', '  annotations:\n    helm.sh/hook: pre-install\n'));
  writeFileSync(join(src, 'templates', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: widgets\ndata:\n  greeting: {{ .Values.greeting }}\n');
  const { helm } = requireTools();
  execFileSync(helm, ['package', src, '--destination', join(home, 'cache', 'charts')], { env: toolEnv(home), stdio: 'ignore' });
}

const release = 'releases:\n  - name: widgets\n    namespace: widgets\n    chart: example/widgets\n    version: 0.1.0\n';
const repositories = 'repositories:\n  - name: example\n    url: https://charts.example.org\n';

test('helmfile CRD phase: render --leaves writes only the CustomResourceDefinitions of the release (not hooks, not the ConfigMap); the apps-phase release of the same chart is whole', async () => {
  requireTools();
  const dir = writeTree({
    'bootstrap/helmfile/crds.yaml': `helmDefaults:\n  args:\n    - --include-crds\n    - --no-hooks\n${repositories}${release}`,
    'bootstrap/helmfile/apps.yaml': `${repositories}releases:\n  - name: widgets-app\n    namespace: widgets\n    chart: example/widgets\n    version: 0.1.0\n`,
  });
  const home = mkdtempSync(join(tmpdir(), 'fleetplan-crd-phase-'));
  try {
    packageChart(home);
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(home, 'cache')], process.cwd(), toolEnv(home));
    assert.equal(r.code, 0, r.stderr);
    const leaf = (app: string) => {
      const d = readdirSync(join(out, 'cluster', 'manifests')).find((x) => x.endsWith(app));
      assert.ok(d, readdirSync(join(out, 'cluster', 'manifests')).join(', '));
      return readdirSync(join(out, 'cluster', 'manifests', d)).sort().map((f) => readFileSync(join(out, 'cluster', 'manifests', d, f), 'utf8'));
    };
    const crds = leaf('widgets_widgets').filter((t) => !t.startsWith('#') || /kind:/.test(t));
    const kinds = crds.map((t) => /^kind: (\S+)/m.exec(t)?.[1]).sort();
    assert.deepEqual(kinds, ['CustomResourceDefinition', 'CustomResourceDefinition'], crds.join('\n---\n'));
    const names = crds.map((t) => /^ {2}name: (\S+)/m.exec(t)?.[1]).sort();
    assert.deepEqual(names, ['gadgets.example.org', 'widgets.example.org']);
    const apps = leaf('widgets_widgets-app').map((t) => /^kind: (\S+)/m.exec(t)?.[1]).sort();
    assert.ok(apps.includes('ConfigMap'), apps.join(', '));
  } finally {
    removeTree(dir);
    removeTree(home);
  }
});

test('helmfile CRD phase: a phase in a folder of its own (bootstrap/crds/helmfile.yaml beside bootstrap/helmfile.yaml) is read, its releases in the CRD phase', async () => {
  const dir = writeTree({
    'bootstrap/helmfile.yaml': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://ghcr.io/example/cilium\n    version: 1.0.0\n',
    'bootstrap/crds/helmfile.yaml': 'helmDefaults:\n  args:\n    - --include-crds\n    - --no-hooks\nreleases:\n  - name: grafana-operator\n    namespace: monitoring\n    chart: oci://ghcr.io/example/grafana-operator\n    version: 5.0.0\n',
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const p = JSON.parse(r.stdout) as { clusters: { apps: { name: string; wave: number }[] }[] };
    const apps = p.clusters[0]!.apps;
    assert.equal(apps.find((a) => a.name === 'helmfile-crds:monitoring/grafana-operator')?.wave, 0, JSON.stringify(apps));
    assert.equal(apps.find((a) => a.name === 'helmfile:kube-system/cilium')?.wave, 1, JSON.stringify(apps));
  } finally {
    removeTree(dir);
  }
});
