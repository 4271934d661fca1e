// Identity labels, the root ApplicationSet and planApplicationSetFleet on small fleets, with the
// repository in memory (the real-git path is covered by test/appset/delivery.test.ts).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../src/index.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { clusterSecretFor } from '../../src/generate/cluster-identity.js';
import { rootApplicationSet, valuesFor } from '../../src/generate/applicationset-delivery.js';
import { planApplicationSetFleet } from '../../src/order/applicationset-apps.js';
import type { FleetRepoSource, RevisionStatus } from '../../src/ports/fleet-repo.js';
import { createMemoryTree } from '../../src/appset/repo-server.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const dirs: string[] = [];
after(() => dirs.forEach(removeTree));

const PIN = '0123456789abcdef0123456789abcdef01234567';

function fleetFiles(delivery: string, clusters: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {
    'fleet.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: t
spec:
  repoURL: https://git.example.com/fleet.git
  revision: main
  platform: kubernetes
  gitops:
    delivery: ${delivery}
  sectors:
    - name: dev
    - name: prod
      revision: ${PIN}
`,
    ...extra,
  };
  for (const [name, spec] of Object.entries(clusters)) {
    files[`clusters/${name}/cluster.yaml`] = `apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
  }
  return files;
}

function load(files: Record<string, string>) {
  const dir = writeTree(files);
  dirs.push(dir);
  const { fleet, findings } = loadFleet(dir);
  assert.deepEqual(findings, []);
  return resolveFleet(fleet);
}

const TREE = createMemoryTree({
  'argocd/config/management-cluster/hypershift/Chart.yaml': 'name: hypershift\n',
  'argocd/config/regional-cluster/maestro/Chart.yaml': 'name: maestro\n',
  'argocd/config/shared/argocd/Chart.yaml': 'name: argocd\n',
  'charts/edge/router/Chart.yaml': 'name: router\n',
});

function memorySource(status: RevisionStatus = 'found'): FleetRepoSource & { revisions: string[] } {
  const revisions: string[] = [];
  return {
    tree: TREE,
    revisions,
    revisionStatus(rev) {
      revisions.push(rev);
      return Promise.resolve(status);
    },
  };
}

const labelCases: { name: string; delivery: string; spec: string; labels: Record<string, string>; revision: string }[] = [
  {
    name: 'derives cluster_type, environment and region_alias from role, sector and region',
    delivery: 'applicationset',
    spec: '  role: management\n  sector: prod\n  region: eu-west-1\n',
    labels: { cluster_type: 'management-cluster', environment: 'prod', region_alias: 'eu-west-1', role: 'management', sector: 'prod', region: 'eu-west-1' },
    revision: 'main',
  },
  {
    name: "lets the cluster's own labels override the seed 004 names",
    delivery: 'applicationset',
    spec: '  role: hub\n  sector: dev\n  region: lab\n  labels:\n    cluster_type: management-cluster\n    region_alias: rdu2\n    aws_region: us-east-1\n',
    labels: { cluster_type: 'management-cluster', environment: 'dev', region_alias: 'rdu2', aws_region: 'us-east-1', role: 'hub', sector: 'dev', region: 'lab' },
    revision: 'main',
  },
  {
    name: 'announces the sector pin as git_revision under app-of-apps delivery',
    delivery: 'app-of-apps',
    spec: '  role: regional\n  sector: prod\n',
    labels: { cluster_type: 'regional-cluster', environment: 'prod', role: 'regional', sector: 'prod' },
    revision: PIN,
  },
];

for (const c of labelCases) {
  test(`identity Secret: ${c.name}`, () => {
    const { fleet, clusters } = load(fleetFiles(c.delivery, { a: c.spec }));
    const secret = clusterSecretFor(fleet, clusters[0]!);
    assert.deepEqual(secret.metadata.labels, { 'argocd.argoproj.io/secret-type': 'cluster', ...c.labels });
    assert.equal(secret.metadata.annotations?.['git_revision'], c.revision);
  });
}

