/**
 * An Application whose source names a config-management plugin of the repository's own Argo CD
 * (`plugin: { name: argocd-lovely-plugin }`) is built by that plugin's commands, which fleetplan
 * never runs (ADR 0284). plugin-needs-kustomization judged every such source as if the plugin were
 * fleetplan's own (`kustomize build | envsubst`): a bare Helm chart given to argocd-lovely-plugin,
 * which renders charts itself, was an error that Argo CD never hits
 * (Vikaspogu/openshift-multicluster's pac-repository-config). The rule is about fleetplan's plugin
 * only: fleet.yaml's `gitops.plugin`, still judged in test/validate/rules.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

test('a bare chart or plain YAML built by a named plugin of the repository is not plugin-needs-kustomization', async () => {
  const source = (path: string) => `    repoURL: https://github.com/acme/apps.git\n    targetRevision: HEAD\n    path: ${path}\n    plugin:\n      name: argocd-lovely-plugin\n`;
  const dir = writeTree({
    'roots/apps.yaml': `${argoApplication('chart', source('charts/pac'))}---\n${argoApplication('plain', source('plain'))}`,
    'charts/pac/Chart.yaml': 'apiVersion: v2\nname: pac\nversion: 0.1.0\n',
    'charts/pac/values.yaml': 'name: pac\n',
    'charts/pac/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n',
    'plain/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n',
  });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const found = (JSON.parse(r.stdout) as { findings: { code: string; severity: string }[] }).findings;
    assert.deepEqual(found.filter((f) => f.code === 'plugin-needs-kustomization'), []);
    assert.deepEqual(found.filter((f) => f.severity === 'error'), []);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    removeTree(dir);
  }
});
