/**
 * Helm hooks in the charts of Flux HelmReleases, as helm-controller gives them to the cluster
 * (ADR 0418): install/upgrade hooks are created by the install/upgrade action unless
 * `spec.install.disableHooks` / `spec.upgrade.disableHooks`; test hooks (`test`, `test-success`) only
 * by `helm test`, which helm-controller runs when `spec.test.enable` (filtered by `spec.test.filters`);
 * delete and rollback hooks at no install or upgrade. render --leaves wrote every hook `helm template`
 * prints, test Pods included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxKustomization, gotkSync, helmReleaseOf, localChart } from '../support/flux-fixture.js';
import { parseYamlAll } from '../../src/yaml/index.js';

const hook = (name: string, events: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  annotations:\n    helm.sh/hook: ${events}\nspec:\n  restartPolicy: Never\n  containers:\n    - name: c\n      image: busybox\n`;

function repo(rest: string): Record<string, string> {
  return {
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0\n',
    'charts/web/values.yaml': '',
    'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n',
    'charts/web/templates/pre-install.yaml': hook('pre-install', 'pre-install'),
    'charts/web/templates/post-upgrade.yaml': hook('post-upgrade', 'post-upgrade'),
    'charts/web/templates/install-and-upgrade.yaml': hook('install-and-upgrade', '"pre-install,pre-upgrade"'),
    'charts/web/templates/pre-delete.yaml': hook('pre-delete', 'pre-delete'),
    'charts/web/templates/post-rollback.yaml': hook('post-rollback', 'post-rollback'),
    'charts/web/templates/tests/a.yaml': hook('test-a', 'test'),
    'charts/web/templates/tests/b.yaml': hook('test-b', 'test-success'),
    'clusters/home/flux-system/gotk-sync.yaml': gotkSync('home'),
    'clusters/home/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/home/apps.yaml': fluxKustomization('apps', 'apps/web', '', 'flux-system'),
    'apps/web/kustomization.yaml': 'resources:\n  - release.yaml\n',
    'apps/web/release.yaml': helmReleaseOf('web', 'web', `${localChart('./charts/web')}${rest}`),
  };
}

async function chartObjects(rest: string): Promise<{ names: string[]; out: string }> {
  const dir = writeTree(repo(rest));
  const out = `${dir}.out`;
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const base = join(out, 'home', 'manifests', 'flux_flux-system_apps');
    const files = readdirSync(base, { recursive: true }).map(String).filter((f) => f.startsWith('helm_'));
    const names = files.flatMap((f) => parseYamlAll(readFileSync(join(base, f), 'utf8')) as { metadata: { name: string } }[]).map((o) => o.metadata.name);
    return { names: names.sort(), out: r.stdout + r.stderr };
  } finally {
    removeTree(dir);
    removeTree(out);
  }
}

test('flux hooks: by default the install and upgrade hooks are leaves; test, delete and rollback hooks are not', async () => {
  const r = await chartObjects('');
  assert.deepEqual(r.names, ['install-and-upgrade', 'plain', 'post-upgrade', 'pre-install'], r.out);
  assert.match(r.out, /2 helm test hooks left out: helm-controller runs tests only with spec\.test\.enable/, r.out);
});

test('flux hooks: spec.test.enable adds the test hooks, less those spec.test.filters exclude', async () => {
  assert.deepEqual((await chartObjects('  test:\n    enable: true\n')).names, ['install-and-upgrade', 'plain', 'post-upgrade', 'pre-install', 'test-a', 'test-b']);
  assert.deepEqual((await chartObjects('  test:\n    enable: true\n    filters:\n      - name: test-a\n        exclude: true\n')).names, ['install-and-upgrade', 'plain', 'post-upgrade', 'pre-install', 'test-b']);
  assert.deepEqual((await chartObjects('  test:\n    enable: true\n    filters:\n      - name: test-a\n')).names, ['install-and-upgrade', 'plain', 'post-upgrade', 'pre-install', 'test-a']);
});

test('flux hooks: disableHooks of install or upgrade leaves out the hooks only that action runs', async () => {
  assert.deepEqual((await chartObjects('  install:\n    disableHooks: true\n')).names, ['install-and-upgrade', 'plain', 'post-upgrade']);
  assert.deepEqual((await chartObjects('  upgrade:\n    disableHooks: true\n')).names, ['install-and-upgrade', 'plain', 'pre-install']);
  assert.deepEqual((await chartObjects('  install:\n    disableHooks: true\n  upgrade:\n    disableHooks: true\n')).names, ['plain']);
});
