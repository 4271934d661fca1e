/**
 * The Validated Patterns layout: validatedpatterns/multicloud-gitops as a user meets it (plan,
 * render, validate through the CLI and the reader's model), a small pattern fixture for the
 * parts multicloud-gitops does not use (list forms, sync-wave annotations, repository URL in
 * main.git, resolvable sharedValueFiles), and the clustergroup chart folder, which is not a fleet.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { loadFleet } from '../../src/index.js';
import { resolveTemplate } from '../../src/layouts/validated-patterns/reader.js';
import { clusterDef } from '../../src/model/fleet.js';
import { cli } from '../support/fleet-fixture.js';

const MCG = resolve('..', 'shared', 'realrepos', 'validatedpatterns__multicloud-gitops');
const CHART = resolve('..', 'shared', 'realrepos', 'validatedpatterns__clustergroup-chart');
const FIXTURE = 'test/fixtures/validated-patterns/pattern';

interface PlanJson {
  fleet: string;
  layout: string;
  clusters: {
    name: string;
    role: string;
    hub: string | null;
    revision: string;
    notes: string[];
    waves: { wave: number; apps: string[] }[];
    apps: { name: string; wave: number; from: string; project: string; destination: { namespace?: string }; source: { repoURL: string; targetRevision: string; path?: string; chart?: string } }[];
  }[];
  findings: unknown[];
}

test('the real multicloud-gitops folder is there', () => {
  assert.ok(existsSync(MCG), `${MCG} is missing: the real-repository tests need ../shared/realrepos`);
});

test('multicloud-gitops: a hub and one representative spoke for managed cluster group group-one', () => {
  const { fleet, findings } = loadFleet(MCG);
  assert.deepEqual(findings, []);
  assert.equal(fleet.layout, 'validated-patterns');
  assert.equal(fleet.name, 'multicloud-gitops');
  assert.equal(fleet.repoURL, 'https://github.com/validatedpatterns/multicloud-gitops');
  assert.deepEqual(fleet.clusters.map((c) => [c.name, c.spec.role, c.spec.hub ?? null, c.file]), [
    ['hub', 'hub', null, 'values-hub.yaml'],
    ['group-one', 'spoke', 'hub', 'values-group-one.yaml'],
  ]);
  assert.deepEqual(clusterDef(fleet, 'group-one')!.spec.labels, { clusterGroup: 'group-one' });
  assert.deepEqual(Object.keys(clusterDef(fleet, 'hub')!.projects ?? {}), ['hub', 'config-demo', 'hello-world']);
  assert.deepEqual(Object.keys(clusterDef(fleet, 'group-one')!.projects ?? {}), ['eso', 'config-demo', 'hello-world']);
});

test('multicloud-gitops plan: namespaces, then the OLM subscriptions, then the applications', async () => {
  const r = await cli(['plan', '--repo', MCG, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const plan = JSON.parse(r.stdout) as PlanJson;
  assert.equal(plan.layout, 'validated-patterns');
  assert.deepEqual(plan.findings, []);
  const by = new Map(plan.clusters.map((c) => [c.name, c]));
  assert.deepEqual(by.get('hub')!.waves, [
    { wave: -2, apps: ['clustergroup-namespaces'] },
    { wave: -1, apps: ['advanced-cluster-management', 'openshift-external-secrets-operator'] },
    { wave: 0, apps: ['acm', 'config-demo', 'hello-world', 'openshift-external-secrets', 'vault'] },
  ]);
  assert.deepEqual(by.get('group-one')!.waves, [
    { wave: -2, apps: ['clustergroup-namespaces'] },
    { wave: -1, apps: ['openshift-external-secrets-operator'] },
    { wave: 0, apps: ['config-demo', 'hello-world', 'openshift-external-secrets'] },
  ]);
  const hubApps = new Map(by.get('hub')!.apps.map((a) => [a.name, a]));
  const repo = 'https://github.com/validatedpatterns/multicloud-gitops';
  assert.deepEqual(hubApps.get('config-demo'), {
    name: 'config-demo', wave: 0, needs: [], from: 'values-hub.yaml', project: 'config-demo',
    destination: { server: 'https://kubernetes.default.svc', namespace: 'config-demo' },
    source: { repoURL: repo, targetRevision: 'HEAD', path: 'charts/all/config-demo' },
  });
  assert.deepEqual(hubApps.get('acm')!.source, { repoURL: 'https://charts.validatedpatterns.io', targetRevision: '0.2.*', chart: 'acm' });
  assert.deepEqual(hubApps.get('vault')!.source, { repoURL: 'https://charts.validatedpatterns.io', targetRevision: '0.1.*', chart: 'hashicorp-vault' });
  assert.deepEqual(hubApps.get('advanced-cluster-management')!.source, { repoURL: repo, targetRevision: 'HEAD', path: 'rendered/hub/clustergroup/advanced-cluster-management' });
  assert.equal(hubApps.get('openshift-external-secrets')!.project, 'hub');
  assert.equal(by.get('group-one')!.apps.find((a) => a.name === 'openshift-external-secrets')!.project, 'eso');
});

test('multicloud-gitops plan notes: the stand-in spoke, the standalone variant, and what only the cluster knows', async () => {
  const plan = JSON.parse((await cli(['plan', '--repo', MCG, '-o', 'json'])).stdout) as PlanJson;
  const hub = plan.clusters.find((c) => c.name === 'hub')!.notes.join('\n');
  const spoke = plan.clusters.find((c) => c.name === 'group-one')!.notes.join('\n');
  assert.match(spoke, /stands for every managed cluster with label clusterGroup=group-one \(values-hub\.yaml clusterGroup\.managedClusterGroups\.exampleRegion\)/);
  assert.match(hub, /values-standalone\.yaml \(clusterGroup standalone\) is not planned: main\.clusterGroupName is hub/);
  assert.match(hub, /repository https:\/\/github\.com\/validatedpatterns\/multicloud-gitops from pattern-metadata\.yaml repo_url/);
  assert.match(hub, /left out of the Applications .*\/values-\{\{ \$\.Values\.global\.clusterPlatform \}\}-hub\.yaml.*\/overrides\/values-\{\{ \$\.Values\.global\.clusterVersion \}\}-hub\.yaml; files in the repository that may match: overrides\/values-AWS\.yaml, overrides\/values-IBMCloud\.yaml/);
  assert.match(hub, /remote charts, not rendered offline.*acm \(acm 0\.2\.\* from https:\/\/charts\.validatedpatterns\.io\), openshift-external-secrets .*vault \(hashicorp-vault 0\.1\.\*/);
  assert.match(hub, /helm parameters the operator sets per cluster, left out: global\.clusterDomain, global\.clusterPlatform/);
  assert.match(hub, /clustergroup-namespaces \(6 Namespaces, 6 OperatorGroups\) and the OLM Subscriptions \(advanced-cluster-management, openshift-external-secrets-operator\)/);
  assert.match(spoke, /imperative jobs \(CronJob in namespace imperative, not planned\): hello-world/);
});

