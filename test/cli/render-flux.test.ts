/**
 * `render` and `plan` of a native fleet with `gitops.engine: flux`, and every object fleetplan
 * emits for Flux checked against the Flux CRDs' schemas (../shared/crds/flux-*).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import jsYaml from 'js-yaml';
import { loadFleet } from '../../src/index.js';
import { renderFleet } from '../../src/render/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import type { JsonSchema } from '../../src/load/json-schema.js';
import { validateSchema } from '../../src/load/json-schema.js';
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
    assert.match(r.stdout, /90-root-kustomization\.yaml {2}root Kustomization reading rendered\/one\/apps/);
    assert.doesNotMatch(r.stdout, /Application|ArgoCD|argocd/);
  } finally {
    removeTree(dir);
  }
});

const CRDS = resolve('..', 'shared', 'crds');
const CRD_FILES = [
  'flux-kustomize-controller/kustomize.toolkit.fluxcd.io_kustomizations.yaml',
  'flux-source-controller/source.toolkit.fluxcd.io_gitrepositories.yaml',
  'flux-source-controller/source.toolkit.fluxcd.io_ocirepositories.yaml',
  'flux-helm-controller/helm.toolkit.fluxcd.io_helmreleases.yaml',
];

interface Crd {
  spec: { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: JsonSchema } }[] };
}

/** `apiVersion kind` → the CRD's schema of that version. */
function crdSchemas(): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  for (const f of CRD_FILES) {
    const crd = jsYaml.load(readFileSync(join(CRDS, f), 'utf8')) as Crd;
    for (const v of crd.spec.versions) out.set(`${crd.spec.group}/${v.name} ${crd.spec.names.kind}`, v.schema.openAPIV3Schema);
  }
  return out;
}

test('every Flux object fleetplan renders is valid against its CRD schema', { skip: !existsSync(CRDS) && 'the Flux CRDs (../shared/crds) are not present' }, () => {
  const schemas = crdSchemas();
  const dir = writeTree(fluxFleet({
    'clusters/two/cluster.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: two
spec:
  role: standalone
  sector: production
  groups: [base]
  vars:
    REPLICAS: "3"
  apps:
    certs:
      chart: cert-manager
      repoURL: https://charts.jetstack.io
      targetRevision: v1.15.0
      namespace: cert-manager
      syncOptions: [CreateNamespace=true]
      helm:
        values:
          crds:
            enabled: true
    podinfo:
      chart: podinfo
      repoURL: oci://ghcr.io/stefanprodan/charts
      targetRevision: 6.7.0
      namespace: podinfo
      needs: [certs]
    local-chart:
      path: charts/local
      namespace: local
      helm:
        valueFiles: [values-prod.yaml]
    external:
      path: deploy
      repoURL: https://git.example.com/other.git
      targetRevision: release-1
      namespace: ext
      syncPolicy:
        automated:
          prune: false
`,
  }));
  try {
    const { fleet, findings } = loadFleet(dir);
    assert.deepEqual(findings, []);
    const { files } = renderFleet(resolveFleet(fleet));
    const seen = new Set<string>();
    let checked = 0;
    for (const f of files) {
      for (const o of f.objects) {
        const key = `${o.apiVersion} ${o.kind}`;
        seen.add(key);
        if (o.apiVersion === 'v1' && o.kind === 'Namespace') continue;
        // No HelmRepository CRD among the reference schemas: its fields are the documented three.
        if (key === 'source.toolkit.fluxcd.io/v1 HelmRepository') {
          assert.deepEqual(Object.keys(o.spec as object).sort(), ['interval', 'url'], f.path);
          continue;
        }
        const schema = schemas.get(key);
        assert.ok(schema, `${f.path}: no CRD schema for ${key}`);
        const issues = validateSchema(o, schema, schema, { structuralUnknownFields: true });
        assert.deepEqual(issues, [], `${f.path}: ${key} ${o.metadata.name}`);
        checked++;
      }
    }
    // The fleet exercises every kind fleetplan emits for Flux.
    assert.deepEqual([...seen].sort(), [
      'helm.toolkit.fluxcd.io/v2 HelmRelease',
      'kustomize.toolkit.fluxcd.io/v1 Kustomization',
      'source.toolkit.fluxcd.io/v1 GitRepository',
      'source.toolkit.fluxcd.io/v1 HelmRepository',
      'source.toolkit.fluxcd.io/v1 OCIRepository',
      'v1 Namespace',
    ]);
    assert.ok(checked >= 15, `checked ${checked} objects`);
  } finally {
    removeTree(dir);
  }
});

test('the CRD check fails on an object the Kustomization schema rejects', { skip: !existsSync(CRDS) && 'the Flux CRDs (../shared/crds) are not present' }, () => {
  const schema = crdSchemas().get('kustomize.toolkit.fluxcd.io/v1 Kustomization')!;
  const bad = { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'x' }, spec: { interval: '10m', prune: 'yes', sourceRef: { kind: 'Application', name: 'x' }, waves: 1 } };
  const issues = validateSchema(bad, schema, schema, { structuralUnknownFields: true });
  assert.deepEqual(issues.map((i) => i.path.join('.')).sort(), ['spec.prune', 'spec.sourceRef.kind', 'spec.waves']);
});

test('bootstrap refuses a fleet with engine flux and says how to hand the cluster to Flux', async () => {
  const dir = writeTree(fluxFleet());
  try {
    const r = await cli(['bootstrap', '--repo', dir, '--cluster', 'one']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /fleetplan bootstrap applies Argo CD fleets only; this fleet sets gitops\.engine: flux/);
    assert.match(r.stderr, /flux install/);
  } finally {
    removeTree(dir);
  }
});

const HOME_OPS = resolve('..', 'shared', 'realrepos', 'onedr0p__home-ops');

test('helmfile + Flux layout: render emits the repository\'s own Flux Kustomizations as they are, no bootstrap, no helmfile releases', { skip: !existsSync(HOME_OPS) && 'real repositories not present' }, async () => {
  const repo = join(HOME_OPS, 'at-d9078e4d');
  const { fleet } = loadFleet(repo);
  const { files, clusters } = renderFleet(resolveFleet(fleet));
  assert.ok(files.length >= 10, `${files.length} files`);
  for (const f of files) {
    assert.match(f.path, /^cluster\/apps\/flux-[a-z0-9.-]+\.yaml$/);
    assert.equal(f.objects.length, 1);
    const o = f.objects[0]!;
    assert.equal(`${o.apiVersion} ${o.kind}`, 'kustomize.toolkit.fluxcd.io/v1 Kustomization', f.path);
    // As the repository writes it: the same object is a document of the file the app came from.
    const app = clusters[0]!.apps.find((a) => `cluster/apps/${a.name.replace(/[^A-Za-z0-9._-]+/g, '-')}.yaml` === f.path);
    assert.ok(app, f.path);
    const docs = jsYaml.loadAll(readFileSync(join(repo, app.from), 'utf8'));
    assert.ok(docs.some((d) => JSON.stringify(d) === JSON.stringify(o)), `${f.path} equals a document of ${app.from}`);
  }
  assert.ok(files.some((f) => f.path === 'cluster/apps/flux-flux-system-cluster-apps.yaml'));
  // The older snapshot has helmfile releases only (no ks.yaml): nothing for Flux to render.
  const older = loadFleet(join(HOME_OPS, 'at-ba0958d9')).fleet;
  assert.deepEqual(renderFleet(resolveFleet(older)).files, []);
  const r = await cli(['render', '--repo', join(HOME_OPS, 'at-ba0958d9')]);
  assert.equal(r.code, 0, r.stderr);
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
