/**
 * The argocd-app-of-app chart's semantics, feature by feature, against the real tools: small
 * synthetic repositories (the chart copied from each real repository, values written here) are
 * built with `kubectl kustomize --enable-helm` + Helm 3.18 and substituted like the plugin does;
 * fleetplan must produce the same Applications and AppProjects without falling back. Clusters that
 * use what the model cannot express must fall back, say why, and still equal the real build.
 */
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { createClusterBuilder } from '../../../src/adapters/cluster-build.js';
import { applicationFor, projectsFor } from '../../../src/generate/argocd.js';
import { loadFleet } from '../../../src/index.js';
import { resolveCluster } from '../../../src/layering/resolve.js';
import { substitute } from '../../../src/model/substitute.js';
import { completeFallbacks } from '../../../src/layouts/gitops-standards/fallback.js';
import { writeTree } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';

const TOOLS = resolve('.tools/bin');
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const bootstrap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: environment-variables
  namespace: openshift-gitops
data:
  CLUSTER_NAME: '\${cluster_name}'
  INFRA_GITOPS_REPO: 'https://git.example.com/fleet.git'
`;

/** Values exercising every field both chart versions read. */
const groupValues = (multi: boolean) => `componentDir: b
default:
  app:
    labels:
      team: platform
    finalizers:
      - resources-finalizer.argocd.argoproj.io/background
    syncPolicyRetry:
      limit: 3
projects:
  team-a:
    labels:
      tier: one
    annotations:
      owner: team-a
    description: Team A apps
    sourceRepos:
      - \${INFRA_GITOPS_REPO}
      - https://charts.example.com
