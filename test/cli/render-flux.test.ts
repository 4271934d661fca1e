/**
 * `render`, `plan` and `bootstrap` of a native fleet with `gitops.engine: flux`. The checks against
 * the upstream Flux CRD schemas and the helmfile + Flux real repository are in
 * test/real/cli/render-flux.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

function fluxFleet(overrides: Record<string, string> = {}): Record<string, string> {
  const files = baseFleet(overrides);
  files['fleet.yaml'] = files['fleet.yaml']!.replace('  revision: main\n', '  revision: main\n  gitops:\n    engine: flux\n');
  return files;
}

test('render of a fleet with engine flux writes Flux Kustomizations and a Flux bootstrap, no Argo CD objects', async () => {
  const dir = writeTree(fluxFleet());
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(join(out, 'one')).sort(), ['apps', 'bootstrap']);
    assert.deepEqual(readdirSync(join(out, 'one', 'bootstrap')).sort(), ['00-namespace.yaml', '10-gitrepository.yaml', '90-root-kustomization.yaml']);
    const config = jsYaml.load(readFileSync(join(out, 'one', 'apps', 'config.yaml'), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.equal(config.apiVersion, 'kustomize.toolkit.fluxcd.io/v1');
    assert.equal(config.kind, 'Kustomization');
    assert.deepEqual(config.metadata, { name: 'config', namespace: 'flux-system' });
    assert.deepEqual(config.spec!.dependsOn, [{ name: 'operator' }]);
    assert.equal(config.spec!.path, './components/config');
    const stream = (await cli(['render', '--repo', dir])).stdout;
    assert.doesNotMatch(stream, /argoproj\.io/);
  } finally {
    removeTree(dir);
  }
});

test('plan of a fleet with engine flux lists the Flux bootstrap and says waves are Flux dependsOn', async () => {
  const dir = writeTree(fluxFleet());
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /note: Flux has no sync waves: each app is a Flux Kustomization that dependsOn/);
    assert.match(r.stdout, /root-kustomization {2}root Kustomization reading rendered\/one\/apps {2}\[90-root-kustomization\.yaml\]/);
    assert.doesNotMatch(r.stdout, /Application|ArgoCD|argocd/);
  } finally {
    removeTree(dir);
  }
});

test('bootstrap of a fleet with engine flux refuses Argo CD manifests and names --flux-manifests (ADR 0261)', async () => {
  const dir = writeTree(fluxFleet());
  try {
    const r = await cli(['bootstrap', '--repo', dir, '--cluster', 'one', '--argocd-manifests', 'install.yaml']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--argocd-manifests is for Argo CD fleets; this fleet sets gitops\.engine: flux/);
    assert.match(r.stderr, /--flux-manifests/);
  } finally {
    removeTree(dir);
  }
});

test('render --out: a chart app removed from a Flux cluster takes its charts/<app> directory with it', async () => {
  const chartApp = `    certs:
      chart: cert-manager
      repoURL: https://charts.jetstack.io
      targetRevision: v1.15.0
      namespace: cert-manager
`;
  const cluster = (apps: string) => `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: one
spec:
  role: hub
  sector: canary
  groups: [base]
${apps ? `  apps:\n${apps}` : ''}`;
  const dir = writeTree(fluxFleet({ 'clusters/one/cluster.yaml': cluster(chartApp) }));
  try {
    const out = join(dir, 'out');
    assert.equal((await cli(['render', '--repo', dir, '--out', out])).code, 0);
    assert.ok(existsSync(join(out, 'one', 'charts', 'certs', 'helmrelease.yaml')));
    writeTree({ 'clusters/one/cluster.yaml': cluster('') }, dir);
    const r = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(out, 'one', 'charts', 'certs')), false);
    assert.equal(existsSync(join(out, 'one', 'apps', 'certs.yaml')), false);
    assert.ok(existsSync(join(out, 'one', 'apps', 'operator.yaml')));
  } finally {
    removeTree(dir);
  }
});
