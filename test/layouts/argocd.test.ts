/**
 * The argocd layout (docs/adr/0197-argocd-layout.md), honest detection (0196) and the repository's
 * origin as repoURL (0195), on small git repositories written here with an origin remote on
 * GitHub. The real-repository equality is test/real/layouts/argocd.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { completeLoad, loadFleet, resolveFleet, validateFleet } from '../../src/index.js';
import type { LoadResult } from '../../src/index.js';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const ORIGIN = 'https://github.com/acme/platform.git';

/** A git repository with `files`, an origin remote (unless `origin: null`) and a branch checked out. */
function gitRepo(files: Record<string, string>, options: { origin?: string | null; branch?: string } = {}): string {
  const dir = writeTree(files);
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore' });
  git('init', '-q', '-b', options.branch ?? 'main');
  if (options.origin !== null) git('remote', 'add', 'origin', options.origin ?? ORIGIN);
  return dir;
}

function application(name: string, path: string, extra: { dest?: string; wave?: number; namespace?: string; repoURL?: string; revision?: string; source?: string } = {}): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: ${extra.namespace ?? 'argocd'}
${extra.wave !== undefined ? `  annotations:\n    argocd.argoproj.io/sync-wave: "${extra.wave}"\n` : ''}spec:
  project: default
  destination:
    ${extra.dest ?? 'server: https://kubernetes.default.svc'}
    namespace: ${name}
  source:
    repoURL: ${extra.repoURL ?? 'https://github.com/acme/platform'}
    targetRevision: ${extra.revision ?? 'main'}
    path: ${path}
${extra.source ?? ''}`;
}

/** An ApplicationSet with a clusters generator selecting `cluster-type: internal`, one Application per cluster at `path`. */
function perClusterAppSet(path: string): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: per-cluster
  namespace: argocd
spec:
  generators:
    - clusters:
        selector:
          matchLabels:
            cluster-type: internal
  template:
    metadata:
      name: '{{name}}-bootstrap'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/platform
        targetRevision: main
        path: ${path}
      destination:
        server: '{{server}}'
`;
}

/** Tools that must not be needed: plain-directory repositories are read without kustomize or Helm. */
const NO_TOOLS = { env: { PATH: '/nonexistent' }, kustomize: '/nonexistent/kustomize', helm: '/nonexistent/helm' };

async function load(dir: string, options: Parameters<typeof completeLoad>[1] = { env: {} }): Promise<LoadResult> {
  const r = loadFleet(dir);
  await completeLoad(r, options);
  return r;
}

function apps(r: LoadResult): Record<string, string[]> {
  return Object.fromEntries(r.fleet.clusters.map((c) => [c.name, Object.keys(c.spec.apps ?? {}).sort()]));
}

test('a stray region.yaml next to a tree of Argo CD Applications is read as the argocd layout; the plan says why and lists the region spec as not read', async () => {
  const dir = gitRepo({
    'regions/us-west-2/mgmt-1/region.yaml': 'apiVersion: regional.openshift.io/v1\nkind: RegionalCluster\nmetadata:\n  name: mgmt-1\nspec:\n  type: ocp\n  region: us-west-2\n  domain: example.com\n',
    'clusters/hub/gitops/a.application.yaml': application('a', 'components/a', { wave: 2 }),
    'clusters/hub/gitops/b.application.yaml': application('b', 'components/b', { wave: 1 }),
    'components/a/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    'components/b/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
  });
  try {
    const r = await load(dir, NO_TOOLS);
    assert.equal(r.fleet.layout, 'argocd');
    assert.deepEqual(apps(r), { 'in-cluster': ['a', 'b'] });
    const chosen = r.findings.find((f) => f.code === 'layout-chosen');
    assert.match(chosen?.message ?? '', /read as the argocd layout .*region-specs \(regions\/us-west-2\/mgmt-1\/region\.yaml\): not used, no gitops-applications\/ folder/);
    assert.ok(r.findings.some((f) => f.code === 'not-read' && f.file === 'regions/us-west-2/mgmt-1/region.yaml'));
    const plan = await cli(['plan', '--repo', dir], process.cwd(), NO_TOOLS.env);
    assert.match(plan.stdout, /\(argocd layout\)/);
    assert.match(plan.stdout, /wave 1 {2}b\n {2}wave 2 {2}a/);
    assert.doesNotMatch(plan.stdout, /^hub /m, 'no hub invented');
  } finally {
    removeTree(dir);
  }
});

