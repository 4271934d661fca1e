/**
 * The flux layout (docs/adr/0279-flux-clusters-layout.md): one cluster per clusters/<name>/, whose
 * flux-system Kustomization is the entry; every Kustomization is read from the build of its
 * parent's path, as kustomize-controller applies it. Small repositories written by the tests in
 * the shapes of Flux's own examples (multi-cluster with base/overlays, tenants, gotk-sync.yaml).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync } from '../support/flux-fixture.js';

const ks = (name: string, path: string, extra = '', ns = 'flux-system') => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  interval: 1h
  path: ${path}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
${extra}`;

const vars = (env: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: cluster-vars
  namespace: flux-system
data:
  ENV: ${env}
`;

/** Two clusters, infrastructure and apps Kustomizations, a base and per-environment overlays. */
function repo(extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {
    'infrastructure/controllers/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'infrastructure/controllers/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ctrl\n  namespace: infra\n',
    // The base holds a Flux Kustomization of its own; each overlay puts it in a namespace and patches it.
    'apps/base/web/ks.yaml': ks('web', './apps/base/web/app', '  postBuild:\n    substitute:\n      TIER: frontend\n'),
    'apps/base/web/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: web\n  labels:\n    env: ${ENV}\n',
    ...extra,
  };
  for (const [c, replicas] of [['staging', 1], ['production', 3]] as const) {
    files[`clusters/${c}/flux-system/gotk-sync.yaml`] = gotkSync(c);
    files[`clusters/${c}/flux-system/kustomization.yaml`] = 'resources:\n  - gotk-sync.yaml\n';
    files[`clusters/${c}/vars.yaml`] = vars(c);
    files[`clusters/${c}/infrastructure.yaml`] = ks('infra-controllers', './infrastructure/controllers');
    files[`clusters/${c}/apps.yaml`] = ks('apps', `./apps/${c}`, '  dependsOn:\n    - name: infra-controllers\n  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: cluster-vars\n');
    files[`apps/${c}/kustomization.yaml`] = `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: team-${c}\nresources:\n  - ../base/web/ks.yaml\npatches:\n  - patch: |\n      - op: add\n        path: /spec/postBuild/substitute/REPLICAS\n        value: "${replicas}"\n    target:\n      kind: Kustomization\n      name: web\n`;
  }
  return files;
}

interface PlanJson {
  clusters: { name: string; apps: { name: string; wave: number; needs: string[] }[]; notes: string[] }[];
  findings: { severity: string; code: string; message: string; file?: string; line?: number }[];
}

async function plan(files: Record<string, string>): Promise<PlanJson> {
  const dir = writeTree(files);
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return JSON.parse(r.stdout) as PlanJson;
  } finally {
    removeTree(dir);
  }
}

/** `render --out`: per cluster, the Kustomization objects written under apps/, by file name. */
async function rendered(files: Record<string, string>): Promise<Record<string, Record<string, any>>> {
  const dir = writeTree(files);
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const result: Record<string, Record<string, any>> = {};
    for (const c of readdirSync(out).filter((x) => !x.startsWith('.'))) {
      const apps = join(out, c, 'apps');
      result[c] = Object.fromEntries(readdirSync(apps).map((f) => [f, jsYaml.load(readFileSync(join(apps, f), 'utf8')) as Record<string, any>]));
    }
    return result;
  } finally {
    removeTree(dir);
  }
}

test('flux-clusters: one cluster per clusters/<name>, each with the Kustomizations its flux-system build applies, recursively', async () => {
  const p = await plan(repo());
  assert.deepEqual(p.clusters.map((c) => c.name), ['production', 'staging']);
  for (const c of p.clusters) {
    const env = c.name;
    assert.deepEqual(c.apps.map((a) => a.name).sort(), ['flux:flux-system/apps', 'flux:flux-system/flux-system', 'flux:flux-system/infra-controllers', `flux:team-${env}/web`]);
    const apps = c.apps.find((a) => a.name === 'flux:flux-system/apps')!;
    assert.deepEqual(apps.needs, ['flux:flux-system/infra-controllers']);
    // web is applied by apps: it comes after it.
    assert.ok(c.apps.find((a) => a.name === `flux:team-${env}/web`)!.wave > apps.wave);
  }
  assert.equal(p.findings.filter((f) => f.severity === 'error').length, 0, JSON.stringify(p.findings));
});

test('flux-clusters: render writes each Kustomization as the parent build gives it: overlay namespace and patch, per cluster', async () => {
  const out = await rendered(repo());
  const web = out.staging!['flux_team-staging_web.yaml']!;
  assert.equal(web.metadata.namespace, 'team-staging');
  assert.deepEqual(web.spec.postBuild.substitute, { TIER: 'frontend', REPLICAS: '1' });
  assert.equal(out.production!['flux_team-production_web.yaml']!.spec.postBuild.substitute.REPLICAS, '3');
  // The entry is written as its own build gives it.
  assert.equal(out.staging!['flux_flux-system_flux-system.yaml']!.spec.path, './clusters/staging');
});

