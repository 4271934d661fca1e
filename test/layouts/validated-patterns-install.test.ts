/**
 * Validated Patterns: the plan shows how the pattern is really installed (ADR 0324), not
 * fleetplan's generic bootstrap: on the hub the Pattern resource → the patterns operator → the
 * OpenShift GitOps Subscription → the clustergroup Application → the chart's Namespaces,
 * Subscriptions, AppProjects and Applications; on a managed cluster group, the hub's ACM policies
 * and the placement selector that picks its clusters. The Applications are in the chart's Argo CD
 * namespace, and ApplicationSet-shaped entries of charts before 0.9.5 are ApplicationSets.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import type { PlanJson } from '../support/plan-json.js';
import { placementSelector, selectorText } from '../../src/layouts/validated-patterns/install.js';

function pattern(extra: Record<string, string> = {}, managed = '    edge:\n      name: edge\n      acmlabels:\n        - name: site\n          value: edge\n'): Record<string, string> {
  return {
    'values-global.yaml': 'global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n  multiSourceConfig:\n    enabled: true\n    clusterGroupChartVersion: 0.9.*\n  gitops:\n    channel: gitops-1.15\n',
    'values-hub.yaml': [
      'clusterGroup:',
      '  name: hub',
      '  namespaces:',
      '    - open-cluster-management',
      '    - web',
      '  subscriptions:',
      '    acm:',
      '      name: advanced-cluster-management',
      '      namespace: open-cluster-management',
      '      channel: release-2.13',
      '      csv: advanced-cluster-management.v2.13.0',
      '  argoProjects:',
      '    - hub',
      '  applications:',
      '    acm:',
      '      name: acm',
      '      namespace: open-cluster-management',
      '      project: hub',
      '      chart: acm',
      '      chartVersion: 0.1.*',
      '    web:',
      '      name: web',
      '      namespace: web',
      '      project: hub',
      '      path: charts/web',
      '  managedClusterGroups:',
      managed,
    ].join('\n'),
    'values-edge.yaml': 'clusterGroup:\n  name: edge\n  namespaces:\n    - web\n  applications:\n    web:\n      name: web\n      namespace: web\n      path: charts/web\n',
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    ...extra,
  };
}

type ClusterJson = PlanJson['clusters'][number] & { stages?: unknown[]; bootstrapNotes?: string[] };

async function planOf(files: Record<string, string>): Promise<{ clusters: ClusterJson[] }> {
  const dir = writeTree(files);
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as { clusters: ClusterJson[] };
  } finally {
    removeTree(dir);
  }
}

test('the hub\'s plan is the pattern\'s own install: Pattern → patterns operator → GitOps Subscription → clustergroup Application → the chart\'s objects', async () => {
  const plan = await planOf(pattern());
  const hub = plan.clusters.find((c) => c.name === 'hub')!;
  assert.deepEqual(hub.bootstrap.map((s) => s.file), [
    'pattern install', 'operator: gitops', 'operator: argocd', 'operator: clustergroup',
    'chart: namespaces', 'chart: argocd', 'chart: subscriptions', 'chart: projects', 'chart: applications', 'acm: policies',
  ]);
  // None of fleetplan's own stages (which would wait for a ManagedCluster or apply its own Argo CD).
  assert.deepEqual(hub.stages ?? [], []);
  const step = (file: string) => hub.bootstrap.find((s) => s.file === file)!;
  assert.deepEqual(step('pattern install').objects, ['Subscription/patterns-operator/patterns-operator', 'ConfigMap/patterns-operator/patterns-operator-config', 'Pattern/patterns-operator/demo']);
  assert.match(step('pattern install').description, /ConfigMap patterns-operator\/patterns-operator-config \(gitops\.channel gitops-1\.15\)/);
  assert.match(step('operator: gitops').description, /Subscription openshift-gitops-operator\/openshift-gitops-operator \(channel gitops-1\.15, source redhat-operators/);
  assert.deepEqual(step('operator: clustergroup').objects, ['Application/vp-gitops/demo-hub']);
  assert.match(step('operator: clustergroup').description, /chart clustergroup 0\.9\.\* from https:\/\/charts\.validatedpatterns\.io\/ .*global\.pattern=demo, global\.namespace=patterns-operator/);
  assert.match(step('chart: subscriptions').description, /open-cluster-management\/advanced-cluster-management \(channel release-2\.13, startingCSV advanced-cluster-management\.v2\.13\.0\)/);
  assert.deepEqual(step('chart: applications').objects, ['Application/demo-hub/acm', 'Application/demo-hub/web']);
  assert.deepEqual(step('chart: projects').objects, ['AppProject/demo-hub/hub']);
  assert.match(step('acm: policies').description, /the acm chart \(Application acm\) .*edge: edge-gitops-policy, edge-gitops-policy-argocd, edge-clustergroup-policy, selector site=edge, local-cluster notin \(true\) \(its acmlabels\)/);
  assert.match(hub.bootstrapNotes!.join('\n'), /installed by its own tooling, not fleetplan bootstrap/);
});

test('a managed cluster group: the hub\'s ACM policies hand GitOps to the clusters its placement selects, and they get the group\'s apps', async () => {
  const plan = await planOf(pattern());
  const edge = plan.clusters.find((c) => c.name === 'edge')!;
  assert.deepEqual([edge.role, edge.hub], ['spoke', 'hub']);
  assert.deepEqual(edge.bootstrap.map((s) => s.file), ['hub: placement', 'hub: gitops policy', 'hub: clustergroup policy', 'chart: namespaces', 'chart: argocd', 'chart: applications']);
  // Without global.singleArgoCD the chart runs the group's own Argo CD, which runs its Applications.
  assert.deepEqual(edge.bootstrap[4]!.objects, ['ArgoCD/demo-edge/edge-gitops']);
  assert.match(edge.bootstrap[0]!.description, /Placements edge-gitops-placement and edge-placement select the managed clusters with site=edge, local-cluster notin \(true\)/);
  assert.match(edge.bootstrap[1]!.description, /Policy edge-gitops-policy .*Subscription openshift-gitops-operator \(channel gitops-1\.15/);
  assert.deepEqual(edge.bootstrap[2]!.objects, ['Policy//edge-clustergroup-policy', 'Application/vp-gitops/demo-edge']);
  // Not fleetplan's spoke bootstrap, which waited for a ManagedCluster named after the group.
  assert.deepEqual(edge.stages ?? [], []);
  assert.doesNotMatch(JSON.stringify(edge), /ManagedCluster edge available/);
  assert.deepEqual(edge.waves, [{ wave: -1, apps: ['clustergroup-namespaces'] }, { wave: 0, apps: ['web'] }]);
});

test('fleetplan bootstrap refuses a pattern and says who installs it', async () => {
  const dir = writeTree(pattern());
  try {
    const r = await cli(['bootstrap', '--repo', dir, '--cluster', 'hub', '--dry-run']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /bootstraps its clusters itself \(the Validated Patterns operator/);
  } finally {
    removeTree(dir);
  }
});

const selectors: [string, Record<string, unknown>, string][] = [
  ['clusterSelector wins over acmlabels', { clusterSelector: { matchLabels: { region: 'east' } }, acmlabels: [{ name: 'site', value: 'x' }] }, 'region=east'],
  ['acmlabels as a list, never the hub', { acmlabels: [{ name: 'site', value: 'edge' }] }, 'site=edge, local-cluster notin (true)'],
  ['acmlabels as a map', { acmlabels: { site: 'edge' } }, 'site=edge, local-cluster notin (true)'],
  ['neither: clusterGroup=<group>', {}, 'clusterGroup=edge, local-cluster notin (true)'],
];
for (const [name, raw, want] of selectors) {
  test(`placement selector of a managed cluster group (acm chart): ${name}`, () => {
    assert.equal(selectorText(placementSelector('edge', raw).selector), want);
  });
}

test('a clusterSelector selects the spoke: its plan and labels follow it, not acmlabels', async () => {
  const plan = await planOf(pattern({}, '    edge:\n      name: edge\n      clusterSelector:\n        matchLabels:\n          region: east\n      acmlabels:\n        - name: site\n          value: edge\n'));
  const edge = plan.clusters.find((c) => c.name === 'edge')!;
  assert.match(edge.bootstrap[0]!.description, /select the managed clusters with region=east \(its clusterSelector\)/);
  assert.match(edge.notes.join('\n'), /stands for every managed cluster the hub's ACM placements select with region=east/);
});

test('the Applications are in the chart\'s Argo CD namespace: <pattern>-<group>, or vp-gitops with global.singleArgoCD', async () => {
  const render = async (files: Record<string, string>) => {
    const dir = writeTree(files);
    try {
      const r = await cli(['render', '--repo', dir, '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; spec?: Record<string, unknown> }[] }).items;
    } finally {
      removeTree(dir);
    }
  };
  const items = await render(pattern());
  const web = items.filter((o) => o.kind === 'Application' && o.metadata.name === 'web');
  assert.deepEqual(web.map((o) => o.metadata.namespace).sort(), ['demo-edge', 'demo-hub']);
  // As the chart writes it: destination by name (clusterGroup.targetCluster), no sync-wave it did not write.
  assert.deepEqual(web[0]!.spec!.destination, { name: 'in-cluster', namespace: 'web' });
  assert.equal(web[0]!.metadata.annotations?.['argocd.argoproj.io/sync-wave'], undefined);
  const single = await render(pattern({ 'values-global.yaml': 'global:\n  pattern: demo\n  singleArgoCD: true\nmain:\n  clusterGroupName: hub\n' }));
  assert.deepEqual([...new Set(single.filter((o) => o.kind === 'Application' || o.kind === 'AppProject').map((o) => o.metadata.namespace))], ['vp-gitops']);
});

// Both spellings of the common/Makefile's NAME: `?=` (2023-2024) and plain `=` (early 2023, with common/clustergroup in the repository).
for (const assign of ['NAME ?= ', 'NAME=']) test(`an older common/Makefile (${assign.trim()}) names the Pattern after the checkout folder, and the operator's global.pattern parameter follows it`, async () => {
  const dir = writeTree(pattern({ 'common/Makefile': `${assign}$(shell basename "\`pwd\`")\n` }));
  try {
    const plan = JSON.parse((await cli(['plan', '--repo', dir, '-o', 'json'])).stdout) as PlanJson & { clusters: { bootstrapNotes?: string[] }[] };
    const folder = dir.split('/').pop()!;
    const hub = plan.clusters.find((c) => c.name === 'hub')!;
    assert.deepEqual(hub.bootstrap.find((s) => s.file === 'operator: clustergroup')!.objects, [`Application/vp-gitops/${folder}-hub`]);
    assert.match((hub as { bootstrapNotes?: string[] }).bootstrapNotes!.join('\n'), /common\/Makefile names the Pattern after the checkout's folder .*not values-global\.yaml's global\.pattern demo/);
  } finally {
    removeTree(dir);
  }
});

test('an ApplicationSet-shaped application of a chart before 0.9.5 is planned and rendered as the ApplicationSet the chart writes', async () => {
  const files = pattern({
    'values-global.yaml': 'global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n  multiSourceConfig:\n    enabled: true\n    clusterGroupChartVersion: 0.8.*\n',
    'values-edge.yaml': [
      'clusterGroup:',
      '  name: edge',
      '  applications:',
      '    fleet:',
      '      name: fleet',
      '      namespace: fleet',
      '      project: default',
      '      path: charts/web',
      '      generators:',
      '        - list:',
      '            elements:',
      '              - cluster: a',
      '      destinationServer: https://a.example.com:6443',
      '',
    ].join('\n'),
  });
  const dir = writeTree(files);
  try {
    const r = await cli(['render', '--repo', dir, '--cluster', 'edge', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const items = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string; namespace?: string }; spec?: Record<string, unknown> }[] }).items;
    const fleet = items.filter((o) => o.metadata.name === 'fleet');
    assert.deepEqual(fleet.map((o) => o.kind), ['ApplicationSet']);
    assert.equal(fleet[0]!.metadata.namespace, 'demo-edge');
    assert.deepEqual(fleet[0]!.spec!.generators, [{ list: { elements: [{ cluster: 'a' }] } }]);
    const template = fleet[0]!.spec!.template as { spec: { destination: unknown } };
    assert.deepEqual(template.spec.destination, { server: 'https://a.example.com:6443', namespace: 'fleet' });
    const plan = JSON.parse((await cli(['plan', '--repo', dir, '-o', 'json'])).stdout) as PlanJson;
    const edge = plan.clusters.find((c) => c.name === 'edge')!;
    assert.match(edge.bootstrap.find((s) => s.file === 'chart: applications')!.description, /0 Applications in demo-edge and 1 ApplicationSet \(fleet\)/);
    // With chart 0.9.* the same entry is a plain Application: the chart dropped ApplicationSets in 0.9.5.
    const newer = writeTree({ ...files, 'values-global.yaml': 'global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n  multiSourceConfig:\n    enabled: true\n    clusterGroupChartVersion: 0.9.*\n' });
    try {
      const n = await cli(['render', '--repo', newer, '--cluster', 'edge', '-o', 'json']);
      const kinds = (JSON.parse(n.stdout) as { items: { kind: string; metadata: { name: string } }[] }).items.filter((o) => o.metadata.name === 'fleet').map((o) => o.kind);
      assert.deepEqual(kinds, ['Application']);
    } finally {
      removeTree(newer);
    }
  } finally {
    removeTree(dir);
  }
});

test('a Subscription without installPlanApproval gets the chart\'s default global.options.installPlanApproval (Automatic) when the pattern\'s values do not set it', async () => {
  const { loadFleet } = await import('../../src/index.js');
  const subscription = (files: Record<string, string>) => {
    const dir = writeTree(files);
    try {
      const hub = loadFleet(dir).fleet.clusters.find((c) => c.name === 'hub')!;
      const objects = hub.generated!.find((g) => g.app === 'advanced-cluster-management')!.objects as { spec: Record<string, unknown> }[];
      return objects[0]!.spec;
    } finally {
      removeTree(dir);
    }
  };
  // values-global.yaml without global.options: the chart's values.yaml default applies.
  assert.equal(subscription(pattern()).installPlanApproval, 'Automatic');
  // The pattern's own global.options.installPlanApproval wins over the default.
  const manual = pattern({ 'values-global.yaml': 'global:\n  pattern: demo\n  options:\n    installPlanApproval: Manual\nmain:\n  clusterGroupName: hub\n' });
  assert.equal(subscription(manual).installPlanApproval, 'Manual');
});

test('what the chart makes of sequenceJob, extraObjects, indexImages, nodes and scheduler is named in the cluster\'s notes, not dropped silently', async () => {
  const files = pattern();
  files['values-hub.yaml'] = files['values-hub.yaml']!.replace('      csv: advanced-cluster-management.v2.13.0\n', [
    '      csv: advanced-cluster-management.v2.13.0',
    '      sequenceJob:',
    '        resourceType: sc',
    '        resourceName: fast',
    '  extraObjects:',
    '    quota:',
    '      apiVersion: v1',
    '      kind: ResourceQuota',
    '      metadata:',
    '        name: q',
    '        namespace: web',
    '    off:',
    '      disabled: true',
    '      apiVersion: v1',
    '      kind: ConfigMap',
    '      metadata:',
    '        name: off',
    '  indexImages:',
    '    - image: quay.io/acme/catalog-index:v1',
    '  nodes:',
    '    - node1.example.com:',
    '        labels:',
    '          role: edge',
    '  scheduler:',
    '    mastersSchedulable: true',
    '',
  ].join('\n'));
  const plan = await planOf(files);
  const notes = plan.clusters.find((c) => c.name === 'hub')!.notes.join('\n');
  assert.match(notes, /objects the clustergroup chart also creates, not planned: Job advanced-cluster-management-sequencejob \(subscription advanced-cluster-management's sequenceJob: waits for sc fast\); ResourceQuota web\/q \(extraObjects\.quota\); CatalogSource openshift-marketplace\/acme-catalog-index \(indexImages\); Node node1\.example\.com \(nodes\); Scheduler cluster \(scheduler\)/);
  assert.doesNotMatch(notes, /ConfigMap/);
  // A cluster group without them gets no such note.
  assert.doesNotMatch(plan.clusters.find((c) => c.name === 'edge')!.notes.join('\n'), /chart also creates/);
});

test('a pattern whose operator Application reads the repository\'s own common/clustergroup says that fleetplan writes the published chart\'s objects, not that chart\'s', async () => {
  const local = pattern({
    'values-global.yaml': 'global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n',
    'common/clustergroup/Chart.yaml': 'apiVersion: v2\nname: pattern-clustergroup\nversion: 0.0.1\n',
  });
  const plan = await planOf(local);
  for (const c of plan.clusters) {
    assert.match(c.notes.join('\n'), /this repository's own common\/clustergroup \(version 0\.0\.1\), which fleetplan does not run: .*helm template common\/clustergroup -f values-global\.yaml -f values-(hub|edge)\.yaml/, c.name);
  }
  // With multi-source (the published chart from the Helm repository) there is nothing to say.
  const published = await planOf(pattern({ 'common/clustergroup/Chart.yaml': 'apiVersion: v2\nname: clustergroup\nversion: 0.8.1\n' }));
  assert.doesNotMatch(published.clusters.map((c) => c.notes.join('\n')).join('\n'), /fleetplan does not run/);
});
