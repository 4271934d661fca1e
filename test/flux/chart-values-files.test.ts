/**
 * `valuesFiles` of a Flux chart (HelmRelease `spec.chart.spec`, or a HelmChart's `spec`), as
 * source-controller builds the chart: the files are merged in order (later wins, maps merged) and the
 * result *replaces* the chart's values.yaml (values.yaml is in only when listed); a chart from this
 * repository reads the paths from the source root, a chart from a Helm repository from inside the
 * chart; a missing file fails the chart unless `ignoreMissingValuesFiles`. helm-controller then sets
 * the HelmRelease's valuesFrom and values over those defaults. render --leaves ignored the field and
 * rendered with the chart's own values.yaml. Checked against the real `helm template -f`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxKustomization, gotkSync, helmReleaseOf, localChart } from '../support/flux-fixture.js';
import { parseYamlAll } from '../../src/yaml/index.js';

const HELM = join(process.cwd(), '.tools', 'bin', 'helm');

const chartFiles: Record<string, string> = {
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0\n',
  'charts/web/values.yaml': 'greeting: default\ncolor: blue\nsize:\n  width: 1\n  height: 2\n',
  'charts/web/values-prod.yaml': 'color: red\nsize:\n  width: 10\n',
  'charts/web/templates/cm.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-chart\ndata:\n  greeting: {{ .Values.greeting | default "none" | quote }}\n  color: {{ .Values.color | default "none" | quote }}\n  width: {{ .Values.size.width | default "none" | quote }}\n  height: {{ .Values.size.height | default "none" | quote }}\n  tier: {{ .Values.tier | default "none" | quote }}\n',
  'env/prod.yaml': 'tier: gold\n',
};

function repo(release: string): Record<string, string> {
  return {
    ...chartFiles,
    'clusters/home/flux-system/gotk-sync.yaml': gotkSync('home'),
    'clusters/home/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/home/apps.yaml': fluxKustomization('apps', 'apps/web', '', 'flux-system'),
    'apps/web/kustomization.yaml': 'resources:\n  - release.yaml\n',
    'apps/web/release.yaml': release,
  };
}

const withValuesFiles = (files: string[], extra = '') =>
  helmReleaseOf('web', 'web', `${localChart('./charts/web')}      valuesFiles:\n${files.map((f) => `        - ${f}\n`).join('')}${extra}  values:\n    greeting: hello\n`);

async function leafConfigMap(files: Record<string, string>, args: string[] = []): Promise<{ data?: Record<string, unknown>; stderr: string; stdout: string }> {
  const dir = writeTree(files);
  const out = `${dir}.out`;
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out, ...args]);
    const base = join(out, 'home', 'manifests', 'flux_flux-system_apps');
    let names: string[] = [];
    try {
      names = readdirSync(base, { recursive: true }).map(String).filter((f) => f.startsWith('helm_'));
    } catch {
      /* no output directory: the render said why */
    }
    const objects = names.flatMap((f) => parseYamlAll(readFileSync(join(base, f), 'utf8'))) as { kind?: string; data?: Record<string, unknown> }[];
    const cm = objects.find((o) => o.kind === 'ConfigMap');
    return { ...(cm?.data ? { data: cm.data } : {}), stderr: r.stderr, stdout: r.stdout };
  } finally {
    removeTree(dir);
    removeTree(out);
  }
}

/** The ConfigMap data of the real `helm template` of `chartDir` with `-f` files in order. */
function helmTemplate(chartDir: string, valueFiles: string[]): Record<string, unknown> {
  const text = execFileSync(HELM, ['template', 'web', chartDir, '--namespace', 'web', ...valueFiles.flatMap((f) => ['-f', f])], { encoding: 'utf8' });
  return (parseYamlAll(text) as { kind?: string; data: Record<string, unknown> }[]).find((o) => o?.kind === 'ConfigMap')!.data;
}

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'fleetplan-vf-'));
  for (const [p, t] of Object.entries(chartFiles)) {
    mkdirSync(join(d, p, '..'), { recursive: true });
    writeFileSync(join(d, p), t);
  }
  writeFileSync(join(d, 'hr.yaml'), 'greeting: hello\n');
  return d;
}

