/**
 * A root kustomization or an app-of-apps directory that holds AppProjects, Namespaces and
 * ConfigMaps beside its Applications gives all of them to the cluster. render wrote only the
 * Applications: an AppProject `virt` the root applies was missing, and nothing said that the root
 * also applies a Namespace. Now render writes the AppProjects exactly as the build gives them
 * (projects/<name>.yaml, their own namespace kept), the other objects under objects/ (ADR 0398),
 * and the plan names them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const project = (name: string) => `apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata:
  name: ${name}
  namespace: argocd
spec:
  description: "${name} workloads"
  sourceRepos: ['\${NOT_SUBSTITUTED}']
  destinations:
    - namespace: '${name}-*'
      server: https://kubernetes.default.svc
`;

const NS = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: argocd\ndata:\n  k: v\n';

function repo(): string {
  return writeTree({
    // A root kustomization, applied by hand: an AppProject, a Namespace, an app-of-apps.
    'clusters/east/kustomization.yaml': 'resources:\n  - projects.yaml\n  - namespace.yaml\n  - apps.yaml\n',
    'clusters/east/projects.yaml': project('virt'),
    'clusters/east/namespace.yaml': NS,
    'clusters/east/apps.yaml': argoPathApplication({ name: 'apps', path: 'apps', namespace: 'argocd' }),
    // The app-of-apps directory: an Application, an AppProject and a ConfigMap.
    'apps/web.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web', project: 'team' }),
    'apps/team-project.yaml': project('team'),
    'apps/settings.yaml': CM,
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  k: v\n',
  });
}

test('render writes the AppProjects a root kustomization and an app-of-apps apply, as written, and their other objects; the plan names them', async () => {
  const dir = repo();
  try {
    const r = await cli(['render', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const items = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string; namespace?: string }; spec: Record<string, unknown> }[] }).items;
    assert.deepEqual(items.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort(), ['AppProject/argocd/team', 'AppProject/argocd/virt', 'Application/argocd/apps', 'Application/argocd/web', 'ConfigMap/argocd/settings', 'Namespace//team-a']);
    const virt = items.find((o) => o.metadata.name === 'virt')!;
    // Exactly as written: no sync-wave added, no variable substituted (Argo CD substitutes none).
    assert.deepEqual(virt, { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name: 'virt', namespace: 'argocd' }, spec: { description: 'virt workloads', sourceRepos: ['${NOT_SUBSTITUTED}'], destinations: [{ namespace: 'virt-*', server: 'https://kubernetes.default.svc' }] } });
    const p = await cli(['plan', '--repo', dir]);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /AppProjects: team \(Application apps\), virt \(kustomize build clusters\/east\)/);
    assert.match(p.stdout, /the root kustomize build clusters\/east also applies 1 object that is not Argo CD's: Namespace team-a \(render writes them under objects\/\)/);
    assert.match(p.stdout, /Application apps \(an app-of-apps\) also applies 1 object that is not Argo CD's: ConfigMap argocd\/settings \(render writes them under objects\/\)/);
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const errors = (JSON.parse(v.stdout) as { findings: { severity: string }[] }).findings.filter((f) => f.severity === 'error');
    assert.deepEqual(errors, []);
  } finally {
    removeTree(dir);
  }
});

test('a root file applied with kubectl apply -f gives its AppProject too', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': `${project('platform')}---\n${argoPathApplication({ name: 'root', path: 'web', namespace: 'web', project: 'platform' })}`,
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  k: v\n',
  });
  try {
    const r = await cli(['render', '--repo', dir, '--out', `${dir}/out`]);
    assert.equal(r.code, 0, r.stderr);
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.match(p.stdout, /AppProjects: platform \(bootstrap\/root.yaml\)/);
    const r2 = await cli(['render', '--repo', dir]);
    assert.match(r2.stdout, /# Source: in-cluster\/projects\/platform.yaml\napiVersion: argoproj.io\/v1alpha1\nkind: AppProject/);
  } finally {
    removeTree(dir);
  }
});
