/**
 * A custom resource and the HelmRelease that installs its CRD in one Flux Kustomization (ADR 0321):
 * kustomize-controller dry-runs the whole last stage of the apply (everything but CRDs, ClusterRoles,
 * Namespaces and classes) before applying any of it, and the CRD exists only after helm-controller
 * installed the chart, so on a new cluster the HelmRelease is never applied. Negative cases: the CRD
 * is also a plain object of the Kustomization (first stage), the CRD comes from a Kustomization it
 * depends on, the chart skips its CRDs, and custom resources of another API.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync, kustomizationWithDeps as ks } from '../support/flux-fixture.js';

const helmRelease = (extra = '') => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: cert-manager
  namespace: cert-manager
spec:
  interval: 1h
  chartRef:
    kind: OCIRepository
    name: cert-manager
${extra}`;

const ociRepository = `apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: cert-manager
  namespace: cert-manager
spec:
  interval: 1h
  url: oci://quay.io/jetstack/charts/cert-manager
  ref:
    tag: v1.21.1
`;

const issuer = `apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata:
  name: letsencrypt
spec:
  selfSigned: {}
`;

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: clusterissuers.cert-manager.io
spec:
  group: cert-manager.io
  names:
    kind: ClusterIssuer
    plural: clusterissuers
  scope: Cluster
`;

/** One cluster: `crds` (no dependencies) and `cert-manager` (its own folder). */
function repo(extra: Record<string, string>, certManagerDeps: string[] = []): Record<string, string> {
  return {
    'clusters/one/flux-system/gotk-sync.yaml': gotkSync('one'),
    'clusters/one/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/one/apps.yaml': ks('crds', './crds') + '---\n' + ks('cert-manager', './cert-manager', certManagerDeps),
    'crds/kustomization.yaml': 'resources:\n  - ns.yaml\n',
    'crds/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: cert-manager\n',
    'cert-manager/kustomization.yaml': 'resources:\n  - ocirepository.yaml\n  - helmrelease.yaml\n  - issuer.yaml\n',
    'cert-manager/ocirepository.yaml': ociRepository,
    'cert-manager/helmrelease.yaml': helmRelease(),
    'cert-manager/issuer.yaml': issuer,
    ...extra,
  };
}

interface Finding { severity: string; code: string; message: string; hint?: string; file?: string; line?: number }

async function findings(files: Record<string, string>): Promise<Finding[]> {
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return (JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter((f) => f.code === 'flux-crd-from-helmrelease' || f.code === 'crd-order');
  } finally {
    removeTree(dir);
  }
}

test('flux: a custom resource and the HelmRelease installing its CRD in one Kustomization is an error at the custom resource, with the split as the fix', async () => {
  const f = await findings(repo({}));
  assert.equal(f.length, 1, JSON.stringify(f));
  assert.equal(f[0]!.code, 'flux-crd-from-helmrelease');
  assert.equal(f[0]!.severity, 'error');
  assert.equal(f[0]!.file, 'cert-manager/issuer.yaml');
  assert.equal(f[0]!.line, 1);
  assert.match(f[0]!.message, /ClusterIssuer letsencrypt \(cert-manager\.io\) is applied by Kustomization "flux:flux-system\/cert-manager" together with HelmRelease cert-manager\/cert-manager \(cert-manager\/helmrelease\.yaml:1\)/);
  assert.match(f[0]!.message, /no matches for kind ClusterIssuer/);
  assert.match(f[0]!.hint ?? '', /dependsOn: \[cert-manager\] and wait: true/);
});

test('flux: no finding when the same Kustomization also holds the CRD as a plain object (applied in the first stage)', async () => {
  const f = await findings(repo({
    'cert-manager/kustomization.yaml': 'resources:\n  - crd.yaml\n  - ocirepository.yaml\n  - helmrelease.yaml\n  - issuer.yaml\n',
    'cert-manager/crd.yaml': crd,
  }));
  assert.deepEqual(f, []);
});

test('flux: no finding when a Kustomization it depends on installs the CRD', async () => {
  const f = await findings(repo({ 'crds/kustomization.yaml': 'resources:\n  - ns.yaml\n  - crd.yaml\n', 'crds/crd.yaml': crd }, ['crds']));
  assert.deepEqual(f, []);
});

test('flux: no finding when the HelmRelease skips the chart\'s CRDs, nor for a HelmRelease without custom resources of its API', async () => {
  const skip = await findings(repo({ 'cert-manager/helmrelease.yaml': helmRelease('  install:\n    crds: Skip\n') }));
  assert.deepEqual(skip.filter((x) => x.code === 'flux-crd-from-helmrelease'), []);
  const alone = await findings(repo({ 'cert-manager/kustomization.yaml': 'resources:\n  - ocirepository.yaml\n  - helmrelease.yaml\n' }));
  assert.deepEqual(alone, []);
});

test('flux: several custom resources of one API with the HelmRelease are one finding, at the first, naming the others', async () => {
  const f = await findings(repo({ 'cert-manager/issuer.yaml': `${issuer}---\n${issuer.replace('name: letsencrypt', 'name: staging')}` }));
  assert.equal(f.length, 1, JSON.stringify(f));
  assert.equal(f[0]!.line, 1);
  assert.match(f[0]!.message, /ClusterIssuer letsencrypt \(cert-manager\.io\) and 1 more cert-manager\.io object \(ClusterIssuer; cert-manager\/issuer\.yaml:8\) are applied by Kustomization/);
});

test('flux: the HelmRelease is named in the namespace the Kustomization\'s targetNamespace gives it (it wrote none), not "?"', async () => {
  const f = await findings(repo({
    'clusters/one/apps.yaml': ks('crds', './crds') + '---\n' + ks('cert-manager', './cert-manager') + '  targetNamespace: cert-manager\n',
    'cert-manager/helmrelease.yaml': helmRelease().replace('  namespace: cert-manager\n', ''),
    'cert-manager/ocirepository.yaml': ociRepository.replace('  namespace: cert-manager\n', ''),
  }));
  assert.equal(f.length, 1, JSON.stringify(f));
  assert.match(f[0]!.message, /together with HelmRelease cert-manager\/cert-manager \(cert-manager\/helmrelease\.yaml:1\)/);
});

test('flux: no error when a Kustomization it depends on has remote resources fleetplan does not read (they may install the CRD; flux-build-remote says they are not read)', async () => {
  const f = await findings(repo({ 'crds/kustomization.yaml': 'resources:\n  - ns.yaml\n  - https://github.com/cert-manager/cert-manager/releases/download/v1.15.3/cert-manager.crds.yaml\n' }, ['crds']));
  assert.deepEqual(f, []);
  // Without the dependency the remote CRDs may come too late: still the error.
  const unordered = await findings(repo({ 'crds/kustomization.yaml': 'resources:\n  - ns.yaml\n  - https://github.com/cert-manager/cert-manager/releases/download/v1.15.3/cert-manager.crds.yaml\n' }));
  assert.equal(unordered.filter((x) => x.code === 'flux-crd-from-helmrelease').length, 1, JSON.stringify(unordered));
});
