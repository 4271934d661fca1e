/**
 * The helmfile + Flux layout reads each Flux Kustomization as Flux applies it: the ks.yaml, then
 * the kustomization.yaml files that list it (namespace, patches, components' patches), then its
 * parent Kustomization (spec.patches, targetNamespace, post-build substitution). Small repositories
 * written to a temporary directory; the equality with the real kustomize on a real repository is
 * test/real/layouts/helmfile-flux.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { appFileName } from '../../src/model/graphs.js';
import { fluxKustomization } from '../support/flux-fixture.js';

const ks = fluxKustomization;

const root = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: cluster-apps
  namespace: flux-system
spec:
  interval: 1h
  path: ./kubernetes/apps
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: b\n`;

/** A repository: the root Kustomization, and per namespace a listing kustomization.yaml and apps. */
function repo(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'kubernetes/flux/cluster/ks.yaml': root,
    'kubernetes/apps/media/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: media\nresources:\n  - ./sonarr/ks.yaml\n  - ./radarr/ks.yaml\n',
    'kubernetes/apps/media/sonarr/ks.yaml': ks('sonarr', 'kubernetes/apps/media/sonarr/app', '  targetNamespace: media\n  dependsOn:\n    - name: radarr\n'),
    'kubernetes/apps/media/sonarr/app/kustomization.yaml': 'resources:\n  - ./cm.yaml\n',
    'kubernetes/apps/media/sonarr/app/cm.yaml': cm('sonarr'),
    'kubernetes/apps/media/radarr/ks.yaml': ks('radarr', 'kubernetes/apps/media/radarr/app', '  targetNamespace: media\n'),
    'kubernetes/apps/media/radarr/app/kustomization.yaml': 'resources:\n  - ./cm.yaml\n',
    'kubernetes/apps/media/radarr/app/cm.yaml': cm('radarr'),
    ...extra,
  };
}

interface PlanJson {
  clusters: { apps: { name: string; needs: string[] }[] }[];
  findings: { severity: string; code: string; message: string; file?: string }[];
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

/** `render --out`: the Kustomization objects written under apps/, by file name. */
async function rendered(files: Record<string, string>): Promise<Record<string, Record<string, any>>> {
  const dir = writeTree(files);
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const apps = join(out, 'cluster', 'apps');
    return Object.fromEntries(readdirSync(apps).map((f) => [f, jsYaml.load(readFileSync(join(apps, f), 'utf8')) as Record<string, any>]));
  } finally {
    removeTree(dir);
  }
}

test('helmfile-flux: a ks.yaml takes metadata.namespace from the kustomization.yaml that lists it, and dependsOn resolves in it', async () => {
  const files = repo();
  // The folder says "media", the listing says "apps": the listing wins, as kustomize build does.
  files['kubernetes/apps/media/kustomization.yaml'] = files['kubernetes/apps/media/kustomization.yaml']!.replace('namespace: media', 'namespace: apps');
  const out = await rendered(files);
  assert.equal(out['flux_apps_sonarr.yaml']?.metadata.namespace, 'apps');
  assert.equal(out['flux_apps_radarr.yaml']?.metadata.namespace, 'apps');
  const p = await plan(files);
  const sonarr = p.clusters[0]!.apps.find((a) => a.name === 'flux:apps/sonarr');
  assert.deepEqual(sonarr?.needs, ['flux:apps/radarr']);
  assert.equal(p.findings.filter((f) => f.code === 'flux-unknown-dependency').length, 0);
});

test('helmfile-flux: a listing kustomization replaces a namespace the ks.yaml sets itself', async () => {
  const files = repo();
  files['kubernetes/apps/media/radarr/ks.yaml'] = files['kubernetes/apps/media/radarr/ks.yaml']!.replace('  name: radarr\n', '  name: radarr\n  namespace: elsewhere\n');
  const out = await rendered(files);
  assert.equal(out['flux_media_radarr.yaml']?.metadata.namespace, 'media');
});

test('helmfile-flux: patches of the listing kustomization and of its components apply to the Kustomizations, then the namespace', async () => {
  const out = await rendered(repo({
    'kubernetes/apps/media/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: media
components:
  - ../../components/common
resources:
  - ./sonarr/ks.yaml
  - ./radarr/ks.yaml
patches:
  - patch: |-
      apiVersion: kustomize.toolkit.fluxcd.io/v1
      kind: Kustomization
      metadata:
        name: _
      spec:
        interval: 30m
    target:
      kind: Kustomization
  - patch: |-
      - op: add
        path: /spec/wait
        value: true
    target:
      kind: Kustomization
      name: radarr
`,
    'kubernetes/components/common/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
  - patch: |-
      apiVersion: kustomize.toolkit.fluxcd.io/v1
      kind: Kustomization
      metadata:
        name: _
        labels:
          team: media
      spec:
        interval: 5m
    target:
      kind: Kustomization
`,
  }));
  const sonarr = out['flux_media_sonarr.yaml']!;
  const radarr = out['flux_media_radarr.yaml']!;
  // The component's patch runs first; the kustomization's own patch overrides its interval.
  assert.equal(sonarr.spec.interval, '30m');
  assert.deepEqual(sonarr.metadata.labels, { team: 'media' });
  assert.equal(sonarr.metadata.name, 'sonarr');
  assert.equal(sonarr.spec.wait, undefined);
  assert.equal(radarr.spec.wait, true);
});

test('helmfile-flux: nested listings apply inner first, so the outer namespace wins', async () => {
  const out = await rendered(repo({
    'kubernetes/apps/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: outer\nresources:\n  - ./media\n',
  }));
  assert.equal(out['flux_outer_sonarr.yaml']?.metadata.namespace, 'outer');
});

