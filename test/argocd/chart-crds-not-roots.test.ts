/**
 * A repository that vendors Argo CD's own Helm chart (helm/charts/argo-cd) beside its app-of-apps
 * chart: the argo-cd chart's templates/crds/ define the Application and ApplicationSet CRDs
 * (`names: kind: Application`). The scan took that for a template writing Applications, guessed
 * the chart a root, and planned an invented cluster `helm-charts-argo-cd` with 0 apps and the 48
 * objects of Argo CD's installation. A CustomResourceDefinition names a kind; it writes no object
 * of it (ADR 0398).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const CRD = `{{- if .Values.crds.install }}
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: applications.argoproj.io
spec:
  group: argoproj.io
  names:
    kind: Application
    listKind: ApplicationList
    plural: applications
  scope: Namespaced
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
{{- end }}
`;

test('a vendored chart whose templates only define the Application CRD is not a guessed root', async () => {
  const dir = writeTree({
    'helm/charts/argo-cd/Chart.yaml': 'apiVersion: v2\nname: argo-cd\nversion: 1.0.0\n',
    'helm/charts/argo-cd/values.yaml': 'crds:\n  install: true\n',
    'helm/charts/argo-cd/templates/crds/crd-application.yaml': CRD,
    'helm/charts/argo-cd/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cm\n  namespace: argocd\n',
    'bootstrap/root.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web', repoURL: 'https://github.com/acme/lab.git' }),
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
  });
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const clusters = (JSON.parse(p.stdout) as { clusters: { name: string; apps: { name: string }[]; objects?: unknown[] }[] }).clusters;
    assert.deepEqual(clusters.map((c) => [c.name, c.apps.map((a) => a.name), c.objects?.length ?? 0]), [['in-cluster', ['web'], 0]]);
  } finally {
    removeTree(dir);
  }
});