test('flux-clusters: substituteFrom reads the ConfigMap that this cluster applies, not another cluster\'s of the same name', async () => {
  const files = repo({
    // The parent's variables reach the child Kustomization's spec (it is one of the parent's objects).
    'apps/base/web/ks.yaml': ks('web', './apps/base/web/app', '  postBuild:\n    substitute:\n      TIER: frontend-${ENV}\n'),
  });
  const out = await rendered(files);
  assert.equal(out.staging!['flux_team-staging_web.yaml']!.spec.postBuild.substitute.TIER, 'frontend-staging');
  assert.equal(out.production!['flux_team-production_web.yaml']!.spec.postBuild.substitute.TIER, 'frontend-production');
});

test('flux-clusters: a substituteFrom Secret value is redacted in what render writes', async () => {
  const files = repo({
    'apps/base/web/ks.yaml': ks('web', './apps/base/web/app', '  postBuild:\n    substitute:\n      TOKEN: ${TOKEN}\n'),
    'clusters/staging/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: cluster-secret\n  namespace: flux-system\nstringData:\n  TOKEN: hunter2\n',
  });
  files['clusters/staging/apps.yaml'] = files['clusters/staging/apps.yaml']!.replace('        name: cluster-vars\n', '        name: cluster-vars\n      - kind: Secret\n        name: cluster-secret\n');
  const dir = writeTree(files);
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const text = readFileSync(join(out, 'staging', 'apps', 'flux_team-staging_web.yaml'), 'utf8');
    assert.match(text, /REDACTED_SECRET_TOKEN/);
    assert.doesNotMatch(text + r.stdout + r.stderr, /hunter2/);
  } finally {
    removeTree(dir);
  }
});

test('flux-clusters: a placeholder gotk-sync.yaml (Flux\'s examples) is read as flux bootstrap --path writes it, and the plan says so', async () => {
  const files = repo();
  files['clusters/staging/flux-system/gotk-sync.yaml'] = '# This file will be generated automatically by flux bootstrap.\n';
  const p = await plan(files);
  const staging = p.clusters.find((c) => c.name === 'staging')!;
  assert.ok(staging.notes.some((n) => /placeholder: read as flux bootstrap --path=clusters\/staging/.test(n)), staging.notes.join('\n'));
  assert.ok(staging.apps.some((a) => a.name === 'flux:team-staging/web'));
});

test('flux-clusters: a Kustomization of another source is listed and its objects are said not to be read; a missing path is an error with file and line', async () => {
  const files = repo({
    'clusters/staging/tenant.yaml': `${ks('tenant', './deploy').replace('    name: flux-system\n    namespace: flux-system\n', '    name: tenant-repo\n')}`,
    'clusters/staging/broken.yaml': ks('broken', './does/not/exist'),
  });
  const p = await plan(files);
  const notRead = p.findings.find((f) => f.code === 'flux-source-not-read');
  assert.ok(notRead && /GitRepository flux-system\/tenant-repo is not this repository/.test(notRead.message), JSON.stringify(p.findings));
  assert.equal(notRead.file, 'clusters/staging/tenant.yaml');
  const missing = p.findings.find((f) => f.code === 'flux-path-missing');
  assert.equal(missing?.severity, 'error');
  assert.equal(missing?.file, 'clusters/staging/broken.yaml');
  assert.equal(missing?.line, 8);
  assert.ok(p.clusters.find((c) => c.name === 'staging')!.apps.some((a) => a.name === 'flux:flux-system/tenant'));
});

test('flux-clusters: a directory without kustomization.yaml is built as Flux generates one (every YAML file, subfolders with a kustomization built)', async () => {
  const files = repo({
    'clusters/staging/extra/more.yaml': ks('more', './infrastructure/controllers'),
  });
  const p = await plan(files);
  assert.ok(p.clusters.find((c) => c.name === 'staging')!.apps.some((a) => a.name === 'flux:flux-system/more'));
  assert.ok(!p.clusters.find((c) => c.name === 'production')!.apps.some((a) => a.name === 'flux:flux-system/more'));
});

test('flux-clusters: dependsOn is resolved inside each cluster (a name that only another cluster has is unknown)', async () => {
  const files = repo({ 'clusters/production/only.yaml': ks('only-prod', './infrastructure/controllers') });
  files['clusters/staging/apps.yaml'] = files['clusters/staging/apps.yaml']!.replace('    - name: infra-controllers\n', '    - name: infra-controllers\n    - name: only-prod\n');
  const p = await plan(files);
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const v = JSON.parse(r.stdout) as { findings: { code: string; file?: string }[] };
    assert.ok(v.findings.some((f) => f.code === 'flux-unknown-dependency' && f.file === 'clusters/staging/apps.yaml'), r.stdout);
  } finally {
    removeTree(dir);
  }
  assert.ok(p.clusters.length === 2);
});

