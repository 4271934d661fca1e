/**
 * A helmfile release that a Flux HelmRelease later owns must be the Helm release helm-controller
 * looks for (release name, storage and release namespace), or Flux reinstalls instead of adopting
 * (docs/adr/0263-helmrelease-identity.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../src/api/fleet.js';
import { validateFleet } from '../../src/index.js';
import { shortenReleaseName } from '../../src/validate/rules/helmrelease-identity.js';
import type { Finding } from '../../src/model/finding.js';
import { writeTree, removeTree, cli } from '../support/fleet-fixture.js';
import { helmfileRepo } from '../support/helmfile-repo.js';

/** The helmfile fixture with podinfo's Flux HelmRelease at the layout's convention. */
function repo(helmRelease: string): Record<string, string> {
  return {
    ...helmfileRepo(),
    'kubernetes/apps/apps/podinfo/app/helmrelease.yaml': helmRelease,
  };
}

function identityFindings(files: Record<string, string>): Finding[] {
  const dir = writeTree(files);
  try {
    const { fleet } = loadFleet(dir);
    return validateFleet(fleet).filter((f) => f.code === 'helmrelease-identity');
  } finally {
    removeTree(dir);
  }
}

const HEADER = 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: podinfo\n';

const cases: Array<{ name: string; helmRelease: string; expect: RegExp[] }> = [
  {
    name: 'agrees: same name, namespace from metadata',
    helmRelease: `${HEADER}  namespace: apps\nspec:\n  interval: 1h\n`,
    expect: [],
  },
  {
    name: 'agrees: targetNamespace with spec.releaseName and spec.storageNamespace set',
    helmRelease: `${HEADER}  namespace: flux-system\nspec:\n  targetNamespace: apps\n  storageNamespace: apps\n  releaseName: podinfo\n`,
    expect: [],
  },
  {
    name: 'targetNamespace without releaseName: helm-controller looks for apps-podinfo',
    helmRelease: `${HEADER}  namespace: apps\nspec:\n  targetNamespace: apps\n`,
    expect: [/release name "apps-podinfo" \(spec\.targetNamespace "apps" \+ "-" \+ metadata\.name, no spec\.releaseName\), helmfile installs "podinfo"/, /set spec\.releaseName: podinfo/],
  },
  {
    name: 'HelmRelease in flux-system targeting apps: stored in flux-system',
    helmRelease: `${HEADER}  namespace: flux-system\nspec:\n  targetNamespace: apps\n  releaseName: podinfo\n`,
    expect: [/storage namespace "flux-system" \(the HelmRelease namespace, no spec\.storageNamespace\), helmfile stores it in "apps"/, /set spec\.storageNamespace: apps/],
  },
  {
    name: 'another spec.releaseName',
    helmRelease: `${HEADER}  namespace: apps\nspec:\n  releaseName: podinfo-main\n`,
    expect: [/release name "podinfo-main" \(spec\.releaseName\), helmfile installs "podinfo"/],
  },
];

for (const c of cases) {
  test(`helmrelease-identity: ${c.name}`, () => {
    const found = identityFindings(repo(c.helmRelease));
    if (c.expect.length === 0) {
      assert.deepEqual(found, []);
      return;
    }
    assert.equal(found.length, 1, JSON.stringify(found));
    const f = found[0]!;
    assert.equal(f.severity, 'error');
    // Both sides by file and line: the helmfile release where the finding is, the HelmRelease in the message.
    assert.equal(f.file, 'bootstrap/helmfile.d/01-apps.yaml');
    assert.equal(f.line, 3);
    assert.match(f.message, /helmfile release apps\/podinfo \(bootstrap\/helmfile\.d\/01-apps\.yaml:3\) is not the release Flux HelmRelease [a-z-]+\/podinfo \(kubernetes\/apps\/apps\/podinfo\/app\/helmrelease\.yaml:1\) adopts/);
    assert.match(f.message, /Flux would install a second release instead of adopting this one/);
    for (const re of c.expect) assert.match(`${f.message}\n${f.hint ?? ''}`, re);
  });
}

test('helmrelease-identity: the namespace comes from the Kustomization that applies the HelmRelease (targetNamespace)', () => {
  const found = identityFindings({
    ...helmfileRepo(),
    'kubernetes/apps/apps/podinfo/ks.yaml': `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: podinfo
  namespace: flux-system
spec:
  interval: 1h
  path: ./kubernetes/apps/apps/podinfo/release
  targetNamespace: apps
  prune: true
  sourceRef: {kind: GitRepository, name: flux-system}
`,
    // Not at the convention's path: found under the Kustomization's path, its namespace from targetNamespace.
    'kubernetes/apps/apps/podinfo/release/hr.yaml': `${HEADER}spec:\n  releaseName: podinfo-x\n`,
  });
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.match(found[0]!.message, /Flux HelmRelease apps\/podinfo \(kubernetes\/apps\/apps\/podinfo\/release\/hr\.yaml:1\)/);
  assert.match(found[0]!.message, /release name "podinfo-x"/);
});

test('helmrelease-identity: a helmfile release no HelmRelease takes over is not checked', () => {
  assert.deepEqual(identityFindings(helmfileRepo()), []);
});

test('helm-controller shortens release names past 53 characters (first 40, a dash, 12 hex of the SHA-256)', () => {
  assert.equal(shortenReleaseName('a'.repeat(53)), 'a'.repeat(53));
  const long = 'some-front-appended-namespace-release-with-a-very-long-name';
  const short = shortenReleaseName(long);
  assert.equal(short.length, 53);
  assert.equal(short.slice(0, 41), `${long.slice(0, 40)}-`);
  assert.match(short, /-[0-9a-f]{12}$/);
  assert.notEqual(shortenReleaseName(`${long}-2`), short);
});

test('validate (CLI) reports the mismatch with both files', async () => {
  const dir = writeTree(repo(`${HEADER}  namespace: apps\nspec:\n  targetNamespace: apps\n`));
  try {
    const r = await cli(['validate', '--repo', dir]);
    assert.equal(r.code, 1);
    assert.match(r.stdout + r.stderr, /bootstrap\/helmfile\.d\/01-apps\.yaml\n {2}3:1\s+error\s+helmrelease-identity /);
    assert.match(r.stdout + r.stderr, /kubernetes\/apps\/apps\/podinfo\/app\/helmrelease\.yaml:1/);
  } finally {
    removeTree(dir);
  }
});
