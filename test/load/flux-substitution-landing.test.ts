/**
 * `postBuild.substituteFrom` is read by kustomize-controller from the Kustomization's namespace,
 * where the ConfigMap or Secret lands after the kustomize build that applies it: a Secret written
 * in flux-system and moved into each app namespace by a component (the home-operations
 * `components/common` pattern) is found there, and no longer where it is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import { RepoConfigIndex, fluxVariables, kustomizeLandings, repositoryYamlFiles } from '../../src/load/flux-variables.js';

const files: Record<string, string> = {
  'kubernetes/components/common/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - ./sops\n',
  'kubernetes/components/common/sops/kustomization.yaml': 'resources:\n  - ./cluster-secrets.sops.yaml\n',
  'kubernetes/components/common/sops/cluster-secrets.sops.yaml':
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: cluster-secrets\n  namespace: flux-system\nstringData:\n  DOMAIN: ENC[AES256_GCM,data:x,type:str]\nsops:\n  age: []\n',
  'kubernetes/apps/media/kustomization.yaml': 'namespace: media\ncomponents:\n  - ../../components/common\nresources:\n  - ./sonarr/ks.yaml\n',
  'kubernetes/apps/media/sonarr/ks.yaml':
    'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: sonarr\nspec:\n  path: ./kubernetes/apps/media/sonarr/app\n  postBuild:\n    substituteFrom:\n      - name: cluster-secrets\n        kind: Secret\n',
  'kubernetes/apps/tools/kustomization.yaml': 'namespace: tools\ncomponents:\n  - ../../components/common\n',
  // Nested: the outer kustomization's namespace wins over the inner one's.
  'kubernetes/outer/kustomization.yaml': 'namespace: outer\nresources:\n  - ../inner\n',
  'kubernetes/inner/kustomization.yaml': 'namespace: inner\nresources:\n  - settings.yaml\n',
  'kubernetes/inner/settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: written\ndata:\n  A: "1"\n',
  // Listed without a namespace: it stays where it is written.
  'kubernetes/flux/vars/kustomization.yaml': 'resources:\n  - cluster-settings.yaml\n',
  'kubernetes/flux/vars/cluster-settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-settings\n  namespace: flux-system\ndata:\n  TZ: UTC\n',
};

test('substituteFrom: a Secret moved by a component lands in each namespace that includes it, not where it is written', () => {
  const dir = writeTree(files);
  try {
    const fs = nodeFileSystem(dir);
    const index = new RepoConfigIndex(fs, () => repositoryYamlFiles(fs));
    assert.equal(index.find('Secret', 'cluster-secrets', 'media').length, 1);
    assert.equal(index.find('Secret', 'cluster-secrets', 'tools').length, 1);
    assert.deepEqual(index.find('Secret', 'cluster-secrets', 'flux-system'), []);
    assert.equal(index.find('ConfigMap', 'cluster-settings', 'flux-system').length, 1);
    assert.equal(index.find('ConfigMap', 'settings', 'outer').length, 1);
    assert.deepEqual(index.find('ConfigMap', 'settings', 'inner'), []);
    assert.deepEqual(index.find('ConfigMap', 'settings', 'written'), []);
    const ks = { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'sonarr', namespace: 'media' }, spec: { postBuild: { substituteFrom: [{ name: 'cluster-secrets', kind: 'Secret' }] } } };
    const v = fluxVariables(ks, index);
    assert.deepEqual(v.unresolved, []);
    assert.deepEqual([...v.secret], ['DOMAIN']);
    const elsewhere = fluxVariables({ ...ks, metadata: { name: 'x', namespace: 'flux-system' } }, index);
    assert.match(elsewhere.unresolved[0]?.reason ?? '', /no Secret flux-system\/cluster-secrets/);
  } finally {
    removeTree(dir);
  }
});

test('substituteFrom: the landing namespaces of a listed file, one per way up', () => {
  const dir = writeTree(files);
  try {
    const fs = nodeFileSystem(dir);
    const lands = kustomizeLandings(fs, repositoryYamlFiles(fs));
    assert.deepEqual(lands('kubernetes/components/common/sops/cluster-secrets.sops.yaml')?.sort(), ['media', 'tools']);
    assert.deepEqual(lands('kubernetes/flux/vars/cluster-settings.yaml'), [undefined]);
    assert.equal(lands('kubernetes/apps/media/sonarr/ks.yaml')?.[0], 'media');
    assert.equal(lands('kubernetes/apps/media/sonarr/app/missing.yaml'), undefined);
  } finally {
    removeTree(dir);
  }
});
