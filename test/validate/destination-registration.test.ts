/**
 * The destination-registration rule, one named table: Applications a cluster's Argo CD creates
 * with the API server of a cluster the fleet provisions. Failing and passing cases on the
 * region-specs layout (ApplicationSets written in gitops-applications/) and on the native layout
 * (apps fleetplan generates). Each case lists the findings it expects as `file:line`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, validateFleet } from '../../src/index.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const CODE = 'destination-before-registration';
const URL = 'https://api.a.example.com:6443';

const region = `apiVersion: regional.openshift.io/v1
kind: RegionalCluster
metadata:
  name: a
spec:
  type: ocp
  region: eu-west-1
  domain: example.com
  compute:
    instanceType: m5.xlarge
    replicas: 2
  openshift:
    version: "4.18"
`;

/** An ApplicationSet like the region-specs repository's: the cluster on the hub, then apps at `destination`. */
function appSet(destination: string, destinationField = 'server'): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: a-applications
  namespace: openshift-gitops
spec:
  generators:
  - list:
      elements:
      - component: cluster
        path: clusters/a
        destination: https://kubernetes.default.svc
      - component: operators
        path: operators/a
        destination: ${destination}
  template:
    metadata:
      name: a-{{component}}
    spec:
      project: default
      source:
        repoURL: https://git.example.com/fleet.git
        path: '{{path}}'
        targetRevision: main
      destination:
        ${destinationField}: '{{destination}}'
`;
}

const regionFiles = (set: string): Record<string, string> => ({
  'regions/eu-west-1/a/region.yaml': region,
  'gitops-applications/kustomization.yaml': 'kind: Kustomization\nresources:\n- ./a.yaml\n',
  'gitops-applications/a.yaml': set,
  'clusters/a/kustomization.yaml': 'resources:\n- managedcluster.yaml\n',
  'clusters/a/managedcluster.yaml': 'apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: a\nspec:\n  hubAcceptsClient: true\n',
  'operators/a/kustomization.yaml': 'resources: []\n',
});

const nativeFiles = (hubApps: string): Record<string, string> => ({
  'fleet.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: t\nspec:\n  repoURL: https://git.example.com/fleet.git\n',
  'clusters/hub/cluster.yaml': `apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: hub\nspec:\n  role: hub\n${hubApps}`,
  'clusters/a/cluster.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: a
spec:
  role: spoke
  hub: hub
  server: ${URL}
  provision:
    installer: hive-aws
    version: "4.19"
    baseDomain: example.com
    region: us-east-1
    credentials:
      store: { name: vault }
      cloud: { key: aws }
      pullSecret: { key: pull }
  apps:
    operators:
      path: apps/operators
      server: ${URL}
`,
  'apps/operators/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n',
});

interface Case {
  name: string;
  files: Record<string, string>;
  expect: string[];
}

const cases: Case[] = [
  {
    name: 'region-specs: an ApplicationSet element with the API URL of the cluster the same ApplicationSet provisions',
    files: regionFiles(appSet(URL)),
    expect: ['gitops-applications/a.yaml:15'],
  },
  {
    name: 'region-specs: the bare cluster name in destination.server',
    files: regionFiles(appSet('a')),
    expect: ['gitops-applications/a.yaml:15'],
  },
  {
    name: 'region-specs passes: the destination given by name (a registered cluster)',
    files: regionFiles(appSet('a', 'name')),
    expect: [],
  },
  {
    name: 'region-specs passes: every element in-cluster',
    files: regionFiles(appSet('https://kubernetes.default.svc')),
    expect: [],
  },
  {
    name: 'native: a hub app with the server of a spoke the hub provisions',
    files: nativeFiles(`  apps:\n    remote:\n      path: apps/operators\n      server: ${URL}\n`),
    expect: ['clusters/hub/cluster.yaml:10'],
  },
  {
    name: 'native passes: the spoke\'s own apps, delivered by its own Argo CD',
    files: nativeFiles(''),
    expect: [],
  },
];

function findingsOf(files: Record<string, string>): { where: string[]; messages: string[] } {
  const dir = writeTree(files);
  try {
    const { fleet } = loadFleet(dir);
    const found = validateFleet(fleet).filter((f) => f.code === CODE);
    for (const f of found) assert.equal(f.severity, 'warning');
    return { where: found.map((f) => `${f.file}:${f.line ?? '-'}`), messages: found.map((f) => `${f.message}\n${f.hint ?? ''}`) };
  } finally {
    removeTree(dir);
  }
}

for (const c of cases) {
  test(`destination-registration: ${c.name}`, () => {
    assert.deepEqual(findingsOf(c.files).where, c.expect);
  });
}

test('destination-registration: the message names the cluster, the server and the Application that provisions it; the hint says how to wait for registration', () => {
  const [m] = findingsOf(regionFiles(appSet(URL))).messages;
  assert.match(m!, /Application "a-operators" of ApplicationSet "a-applications" is created in the Argo CD of hub/);
  assert.match(m!, new RegExp(`destination ${URL.replace(/\./g, '\\.')}, the API server of a, which the fleet provisions`));
  assert.match(m!, /Application "a-cluster" \(clusters\/a\) creates it/);
  assert.match(m!, /target a by name once it is registered/);
  assert.match(m!, /clusters generator/);
});
