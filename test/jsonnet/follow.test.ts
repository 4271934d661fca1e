/**
 * plan and the argocd layout follow the Applications a Jsonnet directory source generates
 * (issue #12 part 1, docs/adr/0318-plan-follows-jsonnet.md): the Jsonnet is evaluated as the
 * repo-server evaluates it (ext vars and TLAs with the build environment, libs, the directory
 * selection), per Application; without a Jsonnet the plan says which Applications it could not
 * follow. Tests that run Jsonnet skip with the reason where there is none (fail under CI=true).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { loadFleet, completeLoad } from '../../src/index.js';
import { CHILD_LIB, PATH_ENV, REPO_URL, application, kustomizeApp, repo, skipWithoutJsonnet } from './jsonnet-fixture.js';

/** The app-of-apps: root.yaml reads apps/, whose Jsonnet (with a lib) produces web and db, each a kustomization. */
function appOfApps(): Record<string, string> {
  return {
    'root.yaml': application('root', '    path: apps\n    directory:\n      jsonnet:\n        libs: [lib]\n'),
    'apps/apps.jsonnet': "local k = import 'child.libsonnet';\n[k.child('web', 'workloads/web'), k.child('db', 'workloads/db')]\n",
    // Not selected: only .jsonnet files are evaluated, never a .libsonnet on its own.
    'apps/unused.libsonnet': "error 'never evaluated'\n",
    'lib/child.libsonnet': CHILD_LIB,
    ...kustomizeApp('workloads/web', 'web-config'),
    ...kustomizeApp('workloads/db', 'db-config'),
  };
}

/** The apps of each cluster, from plan -o json. */
async function planApps(dir: string, env: Record<string, string | undefined> = PATH_ENV): Promise<{ code: number; apps: Record<string, string[]>; stdout: string; stderr: string }> {
  const r = await cli(['plan', '--repo', dir, '-o', 'json'], process.cwd(), env);
  const apps: Record<string, string[]> = {};
  if (r.code === 0) {
    const plan = JSON.parse(r.stdout) as { clusters: { name: string; apps: { name: string }[] }[] };
    for (const c of plan.clusters) apps[c.name] = c.apps.map((a) => a.name).sort();
  }
  return { code: r.code, apps, stdout: r.stdout, stderr: r.stderr };
}

test('plan follows an app-of-apps whose root is a Jsonnet directory: both child Applications are on the cluster', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo(appOfApps());
  try {
    const r = await planApps(dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.apps, { 'in-cluster': ['db', 'root', 'web'] }, r.stdout);
    assert.doesNotMatch(r.stderr, /not-read|jsonnet-not-followed/, r.stderr);
  } finally {
    removeTree(dir);
  }
});

test('the argocd layout reader (library) follows the Jsonnet children and keeps their exact Application objects', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo(appOfApps());
  try {
    const result = loadFleet(dir);
    await completeLoad(result, { env: PATH_ENV });
    const cluster = result.fleet.clusters.find((c) => c.name === 'in-cluster')!;
    const web = cluster.spec.apps!.web!;
    assert.equal(web.path, 'workloads/web');
    assert.equal(web.repoURL, REPO_URL);
    assert.deepEqual(result.findings.filter((f) => f.severity !== 'info').map((f) => f.code), []);
  } finally {
    removeTree(dir);
  }
});

