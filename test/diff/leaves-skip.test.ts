// `diff --leaves` builds only the clusters whose leaf inputs differ (docs/adr/0354): each leaf
// job's key (src/render/leaves/job-key.ts) is computed on both sides without building, and a
// cluster whose fingerprints and keys are all equal is reported unchanged without rendering. These
// tests count what ran (the tool processes, through wrappers that log each call, and the leaf jobs
// rendered, from the progress line), never a time; and each diff must equal the full one (every
// cluster built on both sides).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { diffFleet } from '../../src/api/diff.js';
import type { DiffOptions } from '../../src/api/diff.js';
import type { FleetDiff } from '../../src/diff/index.js';
import { diffJson } from '../../src/diff/index.js';
import { leafJobKey } from '../../src/render/leaves/job-key.js';
import type { LeafJob } from '../../src/render/leaves/index.js';
import { createSourceReader } from '../../src/adapters/source-reader.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { git } from '../support/git.js';

const TOOLS = resolve('.tools/bin');

const cluster = (name: string, groups: string[]) => `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
spec:
  role: hub
  sector: canary
  groups: [${groups.join(', ')}]
  vars:
    ZONE: ${name}-zone
`;

const group = (name: string, app: string, body: string) => `apiVersion: fleetplan.io/v1alpha1
kind: Group
metadata:
  name: ${name}
spec:
  apps:
    ${app}:
${body}`;

const configMap = (name: string, data: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
data:
  ${data}
  zone: \${ZONE}
`;

/**
 * Three clusters, each building something only it builds: `web` a kustomization with a
 * kustomize component (shared/labels), `api` a local Helm chart with a values file outside the
 * chart, `plain` a kustomization that nothing below changes.
 */
function makeRepo(): string {
  const dir = writeTree({
    'fleet.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: t
spec:
  repoURL: https://git.example.com/fleet.git
  revision: main
  sectors:
    - name: canary
  defaults:
    project: platform
`,
    'README.md': 'the fleet\n',
    'groups/web/group.yaml': group('web', 'web', '      path: components/web\n      namespace: web\n'),
    'groups/api/group.yaml': group('api', 'api', '      path: charts/api\n      namespace: api\n      helm:\n        valueFiles: [/values/api.yaml]\n'),
    'groups/plain/group.yaml': group('plain', 'plain', '      path: components/plain\n      namespace: plain\n'),
    'clusters/a/cluster.yaml': cluster('a', ['web']),
    'clusters/b/cluster.yaml': cluster('b', ['api']),
    'clusters/c/cluster.yaml': cluster('c', ['plain']),
    'components/web/kustomization.yaml': 'resources: [cm.yaml]\ncomponents: [../../shared/labels]\n',
    'components/web/cm.yaml': configMap('web', 'mode: a'),
    'shared/labels/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonLabels:\n  team: blue\n',
    'components/plain/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/plain/cm.yaml': configMap('plain', 'mode: a'),
    'charts/api/Chart.yaml': 'apiVersion: v2\nname: api\nversion: 0.1.0\n',
    'charts/api/values.yaml': 'replicas: 1\n',
    'charts/api/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\ndata:\n  replicas: "{{ .Values.replicas }}"\n  tier: base\n',
    'values/api.yaml': 'replicas: 2\n',
  });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

function edit(dir: string, path: string, from: string, to: string): void {
  const abs = join(dir, path);
  const text = readFileSync(abs, 'utf8');
  assert.ok(text.includes(from), `${path}: ${from} not found`);
  writeFileSync(abs, text.replace(from, to));
}

