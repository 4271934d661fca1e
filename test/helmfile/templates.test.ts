/**
 * helmfile templates executed as helmfile executes them (ADR 0320): a release template's chart and
 * version (`tpl (readFile …)` over the app's own OCIRepository) and a `.gotmpl` values file (the
 * app's HelmRelease values with `${CLUSTER}` replaced), on the flux layout once per cluster with
 * CLUSTER set to the cluster's folder name. What cannot be read (an environment variable fleetplan
 * does not know, a file outside the repository, a command) is a finding at the template's file and
 * line, and render --leaves does not build a chart it invented. The shape is that of a real
 * repository (joryirving/home-ops 0560f71), written small here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync } from '../support/flux-fixture.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import { loadFluxClusters } from '../../src/layouts/flux/reader.js';
import type { AppSpec } from '../../src/model/spec.js';

const releaseTemplate = `{{- $path := printf "../../kubernetes/clusters/%s/%s/ocirepository.yaml" (requiredEnv "CLUSTER") .Release.Name -}}
{{- $oci := dict -}}
{{- range regexSplit \`(?m)^---\\s*$\` (readFile $path) -1 -}}
  {{- $doc := fromYaml . -}}
  {{- if and $doc (eq (index $doc "kind" | default "") "OCIRepository") -}}
    {{- $oci = $doc -}}
  {{- end -}}
{{- end -}}
chart: {{ index $oci "spec" "url" }}
version: {{ index $oci "spec" "ref" "tag" }}
`;

const valuesTemplate = `{{- $hr := fromYaml (readFile (printf "../../../kubernetes/clusters/%s/%s/helmrelease.yaml" (requiredEnv "CLUSTER") .Release.Name)) -}}
{{- $values := toYaml (index $hr "spec" "values" | default dict) -}}
{{ regexReplaceAll \`\\$\\{CLUSTER\\}\` $values (requiredEnv "CLUSTER") }}
`;

const oci = (url: string, tag: string) => `---
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: podinfo
spec:
  url: ${url}
  ref:
    tag: ${tag}
`;

const helmRelease = (replicas: number) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: podinfo
spec:
  values:
    replicaCount: ${replicas}
    ingress:
      host: podinfo.\${CLUSTER}.example.org
      other: \${SUBDOMAIN}
`;

function repo(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {
    'bootstrap/helmfile/default.yaml': `templates:
  default:
    chart: '{{ (fromYaml (tpl (readFile "./templates/release.yaml.gotmpl") .)).chart }}'
    version: '{{ (fromYaml (tpl (readFile "./templates/release.yaml.gotmpl") .)).version }}'
    values:
      - ./templates/values.yaml.gotmpl
`,
    'bootstrap/helmfile/apps.yaml': `bases:
  - default.yaml
defaultInherit: default
releases:
  - name: podinfo
    namespace: apps
`,
    'bootstrap/helmfile/templates/release.yaml.gotmpl': releaseTemplate,
    'bootstrap/helmfile/templates/values.yaml.gotmpl': valuesTemplate,
  };
  for (const [c, tag, replicas] of [['alpha', '6.5.0', 2], ['beta', '6.6.1', 3]] as const) {
    out[`kubernetes/clusters/${c}/flux-system/gotk-sync.yaml`] = gotkSync(c).replace(`./clusters/${c}`, `./kubernetes/clusters/${c}`);
    out[`kubernetes/clusters/${c}/flux-system/kustomization.yaml`] = 'resources:\n  - gotk-sync.yaml\n';
    out[`kubernetes/clusters/${c}/podinfo/ocirepository.yaml`] = oci('oci://ghcr.io/stefanprodan/charts/podinfo', tag);
    out[`kubernetes/clusters/${c}/podinfo/helmrelease.yaml`] = helmRelease(replicas);
  }
  return { ...out, ...extra };
}

/** The app `name` of each cluster, as the flux layout reads it. */
function appsOf(dir: string, name: string): Map<string, AppSpec> {
  const r = loadFluxClusters(nodeFileSystem(dir));
  const out = new Map<string, AppSpec>();
  for (const c of r.fleet.clusters) {
    for (const g of c.spec.groups ?? []) {
      const app = r.fleet.groups.get(g)?.spec.apps?.[name];
      if (app) out.set(c.name, app);
    }
  }
  return out;
}

test('helmfile templates on the flux layout: chart, version and values are read per cluster, with CLUSTER set to the cluster folder', () => {
  const dir = writeTree(repo());
  try {
    const apps = appsOf(dir, 'helmfile:apps/podinfo');
    assert.deepEqual(apps.get('alpha')?.chart, 'oci://ghcr.io/stefanprodan/charts/podinfo');
    assert.equal(apps.get('alpha')?.targetRevision, '6.5.0');
    assert.equal(apps.get('beta')?.targetRevision, '6.6.1');
    // The values template replaces ${CLUSTER} only; ${SUBDOMAIN} reaches Helm as written.
    assert.deepEqual(apps.get('alpha')?.helm?.values, { replicaCount: 2, ingress: { host: 'podinfo.alpha.example.org', other: '${SUBDOMAIN}' } });
    assert.deepEqual(apps.get('beta')?.helm?.values, { replicaCount: 3, ingress: { host: 'podinfo.beta.example.org', other: '${SUBDOMAIN}' } });
  } finally {
    removeTree(dir);
  }
});