${multi ? '      - "{{ .Values.default.app.source.repoURL }}"\n' : ''}    roles:
      - name: ci
        policies:
          - p, proj:team-a:ci, applications, sync, team-a/*, allow
    destinations: |
      - namespace: team-a
        server: https://kubernetes.default.svc
    extraFields: |
      namespaceResourceWhitelist:
      - group: ''
        kind: ConfigMap
applications:
  a-plain:
    source:
      path: components/a
  b-full:
    enabled: true
    labels:
      tier: gold
      team: apps
    annotations:
      argocd.argoproj.io/sync-wave: '-2'
      note: hi
    finalizers:
      - resources-finalizer.argocd.argoproj.io
      - custom/finalizer
    destination:
      namespace: team-b
      server: https://api.other.example.com:6443
    project: team-a
    enableAutoSync: true
    autoSyncPrune: true
    syncPolicyRetry:
      backoff:
        duration: 10s
    syncOptions:
      - CreateNamespace=true
      - ServerSideApply=true
    source:
      path: 'components/{{ .Values.componentDir }}'
      repoURL: https://git.example.com/other.git
      targetRevision: v1.2.3
      extraSourceFields: |
        kustomize:
          namePrefix: b-
    extraFields: |
      revisionHistoryLimit: 3
  c-manual:
    enableAutoSync: false
    source:
      path: components/c
  d-disabled:
    enabled: false
    source:
      path: components/d
  e-string-false:
    enabled: "false"
    source:
      path: components/e
${multi ? `  f-plugin:
    ignoreDifferences:
      - group: apps
        kind: Deployment
        jsonPointers:
          - /spec/replicas
    source:
      path: components/f
      plugin:
        name: setenv-cmp-plugin
  g-no-namespace:
    destination:
      server: https://kubernetes.default.svc
    source:
      path: components/g
` : ''}`;

const clusterValues = `projectOverride: team-a
default:
  app:
    syncOptions:
      - Validate=false
    annotations:
      argocd.argoproj.io/compare-options: IgnoreExtraneous
applications:
  z-cluster:
    annotations:
      argocd.argoproj.io/sync-wave: '7'
    destination:
      namespace: z
    source:
      path: clusters/\${CLUSTER_NAME}/overlays/z
`;

interface Variant {
  name: string;
  chartFrom: string;
  chartHome: string;
  multi: boolean;
  groupKind: 'Kustomization' | 'Component';
}
const VARIANTS: Variant[] = [
  { name: 'classic', chartFrom: 'svitnin-redhat__openshift-virtualization-gitops/.helm-charts/argocd-app-of-app', chartHome: '.helm-charts', multi: false, groupKind: 'Kustomization' },
  { name: 'sources', chartFrom: 'redhat-cop__gitops-standards-repo-template/.helm/charts/argocd-app-of-app', chartHome: '.helm/charts', multi: true, groupKind: 'Component' },
];

function repo(v: Variant, extraClusters: Record<string, string> = {}): string {
  const groupKust = `apiVersion: kustomize.config.k8s.io/${v.groupKind === 'Component' ? 'v1alpha1' : 'v1beta1'}
kind: ${v.groupKind}
helmGlobals:
  chartHome: ../../${v.chartHome}
helmCharts:
- name: argocd-app-of-app
  valuesFile: values.yaml
  namespace: openshift-gitops
`;
  const pull = v.groupKind === 'Component' ? 'components:\n  - ../../groups/g1\n' : 'resources:\n  - ../versions.yaml\n  - ../../groups/g1\n';
  const pin = v.groupKind === 'Component' ? '' : `replacements:
- source:
    version: v1
    kind: ConfigMap
    name: cluster-versions
    fieldPath: data.c1
  targets:
  - select:
      group: argoproj.io
      version: v1alpha1
      kind: Application
    fieldPaths:
    - spec.source.targetRevision
`;
  const dir = writeTree({
    '.bootstrap/argocd.yaml': bootstrap,
    'clusters/versions.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-versions\ndata:\n  c1: release-7\n',
    'groups/g1/kustomization.yaml': groupKust,
    'groups/g1/values.yaml': groupValues(v.multi),
    'clusters/c1/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
${pull}helmGlobals:
  chartHome: ../../${v.chartHome}
helmCharts:
- name: argocd-app-of-app
  valuesFile: values.yaml
  namespace: openshift-gitops
${pin}`,
    'clusters/c1/values.yaml': clusterValues,
    ...extraClusters,
  });
  cpSync(realRepo(v.chartFrom), join(dir, v.chartHome, 'argocd-app-of-app'), { recursive: true });
  dirs.push(dir);
  return dir;
}

type Obj = { kind: string; metadata: { name: string } } & Record<string, unknown>;

async function compareCluster(dir: string, cluster: string, result: ReturnType<typeof loadFleet>): Promise<void> {
  const builder = await createClusterBuilder(dir, { env: { PATH: TOOLS }, kustomize: join(TOOLS, 'kubectl'), helm: join(TOOLS, 'helm') });
  let built: string;
  try {
    built = await builder.build(`clusters/${cluster}`);
  } finally {
    builder.close();
  }
  const vars: Record<string, string> = { CLUSTER_NAME: cluster, INFRA_GITOPS_REPO: 'https://git.example.com/fleet.git' };
  const sub = substitute(built, (n) => vars[n]);
  assert.deepEqual(sub.missing, []);
  const real = new Map<string, Obj>();
  for (const d of parseAllDocuments(sub.text) as unknown as { toJS(): unknown }[]) {
    const o = d.toJS() as Obj | null;
    if (o && (o.kind === 'Application' || o.kind === 'AppProject')) real.set(`${o.kind}/${o.metadata.name}`, o);
  }
  const { cluster: rc } = resolveCluster(result.fleet, cluster);
  const ours = new Map<string, Obj>();
  for (const a of rc.apps) ours.set(`Application/${a.name}`, JSON.parse(JSON.stringify(applicationFor(rc, a))) as Obj);
  for (const p of projectsFor(result.fleet, rc)) ours.set(`AppProject/${p.metadata.name}`, JSON.parse(JSON.stringify(p)) as Obj);
  assert.deepEqual([...ours.keys()].sort(), [...real.keys()].sort());
  for (const [k, v] of real) assert.deepStrictEqual(ours.get(k), v, k);
}

for (const v of VARIANTS) {
  test(`${v.name} chart: every values field gives the Applications and AppProjects of the real chart, without the fallback`, async () => {
    const dir = repo(v);
    const result = loadFleet(dir);
    assert.equal(result.fleet.layout, 'gitops-standards');
    assert.deepEqual(result.fallbacks, []);
    assert.deepEqual(result.findings, []);
    await compareCluster(dir, 'c1', result);
    const apps = resolveCluster(result.fleet, 'c1').cluster.apps.map((a) => `${a.name}@${a.wave}`);
    assert.deepEqual(apps.slice(0, 1), ['b-full@-2']);
    assert.ok(!apps.some((a) => a.startsWith('d-disabled')), 'enabled: false removes the app');
    assert.ok(apps.includes('e-string-false@0'), 'enabled: "false" is a non-empty string, true for Go templates');
  });
}

const FALLBACK_CASES: { name: string; kustomization: string; values?: string; reason: RegExp }[] = [
  {
    name: 'a kustomization namespace (the objects get it)',
    kustomization: 'namespace: argocd\n',
    reason: /clusters\/c2\/kustomization\.yaml uses namespace/,
  },
  {
    name: 'a template function the evaluation does not implement',
    kustomization: '',
    values: "applications:\n  up:\n    source:\n      path: '{{ .Values.dir | upper }}'\ndir: components/x\n",
    reason: /is more than a \.Values reference/,
  },
  {
    name: 'a patch that may change Applications',
    kustomization: 'patches:\n- target:\n    kind: Application\n  patch: |-\n    - op: add\n      path: /metadata/labels/patched\n      value: "yes"\n',
    reason: /patches\[0\] may change Argo CD objects/,
  },
];

for (const c of FALLBACK_CASES) {
  test(`falls back to the real kustomize for ${c.name}, says why, and equals the real build`, async () => {
    const v = VARIANTS[1]!;
    const dir = repo(v, {
      'clusters/c2/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
components:
  - ../../groups/g1
helmGlobals:
  chartHome: ../../${v.chartHome}
helmCharts:
- name: argocd-app-of-app
  valuesFile: values.yaml
${c.kustomization}`,
      'clusters/c2/values.yaml': c.values ?? 'applications:\n  own:\n    source:\n      path: components/own\n',
    });
    const result = loadFleet(dir);
    assert.deepEqual(result.fallbacks?.map((f) => f.cluster), ['c2']);
    assert.match(result.fallbacks![0]!.reasons.join('\n'), c.reason);
    await completeFallbacks(result, () => createClusterBuilder(dir, { env: { PATH: TOOLS }, kustomize: join(TOOLS, 'kubectl'), helm: join(TOOLS, 'helm') }));
    const def = result.fleet.clusters.find((d) => d.name === 'c2')!;
    assert.match(def.notes!.join('\n'), /Applications read from kubectl kustomize .* of clusters\/c2 \(fallback: /);
    await compareCluster(dir, 'c2', result);
    await compareCluster(dir, 'c1', result);
  });
}

test('without kustomize the fallback cluster is an error that says what to install, and the others still load', async () => {
  const v = VARIANTS[1]!;
  const dir = repo(v, {
    'clusters/c2/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\n',
  });
  const result = loadFleet(dir);
  await completeFallbacks(result, () => createClusterBuilder(dir, { env: { PATH: '/nonexistent' }, bundledDir: false }));
  const f = result.fleet.loadFindings.find((x) => x.code === 'cluster-build-failed');
  assert.ok(f);
  assert.equal(f.cluster, 'c2');
  assert.match(f.message, /cannot build clusters\/c2: kustomize not found/);
  assert.equal(resolveCluster(result.fleet, 'c1').cluster.apps.length > 0, true);
});

test('without helm the fallback error names helm, not kustomize', async () => {
  const v = VARIANTS[1]!;
  const dir = repo(v, {
    'clusters/c2/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\n',
  });
  const result = loadFleet(dir);
  await completeFallbacks(result, () => createClusterBuilder(dir, { env: { PATH: '/nonexistent' }, kustomize: join(TOOLS, 'kubectl'), bundledDir: false }));
  const f = result.fleet.loadFindings.find((x) => x.code === 'cluster-build-failed');
  assert.ok(f);
  assert.match(f.message, /^cannot build clusters\/c2: helm not found on PATH \(install Helm 3/);
  assert.doesNotMatch(f.message + (f.hint ?? ''), /with kustomize/);
  const def = result.fleet.clusters.find((d) => d.name === 'c2')!;
  assert.match(def.notes!.join('\n'), /the build tools are not available/);
});
