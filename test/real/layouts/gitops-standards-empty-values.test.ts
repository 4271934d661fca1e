/**
 * empty-values-file: a gitops-standards kustomization that inflates the app-of-app chart with a
 * values file holding nothing (redhat-cop's clusters/prod-east/values.yaml). Small repositories
 * with the real chart of the redhat-cop template, through the CLI.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ruleCatalog } from '../../../src/index.js';
import { cli, writeTree } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';

/** The redhat-cop template's chart (resolved when a test builds a repository). */
const chart = () => realRepo('redhat-cop__gitops-standards-repo-template', '.helm', 'charts', 'argocd-app-of-app');
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const inflate = (kind: string) => `apiVersion: kustomize.config.k8s.io/${kind === 'Component' ? 'v1alpha1' : 'v1beta1'}
kind: ${kind}
${kind === 'Kustomization' ? 'components:\n  - ../../groups/all\n' : ''}helmGlobals:
  chartHome: ../../.helm/charts
helmCharts:
- name: argocd-app-of-app
  valuesFile: values.yaml
`;

function repo(files: Record<string, string>): string {
  const dir = writeTree({
    'groups/all/kustomization.yaml': inflate('Component'),
    'groups/all/values.yaml': 'applications:\n  shared:\n    destination:\n      namespace: shared\n    source:\n      path: components/shared\n',
    'components/shared/kustomization.yaml': 'resources: []\n',
    'clusters/east/kustomization.yaml': inflate('Kustomization'),
    'clusters/east/values.yaml': 'applications:\n  own:\n    destination:\n      namespace: own\n    source:\n      path: components/shared\n',
    ...files,
  });
  cpSync(chart(), join(dir, '.helm/charts/argocd-app-of-app'), { recursive: true });
  dirs.push(dir);
  return dir;
}

interface Json {
  findings: { severity: string; code: string; file: string; line: number; message: string; hint: string }[];
}

async function emptyValues(dir: string): Promise<{ code: number; found: Json['findings'] }> {
  const r = await cli(['validate', '--repo', dir, '-o', 'json']);
  return { code: r.code, found: (JSON.parse(r.stdout) as Json).findings.filter((f) => f.code === 'empty-values-file') };
}

test('a cluster values file of whitespace only is a warning at the file: the cluster gets only its groups\' applications', async () => {
  const { code, found } = await emptyValues(repo({ 'clusters/east/values.yaml': '   \n' }));
  assert.equal(code, 0, 'a warning does not fail validate');
  assert.deepEqual(found.map((f) => `${f.severity} ${f.file}:${f.line}`), ['warning clusters/east/values.yaml:1']);
  assert.equal(
    found[0]!.message,
    'clusters/east/values.yaml is empty (whitespace only), yet clusters/east/kustomization.yaml inflates the argocd-app-of-app chart with it; the inflation renders nothing: the chart\'s defaults (.helm/charts/argocd-app-of-app/values.yaml) define no application and no project, so cluster east gets only the applications of its groups (all)',
  );
  assert.equal(found[0]!.hint, 'remove the helmCharts entry from clusters/east/kustomization.yaml and delete clusters/east/values.yaml, or add the cluster\'s applications to it (`applications: {}` says it deliberately has none)');
});

test('an empty group values file is reported once, however many clusters use the group', async () => {
  const { found } = await emptyValues(repo({
    'groups/all/values.yaml': '\n',
    'clusters/west/kustomization.yaml': inflate('Kustomization'),
    'clusters/west/values.yaml': 'applications: {}\n',
  }));
  assert.deepEqual(found.map((f) => `${f.file}:${f.line}`), ['groups/all/values.yaml:1']);
  assert.match(found[0]!.message, /yet groups\/all\/kustomization\.yaml inflates .* so group all adds no applications of its own$/);
});

test('when the chart\'s defaults define applications, the message names them', async () => {
  const dir = repo({ 'clusters/east/values.yaml': ' ' });
  const chartValues = join(dir, '.helm/charts/argocd-app-of-app/values.yaml');
  writeFileSync(chartValues, `${readFileSync(chartValues, 'utf8')}\napplications:\n  from-defaults:\n    destination:\n      namespace: d\n    source:\n      path: components/shared\n`);
  const { found } = await emptyValues(dir);
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, /the inflation renders only the chart's default Applications from-defaults \(from \.helm\/charts\/argocd-app-of-app\/values\.yaml\)/);
});

const passing: { name: string; values: string }[] = [
  { name: 'lists applications', values: 'applications:\n  own:\n    destination:\n      namespace: own\n    source:\n      path: components/shared\n' },
  { name: 'says there are none with applications: {}', values: 'applications: {}\n' },
  { name: 'holds a comment that says why it is empty', values: '# east has no applications of its own\n' },
];

for (const c of passing) {
  test(`no empty-values-file when the cluster values file ${c.name}`, async () => {
    assert.deepEqual((await emptyValues(repo({ 'clusters/east/values.yaml': c.values }))).found, []);
  });
}

test('no empty-values-file when the kustomization inflates no values file', async () => {
  const { found } = await emptyValues(repo({
    'clusters/east/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ncomponents:\n  - ../../groups/all\n',
    'clusters/east/values.yaml': '  \n',
  }));
  assert.deepEqual(found, []);
});

test('empty-values-file is in the rule catalog (fleet.yaml settings, SARIF) as a warning', async () => {
  assert.equal(ruleCatalog()['empty-values-file']?.severity, 'warning');
  const r = await cli(['validate', '--repo', repo({ 'clusters/east/values.yaml': '\n' }), '-o', 'sarif']);
  const sarif = JSON.parse(r.stdout) as { runs: { tool: { driver: { rules: { id: string; defaultConfiguration?: { level: string } }[] } }; results: { ruleId: string }[] }[] };
  assert.equal(sarif.runs[0]!.tool.driver.rules.find((x) => x.id === 'empty-values-file')?.defaultConfiguration?.level, 'warning');
  assert.ok(sarif.runs[0]!.results.some((x) => x.ruleId === 'empty-values-file'));
});

test('plan --cluster shows the empty-values-file finding of that cluster only', async () => {
  const dir = repo({
    'clusters/east/values.yaml': '\n',
    'clusters/west/kustomization.yaml': inflate('Kustomization'),
    'clusters/west/values.yaml': '  \n',
  });
  const east = await cli(['plan', '--repo', dir, '--cluster', 'east']);
  assert.equal(east.code, 0, east.stderr);
  assert.match(east.stderr, /clusters\/east\/values\.yaml is empty/);
  assert.doesNotMatch(east.stderr, /clusters\/west\/values\.yaml/);
  const all = await cli(['plan', '--repo', dir]);
  assert.match(all.stderr, /clusters\/east\/values\.yaml is empty[\s\S]*clusters\/west\/values\.yaml is empty/);
});