test('multicloud-gitops render: the chart\'s Applications, multi-source for remote charts, and the generated Namespaces and Subscriptions', async () => {
  const r = await cli(['render', '--repo', MCG, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const again = await cli(['render', '--repo', MCG, '-o', 'json']);
  assert.equal(again.stdout, r.stdout, 'render is deterministic');
  const items = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string; namespace?: string }; spec?: Record<string, unknown> }[] }).items;
  const apps = items.filter((o) => o.kind === 'Application');
  const config = apps.find((o) => o.metadata.name === 'config-demo')!;
  assert.deepEqual((config.spec!.source as { helm: unknown }).helm, {
    ignoreMissingValueFiles: true,
    parameters: [{ name: 'global.pattern', value: 'multicloud-gitops' }, { name: 'global.namespace', value: '$ARGOCD_APP_NAMESPACE' }],
    valueFiles: ['/values-global.yaml', '/values-hub.yaml'],
  });
  const acm = apps.find((o) => o.metadata.name === 'acm')!;
  assert.equal(acm.spec!.source, undefined);
  const sources = acm.spec!.sources as Record<string, unknown>[];
  assert.deepEqual(sources[0], { ref: 'patternref', repoURL: 'https://github.com/validatedpatterns/multicloud-gitops', targetRevision: 'HEAD' });
  assert.deepEqual([sources[1]!.repoURL, sources[1]!.chart, sources[1]!.targetRevision], ['https://charts.validatedpatterns.io', 'acm', '0.2.*']);
  assert.deepEqual((sources[1]!.helm as { valueFiles: string[] }).valueFiles, ['$patternref/values-global.yaml', '$patternref/values-hub.yaml']);
  const subs = items.filter((o) => o.kind === 'Subscription' && o.metadata.name !== 'openshift-gitops-operator');
  assert.deepEqual(subs.map((o) => `${o.metadata.namespace}/${o.metadata.name} ${String(o.spec!.channel)}`), [
    'open-cluster-management/advanced-cluster-management release-2.16',
    'external-secrets-operator/openshift-external-secrets-operator stable-v1',
    'external-secrets-operator/openshift-external-secrets-operator stable-v1',
  ]);
  // targetNamespaces: [] → an OperatorGroup for all namespaces (no spec), as the chart renders it.
  const og = items.find((o) => o.kind === 'OperatorGroup' && o.metadata.namespace === 'external-secrets-operator')!;
  assert.equal(og.spec, undefined);
  const projects = items.filter((o) => o.kind === 'AppProject').map((o) => o.metadata.name);
  assert.deepEqual(projects, ['config-demo', 'hello-world', 'hub', 'config-demo', 'eso', 'hello-world']);
});