test('app-of-apps through a plain directory: the children are followed, each to the cluster its destination names', async () => {
  const dir = gitRepo({
    'bootstrap/root.yaml': application('root', 'apps'),
    'apps/one.yaml': application('one', 'components/one', { wave: 1 }),
    'apps/two.yaml': application('two', 'components/two', { dest: 'name: prod' }),
    'apps/nested/ignored.yaml': application('not-recursed', 'components/one'),
    'components/one/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n',
    'components/two/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\n',
    'cluster-secrets/prod.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: prod
  labels:
    argocd.argoproj.io/secret-type: cluster
stringData:
  name: prod
  server: https://api.prod.example.com:6443
`,
  });
  try {
    const r = await load(dir, NO_TOOLS);
    // apps/nested is not read by the root (its directory source does not recurse), so no app of
    // the repository produces not-recursed: it is a root of its own, as the roots note says.
    assert.deepEqual(apps(r), { 'in-cluster': ['not-recursed', 'one', 'root'], prod: ['two'] });
    const prod = r.fleet.clusters.find((c) => c.name === 'prod')!;
    assert.equal(prod.spec.role, 'spoke');
    assert.equal(prod.spec.server, 'https://api.prod.example.com:6443');
    assert.match(r.fleet.clusters[0]!.notes?.[0] ?? '', /roots .*apps\/nested\/ignored\.yaml, bootstrap\/root\.yaml/);
  } finally {
    removeTree(dir);
  }
});

test('an ApplicationSet with a clusters generator and no cluster Secret generates nothing, and the plan says why', async () => {
  const dir = gitRepo({
    'gitops/appset.yaml': perClusterAppSet('gitops'),
  });
  try {
    const r = await load(dir, NO_TOOLS);
    assert.equal(r.fleet.layout, 'argocd');
    const notes = r.fleet.clusters.flatMap((c) => c.notes ?? []).join('\n');
    assert.match(notes, /ApplicationSet per-cluster .* generates no Application: .*no cluster Secret .* pass --clusters FILE/);
    assert.ok(r.findings.some((f) => f.code === 'no-applications' && f.severity === 'warning'), 'an empty result says why');
  } finally {
    removeTree(dir);
  }
});

test('an ApplicationSet with a list generator: its Applications are generated and followed', async () => {
  const dir = gitRepo({
    'gitops/appset.yaml': `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: addons
  namespace: argocd
spec:
  goTemplate: true
  generators:
    - list:
        elements:
          - addon: logging
          - addon: metrics
  template:
    metadata:
      name: 'addon-{{.addon}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/platform.git
        targetRevision: main
        path: 'addons/{{.addon}}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{.addon}}'
`,
    'addons/logging/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: l\n',
  });
  try {
    const r = await load(dir, NO_TOOLS);
    assert.deepEqual(apps(r), { 'in-cluster': ['addon-logging', 'addon-metrics'] });
    const missing = r.findings.filter((f) => f.code === 'app-path-missing');
    assert.deepEqual(missing.map((f) => f.app), ['addon-metrics'], 'a source path that does not exist is what Argo CD reports');
    assert.match(missing[0]!.message, /spec\.source\.path "addons\/metrics" does not exist/);
  } finally {
    removeTree(dir);
  }
});

test('a root kustomization that lists missing paths: each is an error at its line, and the roots are read as written', async () => {
  const dir = gitRepo({
    'clusters/kustomization.yaml': 'resources:\n  - global/\n',
    'clusters/global/kustomization.yaml': 'resources:\n  - gitops/\n  - ../gone/gitops/\n',
    'clusters/global/gitops/kustomization.yaml': 'namespace: openshift-gitops\nresources:\n  - a.yaml\n  - missing.yaml\n',
    'clusters/global/gitops/a.yaml': application('a', 'components/a', { namespace: 'openshift-gitops' }),
    'components/a/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
  });
  try {
    const r = await load(dir, NO_TOOLS);
    const missing = validateFleet(r.fleet).filter((f) => f.code === 'kustomize-missing-path').map((f) => [f.file, f.line, f.severity]).sort();
    assert.deepEqual(missing, [
      ['clusters/global/gitops/kustomization.yaml', 4, 'error'],
      ['clusters/global/kustomization.yaml', 3, 'error'],
    ]);
    assert.deepEqual(apps(r), { 'in-cluster': ['a'] });
    assert.match(r.fleet.clusters[0]!.notes?.[0] ?? '', /kustomize build clusters fails: its 1 file with Argo CD objects are read as written/);
    assert.ok(!r.findings.some((f) => f.code === 'source-not-built'), 'kustomize is not run on a root it would fail on');
  } finally {
    removeTree(dir);
  }
});

test('a root kustomization is built with the real kustomize: its transformers apply to the Applications', async () => {
  const dir = gitRepo({
    'gitops/kustomization.yaml': 'namespace: openshift-gitops\ncommonLabels:\n  team: platform\nresources:\n  - a.yaml\n',
    'gitops/a.yaml': application('a', 'components/a'),
    'components/a/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
  });
  try {
    const r = await load(dir);
    const a = r.fleet.clusters[0]!.spec.apps!.a!.manifest as { metadata: { namespace: string; labels: Record<string, string> } };
    assert.equal(a.metadata.namespace, 'openshift-gitops');
    assert.equal(a.metadata.labels.team, 'platform');
    assert.match(r.fleet.clusters[0]!.notes?.[0] ?? '', /roots .*kustomize build gitops/);
  } finally {
    removeTree(dir);
  }
});

test('a Helm chart whose templates are Applications and that nothing reads is the root (helm template with its values)', async () => {
  const dir = gitRepo({
    'apps/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 0.1.0\n',
    'apps/values.yaml': 'names: [guestbook, web]\n',
    'apps/templates/apps.yaml': `{{- range .Values.names }}
---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: {{ . }}
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
    namespace: {{ . }}
  source:
    repoURL: https://github.com/acme/platform
    targetRevision: HEAD
    path: {{ . }}
{{- end }}
`,
    'guestbook/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: g\n',
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: w\n',
  });
  try {
    const r = await load(dir);
    assert.deepEqual(apps(r), { 'in-cluster': ['guestbook', 'web'] });
    assert.match(r.fleet.clusters[0]!.notes?.[0] ?? '', /helm template apps/);
  } finally {
    removeTree(dir);
  }
});

test('render: repoURL and targetRevision are the repository\'s own, and no bootstrap root of fleetplan\'s is invented', async () => {
  const dir = gitRepo({ 'gitops/a.yaml': application('a', 'components/a', { revision: 'release-1' }), 'components/a/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n' });
  try {
    const out = await cli(['render', '--repo', dir], process.cwd(), NO_TOOLS.env);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /repoURL: https:\/\/github\.com\/acme\/platform\n\s+targetRevision: release-1/);
    assert.doesNotMatch(out.stdout, /file:\/\//);
    assert.doesNotMatch(out.stdout, /root-application/);
  } finally {
    removeTree(dir);
  }
});

const REGION = 'apiVersion: regional.openshift.io/v1\nkind: RegionalCluster\nmetadata:\n  name: ocp-a\nspec:\n  type: ocp\n  region: eu-west-1\n  domain: example.com\n';
const GLOBAL_APP = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: vault
spec:
  destination:
    namespace: vault
  source:
    path: hub/vault
`;

test('a region-specs repository without ApplicationSets gets the origin remote and branch as repoURL and revision, never file://', async () => {
  const dir = gitRepo(
    { 'regions/eu-west-1/ocp-a/region.yaml': REGION, 'gitops-applications/global/vault.yaml': GLOBAL_APP, 'hub/vault/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: v\n' },
    { origin: 'git@github.com:acme/regions.git', branch: 'prod' },
  );
  try {
    const r = loadFleet(dir);
    assert.equal(r.fleet.layout, 'region-specs');
    assert.equal(r.fleet.repoURL, 'git@github.com:acme/regions.git');
    assert.equal(r.fleet.revision, 'prod');
    const out = await cli(['render', '--repo', dir, '--cluster', 'hub']);
    assert.doesNotMatch(out.stdout, /file:\/\//);
    assert.match(out.stdout, /repoURL: git@github\.com:acme\/regions\.git\n\s+targetRevision: prod/);
  } finally {
    removeTree(dir);
  }
});

test('without an origin remote the repoURL stays empty with a no-repo-url warning, never a file:// path', () => {
  const dir = gitRepo({ 'regions/eu-west-1/ocp-a/region.yaml': REGION, 'gitops-applications/global/vault.yaml': GLOBAL_APP }, { origin: null });
  try {
    const r = loadFleet(dir);
    assert.equal(r.fleet.repoURL, '');
    assert.equal(r.fleet.revision, 'main');
    assert.ok(r.findings.some((f) => f.code === 'no-repo-url' && f.severity === 'warning'));
  } finally {
    removeTree(dir);
  }
});

test('a folder of region specs without their gitops-applications/ tree is not a fleet, and the message says what is missing', async () => {
  const dir = gitRepo({ 'regions/eu-west-1/ocp-a/region.yaml': REGION });
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /it has region specs \(regions\/eu-west-1\/ocp-a\/region\.yaml\) but no gitops-applications\/ folder/);
  } finally {
    removeTree(dir);
  }
});

// ---- Agreement: each specific layout is an exact shortcut of the argocd reader ----------------

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'test', 'fixtures');

interface Seen {
  path: string;
  repoURL: string;
  revision: string;
  wave: number | undefined;
  namespace: string | undefined;
}

function resolvedApps(r: LoadResult): Map<string, Seen[]> {
  const out = new Map<string, Seen[]>();
  for (const c of resolveFleet(r.fleet).clusters) {
    out.set(c.name, c.apps.map((a) => ({ path: a.source.path ?? '', repoURL: a.source.repoURL, revision: a.source.targetRevision, wave: a.wave, namespace: a.destination.namespace })).sort((x, y) => (x.path < y.path ? -1 : 1)));
  }
  return out;
}

test('agreement: on the gitops-standards fixture the argocd reader gives the Applications the gitops-standards reader gives, cluster by cluster', async () => {
  const dir = join(FIXTURES, 'gitops-standards');
  const specific = loadFleet(dir, { origin: { url: ORIGIN, branch: 'main' } });
  await cli(['plan', '--repo', dir]); // the CLI's own path must accept the fixture too
  const { completeFallbacks } = await import('../../src/index.js');
  const { createClusterBuilder } = await import('../../src/adapters/cluster-build.js');
  let b: Awaited<ReturnType<typeof createClusterBuilder>> | undefined;
  await completeFallbacks(specific, async () => (b = await createClusterBuilder(dir, { env: {} })));
  b?.close();
  const generic = loadFleet(dir, { layout: 'argocd', origin: { url: ORIGIN, branch: 'main' } });
  await completeLoad(generic, { env: {} });
  assert.equal(generic.fleet.layout, 'argocd');
  const want = resolvedApps(specific);
  const got = resolvedApps(generic);
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
  for (const [cluster, list] of want) assert.deepEqual(got.get(cluster), list, `cluster ${cluster}`);
});

test('agreement: on the region-specs fixture every Application the argocd reader finds is one the region-specs reader plans, with the same source, revision and wave', async () => {
  const dir = join(FIXTURES, 'region-specs');
  const specific = loadFleet(dir, { origin: { url: ORIGIN, branch: 'main' } });
  const generic = loadFleet(dir, { layout: 'argocd', origin: { url: ORIGIN, branch: 'main' } });
  await completeLoad(generic, NO_TOOLS);
  const key = (a: Seen) => `${a.path} ${a.repoURL} ${a.revision} ${a.wave ?? ''}`;
  const planned = new Set([...resolvedApps(specific).values()].flat().map(key));
  const spokes = specific.fleet.clusters.filter((c) => c.spec.role === 'spoke').map((c) => c.name);
  const found = [...resolvedApps(generic).values()].flat();
  // The `cluster` elements (path clusters/<spoke>) are the repository generator's output, which
  // the region-specs reader replaces with its own provisioning app for that spoke (ADR 0091).
  const provisioning = found.filter((a) => spokes.some((s) => a.path === `clusters/${s}`));
  assert.deepEqual(provisioning.map((a) => a.path).sort(), spokes.map((s) => `clusters/${s}`).sort());
  const rest = found.filter((a) => !provisioning.includes(a));
  assert.ok(rest.length > 0);
  for (const a of rest) assert.ok(planned.has(key(a)), `the region-specs reader plans ${key(a)}`);
  assert.equal(rest.length, [...planned].filter((k) => !k.startsWith('rendered/')).length, 'and nothing more');
});

test('region-specs: a hub Application from a Helm repository keeps its chart and chart version, not the fleet revision', () => {
  const chartApp = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: vault-helm
spec:
  destination:
    namespace: vault
  source:
    path: ''
    repoURL: https://helm.releases.hashicorp.com
    chart: vault
    targetRevision: 0.30.0
`;
  const dir = gitRepo({ 'regions/eu-west-1/ocp-a/region.yaml': REGION, 'gitops-applications/global/vault.yaml': GLOBAL_APP, 'gitops-applications/global/vault-helm.yaml': chartApp });
  try {
    const r = loadFleet(dir);
    const hub = resolveFleet(r.fleet).clusters.find((c) => c.name === 'hub')!;
    const app = hub.apps.find((a) => a.name === 'vault-helm')!;
    assert.deepEqual([app.source.chart, app.source.repoURL, app.source.targetRevision], ['vault', 'https://helm.releases.hashicorp.com', '0.30.0']);
  } finally {
    removeTree(dir);
  }
});

test('gitops-standards: with no repoURL in the chart defaults, the root Application gets the origin remote, never ""', async () => {
  const { cpSync, readFileSync, writeFileSync } = await import('node:fs');
  const dir = gitRepo({});
  cpSync(join(FIXTURES, 'gitops-standards'), dir, { recursive: true });
  const values = join(dir, '.helm-charts/argocd-app-of-app/values.yaml');
  writeFileSync(values, readFileSync(values, 'utf8').replace(/^\s*repoURL: .*\n/m, ''));
  try {
    const r = loadFleet(dir);
    assert.equal(r.fleet.layout, 'gitops-standards');
    assert.equal(r.fleet.repoURL, ORIGIN);
    const out = await cli(['render', '--repo', dir, '--cluster', 'hub']);
    const root = /name: root-applications[\s\S]*?repoURL: (\S*)/.exec(out.stdout);
    assert.equal(root?.[1], ORIGIN, out.stderr);
  } finally {
    removeTree(dir);
  }
});

test('--clusters FILE gives the ApplicationSets of an argocd repository their cluster Secrets in plan, render and validate; another layout refuses it', async () => {
  const dir = gitRepo({
    'gitops/appset.yaml': perClusterAppSet('gitops/empty'),
    'gitops/empty/.keep': '',
  });
  const secrets = writeTree({
    'clusters.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: east
  namespace: argocd
  labels:
    argocd.argoproj.io/secret-type: cluster
    cluster-type: internal
stringData:
  name: east
  server: https://east.example.com:6443
---
apiVersion: v1
kind: Secret
metadata:
  name: west
  namespace: argocd
  labels:
    argocd.argoproj.io/secret-type: cluster
    cluster-type: external
stringData:
  name: west
  server: https://west.example.com:6443
`,
  });
  const file = join(secrets, 'clusters.yaml');
  try {
    const without = await cli(['plan', '--repo', dir, '-o', 'json'], process.cwd(), NO_TOOLS.env);
    assert.doesNotMatch(without.stdout, /east-bootstrap/);
    const plan = await cli(['plan', '--repo', dir, '--clusters', file, '-o', 'json'], process.cwd(), NO_TOOLS.env);
    assert.match(plan.stdout, /"east-bootstrap"/, plan.stderr);
    assert.doesNotMatch(plan.stdout, /west-bootstrap/, 'the Secret the selector does not match generates nothing');
    const render = await cli(['render', '--repo', dir, '--clusters', file], process.cwd(), NO_TOOLS.env);
    assert.match(render.stdout, /name: east-bootstrap/);
    assert.match(render.stdout, /server: https:\/\/east\.example\.com:6443/);
    const validate = await cli(['validate', '--repo', dir, '--clusters', file, '-o', 'json'], process.cwd(), NO_TOOLS.env);
    assert.doesNotMatch(validate.stdout, /"no-applications"/, validate.stdout);
    const native = await cli(['plan', '--repo', fileURLToPath(new URL('../../../examples/lab', import.meta.url)), '--clusters', file]);
    assert.equal(native.code, 2);
    assert.match(native.stderr, /--clusters .*read as the native layout/);
  } finally {
    removeTree(dir);
    removeTree(secrets);
  }
});