/** Wrappers of kubectl and helm that log every call (`kubectl kustomize DIR`, `helm template …`) before running the real tool. */
function loggingTools(dir: string): { kustomize: string; helm: string; calls(): string[] } {
  const log = join(dir, 'calls.log');
  for (const tool of ['kubectl', 'helm']) {
    writeFileSync(join(dir, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexec '${join(TOOLS, tool)}' "$@"\n`);
    chmodSync(join(dir, tool), 0o755);
  }
  return {
    kustomize: join(dir, 'kubectl'),
    helm: join(dir, 'helm'),
    // Builds only: the version checks are not builds.
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => / (kustomize|template) /.test(l)) : []),
  };
}

interface Run {
  diff: FleetDiff;
  /** Leaf jobs rendered on each side, from the progress line; undefined when the line is absent. */
  rendered?: [number, number];
  /** Clusters whose leaves were built, of all. */
  built?: [number, number];
  calls: string[];
}

/** The diff with a fresh in-memory content cache (every build that runs is a tool process) and logging tools. */
async function run(dir: string, extra: Partial<DiffOptions> = {}): Promise<Run> {
  const tools = mkdtempSync(join(tmpdir(), 'fleetplan-leaves-skip-tools-'));
  try {
    const t = loggingTools(tools);
    const lines: string[] = [];
    const diff = await diffFleet({
      root: dir,
      from: 'HEAD',
      leaves: { env: { ...process.env }, kustomize: t.kustomize, helm: t.helm, cacheDir: false, bundledDir: false },
      onProgress: (m) => lines.push(m),
      ...extra,
    });
    const line = lines.find((l) => l.startsWith('leaves built for '));
    const m = line && /^leaves built for (\d+) of (\d+) clusters \((\d+) \+ (\d+) leaf jobs rendered/.exec(line);
    return { diff, calls: t.calls(), ...(m ? { built: [Number(m[1]), Number(m[2])] as [number, number], rendered: [Number(m[3]), Number(m[4])] as [number, number] } : {}) };
  } finally {
    rmSync(tools, { recursive: true, force: true });
  }
}

const changedClusters = (d: FleetDiff) => d.clusters.filter((c) => c.status !== 'unchanged').map((c) => c.name);

/** The incremental diff equals the full one, and builds only what `cluster` builds. */
async function onlyBuilds(dir: string, cluster: string, expectLeafChange: RegExp): Promise<Run> {
  const full = await run(dir, { full: true });
  const r = await run(dir);
  assert.equal(diffJson(r.diff), diffJson(full.diff), 'the same report as every cluster built on both sides');
  assert.deepEqual(changedClusters(r.diff), [cluster]);
  const c = r.diff.clusters.find((x) => x.name === cluster)!;
  assert.match(JSON.stringify(c.leaves), expectLeafChange);
  assert.deepEqual(r.built, [1, 3], 'only the cluster whose leaf inputs differ is built');
  assert.deepEqual(r.rendered, [1, 1], 'one leaf job rendered on each side');
  return r;
}

test('diff --leaves: a change to a kustomize component a build reads shows in that cluster only, and only that cluster is built', async () => {
  const dir = makeRepo();
  try {
    edit(dir, 'shared/labels/kustomization.yaml', 'team: blue', 'team: green');
    const r = await onlyBuilds(dir, 'a', /team: green/);
    // The component's build ran (once per side: the two differ); the chart and the plain component did not.
    assert.equal(r.calls.filter((l) => l.includes('components/web')).length, 2, r.calls.join('\n'));
    assert.deepEqual(r.calls.filter((l) => !l.includes('components/web')), [], 'nothing else was built');
  } finally {
    removeTree(dir);
  }
});

test('diff --leaves: a change to a Helm values file outside the chart shows in the cluster that reads it, and only its chart is built', async () => {
  const dir = makeRepo();
  try {
    edit(dir, 'values/api.yaml', 'replicas: 2', 'replicas: 3');
    const r = await onlyBuilds(dir, 'b', /replicas: \\"3\\"/);
    assert.equal(r.calls.length, 2, r.calls.join('\n'));
    assert.ok(r.calls.every((l) => l.startsWith('helm template')), r.calls.join('\n'));
  } finally {
    removeTree(dir);
  }
});

test('diff --leaves: a change to a chart template shows in the cluster that builds the chart', async () => {
  const dir = makeRepo();
  try {
    edit(dir, 'charts/api/templates/cm.yaml', 'tier: base', 'tier: gold');
    await onlyBuilds(dir, 'b', /tier: gold/);
  } finally {
    removeTree(dir);
  }
});

test('diff --leaves: when nothing a cluster reads changed, no cluster is built and no tool runs', async () => {
  const dir = makeRepo();
  try {
    edit(dir, 'README.md', 'the fleet', 'the fleet, edited');
    const full = await run(dir, { full: true });
    assert.ok(full.calls.length >= 3, 'the full diff builds every cluster (the check below can fail)');
    const r = await run(dir);
    assert.equal(diffJson(r.diff), diffJson(full.diff));
    assert.deepEqual(changedClusters(r.diff), []);
    assert.deepEqual(r.built, [0, 3]);
    assert.deepEqual(r.rendered, [0, 0]);
    assert.deepEqual(r.calls, [], 'no build ran');
  } finally {
    removeTree(dir);
  }
});

test('diff --leaves: a cluster variable change builds that cluster only (its jobs carry the variables)', async () => {
  const dir = makeRepo();
  try {
    edit(dir, 'clusters/c/cluster.yaml', 'ZONE: c-zone', 'ZONE: c-zone-2');
    const full = await run(dir, { full: true });
    const r = await run(dir);
    assert.equal(diffJson(r.diff), diffJson(full.diff));
    assert.deepEqual(changedClusters(r.diff), ['c']);
    assert.deepEqual(r.built, [1, 3]);
    assert.match(JSON.stringify(r.diff.clusters.find((x) => x.name === 'c')!.leaves), /c-zone-2/);
  } finally {
    removeTree(dir);
  }
});

test('leaf job key: equal for the same inputs, different when a file the build reads, the job or its variables differ; none for a source it cannot tell', () => {
  const dir = makeRepo();
  try {
    const key = (job: LeafJob) => leafJobKey(job, { repoRoot: dir, reader: createSourceReader(dir) });
    const web: LeafJob = { cluster: 'a', app: 'web', source: { kind: 'kustomize', path: 'components/web' }, variables: { ZONE: 'z' } };
    const api: LeafJob = { cluster: 'b', app: 'api', source: { kind: 'helm', path: 'charts/api', releaseName: 'api', namespace: 'api', valueFiles: ['/values/api.yaml'] }, variables: {} };
    const k = key(web);
    assert.match(k ?? '', /^[0-9a-f]{64}$/);
    assert.equal(key({ ...web, variables: { ZONE: 'z' } }), k, 'the same job, the same key');
    assert.notEqual(key({ ...web, variables: { ZONE: 'y' } }), k, 'its variables');
    assert.notEqual(key({ ...web, cluster: 'b' }), k, 'another cluster');
    const ka = key(api);
    assert.ok(ka);
    assert.notEqual(key({ ...api, source: { ...api.source, releaseName: 'other' } as LeafJob['source'] }), ka, 'a Helm setting');
    edit(dir, 'shared/labels/kustomization.yaml', 'team: blue', 'team: red');
    assert.notEqual(key(web), k, 'a component the kustomization reads');
    edit(dir, 'values/api.yaml', 'replicas: 2', 'replicas: 5');
    assert.notEqual(key(api), ka, 'a values file outside the chart');
    const kb = key(api);
    edit(dir, 'charts/api/templates/cm.yaml', 'tier: base', 'tier: x');
    assert.notEqual(key(api), kb, 'a chart template');
    rmSync(join(dir, 'values/api.yaml'));
    assert.ok(key(api), 'a missing values file is part of the key (the build fails the same way)');
    assert.equal(key({ ...web, source: { kind: 'helm', chart: 'podinfo', repoURL: 'https://charts.example.com', releaseName: 'p', namespace: 'p' } }), undefined, 'a remote chart');
    assert.equal(key({ ...web, source: { kind: 'kustomize', path: '../outside' } }), undefined, 'a path outside the repository');
    assert.equal(key({ ...web, source: { kind: 'helm', path: 'charts/api', releaseName: 'api', namespace: 'api', values: { when: new Date(0) } } }), undefined, 'a value that is not plain JSON');
  } finally {
    removeTree(dir);
  }
});