test('root ApplicationSet: a pinned sector pins the git generator and the chart source, not the values source', () => {
  const { fleet, clusters } = load(fleetFiles('applicationset', { a: '  role: management\n  sector: prod\n  region: r1\n' }));
  const spec = rootApplicationSet(fleet, clusters[0]!)['spec'] as {
    generators: { matrix: { generators: [{ clusters: { selector: { matchLabels: Record<string, string> } } }, { git: { revision: string } }] } }[];
    template: { spec: { sources: { targetRevision: string }[] } };
  };
  const [clusterGen, gitGen] = spec.generators[0]!.matrix.generators;
  assert.deepEqual(clusterGen.clusters.selector.matchLabels, { 'argocd.argoproj.io/secret-type': 'cluster', cluster_type: 'management-cluster', environment: 'prod', region_alias: 'r1' });
  assert.equal(gitGen.git.revision, PIN);
  assert.deepEqual(spec.template.spec.sources.map((s) => s.targetRevision), [PIN, '{{ .metadata.annotations.git_revision }}']);
  assert.deepEqual(valuesFor(fleet, clusters[0]!), { global: { clusterType: 'management-cluster', environment: 'prod', region: 'r1', repoURL: 'https://git.example.com/fleet.git' } });
});

const planCases: {
  name: string;
  clusters: Record<string, string>;
  extra?: Record<string, string>;
  status?: RevisionStatus;
  apps: Record<string, string[]>;
  findings: string[];
  notes?: Record<string, string[]>;
}[] = [
  {
    name: 'lists one Application per chart directory of the cluster type plus shared',
    clusters: { mc: '  role: management\n  sector: dev\n  region: r1\n', rc: '  role: regional\n  sector: dev\n  region: r1\n' },
    apps: { mc: ['mc-argocd', 'mc-hypershift'], rc: ['rc-argocd', 'rc-maestro'] },
    findings: [],
  },
  {
    name: 'reads gitops.applicationset.directories instead of the defaults',
    clusters: { edge: '  role: spoke\n  sector: dev\n  region: r1\n' },
    extra: { 'fleet.yaml': fleetFiles('applicationset', {})['fleet.yaml']!.replace('    delivery: applicationset\n', '    delivery: applicationset\n    applicationset:\n      directories: ["charts/edge/*"]\n') },
    apps: { edge: ['edge-router'] },
    findings: [],
  },
  {
    name: 'a cluster without a sector is an evaluation error of that cluster only',
    clusters: { bad: '  role: management\n  region: r1\n', good: '  role: management\n  sector: dev\n  region: r1\n' },
    apps: { bad: [], good: ['good-argocd', 'good-hypershift'] },
    findings: ['error appset-evaluation bad'],
  },
  {
    name: 'apps listed in cluster.yaml are reported as not delivered',
    clusters: { mc: '  role: management\n  sector: dev\n  region: r1\n  apps:\n    extra:\n      path: x\n      namespace: x\n' },
    apps: { mc: ['mc-argocd', 'mc-hypershift'] },
    findings: ['warning apps-not-delivered mc'],
  },
  {
    name: 'a pin the repository does not have is a warning; the working tree is read',
    clusters: { p: '  role: regional\n  sector: prod\n  region: r1\n' },
    status: 'missing',
    apps: { p: ['p-argocd', 'p-maestro'] },
    findings: ['warning appset-revision-not-found p'],
    notes: { p: [`charts pinned to ${PIN} (sector prod); values follow main`, `revision ${PIN} is not in the fleet repository's history: charts listed from the working tree`] },
  },
];

for (const c of planCases) {
  test(`planApplicationSetFleet: ${c.name}`, async () => {
    const { fleet } = load(fleetFiles('applicationset', c.clusters, c.extra));
    const plan = await planApplicationSetFleet(resolveFleet(fleet), memorySource(c.status));
    assert.deepEqual(Object.fromEntries(plan.clusters.map((p) => [p.name, p.apps.map((a) => a.name)])), c.apps);
    assert.deepEqual(plan.findings.map((f) => `${f.severity} ${f.code} ${f.cluster}`), c.findings);
    if (c.notes) assert.deepEqual(Object.fromEntries(plan.clusters.map((p) => [p.name, p.notes])), c.notes);
  });
}
