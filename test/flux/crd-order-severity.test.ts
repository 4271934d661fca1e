/**
 * crd-order on a Flux fleet judged as kustomize-controller behaves (ADR 0370): a Kustomization
 * whose custom resource's CRD comes from another Kustomization it does not depend on fails its dry
 * run ("no matches for kind") and is retried every retryInterval (default: interval); once the
 * other one has installed the CRD, the next retry applies it. That converges late, so it is a
 * warning. When the provider itself depends on the user (a dependsOn path), the user never
 * applies and the provider waits for ever: an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync, kustomizationWithDeps as ks } from '../support/flux-fixture.js';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
  scope: Cluster
  versions:
    - name: v1
      served: true
      storage: true
`;

const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';

function repo(crdsDeps: string[], appsDeps: string[]): Record<string, string> {
  return {
    'clusters/one/flux-system/gotk-sync.yaml': gotkSync('one'),
    'clusters/one/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/one/apps.yaml': ks('crds', './crds', crdsDeps) + '---\n' + ks('apps', './apps', appsDeps),
    'crds/kustomization.yaml': 'resources:\n  - crd.yaml\n',
    'crds/crd.yaml': crd,
    'apps/kustomization.yaml': 'resources:\n  - widget.yaml\n',
    'apps/widget.yaml': widget,
  };
}

type Found = { severity: string; code: string; message: string; hint?: string };
async function crdOrder(files: Record<string, string>): Promise<Found[]> {
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    return (JSON.parse(r.stdout) as { findings: Found[] }).findings.filter((f) => f.code === 'crd-order');
  } finally {
    removeTree(dir);
  }
}

test('flux crd-order: a Kustomization using a CRD of another one it does not depend on is a warning that says it converges on a retry', async () => {
  const found = await crdOrder(repo([], []));
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.severity, 'warning');
  assert.match(found[0]!.message, /fails its dry run .*until .*crds.* installs/);
  assert.match(found[0]!.message, /retryInterval/);
  assert.match(found[0]!.hint ?? '', /dependsOn/);
});

test('flux crd-order: when the provider depends on the user, it never converges: an error', async () => {
  const found = await crdOrder(repo(['apps'], []));
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.severity, 'error');
  assert.match(found[0]!.message, /never/);
});

test('flux crd-order: with dependsOn on the provider there is no finding', async () => {
  assert.deepEqual(await crdOrder(repo([], ['crds'])), []);
});
