/**
 * A helmfile bootstrap that installs Argo CD, with the fleet in Argo CD objects and no Flux object
 * at all (a home-operations repository after its move from Flux to Argo CD): the helmfile-flux
 * layout read the helmfile alone and said nothing of the Applications. The
 * argocd layout reads the repository and the helmfile is named as not read (ADR 0400).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const helmfile = `releases:
  - name: cilium
    namespace: kube-system
    chart: oci://quay.io/cilium/charts/cilium
    version: 1.19.5
  - name: argocd
    namespace: argocd
    chart: oci://ghcr.io/argoproj/argo-helm/argo-cd
    version: 10.1.2
    needs: ['kube-system/cilium']
`;


const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: b\n`;

interface PlanJson {
  layout?: string;
  clusters: { name: string; apps: { name: string }[] }[];
  findings: { severity: string; code: string; message: string; file?: string }[];
}

async function plan(files: Record<string, string>): Promise<PlanJson> {
  const dir = writeTree(files);
  try {
    const r = await cli(['plan', '-o', 'json', '--repo', dir]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return JSON.parse(r.stdout) as PlanJson;
  } finally {
    removeTree(dir);
  }
}

const argoRepo: Record<string, string> = {
  'bootstrap/helmfile.d/01-apps.yaml': helmfile,
  'kubernetes/argocd/kustomization.yaml': 'resources:\n  - echo.yaml\n',
  'kubernetes/argocd/echo.yaml': argoPathApplication({ name: 'echo', path: 'kubernetes/apps/echo', namespace: 'echo' }),
  'kubernetes/apps/echo/kustomization.yaml': 'resources:\n  - cm.yaml\n',
  'kubernetes/apps/echo/cm.yaml': cm('echo'),
  // Flux's prune annotation on a Namespace is not a Flux object: such leftovers stay after a move.
  'kubernetes/apps/echo/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: echo\n  annotations:\n    kustomize.toolkit.fluxcd.io/prune: disabled\n',
};

test('helmfile bootstrap with Argo CD objects and no Flux object: read as the argocd layout, the helmfile said not read', async () => {
  const p = await plan(argoRepo);
  const apps = p.clusters.flatMap((c) => c.apps.map((a) => a.name));
  assert.ok(apps.includes('echo'), `the Application is in the plan: ${apps.join(', ')}`);
  const chosen = p.findings.find((f) => f.code === 'layout-chosen');
  assert.match(chosen?.message ?? '', /read as the argocd layout/);
  const notRead = p.findings.filter((f) => f.code === 'not-read' && f.file === 'bootstrap/helmfile.d/01-apps.yaml');
  assert.equal(notRead.length, 1, JSON.stringify(p.findings));
  assert.match(notRead[0]!.message, /no Flux object/);
});

test('a helmfile alone (no Argo CD, no Flux object) stays helmfile-flux', async () => {
  const p = await plan({ 'bootstrap/helmfile.d/01-apps.yaml': helmfile, 'kubernetes/apps/echo/cm.yaml': cm('echo') });
  const apps = p.clusters.flatMap((c) => c.apps.map((a) => a.name));
  assert.ok(apps.includes('helmfile:argocd/argocd'), apps.join(', '));
});

test('a helmfile with ks.yaml files and an Argo CD Application stays helmfile-flux (its Flux Kustomizations are read)', async () => {
  const ks = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: echo
  namespace: flux-system
spec:
  interval: 1h
  path: ./kubernetes/apps/echo/app
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;
  const p = await plan({ ...argoRepo, 'kubernetes/apps/echo/ks.yaml': ks, 'kubernetes/apps/echo/app/cm.yaml': cm('echo') });
  const apps = p.clusters.flatMap((c) => c.apps.map((a) => a.name));
  assert.ok(apps.some((a) => a.startsWith('flux:')), apps.join(', '));
});