test('multicloud-gitops validate: no findings (its SOURCE.md lists no defects)', async () => {
  const r = await cli(['validate', '--repo', MCG, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { findings: unknown[] }).findings, []);
});

test('the clustergroup chart folder is not a fleet, and the message says it looks like a Helm chart', async () => {
  for (const cmd of ['plan', 'validate']) {
    const r = await cli([cmd, '--repo', CHART]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not a fleet repository: it looks like a Helm chart \(Chart\.yaml: clustergroup\)/);
    assert.match(r.stderr, /pass --repo a pattern repository/);
  }
});

test('a values-global.yaml whose cluster group has no values file is not read, and the message says which file is missing', async () => {
  const { writeTree } = await import('../support/fleet-fixture.js');
  const dir = writeTree({ 'values-global.yaml': 'main:\n  clusterGroupName: hub\n' });
  const r = await cli(['plan', '--repo', dir]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /values-global\.yaml names cluster group hub, but values-hub\.yaml does not exist/);
});

test('fixture: list forms, a sync-wave annotation, main.git and a resolvable sharedValueFiles entry', async () => {
  const plan = JSON.parse((await cli(['plan', '--repo', FIXTURE, '-o', 'json'])).stdout) as PlanJson;
  assert.deepEqual(plan.findings, []);
  const edge = plan.clusters.find((c) => c.name === 'edge')!;
  assert.deepEqual(edge.waves, [{ wave: -1, apps: ['clustergroup-namespaces'] }, { wave: 5, apps: ['web'] }]);
  assert.deepEqual(edge.apps.find((a) => a.name === 'web')!.source, { repoURL: 'https://git.example.com/demo.git', targetRevision: 'main', path: 'charts/all/web' });
  const r = await cli(['render', '--repo', FIXTURE, '--cluster', 'hub', '-o', 'json']);
  const web = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string }; spec?: { source?: { helm?: { valueFiles?: string[] } } } }[] }).items.find((o) => o.kind === 'Application' && o.metadata.name === 'web')!;
  assert.deepEqual(web.spec!.source!.helm!.valueFiles, ['/values-global.yaml', '/values-hub.yaml', '/overrides/values-hub.yaml']);
  const hubNotes = plan.clusters.find((c) => c.name === 'hub')!.notes.join('\n');
  assert.match(hubNotes, /repository https:\/\/git\.example\.com\/demo\.git from values-global\.yaml main\.git\.repoURL/);
  assert.match(hubNotes, /\/overrides\/values-\{\{ \$\.Values\.global\.clusterPlatform \}\}\.yaml; files in the repository that may match: overrides\/values-AWS\.yaml, overrides\/values-hub\.yaml/);
});