test('flux-clusters: detection — without a helmfile, clusters/<name>/flux-system wins over ks.yaml files; with a helmfile, helmfile-flux is chosen for one cluster, the flux layout for several, and the plan says why', async () => {
  const withKs = repo({ 'kubernetes/apps/x/ks.yaml': ks('x', './kubernetes/apps/x/app') });
  let p = await plan(withKs);
  assert.deepEqual(p.clusters.map((c) => c.name), ['production', 'staging']);
  const helmfile = {
    'bootstrap/helmfile.yaml': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://ghcr.io/home-operations/charts-mirror/cilium\n    version: 1.0.0\n',
    'kubernetes/flux/cluster/ks.yaml': ks('cluster-apps', './kubernetes/apps'),
  };
  const one = Object.fromEntries(Object.entries(repo(helmfile)).filter(([f]) => !f.startsWith('clusters/production/')));
  p = await plan(one);
  let chosen = p.findings.find((f) => f.code === 'layout-chosen');
  assert.ok(chosen && /helmfile-flux/.test(chosen.message) && /flux \(clusters\/staging\/flux-system\/gotk-sync\.yaml\): not used, helmfile-flux comes first/.test(chosen.message), JSON.stringify(p.findings));
  p = await plan(repo(helmfile));
  assert.deepEqual(p.clusters.map((c) => c.name), ['production', 'staging']);
  chosen = p.findings.find((f) => f.code === 'layout-chosen');
  assert.equal(chosen, undefined, 'no other layout was passed over');
  const staging = p.clusters.find((c) => c.name === 'staging')!;
  assert.ok(staging.notes.some((n) => /bootstrap: the helmfile releases of bootstrap\/helmfile\.yaml run before Flux/.test(n)), staging.notes.join('\n'));
  assert.ok(staging.apps.some((a) => a.name === 'helmfile:kube-system/cilium'));
});

test('flux-clusters: a cluster bootstrapped by flux-operator is entered through its FluxInstance spec.sync, and the plan says so', async () => {
  const files = repo();
  delete files['clusters/staging/flux-system/gotk-sync.yaml'];
  delete files['clusters/staging/flux-system/kustomization.yaml'];
  files['clusters/staging/flux-instance.yaml'] = 'apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata:\n  name: flux\n  namespace: flux-system\nspec:\n  distribution:\n    version: "2.x"\n  sync:\n    kind: GitRepository\n    url: https://example.org/fleet.git\n    ref: refs/heads/main\n    path: clusters/staging\n';
  const p = await plan(files);
  const staging = p.clusters.find((c) => c.name === 'staging')!;
  assert.ok(staging.notes.some((n) => /flux-operator generates from FluxInstance flux-system\/flux spec\.sync/.test(n)), staging.notes.join('\n'));
  assert.ok(staging.apps.some((a) => a.name === 'flux:team-staging/web'), JSON.stringify(staging.apps));
});

test('flux-clusters: ${...} left in a Kustomization for its own build (Flux substitutes it later) is not a fleetplan variable', async () => {
  const files = repo();
  files['clusters/staging/apps.yaml'] = files['clusters/staging/apps.yaml']!.replace('  postBuild:\n', '  patches:\n    - patch: |\n        - op: add\n          path: /metadata/labels\n          value: {env: "${ENV}"}\n      target:\n        kind: ConfigMap\n  postBuild:\n');
  const p = await plan(files);
  assert.deepEqual(p.findings.filter((f) => f.code === 'undefined-variable'), []);
  const out = await rendered(files);
  assert.match(out.staging!['flux_flux-system_apps.yaml']!.spec.patches[0].patch, /\$\{ENV\}/);
});

test('flux-clusters: a listing kustomization with a namespace component and replacements sets targetNamespace as kustomize does; generated ConfigMaps count as applied', async () => {
  const files = repo({
    'components/namespace/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - ./namespace.yaml\n',
    'components/namespace/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: not-used\n',
    'components/replacements/ks.yaml': '- source:\n    kind: Namespace\n    fieldPath: metadata.name\n  targets:\n    - select:\n        kind: Kustomization\n        group: kustomize.toolkit.fluxcd.io\n      fieldPaths:\n        - spec.targetNamespace\n      options:\n        create: true\n',
    'team/kustomization.yaml': 'namespace: media\ncomponents:\n  - ../components/namespace\nreplacements:\n  - path: ../components/replacements/ks.yaml\nresources:\n  - ./player.yaml\n',
    'team/player.yaml': ks('player', './team/app').replace('  namespace: flux-system\n', ''),
    'team/app/kustomization.yaml': 'resources:\n  - hr.yaml\nconfigMapGenerator:\n  - name: player-values\n    literals:\n      - replicas=2\ngeneratorOptions:\n  disableNameSuffixHash: true\n',
    'team/app/hr.yaml': 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: player\nspec:\n  chart:\n    spec:\n      chart: player\n      version: 1.0.0\n      sourceRef:\n        kind: HelmRepository\n        name: charts\n  valuesFrom:\n    - kind: ConfigMap\n      name: player-values\n',
    'clusters/staging/team.yaml': ks('team', './team'),
  });
  const out = await rendered(files);
  const player = out.staging!['flux_media_player.yaml']!;
  assert.equal(player.metadata.namespace, 'media');
  assert.equal(player.spec.targetNamespace, 'media');
  const p = await plan(files);
  assert.deepEqual(p.findings.filter((f) => f.code === 'flux-values-from-missing' || f.code === 'flux-build-not-emulated'), []);
});
