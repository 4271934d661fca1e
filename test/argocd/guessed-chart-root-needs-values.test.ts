/**
 * A chart of the repository that writes Argo CD objects and that no Application or kustomization
 * reads is guessed a root: installed by hand (`helm install`). Some such charts are installed
 * with values the repository does not hold (`--set git.path=…` from a portal template): with
 * their own defaults `helm template` fails (`required`, or a nil value). That failure was an
 * error, and `render` wrote nothing for a repository whose every cluster builds
 * (Vikaspogu/openshift-multicluster's helm/charts/tenants-iac-gitops). A guessed root is not
 * known to be applied as it is: its failure is a warning naming the chart and Helm's message, the
 * cluster's notes say its objects are not in the plan, and the rest renders. A chart that an
 * Application reads keeps the helm-template-failed error: Argo CD renders it with those values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';

function repo(): string {
  return writeTree({
    'bootstrap/root.yaml': argoPathApplication({ name: 'root', path: 'apps', namespace: 'argocd' }),
    'apps/web.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web' }),
    'web/cm.yaml': CM,
    'charts/tenants/Chart.yaml': 'apiVersion: v2\nname: tenants\nversion: 0.1.0\n',
    'charts/tenants/values.yaml': 'git:\n  url:\n  path:\n',
    'charts/tenants/templates/appset.yaml': [
      '{{- $path := split "/" .Values.git.path }}',
      'apiVersion: argoproj.io/v1alpha1',
      'kind: ApplicationSet',
      'metadata:',
      '  name: tenants-{{ $path._1 }}',
      '  namespace: argocd',
      'spec:',
      '  generators:',
      '    - list:',
      '        elements: []',
      '  template:',
      '    metadata:',
      "      name: '{{`{{name}}`}}'",
      '    spec:',
      '      project: default',
      '      source:',
      '        repoURL: {{ required "git.url is required" .Values.git.url }}',
      '        path: x',
      '      destination:',
      '        server: https://kubernetes.default.svc',
      '        namespace: x',
      '',
    ].join('\n'),
  });
}

type Found = { severity: string; code: string; file?: string; message: string; hint?: string };

test('a guessed chart root that fails with its own defaults is a warning naming the chart; the other roots render', async () => {
  const dir = repo();
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: Found[] }).findings;
    assert.deepEqual(findings.filter((f) => f.severity === 'error'), []);
    const w = findings.find((f) => f.code === 'chart-root-not-built');
    assert.ok(w, JSON.stringify(findings));
    assert.equal(w.severity, 'warning');
    assert.equal(w.file, 'charts/tenants/Chart.yaml');
    assert.match(w.message, /helm template charts\/tenants/);
    assert.match(w.message, /git\.path|wrong type|required/);
    assert.match(w.hint ?? '', /values/);
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { name: string; notes?: string[]; apps: { name: string }[] }[] };
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)).sort(), ['root', 'web']);
    const chartCluster = plan.clusters.find((c) => (c.notes ?? []).some((n) => n.includes('charts/tenants')));
    assert.ok(chartCluster, JSON.stringify(plan.clusters));
    assert.ok(chartCluster.notes!.some((n) => /not built.*not in this plan/.test(n)), JSON.stringify(chartCluster.notes));
    const r = await cli(['render', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /name: web\n/);
  } finally {
    removeTree(dir);
  }
});
