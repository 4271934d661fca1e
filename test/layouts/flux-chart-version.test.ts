/**
 * What a Flux cluster's HelmReleases pin (docs/adr/0281-flux-chart-versions.md): an exact version, an
 * OCI digest or tag is pinned; a semver range (chart.spec.version or OCIRepository ref.semver) is
 * resolved only at reconcile time and fleetplan says so with file and line instead of naming a
 * version; a required valuesFrom that the cluster does not apply is a warning with file and line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { helmReleaseOf } from '../support/flux-fixture.js';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const sync = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 10m0s
  path: ./clusters/home
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;

const release = (name: string, chart: string) => helmReleaseOf(name, 'apps', chart);

const files: Record<string, string> = {
  'clusters/home/flux-system/gotk-sync.yaml': sync,
  'clusters/home/repos.yaml': `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: charts
  namespace: apps
spec:
  url: https://charts.example.org
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: by-digest
  namespace: apps
spec:
  url: oci://ghcr.io/example/charts/a
  ref:
    digest: sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: by-semver
  namespace: apps
spec:
  url: oci://ghcr.io/example/charts/b
  ref:
    semver: ">=1.2.0 <2.0.0"
`,
  'clusters/home/releases.yaml': [
    release('exact', '  chart:\n    spec:\n      chart: exact\n      version: 1.2.3\n      sourceRef:\n        kind: HelmRepository\n        name: charts\n'),
    release('ranged', '  chart:\n    spec:\n      chart: ranged\n      version: ">=1.0.0"\n      sourceRef:\n        kind: HelmRepository\n        name: charts\n  valuesFrom:\n    - kind: Secret\n      name: not-here\n    - kind: Secret\n      name: maybe\n      optional: true\n'),
    release('digest', '  chartRef:\n    kind: OCIRepository\n    name: by-digest\n'),
    release('semver', '  chartRef:\n    kind: OCIRepository\n    name: by-semver\n'),
  ].join('---\n'),
};

interface PlanJson {
  clusters: { notes: string[] }[];
  findings: { severity: string; code: string; message: string; file?: string; line?: number }[];
}

test('flux-chart-version: ranges are named with file and line and never resolved to a guessed version; pins are listed', async () => {
  const dir = writeTree(files);
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    const p = JSON.parse(r.stdout) as PlanJson;
    const ranges = p.findings.filter((f) => f.code === 'flux-chart-version-range');
    assert.deepEqual(ranges.map((f) => [f.file, f.line]), [['clusters/home/releases.yaml', 26], ['clusters/home/repos.yaml', 27]], JSON.stringify(ranges));
    assert.match(ranges[0]!.message, /HelmRelease apps\/ranged: chart ranged version ">=1.0.0" is a range/);
    assert.match(ranges[1]!.message, /semver range ">=1.2.0 <2.0.0"/);
    const note = p.clusters[0]!.notes.find((n) => n.startsWith('HelmRelease charts:'));
    assert.match(note ?? '', /2 pinned, 2 resolved only at reconcile time/);
    assert.doesNotMatch(note ?? '', /apps\/digest: [^;]*semver/);
  } finally {
    removeTree(dir);
  }
});

test('flux-chart-version: a required valuesFrom that the cluster does not apply is a warning at its line; an optional one is not', async () => {
  const dir = writeTree(files);
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    const p = JSON.parse(r.stdout) as PlanJson;
    const missing = p.findings.filter((f) => f.code === 'flux-values-from-missing');
    assert.equal(missing.length, 1, JSON.stringify(missing));
    assert.equal(missing[0]!.file, 'clusters/home/releases.yaml');
    assert.equal(missing[0]!.line, 31);
    assert.match(missing[0]!.message, /Secret apps\/not-here/);
  } finally {
    removeTree(dir);
  }
});

test('flux-chart-version: kustomize postRenderers, which fleetplan does not apply, are a warning at spec.postRenderers', async () => {
  const dir = writeTree({
    ...files,
    'clusters/home/releases.yaml': release('patched', '  chart:\n    spec:\n      chart: exact\n      version: 1.2.3\n      sourceRef:\n        kind: HelmRepository\n        name: charts\n  postRenderers:\n    - kustomize:\n        images:\n          - name: web\n            newTag: "2"\n'),
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    const p = JSON.parse(r.stdout) as PlanJson;
    const found = p.findings.filter((f) => f.code === 'flux-post-renderers-not-applied');
    assert.deepEqual(found.map((f) => [f.severity, f.file, f.line]), [['warning', 'clusters/home/releases.yaml', 15]], JSON.stringify(found));
    assert.match(found[0]!.message, /HelmRelease apps\/patched: spec\.postRenderers/);
  } finally {
    removeTree(dir);
  }
});
