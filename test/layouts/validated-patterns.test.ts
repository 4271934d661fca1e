/**
 * The Validated Patterns layout on a small pattern fixture for the parts multicloud-gitops does
 * not use (list forms, sync-wave annotations, repository URL in main.git, resolvable
 * sharedValueFiles) and on patterns written here. validatedpatterns/multicloud-gitops as a user
 * meets it, and the clustergroup chart folder: test/real/layouts/validated-patterns.test.ts.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { resolveTemplate } from '../../src/layouts/validated-patterns/reader.js';
import { cli } from '../support/fleet-fixture.js';
import type { PlanJson } from '../support/plan-json.js';

const FIXTURE = 'test/fixtures/validated-patterns/pattern';


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
    // The chart always creates the imperative jobs' namespace too (templates/imperative/namespace.yaml), and,
    // without global.singleArgoCD, its own Argo CD's namespace <pattern>-<group> (templates/plumbing/gitops-namespace.yaml).
    assert.match(ns, /- namespace-web\.yaml\n {2}- namespace-imperative\.yaml\n {2}- namespace-demo-edge\.yaml\n {2}- operatorgroup-web-web-operator-group\.yaml\n/);
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