test('a YAML file the scan cannot read (a FIFO, an Argo CD file over the scan limit) is said, not skipped in silence', async () => {
  const big = `${application('big', 'components/one')}# ${'x'.repeat(2_100_000)}\n`;
  const dir = gitRepo({
    'bootstrap/root.yaml': application('root', 'apps'),
    'apps/one.yaml': application('one', 'components/one'),
    'other/big.yaml': big,
    'components/one/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n',
    // A large file without Argo CD objects (a CRD bundle) is no concern of the scan.
    'misc/README.md': 'not yaml\n',
    'crds/bundle.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  x: "${'y'.repeat(2_100_000)}"\n`,
  });
  execFileSync('mkfifo', [join(dir, 'misc/pipe.yaml')]);
  try {
    const r = await load(dir, NO_TOOLS);
    const notRead = r.findings.filter((f) => f.code === 'not-read' && /not scanned for Argo CD objects/.test(f.message));
    assert.deepEqual(notRead.map((f) => f.file).sort(), ['misc/pipe.yaml', 'other/big.yaml']);
    assert.ok(notRead.every((f) => f.severity === 'info' && f.hint !== undefined));
    assert.deepEqual(apps(r), { 'in-cluster': ['one', 'root'] });
  } finally {
    removeTree(dir);
  }
});

