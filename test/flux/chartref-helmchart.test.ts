/**
 * A HelmRelease whose `spec.chartRef` names a HelmChart (source.toolkit.fluxcd.io/v1) that the same
 * Kustomization applies: helm-controller installs the chart that HelmChart builds from its own
 * `spec.sourceRef` (a HelmRepository, or a GitRepository, in the HelmChart's namespace), as for a
 * `spec.chart.spec` template. fleetplan said the HelmChart was "not applied by this cluster's
 * Kustomizations" / "not in the Kustomization's output" while it was there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxKustomization, gotkSync } from '../support/flux-fixture.js';

const release = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: web
  namespace: web
spec:
  interval: 10m
  chartRef:
    kind: HelmChart
    name: web
    namespace: flux-system
  values:
    greeting: hello
`;

const helmChart = (chart: string, version: string, source: string) => `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmChart
metadata:
  name: web
  namespace: flux-system
spec:
  interval: 30m
  chart: ${chart}
  version: ${version}
  sourceRef:
    ${source}
`;

function repo(chart: string): Record<string, string> {
  return {
    'clusters/home/flux-system/gotk-sync.yaml': gotkSync('home'),
    'clusters/home/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/home/apps.yaml': fluxKustomization('apps', 'apps/web', '', 'flux-system'),
    'apps/web/kustomization.yaml': 'resources:\n  - chart.yaml\n  - release.yaml\n',
    'apps/web/chart.yaml': chart,
    'apps/web/release.yaml': release,
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-chart\ndata:\n  greeting: {{ .Values.greeting }}\n',
  };
}

test('flux chartRef HelmChart: the plan names the chart and version of the HelmChart the Kustomization applies', async () => {
  const helmRepo = 'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: charts\n  namespace: flux-system\nspec:\n  url: https://charts.example.org\n';
  const files = repo(helmChart('web', '1.2.3', 'kind: HelmRepository\n    name: charts'));
  files['apps/web/kustomization.yaml'] = 'resources:\n  - repo.yaml\n  - chart.yaml\n  - release.yaml\n';
  files['apps/web/repo.yaml'] = helmRepo;
  const dir = writeTree(files);
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const notes = (JSON.parse(r.stdout) as { clusters: { notes: string[] }[] }).clusters[0]!.notes;
    const charts = notes.find((n) => n.startsWith('HelmRelease charts:')) ?? '';
    assert.match(charts, /^HelmRelease charts: 1 pinned, 0 resolved only at reconcile time$/, notes.join('\n'));
    assert.doesNotMatch(notes.join('\n'), /not applied by this cluster's Kustomizations/);
  } finally {
    removeTree(dir);
  }
});

test('flux chartRef HelmChart: a version range of the HelmChart is said resolved at reconcile time, at the HelmChart', async () => {
  const files = repo(helmChart('web', '1.x', 'kind: HelmRepository\n    name: charts'));
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; file?: string; message: string }[] }).findings.filter((f) => f.code === 'flux-chart-version-range');
    assert.deepEqual(findings.map((f) => f.file), ['apps/web/chart.yaml'], JSON.stringify(findings));
    assert.match(findings[0]!.message, /HelmRelease web\/web: HelmChart flux-system\/web: chart web version "1\.x" is a range/);
  } finally {
    removeTree(dir);
  }
});

test('flux chartRef HelmChart: render --leaves renders the chart of a HelmChart whose source is this repository', async () => {
  const dir = writeTree(repo(helmChart('./charts/web', '"*"', 'kind: GitRepository\n    name: flux-system')));
  const out = `${dir}.out`;
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const base = join(out, 'home', 'manifests', 'flux_flux-system_apps');
    const chartFiles = readdirSync(base, { recursive: true }).map(String).filter((f) => f.startsWith('helm_'));
    const text = chartFiles.map((f) => readFileSync(join(base, f), 'utf8')).join('');
    assert.match(text, /name: web-chart/, `${chartFiles.join(', ')}\n${r.stderr}`);
    assert.match(text, /greeting: hello/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
