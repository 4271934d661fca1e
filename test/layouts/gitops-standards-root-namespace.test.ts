/**
 * The root Application of a gitops-standards cluster syncs `clusters/<c>`: Argo CD gives each
 * namespaced object of that build without a namespace the root's destination.namespace, and none to
 * cluster-scoped kinds (from fleetplan's list or a CustomResourceDefinition in the build). A kind
 * whose scope fleetplan does not know is treated as namespaced, and the note says so (ADR 0412).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argoPathApplication, cli, customResourceDefinition, removeTree } from '../support/fleet-fixture.js';

// The repository's own root (ADR 0399), reading clusters/${cluster_name}, with its own destination namespace.
const ROOT = argoPathApplication({ name: 'root-applications', path: 'clusters/${cluster_name}', namespace: 'gitops-root', repoURL: '${gitops_repo}', revision: 'HEAD' });

const EXTRA = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  k: v
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
rules: []
---
${customResourceDefinition('Gadget', 'example.com', 'Cluster')}---
apiVersion: example.com/v1
kind: Gadget
metadata:
  name: g
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
`;

interface Obj { kind: string; name: string; namespace?: string }

function repo(withRoot: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-test-'));
  cpSync('test/fixtures/gitops-standards', dir, { recursive: true });
  writeFileSync(join(dir, 'clusters/hub/extra.yaml'), EXTRA);
  writeFileSync(join(dir, 'clusters/hub/kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n\nresources:\n  - ../cluster-versions.yaml\n  - extra.yaml\n\nhelmGlobals:\n  chartHome: ../../.helm-charts\n\nhelmCharts:\n  - name: argocd-app-of-app\n    valuesFile: values.yaml\n    namespace: openshift-gitops\n');
  if (withRoot) writeFileSync(join(dir, '.bootstrap/root-application.yaml'), ROOT);
  return dir;
}

async function hubObjects(dir: string): Promise<{ objects: Obj[]; notes: string[] }> {
  const p = await cli(['plan', '--repo', dir, '-o', 'json']);
  assert.equal(p.code, 0, p.stderr);
  const hub = (JSON.parse(p.stdout) as { clusters: { name: string; objects?: Obj[]; notes?: string[] }[] }).clusters.find((c) => c.name === 'hub');
  assert.ok(hub, p.stdout);
  return { objects: hub.objects ?? [], notes: hub.notes ?? [] };
}

const placed = (objects: Obj[]) => objects.map((o) => `${o.kind}/${o.namespace ?? ''}/${o.name}`).sort();

test('gitops-standards: the root Application\'s destination namespace is given to the namespaced objects of the cluster build', async () => {
  const dir = repo(true);
  try {
    const { objects, notes } = await hubObjects(dir);
    assert.deepEqual(placed(objects), [
      'ClusterRole//reader',
      'ConfigMap/gitops-root/settings',
      // Written with its own namespace: kept.
      'ConfigMap/openshift-gitops/cluster-versions',
      'CustomResourceDefinition//gadgets.example.com',
      // Cluster-scoped by the CRD in the same build.
      'Gadget//g',
      // Scope unknown: namespaced, as most custom kinds are, and the note says so.
      'Widget/gitops-root/w',
    ]);
    assert.ok(notes.some((n) => n.includes('namespaced objects without a namespace land in gitops-root, the root Application\'s destination namespace') && n.includes('the scope of Widget (example.com) is not known to fleetplan')), JSON.stringify(notes, null, 1));
    const r = await cli(['render', '--repo', dir, '--cluster', 'hub']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /kind: ConfigMap\nmetadata:\n {2}name: settings\n {2}namespace: gitops-root\n/);
  } finally {
    removeTree(dir);
  }
});

test('gitops-standards: without the repository\'s root, fleetplan\'s root syncs the build into the GitOps namespace', async () => {
  const dir = repo(false);
  try {
    const { objects } = await hubObjects(dir);
    assert.ok(placed(objects).includes('ConfigMap/openshift-gitops/settings'), JSON.stringify(objects));
    assert.ok(placed(objects).includes('ClusterRole//reader'), JSON.stringify(objects));
  } finally {
    removeTree(dir);
  }
});

test('gitops-standards: a cluster read by the kustomize fallback places its build\'s objects the same way', async () => {
  const dir = repo(true);
  // A template fleetplan does not know: the cluster is read by building it with kustomize and Helm.
  appendFileSync(join(dir, '.helm-charts/argocd-app-of-app/templates/projects.yaml'), '\n{{- /* changed */}}\n');
  try {
    const { objects, notes } = await hubObjects(dir);
    assert.ok(notes.some((n) => n.startsWith('Applications read from ')), JSON.stringify(notes, null, 1));
    assert.ok(placed(objects).includes('ConfigMap/gitops-root/settings'), JSON.stringify(objects));
    assert.ok(placed(objects).includes('Gadget//g'), JSON.stringify(objects));
  } finally {
    removeTree(dir);
  }
});
