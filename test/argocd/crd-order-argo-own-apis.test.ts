/**
 * The repository's own Applications are synced by the Argo CD already running on the cluster, so
 * Argo CD's own kinds (Application, ApplicationSet, AppProject of argoproj.io) are served before
 * any app: an app-of-apps in the same wave as the app that manages Argo CD itself (and ships those
 * CRDs) is no crd-order finding. Another argoproj.io kind (an Argo Rollouts Rollout) still is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, customResourceDefinition, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, path: string) => `${argoPathApplication({ name, path, namespace: 'argocd' })}  syncPolicy:\n    automated: {}\n`;

const ROLLOUT = 'apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\n  namespace: argocd\nspec:\n  replicas: 1\n';

async function crdOrder(files: Record<string, string>): Promise<{ severity: string; message: string }[]> {
  const dir = writeTree({
    'bootstrap.yaml': app('apps', 'apps'),
    'apps/argocd.yaml': app('argocd', 'argocd'),
    'argocd/crds.yaml': ['Application', 'AppProject', 'Rollout'].map((k) => customResourceDefinition(k, 'argoproj.io', 'Namespaced')).join('---\n'),
    ...files,
  });
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    return (JSON.parse(v.stdout) as { findings: { code: string; severity: string; message: string }[] }).findings.filter((f) => f.code === 'crd-order');
  } finally {
    removeTree(dir);
  }
}

test('an app-of-apps beside the app that manages Argo CD: no crd-order, Argo CD serves its own kinds', async () => {
  const found = await crdOrder({});
  assert.deepEqual(found, []);
});

test('a Rollout (argoproj.io, not Argo CD\'s own kind) beside the app that installs its CRD is still judged', async () => {
  const found = await crdOrder({ 'apps/web.yaml': app('web', 'web'), 'web/rollout.yaml': ROLLOUT });
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.match(found[0]!.message, /app "web" at wave 0 applies argoproj\.io \(Rollout\) before "argocd"/);
});