test('flux valuesFiles: values.yaml then another file of the source, then the HelmRelease values, as helm template -f does', async () => {
  const got = await leafConfigMap(repo(withValuesFiles(['charts/web/values.yaml', 'charts/web/values-prod.yaml', 'env/prod.yaml'])));
  const d = scratch();
  try {
    const want = helmTemplate(join(d, 'charts/web'), [join(d, 'charts/web/values.yaml'), join(d, 'charts/web/values-prod.yaml'), join(d, 'env/prod.yaml'), join(d, 'hr.yaml')]);
    assert.deepEqual(got.data, want, got.stderr + got.stdout);
    assert.equal(want.color, 'red');
    assert.equal(want.height, '2');
  } finally {
    removeTree(d);
  }
});

test('flux valuesFiles: without values.yaml in the list the chart defaults are replaced, not merged under', async () => {
  const got = await leafConfigMap(repo(withValuesFiles(['charts/web/values-prod.yaml'])));
  const d = scratch();
  try {
    // source-controller packages the chart with the merged files as its values.yaml.
    cpSync(join(d, 'charts/web/values-prod.yaml'), join(d, 'charts/web/values.yaml'));
    const want = helmTemplate(join(d, 'charts/web'), [join(d, 'hr.yaml')]);
    assert.deepEqual(got.data, want, got.stderr + got.stdout);
    assert.equal(want.height, 'none');
  } finally {
    removeTree(d);
  }
});

test('flux valuesFiles: a missing file fails the chart, naming it; ignoreMissingValuesFiles leaves it out', async () => {
  const missing = await leafConfigMap(repo(withValuesFiles(['charts/web/values.yaml', 'charts/web/values-dev.yaml'])));
  assert.equal(missing.data, undefined);
  assert.match(missing.stderr + missing.stdout, /charts\/web\/values-dev\.yaml/);
  const ignored = await leafConfigMap(repo(withValuesFiles(['charts/web/values.yaml', 'charts/web/values-dev.yaml'], '      ignoreMissingValuesFiles: true\n')));
  assert.equal(ignored.data?.color, 'blue', ignored.stderr + ignored.stdout);
  assert.equal(ignored.data?.greeting, 'hello');
});

test('flux valuesFiles: a chart from a Helm repository reads them from inside the chart', async () => {
  const d = scratch();
  const cache = mkdtempSync(join(tmpdir(), 'fleetplan-vf-cache-'));
  try {
    mkdirSync(join(cache, 'charts'));
    execFileSync(HELM, ['package', join(d, 'charts/web'), '--destination', join(cache, 'charts')], { encoding: 'utf8' });
    const source = 'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: charts\n  namespace: flux-system\nspec:\n  url: https://charts.example.org\n';
    const release = helmReleaseOf('web', 'web', '  chart:\n    spec:\n      chart: web\n      version: 1.0.0\n      sourceRef:\n        kind: HelmRepository\n        name: charts\n        namespace: flux-system\n      valuesFiles:\n        - values-prod.yaml\n  values:\n    greeting: hello\n');
    const files = repo(release);
    files['apps/web/kustomization.yaml'] = 'resources:\n  - repo.yaml\n  - release.yaml\n';
    files['apps/web/repo.yaml'] = source;
    const got = await leafConfigMap(files, ['--cache-dir', cache]);
    cpSync(join(d, 'charts/web/values-prod.yaml'), join(d, 'charts/web/values.yaml'));
    assert.deepEqual(got.data, helmTemplate(join(d, 'charts/web'), [join(d, 'hr.yaml')]), got.stderr + got.stdout);
  } finally {
    removeTree(d);
    removeTree(cache);
  }
});
