/**
 * A repository shaped like a Validated Pattern that this layout does not take (issue #12 part 4,
 * honest detection): the pattern's files are named as this layout's markers, with what is missing,
 * when the repository is read as another layout. A pattern that keeps values-global.yaml out of git
 * (only values-global.yaml.template is committed) was read as the argocd layout without a word.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

interface Finding {
  code: string;
  message: string;
  file?: string;
}

/** An Application applied by hand, which makes the repository the argocd layout's. */
const APP = {
  'charts/hub/app.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web', repoURL: 'https://github.com/acme/pattern' }),
  'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
};
const HUB_VALUES = 'clusterGroup:\n  name: hub\n  isHubCluster: true\n  namespaces:\n    - web\n';

async function findingsOf(files: Record<string, string>): Promise<Finding[]> {
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
  } finally {
    removeTree(dir);
  }
}

test('a pattern whose values-global.yaml is not committed (only its template): its files are named, with what is missing', async () => {
  const findings = await findingsOf({ ...APP, 'values-hub.yaml': HUB_VALUES, 'values-global.yaml.template': 'main:\n  clusterGroupName: hub\n' });
  const chosen = findings.find((f) => f.code === 'layout-chosen');
  assert.match(
    chosen?.message ?? '',
    /read as the argocd layout .*other layouts' markers: validated-patterns \(values-hub\.yaml\): not used, there is no values-global\.yaml \(values-global\.yaml\.template is there\), which names the hub's cluster group \(main\.clusterGroupName\)/,
  );
  assert.ok(findings.some((f) => f.code === 'not-read' && f.file === 'values-hub.yaml' && /looks like the validated-patterns layout/.test(f.message)), JSON.stringify(findings));
});

test("a pattern whose values-global.yaml names a cluster group without its values file: that is what is missing", async () => {
  const findings = await findingsOf({ ...APP, 'values-global.yaml': 'main:\n  clusterGroupName: hub\n', 'values-datacenter.yaml': HUB_VALUES.replace('hub', 'datacenter') });
  const chosen = findings.find((f) => f.code === 'layout-chosen');
  assert.match(
    chosen?.message ?? '',
    /validated-patterns \(values-datacenter\.yaml, values-global\.yaml\): not used, values-global\.yaml names the hub's cluster group hub \(main\.clusterGroupName\), but there is no values-hub\.yaml/,
  );
});

test('a values-global.yaml without main.clusterGroupName says so', async () => {
  const findings = await findingsOf({ ...APP, 'values-global.yaml': 'global:\n  pattern: web\n', 'values-hub.yaml': HUB_VALUES });
  const chosen = findings.find((f) => f.code === 'layout-chosen');
  assert.match(chosen?.message ?? '', /validated-patterns \(values-hub\.yaml\): not used, values-global\.yaml sets no main\.clusterGroupName/);
});

test("a chart's values-global.yaml or values-<env>.yaml without clusterGroup is no marker of this layout", async () => {
  const findings = await findingsOf({ ...APP, 'values-global.yaml': 'global:\n  image: web\n', 'values-prod.yaml': 'replicas: 3\n' });
  assert.equal(findings.filter((f) => f.code === 'not-read').length, 0, JSON.stringify(findings));
  assert.doesNotMatch(findings.find((f) => f.code === 'layout-chosen')?.message ?? '', /validated-patterns/);
});

test('a pattern without values-global.yaml and without Argo CD objects: "not a fleet repository" says what it found and what is missing', async () => {
  const dir = writeTree({ 'values-hub.yaml': HUB_VALUES, 'values-global.yaml.example': 'main:\n  clusterGroupName: hub\n' });
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /is not a fleet repository: it has a Validated Pattern's cluster group values \(values-hub\.yaml\) but there is no values-global\.yaml \(values-global\.yaml\.example is there\)/,
    );
  } finally {
    removeTree(dir);
  }
});
