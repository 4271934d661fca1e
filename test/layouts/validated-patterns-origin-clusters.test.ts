/**
 * Validated Patterns (ADRs 0342, 0343): the repository the pattern's installer gives the operator
 * is the clone's origin and branch, never a file:// path; the managed clusters of `--clusters FILE`
 * get the apps of the group whose ACM placement clusterSelector selects them.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { git } from '../support/git.js';
import type { PlanJson } from '../support/plan-json.js';
import { installerRepoURL } from '../../src/layouts/validated-patterns/reader.js';

function pattern(global = 'global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n'): Record<string, string> {
  return {
    'values-global.yaml': global,
    'values-hub.yaml': [
      'clusterGroup:',
      '  name: hub',
      '  isHubCluster: true',
      '  namespaces:',
      '    - open-cluster-management',
      '    - web',
      '  subscriptions:',
      '    acm:',
      '      name: advanced-cluster-management',
      '      namespace: open-cluster-management',
      '  argoProjects:',
      '    - hub',
      '  applications:',
      '    web:',
      '      name: web',
      '      namespace: web',
      '      project: hub',
      '      path: charts/web',
      '  managedClusterGroups:',
      '    east:',
      '      name: east',
      '      clusterSelector:',
      '        matchLabels:',
      '          region: east',
      '        matchExpressions:',
      '          - key: vendor',
      '            operator: In',
      '            values: [OpenShift]',
      '    edge:',
      '      name: edge',
      '      acmlabels:',
      '        - name: site',
      '          value: edge',
      '',
    ].join('\n'),
    'values-east.yaml': 'clusterGroup:\n  name: east\n  namespaces:\n    - shop\n  applications:\n    shop:\n      name: shop\n      namespace: shop\n      path: charts/web\n',
    'values-edge.yaml': 'clusterGroup:\n  name: edge\n  namespaces:\n    - sensor\n  applications:\n    sensor:\n      name: sensor\n      namespace: sensor\n      path: charts/web\n',
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  };
}

type Obj = { kind: string; metadata: { name: string; namespace?: string }; spec?: { source?: { repoURL?: string; targetRevision?: string }; sources?: { repoURL?: string; targetRevision?: string }[] } };

function clone(files: Record<string, string>, origin: string | undefined, branch: string): string {
  const dir = writeTree(files);
  git(dir, 'init', '-q', '-b', branch);
  if (origin) git(dir, 'remote', 'add', 'origin', origin);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'pattern');
  return dir;
}

test('the installer\'s repoURL for an origin: scp-like git@host:path becomes https://host/path, a local path is none', () => {
  assert.equal(installerRepoURL('git@github.com:me/demo.git'), 'https://github.com/me/demo.git');
  assert.equal(installerRepoURL('https://gitlab.example.com/p/demo'), 'https://gitlab.example.com/p/demo');
  assert.equal(installerRepoURL('/srv/mirror/demo'), undefined);
  assert.equal(installerRepoURL('file:///srv/mirror/demo'), undefined);
  assert.equal(installerRepoURL(undefined), undefined);
});

test('Validated Patterns: the Applications and the Pattern name the clone\'s origin and branch, over values-global.yaml\'s main.git', async () => {
  const dir = clone(pattern('global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n  git:\n    repoURL: https://github.com/upstream/demo.git\n    revision: main\n'), 'git@github.com:me/demo.git', 'my-fork');
  try {
    const r = await cli(['render', '--repo', dir, '--cluster', 'hub', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const web = (JSON.parse(r.stdout) as { items: Obj[] }).items.find((o) => o.kind === 'Application' && o.metadata.name === 'web')!;
    assert.equal(web.spec!.source!.repoURL, 'https://github.com/me/demo.git');
    assert.equal(web.spec!.source!.targetRevision, 'my-fork');
    const plan = await cli(['plan', '--repo', dir]);
    assert.match(plan.stdout, /targetRepo https:\/\/github\.com\/me\/demo\.git, targetRevision my-fork/);
    assert.match(plan.stdout, /main\.git\.repoURL=https:\/\/github\.com\/me\/demo\.git --set main\.git\.revision=my-fork/);
    assert.doesNotMatch(plan.stdout + r.stdout, /file:\/\//);
  } finally {
    removeTree(dir);
  }
});

test('Validated Patterns without an origin on a Git server: values-global.yaml\'s main.git, else no repoURL and a warning, never file://', async () => {
  const stated = clone(pattern('global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n  git:\n    repoURL: https://github.com/upstream/demo.git\n    revision: v1\n'), '/srv/mirror/demo', 'main');
  const bare = clone(pattern(), undefined, 'main');
  try {
    const r = await cli(['render', '--repo', stated, '--cluster', 'hub', '-o', 'json']);
    const web = (JSON.parse(r.stdout) as { items: Obj[] }).items.find((o) => o.kind === 'Application' && o.metadata.name === 'web')!;
    assert.deepEqual([web.spec!.source!.repoURL, web.spec!.source!.targetRevision], ['https://github.com/upstream/demo.git', 'v1']);
    const p = await cli(['plan', '--repo', bare]);
    assert.doesNotMatch(p.stdout, /file:\/\//);
    const v = await cli(['validate', '--repo', bare]);
    assert.match(v.stdout, /no-repo-url/);
  } finally {
    removeTree(stated);
    removeTree(bare);
  }
});

function secret(name: string, labels: Record<string, string>): string {
  return [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    `  name: ${name}-secret`,
    '  namespace: openshift-gitops',
    '  labels:',
    '    argocd.argoproj.io/secret-type: cluster',
    ...Object.entries(labels).map(([k, v]) => `    ${k}: ${v}`),
    'stringData:',
    `  name: ${name}`,
    `  server: https://${name}.example.com:6443`,
    '',
  ].join('\n');
}

test('Validated Patterns --clusters: each managed cluster gets the apps of the group whose placement clusterSelector selects it', async () => {
  const dir = writeTree(pattern());
  const file = join(dir, '..', `${dir.split('/').pop()!}-clusters.yaml`);
  writeFileSync(file, [
    secret('in-cluster', {}),
    secret('east-1', { region: 'east', vendor: 'OpenShift' }),
    secret('east-2', { region: 'east', vendor: 'OpenShift', extra: 'x' }),
    secret('east-k8s', { region: 'east', vendor: 'EKS' }),
    secret('store-9', { site: 'edge' }),
  ].join('---\n'));
  try {
    const r = await cli(['plan', '--repo', dir, '--clusters', file, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout) as PlanJson;
    const apps = (name: string) => plan.clusters.find((c) => c.name === name)?.apps.map((a) => a.name).filter((a) => a !== 'clustergroup-namespaces');
    assert.deepEqual(plan.clusters.map((c) => c.name), ['hub', 'east-1', 'east-2', 'store-9']);
    assert.deepEqual(apps('east-1'), ['shop']);
    assert.deepEqual(apps('east-2'), ['shop']);
    assert.deepEqual(apps('store-9'), ['sensor']);
    const v = await cli(['validate', '--repo', dir, '--clusters', file]);
    // vendor EKS is not In (OpenShift): east's placement does not select it, and the pattern gives it nothing.
    assert.match(v.stdout, /vp-cluster-not-selected[^\n]*cluster east-k8s/);
    // The rendered Applications of a managed cluster are its group's, in the group's Argo CD namespace.
    const out = await cli(['render', '--repo', dir, '--clusters', file, '--cluster', 'east-2', '-o', 'json']);
    assert.equal(out.code, 0, out.stderr);
    const shop = (JSON.parse(out.stdout) as { items: Obj[] }).items.find((o) => o.kind === 'Application' && o.metadata.name === 'shop')!;
    assert.equal(shop.metadata.namespace, 'demo-east');
    // Without --clusters, each group is one cluster standing for the ones its placement selects.
    const plain = JSON.parse((await cli(['plan', '--repo', dir, '-o', 'json'])).stdout) as PlanJson;
    assert.deepEqual(plain.clusters.map((c) => c.name), ['hub', 'east', 'edge']);
  } finally {
    removeTree(dir);
    removeTree(file);
  }
});

test('Validated Patterns multi-source value files are written as the chart writes them: a $patternref/ file as it is, another after $patternref', async () => {
  const files = pattern('global:\n  pattern: demo\n  extraValueFiles:\n    - values-extra.yaml\nmain:\n  clusterGroupName: hub\n  multiSourceConfig:\n    enabled: true\n');
  files['values-hub.yaml'] = files['values-hub.yaml']!.replace(
    '      path: charts/web\n',
    '      chart: web\n      chartVersion: 0.1.*\n      extraValueFiles:\n        - $patternref/overrides/web.yaml\n        - /overrides/web-2.yaml\n',
  );
  const dir = writeTree(files);
  try {
    const r = await cli(['render', '--repo', dir, '--cluster', 'hub', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    type Multi = { kind: string; metadata: { name: string }; spec: { sources: { helm?: { valueFiles: string[] } }[] } };
    const web = (JSON.parse(r.stdout) as { items: Multi[] }).items.find((o) => o.kind === 'Application' && o.metadata.name === 'web')!;
    assert.deepEqual(web.spec.sources.find((s) => s.helm)!.helm!.valueFiles, [
      '$patternref/values-global.yaml',
      '$patternref/values-hub.yaml',
      '$patternref/values-extra.yaml',
      '$patternref/overrides/web.yaml',
      '$patternref/overrides/web-2.yaml',
    ]);
  } finally {
    removeTree(dir);
  }
});
