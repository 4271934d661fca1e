/**
 * The offline remote-chart hint names the real directory a chart pulled by hand must go to
 * (`<cache dir>/charts`, where render --leaves looks first; ADR 0322), not a `<cache dir>`
 * placeholder: for a helmfile release's chart and for a Flux HelmRelease's chart. The cache
 * directory is given with --cache-dir, so the test does not depend on the machine's home.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxKustomization, gotkSync } from '../support/flux-fixture.js';

function repo(): Record<string, string> {
  return {
    'clusters/one/flux-system/gotk-sync.yaml': gotkSync('one'),
    'clusters/one/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/one/apps.yaml': fluxKustomization('apps', 'apps').replace('name: apps\n', 'name: apps\n  namespace: flux-system\n'),
    // Two clusters: the flux layout (one cluster and a helmfile would be helmfile-flux).
    'clusters/two/flux-system/gotk-sync.yaml': gotkSync('two'),
    'clusters/two/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'apps/kustomization.yaml': 'resources:\n  - podinfo.yaml\n',
    'apps/podinfo.yaml': `apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: podinfo
  namespace: apps
spec:
  interval: 1h
  url: oci://ghcr.io/stefanprodan/charts/podinfo
  ref:
    tag: 6.5.0
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: podinfo
  namespace: apps
spec:
  interval: 1h
  chartRef:
    kind: OCIRepository
    name: podinfo
`,
    'bootstrap/helmfile/apps.yaml': 'releases:\n  - name: podinfo\n    namespace: apps\n    chart: oci://ghcr.io/stefanprodan/charts/podinfo\n    version: 6.5.0\n',
  };
}

test('render --leaves offline: the remote-chart hint names the real chart cache directory, for a helmfile release and a Flux HelmRelease', async () => {
  const dir = writeTree(repo());
  const home = mkdtempSync(join(tmpdir(), 'fleetplan home-'));
  try {
    const cache = join(home, 'cache');
    const r = await cli(['render', '--repo', dir, '--out', join(home, 'out'), '--leaves', '--cache-dir', cache], process.cwd(), { HOME: join(home, 'h'), XDG_CACHE_HOME: join(home, 'x') });
    assert.doesNotMatch(r.stderr, /<cache dir>/);
    // The home has a space: the path is quoted as one shell word.
    assert.ok(r.stderr.includes(`helm pull oci://ghcr.io/stefanprodan/charts/podinfo --version 6.5.0 --destination '${join(cache, 'charts')}'`), r.stderr);
    assert.ok(r.stderr.includes(`or helm pull it into '${join(cache, 'charts')}'`), r.stderr);
  } finally {
    removeTree(dir);
    removeTree(home);
  }
});
