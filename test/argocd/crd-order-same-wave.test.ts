/**
 * The repository's own Applications (argocd layout): a custom resource in the same wave as the
 * app that installs its CRD is a race, not an order (the app-of-apps syncs a wave's Applications
 * together). The first sync fails until the CRD is there; a retry converges: syncPolicy.retry, or
 * a person syncing a manual app again (a warning). An automated sync without retry is not tried
 * again for that revision (an error), and an earlier wave than the provider stays an error
 * (ADR 0392; shane-snyder/ocp-homelab's oauth app was an error at the wave of its operator).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, path: string, wave: number, policy: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
  annotations:
    argocd.argoproj.io/sync-wave: "${wave}"
spec:
  project: default
  source:
    repoURL: https://github.com/acme/platform.git
    targetRevision: main
    path: ${path}
  destination:
    server: https://kubernetes.default.svc
    namespace: ${name}
${policy}`;

const SUBSCRIPTION = 'apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata:\n  name: external-secrets-operator\n  namespace: eso\nspec:\n  name: external-secrets-operator\n  channel: stable\n  source: community-operators\n  sourceNamespace: openshift-marketplace\n';
const SECRET = 'apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: htpass\n  namespace: openshift-config\nspec:\n  secretStoreRef:\n    kind: ClusterSecretStore\n    name: vault\n  target:\n    name: htpass\n';

const AUTOMATED = '  syncPolicy:\n    automated: {}\n';
const RETRY = '  syncPolicy:\n    automated: {}\n    retry:\n      limit: -1\n';

async function crdOrder(wave: number, policy: string): Promise<{ severity: string; message: string }[]> {
  const dir = writeTree({
    'bootstrap/root.yaml': app('root', 'apps', 0, AUTOMATED),
    'apps/eso.yaml': app('eso', 'eso', 5, AUTOMATED),
    'apps/oauth.yaml': app('oauth', 'oauth', wave, policy),
    'eso/subscription.yaml': SUBSCRIPTION,
    'oauth/external-secret.yaml': SECRET,
  });
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    return (JSON.parse(v.stdout) as { findings: { code: string; severity: string; message: string }[] }).findings.filter((f) => f.code === 'crd-order');
  } finally {
    removeTree(dir);
  }
}

test('same wave, a manual app: a warning that says the first sync fails and a person syncs it again', async () => {
  const found = await crdOrder(5, '');
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.severity, 'warning');
  assert.match(found[0]!.message, /both are in wave 5, which Argo CD syncs together/);
  assert.match(found[0]!.message, /a person syncs it again once the CRD is there, so it converges late/);
});

test('same wave with syncPolicy.retry: a warning', async () => {
  const found = await crdOrder(5, RETRY);
  assert.equal(found[0]?.severity, 'warning', JSON.stringify(found));
  assert.match(found[0]!.message, /syncPolicy\.retry syncs it again/);
});

test('same wave, automated without retry: an error, the failed sync is not tried again', async () => {
  const found = await crdOrder(5, AUTOMATED);
  assert.equal(found[0]?.severity, 'error', JSON.stringify(found));
  assert.match(found[0]!.message, /without syncPolicy\.retry is not attempted again for that revision/);
});

test('an earlier wave than the provider stays an error, retry or not', async () => {
  const found = await crdOrder(3, RETRY);
  assert.equal(found[0]?.severity, 'error', JSON.stringify(found));
  assert.doesNotMatch(found[0]!.message, /syncs together/);
});
