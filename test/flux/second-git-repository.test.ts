/**
 * A second GitRepository of the same repository (issue #12 part 2): home-ops repositories declare
 * their own GitRepository (`home-kubernetes`, same URL and branch as the one Flux was bootstrapped
 * with, often with `spec.ignore`) and point their Kustomizations at it. Its files are this clone's:
 * the Kustomizations of that source are read. The same URL at another branch, tag or commit is
 * another revision and stays not read, and says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync, kustomizationWithDeps } from '../support/flux-fixture.js';

const gitRepository = (name: string, url: string, ref: string) => `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 10m
  url: ${url}
  ref:
    ${ref}
  ignore: |
    /*
    !/apps
`;

const ks = (name: string, source: string, path: string) => kustomizationWithDeps(name, path, [], source);

function repo(ref: string): Record<string, string> {
  return {
    // gotkSync's GitRepository flux-system: ssh://git@example.org/fleet, branch main.
    'clusters/home/flux-system/gotk-sync.yaml': gotkSync('home'),
    'clusters/home/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/home/source.yaml': [gitRepository('home-kubernetes', 'https://example.org/fleet.git', ref), ks('apps', 'home-kubernetes', './apps')].join('---\n'),
    'apps/kustomization.yaml': 'resources:\n  - web.yaml\n',
    'apps/web.yaml': ks('web', 'home-kubernetes', './apps/web'),
    'apps/web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: default\n',
  };
}

type Plan = { clusters: { name: string; notes: string[]; apps: { name: string }[] }[] };

test('flux sources: a GitRepository with the URL and branch of the flux-system one is this repository, and its Kustomizations are read', async () => {
  const dir = writeTree(repo('branch: main'));
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const c = (JSON.parse(r.stdout) as Plan).clusters[0]!;
    assert.deepEqual(c.apps.map((a) => a.name).sort(), ['flux:flux-system/apps', 'flux:flux-system/flux-system', 'flux:flux-system/web']);
    assert.ok(!c.notes.some((n) => /not read/.test(n)), c.notes.join('\n'));
  } finally {
    removeTree(dir);
  }
});

test('flux sources: a GitRepository of the same URL at another branch is another revision: not read, and the note says which', async () => {
  const dir = writeTree(repo('branch: dev'));
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const c = (JSON.parse(r.stdout) as Plan).clusters[0]!;
    assert.deepEqual(c.apps.map((a) => a.name).sort(), ['flux:flux-system/apps', 'flux:flux-system/flux-system']);
    assert.ok(c.notes.some((n) => /not read: flux:flux-system\/apps: .*home-kubernetes.*refs\/heads\/dev.*refs\/heads\/main/.test(n)), c.notes.join('\n'));
  } finally {
    removeTree(dir);
  }
});

// A HelmRelease whose chart comes from the second GitRepository (a chart folder of this repository).
function chartRepo(ref: string): Record<string, string> {
  const files = repo(ref);
  files['apps/web/release.yaml'] = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: web
  namespace: default
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/web
      sourceRef:
        kind: GitRepository
        name: home-kubernetes
        namespace: flux-system
`;
  files['charts/web/Chart.yaml'] = 'apiVersion: v2\nname: web\nversion: 0.1.0\n';
  files['charts/web/templates/cm.yaml'] = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-chart\n';
  return files;
}

test('flux sources: a HelmRelease chart from a GitRepository with the URL and branch of the flux-system one is rendered from this repository', async () => {
  const dir = writeTree(chartRepo('branch: main'));
  const out = `${dir}.out`;
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const chartFiles = readdirSync(join(out, 'home', 'manifests', 'flux_flux-system_web'), { recursive: true }).map(String).filter((f) => f.startsWith('helm_'));
    const text = chartFiles.map((f) => readFileSync(join(out, 'home', 'manifests', 'flux_flux-system_web', f), 'utf8')).join('');
    assert.match(text, /name: web-chart/, `${chartFiles.join(', ')}\n${r.stderr}`);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('flux sources: a HelmRelease chart from the same URL at another branch is not rendered, and says its source', async () => {
  const files = chartRepo('branch: main');
  // The Kustomizations stay on this revision; only the chart's GitRepository is at another branch.
  files['clusters/home/chart-source.yaml'] = gitRepository('charts-dev', 'https://example.org/fleet.git', 'branch: dev');
  files['apps/web/release.yaml'] = files['apps/web/release.yaml']!.replace('name: home-kubernetes', 'name: charts-dev');
  const dir = writeTree(files);
  const out = `${dir}.out`;
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out]);
    assert.match(r.stderr, /HelmRelease default\/web not rendered: .*GitRepository flux-system\/charts-dev/, r.stderr);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