test('helmfile-flux: the parent Kustomization\'s spec.patches, targetNamespace and post-build substitution apply to the Kustomizations its path builds', async () => {
  const out = await rendered(repo({
    'kubernetes/flux/cluster/ks.yaml': `${root}  postBuild:
    substitute:
      INTERVAL: 2h
  patches:
    - patch: |-
        apiVersion: kustomize.toolkit.fluxcd.io/v1
        kind: Kustomization
        metadata:
          name: _
        spec:
          timeout: 7m
      target:
        group: kustomize.toolkit.fluxcd.io
        kind: Kustomization
`,
    'kubernetes/apps/media/radarr/ks.yaml': ks('radarr', 'kubernetes/apps/media/radarr/app', '  targetNamespace: media\n  retryInterval: ${INTERVAL}\n  timeout: ${TIMEOUT:=1m}\n'),
  }));
  assert.equal(out['flux_media_sonarr.yaml']?.spec.timeout, '7m');
  // The parent's patch sets timeout before substitution; radarr's own ${TIMEOUT:=1m} was replaced by it.
  assert.equal(out['flux_media_radarr.yaml']?.spec.timeout, '7m');
  assert.equal(out['flux_media_radarr.yaml']?.spec.retryInterval, '2h');
  assert.equal(out['flux_flux-system_cluster-apps.yaml']?.spec.patches.length, 1);
});

test('helmfile-flux: a listed Kustomization left without a namespace is an error (Flux: "namespace not specified")', async () => {
  const files = repo();
  files['kubernetes/apps/media/kustomization.yaml'] = files['kubernetes/apps/media/kustomization.yaml']!.replace('namespace: media\n', '');
  const p = await plan(files);
  const f = p.findings.filter((x) => x.code === 'flux-kustomization-namespace-unset');
  assert.equal(f.length, 2);
  assert.ok(f.every((x) => x.severity === 'error' && /namespace not specified/.test(x.message) && /kubernetes\/apps\/media\/kustomization\.yaml/.test(x.message)));
});

test('helmfile-flux: listing fields fleetplan does not emulate are reported, not silently ignored', async () => {
  const files = repo();
  files['kubernetes/apps/media/kustomization.yaml'] += 'namePrefix: x-\n';
  const p = await plan(files);
  const f = p.findings.filter((x) => x.code === 'flux-listing-not-emulated');
  assert.equal(f.length, 1, JSON.stringify(p.findings));
  assert.match(f[0]!.message, /kubernetes\/apps\/media\/kustomization\.yaml lists Flux Kustomizations and sets namePrefix/);
});

test('helmfile-flux: app ids keep namespace/name; file names are <kind>_<namespace>_<name>, one-to-one', () => {
  assert.equal(appFileName('flux:media/sonarr'), 'flux_media_sonarr');
  assert.equal(appFileName('helmfile-crds:kube-system/cilium'), 'helmfile-crds_kube-system_cilium');
  assert.notEqual(appFileName('flux:a-b/c'), appFileName('flux:a/b-c'));
  assert.equal(appFileName('plain-name.v2'), 'plain-name.v2');
  assert.equal(appFileName('bad name/with spaces'), undefined);
});

test('helmfile-flux: a release in both the CRD phase and the apps phase stays two apps', async () => {
  const p = await plan({
    'bootstrap/helmfile/crds.yaml': 'helmDefaults:\n  args: [--include-crds, --no-hooks]\nreleases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://quay.io/cilium/charts/cilium\n    version: 1.0.0\n',
    'bootstrap/helmfile/apps.yaml': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://quay.io/cilium/charts/cilium\n    version: 1.0.0\n  - name: coredns\n    namespace: kube-system\n    chart: oci://ghcr.io/coredns/charts/coredns\n    needs: [kube-system/cilium]\n',
  });
  const names = p.clusters[0]!.apps.map((a) => a.name).sort();
  assert.deepEqual(names, ['helmfile-crds:kube-system/cilium', 'helmfile:kube-system/cilium', 'helmfile:kube-system/coredns']);
  assert.deepEqual(p.clusters[0]!.apps.find((a) => a.name === 'helmfile:kube-system/coredns')?.needs, ['helmfile:kube-system/cilium']);
});

test('helmfile-flux: Flux Kustomizations in files the layout does not read are named in a warning', async () => {
  const p = await plan(repo({ 'kubernetes/apps/media/lidarr.yaml': ks('lidarr', 'kubernetes/apps/media/sonarr/app') }));
  const f = p.findings.filter((x) => x.code === 'flux-kustomization-not-read');
  assert.equal(f.length, 1, JSON.stringify(p.findings));
  assert.match(f[0]!.message, /1 file with Flux Kustomizations is not read .*kubernetes\/apps\/media\/lidarr\.yaml/);
  assert.ok(!p.clusters[0]!.apps.some((a) => a.name.endsWith('/lidarr')));
});

test('helmfile-flux: a substituted value is read as kustomize-controller reads the substituted text (go-yaml v2): ${SUSPEND} set to on is true (ADR 0389)', async () => {
  const out = await rendered(repo({
    'kubernetes/flux/cluster/ks.yaml': `${root}  postBuild:\n    substitute:\n      SUSPEND: "on"\n`,
    'kubernetes/apps/media/radarr/ks.yaml': ks('radarr', 'kubernetes/apps/media/radarr/app', '  targetNamespace: media\n  suspend: ${SUSPEND}\n'),
  }));
  assert.equal(out['flux_media_radarr.yaml']?.spec.suspend, true);
});