test('render --leaves builds the children a Jsonnet app-of-apps generates, and the root\'s Applications as its leaves', { skip: skipWithoutJsonnet() }, async () => {
  const dir = repo(appOfApps());
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')], process.cwd(), PATH_ENV);
    assert.equal(r.code, 0, r.stderr);
    const leaves = (app: string) => readdirSync(join(out, 'in-cluster', 'manifests', app)).sort();
    // Each child's objects in its destination namespace, as the sync places them (ADR 0420).
    assert.deepEqual(leaves('web'), ['01-configmap-web-web-config.yaml']);
    assert.deepEqual(leaves('db'), ['01-configmap-db-db-config.yaml']);
    assert.deepEqual(leaves('root'), ['01-application-argocd-web.yaml', '02-application-argocd-db.yaml']);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('ext vars and TLAs name the children per cluster: each generated root evaluates the Jsonnet with its own values', { skip: skipWithoutJsonnet() }, async () => {
  const appset = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: roots
  namespace: argocd
spec:
  goTemplate: true
  generators:
    - list:
        elements:
          - { cluster: east, url: "https://east.example.com" }
          - { cluster: west, url: "https://west.example.com" }
  template:
    metadata:
      name: 'root-{{.cluster}}'
    spec:
      project: default
      destination:
        server: '{{.url}}'
        namespace: argocd
      source:
        repoURL: ${REPO_URL}
        targetRevision: main
        path: apps
        directory:
          jsonnet:
            libs: [lib]
            extVars:
              - { name: cluster, value: '{{.cluster}}' }
            tlas:
              - { name: parent, value: $ARGOCD_APP_NAME }
`;
  const dir = repo({
    'roots.yaml': appset,
    'apps/main.jsonnet': [
      "local k = import 'child.libsonnet';",
      'function(parent)',
      "  local c = std.extVar('cluster');",
      "  [k.child(c + '-web', 'workloads/web') + { metadata+: { labels: { parent: parent } } }]",
      '',
    ].join('\n'),
    'lib/child.libsonnet': CHILD_LIB,
    ...kustomizeApp('workloads/web', 'web-config'),
  });
  try {
    const result = loadFleet(dir);
    await completeLoad(result, { env: PATH_ENV });
    const apps = Object.fromEntries(result.fleet.clusters.map((c) => [c.name, Object.keys(c.spec.apps ?? {}).sort()]));
    const why = JSON.stringify({ apps, findings: result.findings, notes: result.fleet.clusters.map((c) => c.notes) });
    assert.deepEqual(apps['east.example.com'], ['east-web', 'root-east'], why);
    assert.deepEqual(apps['west.example.com'], ['root-west', 'west-web'], why);
    // The TLA got the generated Application's own name from the build environment.
    const manifest = result.fleet.clusters.find((c) => c.name === 'west.example.com')!.spec.apps!['west-web']!.manifest as { metadata: { labels: Record<string, string> } };
    assert.deepEqual(manifest.metadata.labels, { parent: 'root-west' });
  } finally {
    removeTree(dir);
  }
});

test('without a Jsonnet, plan lists what it could read and says which Application it could not follow, and why', async () => {
  const dir = repo(appOfApps());
  try {
    const env = { ...PATH_ENV, FLEETPLAN_JSONNET: '/nonexistent/jsonnet' };
    const r = await cli(['plan', '--repo', dir], process.cwd(), env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /wave 0 +root\n/);
    assert.match(r.stdout, /note: not followed: Application root reads apps\/apps\.jsonnet \(Jsonnet, which Argo CD evaluates\): .*nonexistent.*; the Applications and ApplicationSets it generates are missing from this plan/);
    assert.match(r.stderr, /warning: apps\/apps\.jsonnet: .*Application root's spec\.source: apps\/apps\.jsonnet not evaluated: .*\[jsonnet-not-followed\]/);
  } finally {
    removeTree(dir);
  }
});

test('a Jsonnet import outside the repository is refused while following, at its file and line; the binary never reads it', async () => {
  const parent = writeTree({ 'outside.libsonnet': '[]\n' });
  const dir = repo(
    {
      'root.yaml': application('root', '    path: apps\n'),
      'apps/apps.jsonnet': "// the parent folder\nimport '../../outside.libsonnet'\n",
    },
    join(parent, 'repo'),
  );
  try {
    const result = loadFleet(dir);
    // A Jsonnet that fails the test if it is ever asked for: the import check comes first.
    await completeLoad(result, { env: { ...PATH_ENV, FLEETPLAN_JSONNET: '/nonexistent/jsonnet' } });
    const f = result.findings.find((x) => x.code === 'jsonnet-not-followed');
    assert.ok(f, JSON.stringify(result.findings));
    assert.deepEqual([f.file, f.line, f.severity, f.app], ['apps/apps.jsonnet', 2, 'warning', 'root']);
    assert.match(f.message, /Application root's spec\.source: import "\.\.\/\.\.\/outside\.libsonnet" would read .*, outside the repository \[jsonnet-outside-repo\]; the Applications and ApplicationSets it generates are not followed/);
    assert.equal(result.findings.filter((x) => x.code === 'jsonnet-not-followed').length, 1, 'the binary was never asked for');
  } finally {
    removeTree(parent);
  }
});

test('a source Argo CD builds with a plugin is not evaluated as Jsonnet, even when its folder holds .jsonnet files', async () => {
  const dir = repo({
    'root.yaml': application('root', '    path: apps\n    plugin:\n      name: kasane\n'),
    'apps/apps.jsonnet': "local k = import 'missing.libsonnet';\nfunction(layers) [k.child('web', 'web')]\n",
  });
  try {
    const result = loadFleet(dir);
    // A Jsonnet that would be reported as missing if it were asked for.
    await completeLoad(result, { env: { ...PATH_ENV, FLEETPLAN_JSONNET: '/nonexistent/jsonnet' } });
    assert.deepEqual(result.findings.filter((f) => f.code.startsWith('jsonnet')), []);
    assert.deepEqual(Object.keys(result.fleet.clusters[0]!.spec.apps ?? {}), ['root']);
  } finally {
    removeTree(dir);
  }
});

test('a repository whose only Argo CD objects are in Jsonnet applied by hand is not read, and the message names the Jsonnet files', async () => {
  const dir = repo({
    'argocd/root.jsonnet': "local k = import 'child.libsonnet';\n[k.child('web', 'workloads/web')]\n",
    'argocd/child.libsonnet': CHILD_LIB,
    ...kustomizeApp('workloads/web', 'web-config'),
  });
  try {
    const r = await cli(['plan', '--repo', dir], process.cwd(), PATH_ENV);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /is not a fleet repository: its Argo CD objects are written in Jsonnet \(argocd\/child\.libsonnet\), and no Application or ApplicationSet in a YAML file evaluates them/);
  } finally {
    removeTree(dir);
  }
});