test('the platform is the one the Argo CD objects\' namespace says: openshift-gitops is OpenShift, argocd is Kubernetes (ADR 0306)', async () => {
  for (const [namespace, platform, gitops] of [['argocd', 'kubernetes', 'argocd'], ['openshift-gitops', 'openshift', 'openshift-gitops']] as const) {
    const dir = gitRepo({
      'bootstrap/root.yaml': application('root', 'apps', { namespace }),
      'apps/one.yaml': application('one', 'components/one', { namespace }),
      'components/one/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n',
    });
    try {
      const r = await load(dir, NO_TOOLS);
      assert.equal(r.fleet.platform, platform, namespace);
      const [cluster] = resolveFleet(r.fleet).clusters;
      assert.equal(cluster?.platform, platform);
      assert.equal(cluster?.gitopsNamespace, gitops);
      const plan = await cli(['plan', '--repo', dir], process.cwd(), NO_TOOLS.env);
      assert.match(plan.stdout, new RegExp(`^in-cluster {2}\\(role standalone, revision main, ${platform}\\)$`, 'm'));
    } finally {
      removeTree(dir);
    }
  }
});

test('a clone whose origin is a path on this machine follows app-of-apps as a clone without origin does, and writes no path as repoURL', async () => {
  for (const origin of ['/srv/mirror/platform.git', 'file:///srv/mirror/platform.git', '../platform']) {
    const dir = gitRepo(
      {
        'bootstrap/root.yaml': application('root', 'apps'),
        'apps/one.yaml': application('one', 'components/one'),
        'components/one/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n',
      },
      { origin },
    );
    try {
      const r = await load(dir, NO_TOOLS);
      assert.deepEqual(apps(r), { 'in-cluster': ['one', 'root'] }, origin);
      assert.match(r.fleet.clusters[0]!.notes?.[0] ?? '', /roots [^\n]*: bootstrap\/root\.yaml$/, origin);
      assert.equal(r.fleet.repoURL, 'https://github.com/acme/platform', origin);
    } finally {
      removeTree(dir);
    }
  }
});
