/**
 * flux-operator ResourceSets in a helmfile + Flux repository (ADR 0416): the flux layout names each
 * one a Kustomization applies; the helmfile-flux layout did not look for them, so a plan of such a
 * repository silently lacked what they make. The same note and finding, through the same code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxKustomization } from '../support/flux-fixture.js';

const resourceSet = `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata:
  name: tenants
  namespace: flux-system
spec:
  inputs:
    - tenant: frontend
  resources:
    - apiVersion: v1
      kind: Namespace
      metadata:
        name: << inputs.tenant >>
`;

test('helmfile-flux: a ResourceSet in a folder a Kustomization builds is named in the plan and as a finding, at its template field', async () => {
  const dir = writeTree({
    'bootstrap/helmfile.yaml': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://quay.io/cilium/charts/cilium\n    version: 1.0.0\n',
    'kubernetes/flux/cluster/ks.yaml': fluxKustomization('cluster-apps', 'kubernetes/apps', '', 'flux-system'),
    'kubernetes/apps/flux-system/kustomization.yaml': 'resources:\n  - ./tenants/ks.yaml\n',
    'kubernetes/apps/flux-system/tenants/ks.yaml': fluxKustomization('tenants', 'kubernetes/apps/flux-system/tenants/app', '', 'flux-system'),
    'kubernetes/apps/flux-system/tenants/app/kustomization.yaml': 'resources:\n  - ./resourceset.yaml\n',
    'kubernetes/apps/flux-system/tenants/app/resourceset.yaml': resourceSet,
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const p = JSON.parse(r.stdout) as { layout?: string; clusters: { notes: string[] }[]; findings: { code: string; file?: string; line?: number; message: string }[] };
    const notes = p.clusters.flatMap((c) => c.notes).filter((n) => n.includes('ResourceSet'));
    assert.deepEqual(notes.length, 1, JSON.stringify(p.clusters.map((c) => c.notes)));
    assert.match(notes[0]!, /^not read: ResourceSet flux-system\/tenants \(kubernetes\/apps\/flux-system\/tenants\/app\/resourceset\.yaml:9 spec\.resources\)/);
    const f = p.findings.filter((x) => x.code === 'flux-resourceset-not-read');
    assert.deepEqual(f.map((x) => [x.file, x.line]), [['kubernetes/apps/flux-system/tenants/app/resourceset.yaml', 9]]);
  } finally {
    removeTree(dir);
  }
});
