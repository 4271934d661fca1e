/**
 * The validate rules on the flux layout, judged as kustomize-controller applies (ADR 0298): one
 * Kustomization's objects are applied in stages (CRDs and Namespaces first), so a CRD and its
 * custom resource in one Kustomization are in order; a custom resource whose CRD comes from a
 * Kustomization that itself depends on it can never be applied on a new cluster, and the hint must
 * not propose the dependency that would close the cycle; a SOPS-encrypted Secret is not plaintext.
 * The shapes are those found on a real repository (MTRNord/cluster e1c42053), written small here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync, kustomizationWithDeps as ks } from '../support/flux-fixture.js';

const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n  scope: Namespaced\n';
const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: infra\n';
const sopsBlock = 'sops:\n  age:\n    - recipient: age1example\n      enc: |\n        -----BEGIN AGE ENCRYPTED FILE-----\n        -----END AGE ENCRYPTED FILE-----\n  lastmodified: "2026-01-01T00:00:00Z"\n  mac: ENC[AES256_GCM,data:abc,type:str]\n  encrypted_regex: ^(data|stringData)$\n  version: 3.9.0\n';

/** One cluster: infra (no dependencies), configs after infra, apps after configs. */
function repo(extra: Record<string, string>): Record<string, string> {
  return {
    'clusters/one/flux-system/gotk-sync.yaml': gotkSync('one'),
    'clusters/one/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/one/infra.yaml': ks('infra', './infra') + '---\n' + ks('configs', './configs', ['infra']),
    'clusters/one/apps.yaml': ks('apps', './apps', ['configs']),
    'infra/kustomization.yaml': 'resources:\n  - ns.yaml\n',
    'infra/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: infra\n',
    'configs/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'configs/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: infra\n',
    'apps/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'apps/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: infra\n',
    ...extra,
  };
}

interface Finding { severity: string; code: string; message: string; hint?: string; file?: string; line?: number }

async function validate(files: Record<string, string>): Promise<Finding[]> {
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
  } finally {
    removeTree(dir);
  }
}

test('flux findings: a CRD and its custom resource in the same Kustomization are in order (kustomize-controller applies CRDs first)', async () => {
  const f = await validate(repo({
    'infra/kustomization.yaml': 'resources:\n  - ns.yaml\n  - crd.yaml\n  - w.yaml\n',
    'infra/crd.yaml': crd,
    'infra/w.yaml': widget,
  }));
  assert.deepEqual(f.filter((x) => x.code === 'crd-order'), []);
});

test('flux findings: a custom resource in a Kustomization that the CRD\'s Kustomization depends on is crd-order, and the hint names the cycle instead of proposing it', async () => {
  const f = await validate(repo({
    'infra/kustomization.yaml': 'resources:\n  - ns.yaml\n  - w.yaml\n',
    'infra/w.yaml': widget,
    'apps/kustomization.yaml': 'resources:\n  - cm.yaml\n  - crd.yaml\n',
    'apps/crd.yaml': crd,
  }));
  const c = f.filter((x) => x.code === 'crd-order');
  assert.equal(c.length, 1, JSON.stringify(f));
  assert.match(c[0]!.message, /"flux:flux-system\/infra" applies example\.com \(Widget\) before "flux:flux-system\/apps"/);
  // apps → configs → infra: "add apps to the dependencies of infra" would be a dependency cycle.
  assert.doesNotMatch(c[0]!.hint ?? '', /add flux:flux-system\/apps to the dependencies/);
  assert.match(c[0]!.hint ?? '', /"flux:flux-system\/apps" depends on "flux:flux-system\/infra" \(apps → configs → infra\)/);
  assert.match(c[0]!.hint ?? '', /new cluster/);
});

test('flux findings: a provider with no dependency path back keeps the dependsOn hint', async () => {
  const f = await validate(repo({
    'clusters/one/crds.yaml': ks('crds', './crds'),
    'crds/kustomization.yaml': 'resources:\n  - crd.yaml\n',
    'crds/crd.yaml': crd,
    'configs/kustomization.yaml': 'resources:\n  - cm.yaml\n  - w.yaml\n',
    'configs/w.yaml': widget,
  }));
  const c = f.filter((x) => x.code === 'crd-order');
  assert.equal(c.length, 1, JSON.stringify(f));
  assert.match(c[0]!.hint ?? '', /add flux:flux-system\/crds to the dependencies of "flux:flux-system\/configs"/);
});

test('flux findings: a SOPS-encrypted Secret is not secret-in-git; a plaintext one in the same Kustomization is', async () => {
  const f = await validate(repo({
    'configs/kustomization.yaml': 'resources:\n  - cm.yaml\n  - enc.yaml\n  - plain.yaml\n',
    'configs/enc.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: enc\n  namespace: infra\ndata:\n  password: ENC[AES256_GCM,data:abcd,iv:x,tag:y,type:str]\n' + sopsBlock,
    'configs/plain.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: plain\n  namespace: infra\ndata:\n  password: aHVudGVyMg==\n',
  }));
  const s = f.filter((x) => x.code === 'secret-in-git');
  assert.deepEqual(s.map((x) => x.file), ['configs/plain.yaml'], JSON.stringify(f));
});

test('flux findings: an object two Kustomizations apply with the same content is shared-object-identical, told in Flux\'s terms (owner labels, pruning, dependsOn)', async () => {
  const f = await validate(repo({
    'configs/kustomization.yaml': 'resources:\n  - cm.yaml\n  - ns.yaml\n',
    'configs/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: infra\n',
  }));
  const s = f.filter((x) => x.code.startsWith('shared-object'));
  assert.equal(s.length, 1, JSON.stringify(f));
  assert.equal(s[0]!.severity, 'warning');
  assert.match(s[0]!.message, /Namespace infra is applied with the same content by 2 Kustomizations: "flux:flux-system\/configs" \([^)]*\) from configs\/ns\.yaml:1, "flux:flux-system\/infra" \([^)]*\) from infra\/ns\.yaml:1/);
  assert.match(s[0]!.hint ?? '', /kustomize\.toolkit\.fluxcd\.io\/name/);
  assert.match(s[0]!.hint ?? '', /prun/);
  assert.doesNotMatch(s[0]!.hint ?? '', /needs/);
});
