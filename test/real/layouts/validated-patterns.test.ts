/**
 * The Validated Patterns layout on the real repositories (realrepos/ of the shared data):
 * validatedpatterns/multicloud-gitops as a user meets it (plan, render, validate through the CLI
 * and the reader's model), and the clustergroup chart folder, which is not a fleet. The pattern
 * fixture and the patterns written in code: test/layouts/validated-patterns.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { loadFleet } from '../../../src/index.js';
import { clusterDef } from '../../../src/model/fleet.js';
import { cli } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';
import type { PlanJson } from '../../support/plan-json.js';

/** The real repositories (resolved inside each test). */
const mcg = () => realRepo('validatedpatterns__multicloud-gitops');
const chart = () => realRepo('validatedpatterns__clustergroup-chart');


test('the real multicloud-gitops folder is there', () => {
  assert.ok(existsSync(mcg()), `${mcg()} is missing: the real-repository tests need realrepos/ in the shared data`);
});

test('multicloud-gitops: a hub and one representative spoke for managed cluster group group-one', () => {
  const { fleet, findings } = loadFleet(mcg());
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
  const r = await cli(['plan', '--repo', mcg(), '-o', 'json']);
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
  // The operator's multiSourceConfig.helmRepoUrl default, with its trailing slash.
  assert.deepEqual(hubApps.get('acm')!.source, { repoURL: 'https://charts.validatedpatterns.io/', targetRevision: '0.2.*', chart: 'acm' });
  assert.deepEqual(hubApps.get('vault')!.source, { repoURL: 'https://charts.validatedpatterns.io/', targetRevision: '0.1.*', chart: 'hashicorp-vault' });
  assert.deepEqual(hubApps.get('advanced-cluster-management')!.source, { repoURL: repo, targetRevision: 'HEAD', path: 'rendered/hub/clustergroup/advanced-cluster-management' });
  assert.equal(hubApps.get('openshift-external-secrets')!.project, 'hub');
  assert.equal(by.get('group-one')!.apps.find((a) => a.name === 'openshift-external-secrets')!.project, 'eso');
});

test('multicloud-gitops plan notes: the stand-in spoke, the standalone variant, and what only the cluster knows', async () => {
  const plan = JSON.parse((await cli(['plan', '--repo', mcg(), '-o', 'json'])).stdout) as PlanJson;
  const hub = plan.clusters.find((c) => c.name === 'hub')!.notes.join('\n');
  const spoke = plan.clusters.find((c) => c.name === 'group-one')!.notes.join('\n');
  assert.match(spoke, /stands for every managed cluster the hub's ACM placements select with clusterGroup=group-one, local-cluster notin \(true\) \(its acmlabels; values-hub\.yaml clusterGroup\.managedClusterGroups\.exampleRegion\)/);
  assert.match(hub, /values-standalone\.yaml \(clusterGroup standalone\) is not planned: main\.clusterGroupName is hub/);
  assert.match(hub, /repository https:\/\/github\.com\/validatedpatterns\/multicloud-gitops from pattern-metadata\.yaml repo_url/);
  assert.match(hub, /left out of the Applications .*\/values-\{\{ \$\.Values\.global\.clusterPlatform \}\}-hub\.yaml.*\/overrides\/values-\{\{ \$\.Values\.global\.clusterVersion \}\}-hub\.yaml; files in the repository that may match: overrides\/values-AWS\.yaml, overrides\/values-IBMCloud\.yaml/);
  assert.match(hub, /remote charts, not rendered offline.*acm \(acm 0\.2\.\* from https:\/\/charts\.validatedpatterns\.io\/\), openshift-external-secrets .*vault \(hashicorp-vault 0\.1\.\*/);
  assert.match(hub, /helm parameters the operator sets per cluster, left out: global\.clusterDomain, global\.clusterPlatform/);
  assert.match(hub, /clustergroup-namespaces \(7 Namespaces, 6 OperatorGroups\) and the OLM Subscriptions \(advanced-cluster-management, openshift-external-secrets-operator\)/);
  assert.match(spoke, /imperative jobs \(CronJob in namespace imperative, not planned\): hello-world/);
});

test('multicloud-gitops render: the chart\'s Applications, multi-source for remote charts, and the generated Namespaces and Subscriptions', async () => {
  const r = await cli(['render', '--repo', mcg(), '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const again = await cli(['render', '--repo', mcg(), '-o', 'json']);
  assert.equal(again.stdout, r.stdout, 'render is deterministic');
  const items = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string; namespace?: string }; spec?: Record<string, unknown> }[] }).items;
  const apps = items.filter((o) => o.kind === 'Application');
  const config = apps.find((o) => o.metadata.name === 'config-demo')!;
  assert.deepEqual((config.spec!.source as { helm: unknown }).helm, {
    ignoreMissingValueFiles: true,
    parameters: [{ name: 'global.namespace', value: '$ARGOCD_APP_NAMESPACE' }, { name: 'global.pattern', value: 'multicloud-gitops' }],
    valueFiles: ['/values-global.yaml', '/values-hub.yaml'],
    values: 'extraParametersNested:\n',
  });
  const acm = apps.find((o) => o.metadata.name === 'acm')!;
  assert.equal(acm.spec!.source, undefined);
  const sources = acm.spec!.sources as Record<string, unknown>[];
  assert.deepEqual(sources[0], { ref: 'patternref', repoURL: 'https://github.com/validatedpatterns/multicloud-gitops', targetRevision: 'HEAD' });
  assert.deepEqual([sources[1]!.repoURL, sources[1]!.chart, sources[1]!.targetRevision], ['https://charts.validatedpatterns.io/', 'acm', '0.2.*']);
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
  const r = await cli(['validate', '--repo', mcg(), '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { findings: unknown[] }).findings, []);
});

test('the clustergroup chart folder is not a fleet, and the message says it looks like a Helm chart', async () => {
  for (const cmd of ['plan', 'validate']) {
    const r = await cli([cmd, '--repo', chart()]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not a fleet repository: it looks like a Helm chart \(Chart\.yaml: clustergroup\)/);
    assert.match(r.stderr, /pass --repo a pattern repository/);
  }
});
