/**
 * flux-operator ResourceSets that a cluster's Flux Kustomizations apply (ADR 0416): flux-operator
 * builds their templates (`spec.resources`, `spec.resourcesTemplate`, `spec.steps`) for each input
 * in the cluster; fleetplan does not evaluate them, and the plan and validate say so, naming the
 * file, the line and the field, instead of a plan that silently lacks what they make.
 * Small repositories written by the test, in the shape of flux-operator's fleet repositories
 * (FluxInstance sync, `clusters/<name>/`, a shared `tenants/` folder).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxInstance } from '../support/flux-fixture.js';

const tenantsKs = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: tenants
  namespace: flux-system
spec:
  interval: 1h
  path: ./tenants
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;

/** A ResourceSet with static resources and no inputs: flux-operator builds them once. */
const operatorSet = `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata:
  name: flux-operator
  namespace: flux-system
spec:
  resources:
    - apiVersion: source.toolkit.fluxcd.io/v1
      kind: OCIRepository
      metadata:
        name: flux-operator
        namespace: flux-system
      spec:
        interval: 10m
        url: oci://ghcr.io/controlplaneio-fluxcd/charts/flux-operator
        ref:
          semver: "*"
    - apiVersion: helm.toolkit.fluxcd.io/v2
      kind: HelmRelease
      metadata:
        name: flux-operator
        namespace: flux-system
      spec:
        interval: 30m
        chartRef:
          kind: OCIRepository
          name: flux-operator
`;

/** A ResourceSet of two static inputs × a namespace and a Flux Kustomization per tenant. */
const appsSet = `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata:
  name: apps
  namespace: flux-system
spec:
  inputs:
    - tenant: frontend
    - tenant: backend
  resources:
    - apiVersion: v1
      kind: Namespace
      metadata:
        name: << inputs.tenant >>
    - apiVersion: kustomize.toolkit.fluxcd.io/v1
      kind: Kustomization
      metadata:
        name: apps
        namespace: << inputs.tenant >>
      spec:
        interval: 1h
        path: ./apps/<< inputs.tenant >>
        prune: true
        sourceRef:
          kind: GitRepository
          name: flux-system
          namespace: flux-system
`;

/** A ResourceSet whose inputs come from a ResourceSetInputProvider, with a YAML template. */
const previewSet = `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSetInputProvider
metadata:
  name: pull-requests
  namespace: flux-system
spec:
  type: GitHubPullRequest
  url: https://github.com/org/app
---
apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata:
  name: previews
  namespace: flux-system
spec:
  inputsFrom:
    - apiVersion: fluxcd.controlplane.io/v1
      kind: ResourceSetInputProvider
      name: pull-requests
  resourcesTemplate: |
    ---
    apiVersion: v1
    kind: Namespace
    metadata:
      name: preview-<< inputs.id >>
`;

function repo(): Record<string, string> {
  return {
    'clusters/one/flux-system/flux-instance.yaml': fluxInstance('clusters/one'),
    'clusters/one/flux-system/flux-operator.yaml': operatorSet,
    'clusters/one/flux-system/kustomization.yaml': 'resources:\n  - flux-instance.yaml\n  - flux-operator.yaml\n',
    'clusters/one/tenants.yaml': tenantsKs,
    'tenants/kustomization.yaml': 'resources:\n  - apps.yaml\n  - previews.yaml\n',
    'tenants/apps.yaml': appsSet,
    'tenants/previews.yaml': previewSet,
    'apps/frontend/kustomization.yaml': 'resources: []\n',
  };
}

interface Finding { severity: string; code: string; message: string; file?: string; line?: number }

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = writeTree(repo());
  try {
    return await cli([...args, '--repo', dir]);
  } finally {
    removeTree(dir);
  }
}

test('flux ResourceSet: the plan names each ResourceSet a Kustomization applies, its file, line and template field, and how its inputs come', async () => {
  const r = await run(['plan', '-o', 'json']);
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  const p = JSON.parse(r.stdout) as { clusters: { name: string; apps: { name: string }[]; notes: string[] }[]; findings: Finding[] };
  const one = p.clusters.find((c) => c.name === 'one')!;
  const notes = one.notes.filter((n) => n.includes('ResourceSet'));
  assert.equal(notes.length, 3, one.notes.join('\n'));
  const note = (name: string) => notes.find((n) => n.includes(`ResourceSet flux-system/${name} `)) ?? '';
  assert.match(note('flux-operator'), /^not read: ResourceSet flux-system\/flux-operator \(clusters\/one\/flux-system\/flux-operator\.yaml:7 spec\.resources\): flux-operator builds its 2 resources \(OCIRepository flux-system\/flux-operator, HelmRelease flux-system\/flux-operator\) once \(no inputs\)/);
  assert.match(note('apps'), /^not read: ResourceSet flux-system\/apps \(tenants\/apps\.yaml:10 spec\.resources\): flux-operator builds its 2 resources \(Namespace << inputs\.tenant >>, Kustomization << inputs\.tenant >>\/apps\) for each of its 2 spec\.inputs/);
  assert.match(note('previews'), /^not read: ResourceSet flux-system\/previews \(tenants\/previews\.yaml:20 spec\.resourcesTemplate\): flux-operator builds its spec\.resourcesTemplate for each input of spec\.inputsFrom \(ResourceSetInputProvider pull-requests, which the cluster resolves\)/);
  for (const n of notes) assert.match(n, /fleetplan does not evaluate ResourceSet templates: the objects they make, and the Flux Kustomizations and HelmReleases among them, are not in the plan/);
  // The Kustomizations the ResourceSet makes are not invented as apps.
  assert.deepEqual(one.apps.map((a) => a.name).sort(), ['flux:flux-system/flux-system', 'flux:flux-system/tenants']);
});

test('flux ResourceSet: validate reports each ResourceSet not evaluated as an info finding at its template field', async () => {
  const r = await run(['validate', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const findings = (JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter((f) => f.code === 'flux-resourceset-not-read');
  assert.deepEqual(
    findings.map((f) => [f.severity, f.file, f.line]).sort(),
    [
      ['info', 'clusters/one/flux-system/flux-operator.yaml', 7],
      ['info', 'tenants/apps.yaml', 10],
      ["info", "tenants/previews.yaml", 20],
    ],
  );
  assert.match(findings.find((f) => f.file === 'tenants/apps.yaml')!.message, /^cluster one: ResourceSet flux-system\/apps: flux-operator builds its 2 resources .* for each of its 2 spec\.inputs/);
});
