/**
 * The gitops-standards reader without the tools: detection, variables from the bootstrap
 * ConfigMap, findings placed at the values file and line, and the reasons a cluster falls back to
 * the real kustomize. (Equality with the real tools: gitops-standards-chart/-equality tests.)
 */
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadFleet } from '../../../src/index.js';
import { resolveCluster } from '../../../src/layering/resolve.js';
import { applicationFor } from '../../../src/generate/argocd.js';
import { writeTree } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';

/** The redhat-cop template's chart (resolved when a test builds a repository). */
const chart = () => realRepo('redhat-cop__gitops-standards-repo-template', '.helm', 'charts', 'argocd-app-of-app');
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const group = (name: string) => ({
  [`groups/${name}/kustomization.yaml`]: `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
helmGlobals:
  chartHome: ../../.helm/charts
helmCharts:
- name: argocd-app-of-app
  valuesFile: values.yaml
`,
});

function repo(files: Record<string, string>, clusterKustomization = ''): string {
  const dir = writeTree({
    '.bootstrap/argocd.yaml': `apiVersion: argoproj.io/v1beta1
kind: ArgoCD
metadata:
  name: openshift-gitops
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: environment-variables
  namespace: openshift-gitops
data:
  CLUSTER_NAME: '\${cluster_name}'
  APPS_DOMAIN: 'apps.\${cluster_name}.\${platform_base_domain}'
  INFRA_GITOPS_REPO: '\${gitops_repo}'
`,
    ...group('all'),
    'groups/all/values.yaml': 'applications:\n  shared:\n    source:\n      path: components/shared\n',
    'clusters/c1/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
components:
  - ../../groups/all
helmGlobals:
  chartHome: ../../.helm/charts
helmCharts:
- name: argocd-app-of-app
  valuesFile: values.yaml
${clusterKustomization}`,
    'clusters/c1/values.yaml': 'applications: {}\n',
    ...files,
  });
  cpSync(chart(), join(dir, '.helm/charts/argocd-app-of-app'), { recursive: true });
  dirs.push(dir);
  return dir;
}

test('a fleet.yaml makes the native layout win; without the chart the repository is not gitops-standards', () => {
  const withChart = repo({ 'clusters/c1/values.yaml': 'applications: {}\n' });
  assert.equal(loadFleet(withChart).fleet.layout, 'gitops-standards');
  const noChart = writeTree({ 'clusters/c1/kustomization.yaml': 'resources: []\n', 'clusters/c1/values.yaml': '' });
  dirs.push(noChart);
  assert.throws(() => loadFleet(noChart), /is not a fleet repository/);
});

test('the bootstrap ConfigMap gives the variables: ${cluster_name} is the cluster, other bootstrap variables stay literal', () => {
  const dir = repo({
    'clusters/c1/values.yaml': `applications:
  console:
    source:
      path: clusters/\${CLUSTER_NAME}/console
      repoURL: \${INFRA_GITOPS_REPO}
    extraFields: |
      info:
      - name: url
        value: https://console.\${APPS_DOMAIN}
`,
  });
  const { fleet } = loadFleet(dir);
  const { cluster, findings } = resolveCluster(fleet, 'c1');
  assert.deepEqual(findings, []);
  const app = applicationFor(cluster, cluster.apps.find((a) => a.name === 'console')!);
  assert.deepEqual((app.spec as { source: unknown }).source, { path: 'clusters/c1/console', repoURL: '${gitops_repo}', targetRevision: 'HEAD' });
  assert.deepEqual((app.spec as { info: unknown }).info, [{ name: 'url', value: 'https://console.apps.c1.${platform_base_domain}' }]);
  assert.equal(app.metadata.namespace, undefined, 'the chart sets no namespace');
  assert.equal(app.metadata.annotations, undefined, 'no sync-wave annotation is added when the values give none');
});

test('findings name the values file, line and the path as it is written there', () => {
  const dir = repo({
    'clusters/c1/values.yaml': `applications:
  shared:
    source:
      path: components/again
  waves:
    annotations:
      argocd.argoproj.io/sync-wave: soon
    source:
      path: components/w
  vars:
    source:
      path: components/\${UNDEFINED_THING}
`,
  });
  const result = loadFleet(dir);
  const own = result.findings.map((f) => `${f.code} ${f.file}:${f.line} ${f.path ?? ''}`);
  assert.deepEqual(own, [
    'bad-wave clusters/c1/values.yaml:7 applications.waves.annotations.argocd.argoproj.io/sync-wave',
    'duplicate-app clusters/c1/values.yaml:3 applications.shared',
  ]);
  const { findings } = resolveCluster(result.fleet, 'c1');
  assert.deepEqual(findings.map((f) => `${f.code} ${f.file}:${f.line} ${f.path ?? ''}`), [
    'undefined-variable clusters/c1/values.yaml:12 applications.vars.source.path',
  ]);
});

const FALLBACKS: { name: string; files?: Record<string, string>; kustomization?: string; reason: RegExp }[] = [
  { name: 'inline chart values', kustomization: '  valuesInline:\n    x: 1\n', reason: /helmCharts\[0\] uses valuesInline/ },
  { name: 'a remote resource', kustomization: 'resources:\n  - https://github.com/example/apps//base?ref=v1\n', reason: /resources\[0\] is remote/ },
  { name: 'a multi-source app', files: { 'clusters/c1/values.yaml': 'applications:\n  m:\n    sources:\n      - repoURL: https://x\n        path: a\n' }, reason: /applications\.m has multiple sources/ },
  { name: 'an annotation that is not a string', files: { 'clusters/c1/values.yaml': "applications:\n  num:\n    annotations:\n      argocd.argoproj.io/sync-wave: 5\n    source:\n      path: a\n" }, reason: /annotations\.argocd\.argoproj\.io\/sync-wave is not a string/ },
  { name: 'an app that is not a map', files: { 'clusters/c1/values.yaml': 'applications:\n  broken:\n' }, reason: /applications\.broken is not a map/ },
  { name: 'an app the chart cannot render', files: { 'clusters/c1/values.yaml': 'applications:\n  nopath:\n    destination:\n      namespace: x\n' }, reason: /the chart fails: applications\.nopath\.source\.path/ },
  { name: 'a path that YAML reads back as something else', files: { 'clusters/c1/values.yaml': "applications:\n  yesapp:\n    source:\n      path: 'yes'\n" }, reason: /source\.path "yes" does not read back as the same string/ },
  { name: 'a Component listed as a resource', kustomization: 'resources:\n  - ../../groups/all\n', reason: /groups\/all\/kustomization\.yaml is a Component but is listed under resources/ },
  { name: 'a chart with other templates', files: { '.helm/charts/argocd-app-of-app/templates/_helpers.tpl': '{{/* x */}}\n' }, reason: /has templates _helpers\.tpl, applications\.yaml, projects\.yaml/ },
];

for (const c of FALLBACKS) {
  test(`falls back to the real kustomize for ${c.name}`, () => {
    const dir = repo(c.files ?? {}, c.kustomization ?? '');
    const result = loadFleet(dir);
    assert.deepEqual(result.fallbacks?.map((f) => f.cluster), ['c1']);
    assert.match(result.fallbacks![0]!.reasons.join('\n'), c.reason);
    assert.deepEqual(result.fleet.clusters[0]!.spec.apps, {}, 'nothing is guessed before the build');
  });
}
