/**
 * Where Flux starts on a cluster, in the repository shapes that were "not a fleet repository" or
 * an empty plan (ADR 0339): clusters/<name>/ with Flux Kustomizations and no flux-system folder
 * yet (flux bootstrap writes it on its first run); a flux-system Kustomization outside clusters/
 * (a hub's `hub/flux-system/gotk-sync.yaml`); FluxInstances under `kubernetes/<cluster>/…`; the
 * flux-instance HelmRelease next to a helmfile bootstrap whose Kustomizations are not ks.yaml
 * files; a hub's Kustomizations that apply to a spoke through spec.kubeConfig; and ks.yaml files
 * of an ExternalArtifact in the helmfile-flux layout. Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxInstance, gotkSync } from '../support/flux-fixture.js';

const ks = (name: string, path: string, extra = '', ns = 'flux-system', source = 'kind: GitRepository\n    name: flux-system') => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  interval: 1h
  path: ${path}
  prune: true
  sourceRef:
    ${source}
${extra}`;

const cm = (name: string, ns: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n`;

interface PlanJson {
  layout?: string;
  clusters: { name: string; apps: { name: string; wave: number; needs: string[] }[]; notes: string[] }[];
  findings: { severity: string; code: string; message: string; file?: string; line?: number }[];
}

async function run(files: Record<string, string>, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = writeTree(files);
  try {
    return await cli([...args, '--repo', dir]);
  } finally {
    removeTree(dir);
  }
}

async function plan(files: Record<string, string>): Promise<PlanJson> {
  const r = await run(files, ['plan', '-o', 'json']);
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  return JSON.parse(r.stdout) as PlanJson;
}

const appNames = (p: PlanJson, c: string) => p.clusters.find((x) => x.name === c)!.apps.map((a) => a.name).sort();

test('flux entries: clusters/<name>/ with Flux Kustomizations and no flux-system folder is read as flux bootstrap --path=clusters/<name> makes it, and says so', async () => {
  const files: Record<string, string> = {
    'infrastructure/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'infrastructure/cm.yaml': cm('ingress', 'ingress'),
    'apps/base/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'apps/base/cm.yaml': cm('web', 'web'),
  };
  for (const c of ['staging', 'production']) {
    files[`clusters/${c}/infrastructure.yaml`] = ks('infrastructure', './infrastructure');
    files[`clusters/${c}/apps.yaml`] = ks('apps', './apps/base', '  dependsOn:\n    - name: infrastructure\n');
  }
  const p = await plan(files);
  assert.deepEqual(p.clusters.map((c) => c.name), ['production', 'staging']);
  for (const c of ['production', 'staging']) {
    assert.deepEqual(appNames(p, c), ['flux:flux-system/apps', 'flux:flux-system/flux-system', 'flux:flux-system/infrastructure']);
    const notes = p.clusters.find((x) => x.name === c)!.notes.join('\n');
    assert.match(notes, new RegExp(`no flux-system Kustomization in clusters/${c}: read as flux bootstrap --path=clusters/${c}`));
  }
  assert.equal(p.findings.filter((f) => f.severity === 'error').length, 0, JSON.stringify(p.findings));
  // render writes the Kustomizations the bootstrap applies.
  const r = await run(files, ['render', '--cluster', 'staging']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /path: \.\/apps\/base/);
  assert.match(r.stdout, /path: \.\/clusters\/staging/);
});

test('flux entries: a flux-system Kustomization outside clusters/ (hub/flux-system/gotk-sync.yaml) is a cluster named after its path', async () => {
  const p = await plan({
    'hub/flux-system/gotk-sync.yaml': gotkSync('x').replace('path: ./clusters/x', 'path: ./hub'),
    'hub/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'hub/infra.yaml': ks('infra', './deploy/infra'),
    'deploy/infra/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'deploy/infra/cm.yaml': cm('infra', 'infra'),
  });
  assert.deepEqual(p.clusters.map((c) => c.name), ['hub']);
  assert.deepEqual(appNames(p, 'hub'), ['flux:flux-system/flux-system', 'flux:flux-system/infra']);
});

test('flux entries: FluxInstances under kubernetes/<cluster>/ are clusters named by the segment where their sync paths differ', async () => {
  const files: Record<string, string> = {};
  for (const c of ['main', 'utility']) {
    files[`kubernetes/${c}/apps/flux-system/flux-instance/app/flux-instance.yaml`] = fluxInstance(`./kubernetes/${c}/flux`);
    files[`kubernetes/${c}/flux/kustomization.yaml`] = 'resources:\n  - sync.yaml\n';
    files[`kubernetes/${c}/flux/sync.yaml`] = ks('cluster-apps', `./kubernetes/${c}/apps`);
    files[`kubernetes/${c}/apps/kustomization.yaml`] = 'resources:\n  - ks.yaml\n';
    files[`kubernetes/${c}/apps/ks.yaml`] = ks(`only-${c}`, `./kubernetes/${c}/apps/x`);
    files[`kubernetes/${c}/apps/x/cm.yaml`] = cm('x', 'default');
  }
  // A third entry in another top folder: named by that folder, the two others still by theirs.
  files['devenv/oci/flux-instance.yaml'] = fluxInstance('./devenv/oci/flux');
  files['devenv/oci/flux/ks.yaml'] = ks('dev', './devenv/oci/x');
  files['devenv/oci/x/cm.yaml'] = cm('x', 'default');
  const p = await plan(files);
  assert.deepEqual(p.clusters.map((c) => c.name), ['devenv', 'main', 'utility']);
  assert.deepEqual(appNames(p, 'main'), ['flux:flux-system/cluster-apps', 'flux:flux-system/flux-system', 'flux:flux-system/only-main']);
  assert.match(p.clusters[1]!.notes.join('\n'), /FluxInstance flux-system\/flux spec\.sync/);
  const r = await run(files, ['render', '--cluster', 'utility']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /name: only-utility/);
  assert.match(r.stdout, /path: \.\/kubernetes\/utility\/flux/);
  assert.doesNotMatch(r.stdout, /only-main/);
});

const fluxInstanceRelease = (path: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: flux-instance
  namespace: flux-system
spec:
  interval: 1h
  chartRef:
    kind: OCIRepository
    name: flux-instance
  values:
    instance:
      sync:
        kind: GitRepository
        url: https://example.org/fleet.git
        ref: refs/heads/main
        path: ${path}
`;

const mirceantonShape: Record<string, string> = {
  'bootstrap/helmfile.yaml': 'releases:\n  - name: flux-operator\n    namespace: flux-system\n    chart: oci://ghcr.io/controlplaneio-fluxcd/charts/flux-operator\n    version: 0.1.0\n',
  'apps/flux-system/flux-instance/app/helm-release.yaml': fluxInstanceRelease('apps/'),
  'apps/flux-system/flux-instance/app/kustomization.yaml': 'resources:\n  - helm-release.yaml\n',
  'apps/flux-system/flux-instance/app.ks.yaml': ks('flux-instance', './apps/flux-system/flux-instance/app'),
  'apps/flux-system/flux-instance/kustomization.yaml': 'resources:\n  - app.ks.yaml\n',
  'apps/flux-system/kustomization.yaml': 'resources:\n  - flux-instance\n',
  'apps/kustomization.yaml': 'resources:\n  - flux-system\n',
};

test('flux entries: a helmfile bootstrap with the flux-instance HelmRelease elsewhere and no ks.yaml files is the flux layout, not an empty helmfile-flux plan', async () => {
  const p = await plan(mirceantonShape);
  assert.equal(p.layout, 'flux');
  assert.deepEqual(p.clusters.map((c) => c.name), ['cluster']);
  const apps = appNames(p, 'cluster');
  assert.ok(apps.includes('flux:flux-system/flux-instance'), apps.join(', '));
  assert.ok(apps.includes('helmfile:flux-system/flux-operator'), apps.join(', '));
});

const onedr0pShape = (withKs: boolean): Record<string, string> => ({
  'bootstrap/helmfile.yaml': 'releases:\n  - name: flux-instance\n    namespace: flux-system\n    chart: oci://ghcr.io/controlplaneio-fluxcd/charts/flux-instance\n    version: 0.1.0\n',
  'kubernetes/apps/flux-system/flux-instance/app/helmrelease.yaml': fluxInstanceRelease('kubernetes/flux/cluster'),
  ...(withKs
    ? {
        'kubernetes/flux/cluster/ks.yaml': ks('cluster-apps', './kubernetes/apps'),
        'kubernetes/apps/flux-system/flux-instance/ks.yaml': ks('flux-instance', './kubernetes/apps/flux-system/flux-instance/app'),
      }
    : {}),
});

test('flux entries: a helmfile with ks.yaml files under kubernetes/ and the flux-instance HelmRelease is helmfile-flux, and the note says why the flux layout is not used', async () => {
  const p = await plan(onedr0pShape(true));
  assert.equal(p.layout, 'helmfile-flux');
  assert.ok(appNames(p, 'cluster').includes('flux:flux-system/cluster-apps'));
  const chosen = p.findings.find((f) => f.code === 'layout-chosen');
  assert.match(chosen?.message ?? '', /flux \(kubernetes\/apps\/flux-system\/flux-instance\/app\/helmrelease\.yaml\): not used, helmfile-flux comes first: it reads the ks\.yaml files under kubernetes\//);
});

test('flux entries: a helmfile whose Flux Kustomizations are in other files than ks.yaml (install.yaml) is the flux layout, which reads them all, not helmfile-flux reading only kubernetes/flux/cluster', async () => {
  const p = await plan({
    ...onedr0pShape(false),
    'kubernetes/flux/cluster/install.yaml': ks('cluster-apps', './kubernetes/apps'),
    'kubernetes/apps/kustomization.yaml': 'resources:\n  - ./media/web/install.yaml\n',
    'kubernetes/apps/media/web/install.yaml': ks('web', './kubernetes/apps/media/web/app', '', 'media'),
    'kubernetes/apps/media/web/app/cm.yaml': cm('web', 'media'),
  });
  assert.equal(p.layout, 'flux');
  const apps = appNames(p, 'cluster');
  assert.ok(apps.includes('flux:media/web') && apps.includes('flux:flux-system/cluster-apps'), apps.join(', '));
});

test('helmfile-flux: a ks.yaml listed by its namespace folder (namespace: media) and by its own path is in that namespace, not "namespace unset" from the self-listing', async () => {
  const p = await plan({
    ...onedr0pShape(true),
    'kubernetes/apps/kustomization.yaml': 'resources:\n  - ./media\n',
    'kubernetes/apps/media/kustomization.yaml': 'namespace: media\nresources:\n  - ./imagemaid/ks.yaml\n',
    // The Kustomization's own path lists its ks.yaml too (it applies itself, with targetNamespace media).
    'kubernetes/apps/media/imagemaid/ks.yaml': ks('imagemaid', './kubernetes/apps/media/imagemaid', '  targetNamespace: media\n').replace('  namespace: flux-system\n', ''),
    'kubernetes/apps/media/imagemaid/kustomization.yaml': 'resources:\n  - ./ks.yaml\n  - ./cm.yaml\n',
    'kubernetes/apps/media/imagemaid/cm.yaml': cm('imagemaid', 'media'),
  });
  assert.equal(p.layout, 'helmfile-flux');
  assert.ok(appNames(p, 'cluster').includes('flux:media/imagemaid'), appNames(p, 'cluster').join(', '));
  assert.deepEqual(p.findings.filter((f) => f.code === 'flux-kustomization-namespace-unset').map((f) => f.message), []);
});

test('flux entries: a helmfile whose Flux entry syncs a folder not in the repository is helmfile-flux (the flux layout has nothing to read), and the note names the folder', async () => {
  const p = await plan(onedr0pShape(false));
  assert.equal(p.layout, 'helmfile-flux');
  assert.deepEqual(appNames(p, 'cluster'), ['helmfile:flux-system/flux-instance']);
  const chosen = p.findings.find((f) => f.code === 'layout-chosen');
  assert.match(chosen?.message ?? '', /not used, helmfile-flux comes first: the folder its entry syncs \(kubernetes\/flux\/cluster\) is not in the repository/);
});

test('flux entries: a hub Kustomization with spec.kubeConfig is listed and its objects are said to be the remote cluster\'s, not the hub\'s', async () => {
  const files = {
    'hub/flux-system/gotk-sync.yaml': gotkSync('x').replace('path: ./clusters/x', 'path: ./hub'),
    'hub/spoke.yaml': ks('apps', './clusters/spoke/apps', '  kubeConfig:\n    secretRef:\n      name: cluster-kubeconfig\n', 'spoke', 'kind: GitRepository\n    name: flux-system\n    namespace: flux-system'),
    'clusters/spoke/apps/kustomization.yaml': 'resources:\n  - ks.yaml\n',
    // Applied to the spoke, where no Flux runs: never one of the hub's Kustomizations.
    'clusters/spoke/apps/ks.yaml': ks('spoke-only', './clusters/spoke/apps/x', '', 'default'),
  };
  const p = await plan(files);
  // Since ADR 0369 the spoke is a cluster of the plan (test/flux/hub-spokes.test.ts): the hub holds the Kustomization, the spoke its objects.
  assert.deepEqual(p.clusters.map((c) => c.name), ['hub', 'spoke']);
  assert.ok(appNames(p, 'hub').includes('flux:spoke/apps'));
  assert.ok(appNames(p, 'spoke').includes('flux:spoke/apps'));
  const spoke = p.clusters.find((c) => c.name === 'spoke')!;
  assert.ok(spoke.notes.some((n) => /kubeConfig Secret spoke\/cluster-kubeconfig/.test(n)), spoke.notes.join('\n'));
  assert.ok(!appNames(p, 'hub').includes('flux:default/spoke-only'), appNames(p, 'hub').join(', '));
  assert.ok(!appNames(p, 'spoke').includes('flux:default/spoke-only'), appNames(p, 'spoke').join(', '));
});

test('helmfile-flux: a ks.yaml of an ExternalArtifact is not a missing-path error; it is said not read', async () => {
  const files = {
    'kubernetes/bootstrap/helmfile.yaml': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://quay.io/cilium/charts/cilium\n    version: 1.0.0\n',
    'kubernetes/flux/cluster/ks.yaml': ks('cluster-apps', './kubernetes/apps'),
    'kubernetes/apps/web/ks.yaml': ks('web', './apps/base/web/app', '', 'web', 'kind: ExternalArtifact\n    name: web\n    namespace: flux-system'),
  };
  const v = await run(files, ['validate', '-o', 'json']);
  const findings = (JSON.parse(v.stdout) as { findings: PlanJson['findings'] }).findings;
  assert.equal(findings.filter((f) => f.code === 'missing-path').length, 0, JSON.stringify(findings));
  const info = findings.find((f) => f.code === 'flux-source-not-read');
  assert.ok(info, JSON.stringify(findings));
  assert.match(info.message, /flux:web\/web \(ExternalArtifact flux-system\/web\)/);
  assert.equal(info.file, 'kubernetes/apps/web/ks.yaml');
});

const redis = (hashConfig: boolean): Record<string, string> => ({
  'clusters/one/infrastructure.yaml': ks('infrastructure', './infrastructure/redis'),
  'infrastructure/redis/kustomization.yaml': `resources:\n  - release.yaml\nconfigMapGenerator:\n  - name: redis-values\n    namespace: cache\n    files:\n      - values.yaml=values.yaml\n${hashConfig ? 'configurations:\n  - kustomizeconfig.yaml\n' : ''}`,
  'infrastructure/redis/values.yaml': 'replicas: 2\n',
  'infrastructure/redis/kustomizeconfig.yaml': 'nameReference:\n- kind: ConfigMap\n  version: v1\n  fieldSpecs:\n  - path: spec/valuesFrom/name\n    kind: HelmRelease\n',
  'infrastructure/redis/release.yaml': 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: redis\n  namespace: cache\nspec:\n  chart:\n    spec:\n      chart: redis\n      version: 17.0.0\n      sourceRef:\n        kind: HelmRepository\n        name: charts\n  valuesFrom:\n    - kind: ConfigMap\n      name: redis-values\n',
});

test('flux valuesFrom: a hash-suffixed configMapGenerator whose name the kustomization\'s configurations rewrite in HelmRelease valuesFrom is the ConfigMap the release reads', async () => {
  const p = await plan(redis(true));
  assert.deepEqual(p.findings.filter((f) => f.code === 'flux-values-from-missing'), []);
  // Without the nameReference configuration kustomize leaves valuesFrom at redis-values, which the hashed ConfigMap is not.
  const q = await plan(redis(false));
  assert.equal(q.findings.filter((f) => f.code === 'flux-values-from-missing').length, 1, JSON.stringify(q.findings));
});