test('plan of helmfile templates: the note says CLUSTER per cluster, and helmfile values are not fleetplan variables', async () => {
  const dir = writeTree(repo());
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /their templates are executed as helmfile does, with CLUSTER=alpha/);
    assert.match(r.stdout, /their templates are executed as helmfile does, with CLUSTER=beta/);
    assert.doesNotMatch(r.stdout + r.stderr, /does not execute their Go templates|undefined-variable/);
  } finally {
    removeTree(dir);
  }
});

test('a helmfile template that reads an environment variable fleetplan does not know: a finding at the template line naming it', async () => {
  const dir = writeTree(repo({ 'bootstrap/helmfile/templates/release.yaml.gotmpl': `chart: oci://ghcr.io/x/{{ requiredEnv "REGISTRY_PATH" }}\nversion: 1.0.0\n` }));
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; file: string; line: number; message: string; hint?: string }[] }).findings.filter((f) => f.code === 'helmfile-template-not-read');
    assert.ok(findings.length > 0, r.stdout);
    const chart = findings.find((f) => /the chart of release apps\/podinfo/.test(f.message));
    assert.ok(chart, JSON.stringify(findings));
    // The chart field of the release template, where the template that fails is written.
    assert.equal(chart.file, 'bootstrap/helmfile/default.yaml');
    assert.equal(chart.line, 3);
    assert.match(chart.message, /REGISTRY_PATH/);
    assert.match(chart.hint ?? '', /helmfile reads REGISTRY_PATH from the shell that runs it/);
  } finally {
    removeTree(dir);
  }
});

test('readFile of a values template outside the repository is refused at the values file line', () => {
  const dir = writeTree(repo({ 'bootstrap/helmfile/templates/values.yaml.gotmpl': 'a: 1\n{{ readFile "../../../../etc/passwd" }}\n' }));
  try {
    const r = loadFluxClusters(nodeFileSystem(dir));
    const f = r.findings.find((x) => x.code === 'helmfile-template-not-read');
    assert.ok(f, JSON.stringify(r.findings));
    assert.equal(f.file, 'bootstrap/helmfile/templates/values.yaml.gotmpl');
    assert.equal(f.line, 2);
    assert.match(f.message, /leaves the repository/);
    const app = appsOf(dir, 'helmfile:apps/podinfo').get('alpha');
    assert.equal(app?.repoURL, 'helmfile');
  } finally {
    removeTree(dir);
  }
});

test('render --leaves does not build a helmfile chart it could not read (no invented oci://helmfile/… reference)', async () => {
  const dir = writeTree(repo({ 'bootstrap/helmfile/templates/release.yaml.gotmpl': `chart: {{ exec "echo" (list "oci://x") }}\n` }));
  const home = mkdtempSync(join(tmpdir(), 'fleetplan-home-'));
  try {
    const r = await cli(['render', '--repo', dir, '--out', join(home, 'out'), '--leaves', '--cache-dir', join(home, 'cache')], process.cwd(), { HOME: home, XDG_CACHE_HOME: join(home, 'xdg') });
    assert.doesNotMatch(r.stderr, /oci:\/\/helmfile\//);
    assert.match(r.stderr, /helmfile:apps\/podinfo not rendered: the helmfile release's chart apps\/podinfo is not one render --leaves builds/);
    assert.match(r.stderr, /exec runs a command, which fleetplan never does/);
  } finally {
    removeTree(dir);
    removeTree(home);
  }
});

test('an OCI chart of a helmfile release is a chart, not an Argo CD oci:// artifact: no Argo CD OCI findings, and render --leaves pulls the chart', async () => {
  // Argo CD 3.1 takes an oci:// repoURL as the artifact and ignores `chart` (ADR 0317); helmfile and
  // helm-controller take oci://registry/repo/chart as the chart itself. The two must not be confused.
  const dir = writeTree(repo());
  const home = mkdtempSync(join(tmpdir(), 'fleetplan-home-'));
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const codes = (JSON.parse(v.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    assert.deepEqual(codes.filter((c) => /oci|repository-secret/.test(c)), [], v.stdout);
    const r = await cli(['render', '--repo', dir, '--out', join(home, 'out'), '--leaves', '--cache-dir', join(home, 'cache')], process.cwd(), { HOME: home, XDG_CACHE_HOME: join(home, 'xdg') });
    // Offline, the chart itself is named as not cached: oci://ghcr.io/stefanprodan/charts/podinfo at its version.
    assert.match(r.stderr, /app helmfile:apps\/podinfo: remote chart oci:\/\/ghcr\.io\/stefanprodan\/charts\/podinfo 6\.5\.0 is not in the local chart cache/);
    assert.doesNotMatch(r.stderr, /artifact|is not one of the Application's sources/);
  } finally {
    removeTree(dir);
    removeTree(home);
  }
});

test('render --leaves says a helmfile release\'s local chart outside the repository is not built because it is outside', async () => {
  const top = mkdtempSync(join(tmpdir(), 'fleetplan-test-'));
  const dir = writeTree({ 'helmfile.yaml': 'releases:\n  - name: web\n    namespace: web\n    chart: ../chart\n' }, join(top, 'helmfile'));
  writeTree({ 'Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n' }, join(top, 'chart'));
  try {
    const r = await cli(['render', '--repo', dir, '--out', join(top, 'out'), '--leaves']);
    assert.match(r.stderr, /helmfile:web\/web not rendered: the helmfile release's local chart \.\.\/chart is outside the repository/);
    assert.doesNotMatch(r.stderr, /a chart or values whose helmfile template was not read/);
  } finally {
    removeTree(top);
  }
});