test('a pattern without managed cluster groups or ACM is one standalone cluster', async () => {
  const { writeTree, removeTree } = await import('../support/fleet-fixture.js');
  const dir = writeTree({
    'values-global.yaml': 'global:\n  pattern: solo\nmain:\n  clusterGroupName: standalone\n',
    'values-standalone.yaml': 'clusterGroup:\n  name: standalone\n  namespaces:\n    - web\n  applications:\n    web:\n      name: web\n      namespace: web\n      path: charts/web\n',
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  });
  try {
    const plan = JSON.parse((await cli(['plan', '--repo', dir, '-o', 'json'])).stdout) as PlanJson;
    assert.deepEqual(plan.clusters.map((c) => [c.name, c.role, c.hub]), [['standalone', 'standalone', null]]);
    assert.deepEqual(plan.clusters[0]!.waves, [{ wave: -1, apps: ['clustergroup-namespaces'] }, { wave: 0, apps: ['web'] }]);
    assert.equal(plan.clusters[0]!.apps.find((a) => a.name === 'web')!.project, 'default');
    const v = await cli(['validate', '--repo', dir]);
    assert.equal(v.code, 0, v.stdout);
  } finally {
    removeTree(dir);
  }
});

test('render --out writes each generated source as a kustomize directory, and a second render changes nothing', async () => {
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const out = mkdtempSync(resolve(tmpdir(), 'fleetplan-vp-'));
  try {
    const r = await cli(['render', '--repo', FIXTURE, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const k = readFileSync(resolve(out, 'hub/clustergroup/advanced-cluster-management/kustomization.yaml'), 'utf8');
    assert.match(k, /resources:\n {2}- subscription-open-cluster-management-advanced-cluster-management\.yaml\n/);
    const ns = readFileSync(resolve(out, 'edge/clustergroup/clustergroup-namespaces/kustomization.yaml'), 'utf8');
    assert.match(ns, /- namespace-web\.yaml\n {2}- operatorgroup-web-web-operator-group\.yaml\n/);
    const again = await cli(['render', '--repo', FIXTURE, '--out', out]);
    assert.match(again.stderr, / 0 written/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

const templates: [string, string, { text?: string; unknown: string[] }][] = [
  ['fills in a known value', '/overrides/values-{{ $.Values.clusterGroup.name }}.yaml', { text: '/overrides/values-hub.yaml', unknown: [] }],
  ['accepts .Values without $ and trim markers', '/x-{{- .Values.global.pattern -}}.yaml', { text: '/x-demo.yaml', unknown: [] }],
  ['leaves a value the operator injects unknown, even when a values file sets it', '/values-{{ $.Values.global.clusterPlatform }}.yaml', { unknown: ['global.clusterPlatform'] }],
  ['leaves a missing value unknown', '/values-{{ $.Values.nope }}.yaml', { unknown: ['nope'] }],
  ['leaves any other template action unknown', '/values-{{ include "x" . }}.yaml', { unknown: ['include "x" .'] }],
  ['keeps a name without actions', '/values-extra.yaml', { text: '/values-extra.yaml', unknown: [] }],
];
for (const [name, input, want] of templates) {
  test(`tpl of value file names: ${name}`, () => {
    const values = { clusterGroup: { name: 'hub' }, global: { pattern: 'demo', clusterPlatform: 'AWS' } };
    const r = resolveTemplate(input, values);
    assert.deepEqual({ ...(r.text !== undefined ? { text: r.text } : {}), unknown: r.unknown }, want);
  });
}
