/**
 * A repository that keeps each cluster's Argo CD roots in its own `clusters/<name>/` folder, as
 * loose files (no kustomization): `clusters/alpha/argocd/apps.yaml` applied by hand on alpha,
 * `clusters/beta/argocd.yaml` (an app-of-apps reading `clusters/beta/argocd`) on beta, each
 * ApplicationSet named alike. The loose root files were one group applied to one `in-cluster`, so
 * the same names collided (a duplicate-app warning per name) and the clusters were merged. Root
 * kustomizations were already one cluster per `clusters/<name>` folder (ADR 0197); loose files now
 * are too (ADR 0398).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoListApplicationSet, argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const appset = (env: string) => argoListApplicationSet({ name: 'apps', apps: ['web', `${env}-only`], path: 'apps/web', repoURL: 'https://github.com/acme/lab.git' });

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  k: v\n';

test('loose root files under clusters/<name>/ are each that cluster\'s roots, not one cluster\'s', async () => {
  const dir = writeTree({
    'clusters/alpha/argocd/apps.yaml': appset('alpha'),
    'clusters/beta/argocd.yaml': argoPathApplication({ name: 'beta', path: 'clusters/beta/argocd', namespace: 'argocd', repoURL: 'https://github.com/acme/lab.git' }),
    'clusters/beta/argocd/apps.yaml': appset('beta'),
    'apps/web/cm.yaml': CM,
  });
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { name: string; apps: { name: string }[] }[]; findings: { code: string }[] };
    assert.deepEqual(plan.clusters.map((c) => [c.name, c.apps.map((a) => a.name).sort()]), [
      ['alpha', ['alpha-only', 'web']],
      ['beta', ['beta', 'beta-only', 'web']],
    ]);
    assert.deepEqual(plan.findings.filter((f) => f.code === 'duplicate-app'), []);
  } finally {
    removeTree(dir);
  }
});

test('loose root files in one cluster folder, or outside clusters/, stay one group', async () => {
  const dir = writeTree({
    'clusters/alpha/argocd/apps.yaml': appset('alpha'),
    'clusters/alpha/argocd/more.yaml': argoPathApplication({ name: 'more', path: 'apps/web', namespace: 'more', repoURL: 'https://github.com/acme/lab.git' }),
    'apps/web/cm.yaml': CM,
  });
  try {
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { name: string; apps: { name: string }[] }[] };
    assert.deepEqual(plan.clusters.map((c) => [c.name, c.apps.map((a) => a.name).sort()]), [['in-cluster', ['alpha-only', 'more', 'web']]]);
  } finally {
    removeTree(dir);
  }
});
