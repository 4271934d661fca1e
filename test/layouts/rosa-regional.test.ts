/**
 * Seed 004's own layout (ROSA Regional Platform: config.yaml environments → sectors → region
 * deployments, rendered deploy/<env>/<region>/argocd/ ApplicationSets) on a synthetic repository
 * (test/support/rosa-regional-repo.ts): detection, the clusters and identities it implies, the
 * Applications each cluster's ApplicationSet generates, sector pins, and what is reported.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import { InputError, loadFleet } from '../../src/index.js';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import type { PlanJson } from '../support/plan-json.js';
import { ROSA_ORIGIN, buildRosaRepo, rosaApplicationSet, rosaConfig } from '../support/rosa-regional-repo.js';

const repo = buildRosaRepo();
after(() => rmSync(repo.dir, { recursive: true, force: true }));
const [PIN, MAIN] = repo.commits;

async function planOf(dir: string): Promise<PlanJson> {
  const r = await cli(['plan', '--repo', dir, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as PlanJson;
}

const cluster = (plan: PlanJson, name: string) => {
  const c = plan.clusters.find((x) => x.name === name);
  assert.ok(c, `cluster ${name} in ${plan.clusters.map((x) => x.name).join(', ')}`);
  return c;
};

test('detects the layout from config.yaml with environments and a deploy/ folder', async () => {
  const plan = await planOf(repo.dir);
  assert.equal(plan.layout, 'rosa-regional');
  const text = await cli(['plan', '--repo', repo.dir]);
  assert.match(text.stdout, /\(rosa-regional layout\)/);
});

test('a config.yaml without environments, or without a deploy/ folder, is not this layout', () => {
  const cases: Record<string, Record<string, string>> = {
    'no deploy/': { 'config.yaml': rosaConfig(MAIN) },
    'no environments key': { 'config.yaml': 'shards:\n  - region: eu-west-1\n', 'deploy/x/y/argocd/regional-cluster-values.yaml': 'a: 1\n' },
    'environments not a map': { 'config.yaml': 'environments: []\n', 'deploy/x/y/argocd/regional-cluster-values.yaml': 'a: 1\n' },
  };
  for (const [name, files] of Object.entries(cases)) {
    const dir = writeTree(files);
    try {
      assert.throws(() => loadFleet(dir), (e: unknown) => e instanceof InputError && /is not a fleet repository/.test(e.message), name);
    } finally {
      removeTree(dir);
    }
  }
});

test('each region deployment is one regional cluster and one cluster per management_clusters entry', async () => {
  const plan = await planOf(repo.dir);
  assert.deepEqual(plan.clusters.map((c) => [c.name, c.role]), [
    ['integration-eu-central-1-mc01', 'management'],
    ['integration-eu-central-1-mc02', 'management'],
    ['integration-eu-central-1-regional', 'regional'],
    ['production-ap-south-1-mc01', 'management'],
    ['production-ap-south-1-regional', 'regional'],
  ]);
  const { fleet } = loadFleet(repo.dir);
  const mc = fleet.clusters.find((c) => c.name === 'production-ap-south-1-mc01')!;
  assert.equal(mc.spec.sector, 'wave-1');
  assert.equal(mc.spec.region, 'ap-south-1');
  assert.deepEqual(fleet.sectors, [{ name: 'integration' }, { name: 'wave-1', revision: PIN }]);
});

test('the Applications are what each cluster\'s rendered ApplicationSet generates against its own identity', async () => {
  const plan = await planOf(repo.dir);
  const mc = cluster(plan, 'integration-eu-central-1-mc02');
  assert.deepEqual(mc.apps.map((a) => [a.name, a.source.path, a.source.targetRevision, a.destination.namespace]), [
    ['argocd', 'argocd/config/shared/argocd', 'main', 'argocd'],
    ['hypershift', 'argocd/config/management-cluster/hypershift', 'main', 'hypershift'],
    ['maestro-agent', 'argocd/config/management-cluster/maestro-agent', 'main', 'maestro-agent'],
  ]);
  assert.equal(mc.apps[0]!.source.repoURL, ROSA_ORIGIN);
  assert.equal(mc.apps[0]!.from, 'deploy/integration/eu-central-1/argocd/management-cluster-manifests/applicationset.yaml');
  const rc = cluster(plan, 'integration-eu-central-1-regional');
  assert.deepEqual(rc.apps.map((a) => a.name), ['api-gateway', 'argocd']);
});

test('a sector\'s pinned commit is the revision its clusters\' charts are read at', async () => {
  const plan = await planOf(repo.dir);
  const mc = cluster(plan, 'production-ap-south-1-mc01');
  assert.equal(mc.revision, PIN);
  // maestro-agent was added after the pinned commit: the pinned cluster does not get it.
  assert.deepEqual(mc.apps.map((a) => [a.name, a.source.targetRevision]), [['argocd', PIN], ['hypershift', PIN]]);
  assert.ok(mc.notes.some((n) => n.includes(`charts pinned to ${PIN}`)), mc.notes.join('\n'));
  assert.equal(cluster(plan, 'integration-eu-central-1-mc01').revision, 'main');
  assert.deepEqual(plan.findings, []);
});

test('the identity Secret is the one the bootstrap task creates, and render writes it with the repository\'s ApplicationSet', async () => {
  const r = await cli(['render', '--repo', repo.dir, '--cluster', 'production-ap-south-1-mc01']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /name: local-cluster-identity/);
  for (const line of ['cluster_name: mc01', 'cluster_type: management-cluster', 'environment: production', 'region_deployment: ap-south-1', 'aws_region: ap-south-1', 'git_revision: main', `git_repo: ${ROSA_ORIGIN}`]) {
    assert.ok(r.stdout.includes(line), `${line} in\n${r.stdout}`);
  }
  assert.ok(r.stdout.includes(`targetRevision: ${PIN}`), 'the Applications of the repository\'s pinned ApplicationSet');
  assert.deepEqual([...r.stdout.matchAll(/^# Source: (production-ap-south-1-mc01\/apps\/.*)$/gm)].map((m) => m[1]), ['production-ap-south-1-mc01/apps/argocd.yaml', 'production-ap-south-1-mc01/apps/hypershift.yaml']);
  const out = join(repo.dir, '..', `${repo.dir.split('/').pop()}-out`);
  try {
    const w = await cli(['render', '--repo', repo.dir, '--out', out]);
    assert.equal(w.code, 0, w.stderr);
    // The values files and ApplicationSets are the repository's own: no copies under deploy/.
    assert.equal(existsSync(join(out, 'deploy')), false);
    // apps/ holds what the ApplicationSet controller generates on each cluster.
    assert.deepEqual(readdirSync(join(out, 'production-ap-south-1-mc01/apps')).sort(), ['argocd.yaml', 'hypershift.yaml']);
    assert.deepEqual(readdirSync(join(out, 'integration-eu-central-1-mc01/apps')).sort(), ['argocd.yaml', 'hypershift.yaml', 'maestro-agent.yaml']);
    const hypershift = readFileSync(join(out, 'production-ap-south-1-mc01/apps/hypershift.yaml'), 'utf8');
    for (const line of ['kind: Application', 'path: argocd/config/management-cluster/hypershift', `targetRevision: ${PIN}`, '- $values/deploy/production/ap-south-1/argocd/management-cluster-values.yaml', 'cluster_name: mc01', 'targetRevision: main']) {
      assert.ok(hypershift.includes(line), `${line} in\n${hypershift}`);
    }
    assert.match(hypershift, /deploy\/production\/ap-south-1\/argocd\/management-cluster-manifests\/applicationset\.yaml/, 'the header names the ApplicationSet');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('render --out writes under bootstrap/ only what the ECS bootstrap task applies (identity Secret, root Application), as plan lists it — none of fleetplan\'s Namespace, RBAC or argocd-cm', async () => {
  const out = join(repo.dir, '..', `${repo.dir.split('/').pop()}-boot`);
  try {
    const w = await cli(['render', '--repo', repo.dir, '--out', out]);
    assert.equal(w.code, 0, w.stderr);
    const plan = await planOf(repo.dir);
    for (const c of plan.clusters) {
      const dir = join(out, c.name, 'bootstrap');
      assert.deepEqual(readdirSync(dir).sort(), ['30-cluster-identity.yaml', '90-root-application.yaml'], c.name);
      const objects = readdirSync(dir).sort().flatMap((f) => (jsYaml.loadAll(readFileSync(join(dir, f), 'utf8')) as Record<string, any>[]));
      // The same objects the plan's bootstrap steps name.
      assert.deepEqual(objects.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`), c.bootstrap.flatMap((s) => s.objects), c.name);
      const root = objects.find((o) => o.kind === 'Application')!;
      const region = c.region!;
      const env = c.name.slice(0, c.name.indexOf(`-${region}-`));
      const type = c.role === 'regional' ? 'regional-cluster' : 'management-cluster';
      assert.deepEqual(root.spec, {
        destination: { namespace: 'argocd', server: 'https://kubernetes.default.svc' },
        project: 'default',
        source: { repoURL: ROSA_ORIGIN, targetRevision: 'main', path: `deploy/${env}/${region}/argocd/${type}-manifests` },
        syncPolicy: { automated: { prune: false, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
      }, c.name);
    }
    const all = readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('.yaml'));
    const kinds = new Set(all.flatMap((f) => (jsYaml.loadAll(readFileSync(join(out, f), 'utf8')) as Record<string, any>[]).map((o) => o?.kind)));
    for (const k of ['Namespace', 'ClusterRoleBinding', 'ConfigMap', 'ApplicationSet']) assert.equal(kinds.has(k), false, `${k} in ${[...kinds].join(', ')}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a rendered ApplicationSet that disagrees with config.yaml, a missing one and an unrendered folder are reported', async () => {
  const stale = buildRosaRepo({
    edit: (files) => {
      files['deploy/integration/eu-central-1/argocd/management-cluster-manifests/applicationset.yaml'] = rosaApplicationSet(PIN);
      delete files['deploy/production/ap-south-1/argocd/regional-cluster-manifests/applicationset.yaml'];
      files['deploy/staging/us-west-2/argocd/regional-cluster-values.yaml'] = 'a: 1\n';
    },
  });
  try {
    const r = await cli(['validate', '--repo', stale.dir, '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; severity: string; file: string; line?: number; message: string }[] }).findings;
    const byCode = (code: string) => findings.filter((f) => f.code === code);
    assert.equal(byCode('rosa-stale-render').length, 1, JSON.stringify(findings, null, 1)); // once for mc01 and mc02's file
    assert.match(byCode('rosa-stale-render')[0]!.message, /reads charts at [0-9a-f]{40}, but config.yaml resolves revision main/);
    const missing = byCode('rosa-not-rendered');
    assert.equal(missing.length, 1);
    assert.equal(missing[0]!.severity, 'error');
    assert.equal(missing[0]!.file, 'config.yaml');
    assert.equal(missing[0]!.line, 23); // environments.production.sectors.wave-1.region_deployments.ap-south-1
    assert.match(missing[0]!.message, /production-ap-south-1-regional: deploy\/production\/ap-south-1\/argocd\/regional-cluster-manifests\/applicationset.yaml does not exist/);
    assert.deepEqual(byCode('rosa-orphan-render').map((f) => f.file), ['deploy/staging/us-west-2/argocd']);
    // What the committed file does is what the plan shows: mc01 reads the charts at the pin.
    const plan = await cli(['plan', '--repo', stale.dir, '-o', 'json']);
    const mc = (JSON.parse(plan.stdout) as PlanJson).clusters.find((c) => c.name === 'integration-eu-central-1-mc01')!;
    assert.deepEqual(mc.apps.map((a) => a.name), ['argocd', 'hypershift']);
  } finally {
    rmSync(stale.dir, { recursive: true, force: true });
  }
});

test('without an origin remote, git_repo is shown as the value the pipeline passes, and the plan says so', async () => {
  const bare = buildRosaRepo({ origin: false });
  try {
    const plan = await planOf(bare.dir);
    const mc = cluster(plan, 'integration-eu-central-1-mc01');
    assert.match(mc.apps[0]!.source.repoURL, /^<terraform output repository_url/);
    assert.ok(mc.notes.some((n) => /REPOSITORY_URL the pipeline passes/.test(n)));
  } finally {
    rmSync(bare.dir, { recursive: true, force: true });
  }
});

test('appset --clusters fleet refuses identity Secrets that would replace each other, and takes --cluster', async () => {
  const file = join(repo.dir, 'deploy/production/ap-south-1/argocd/management-cluster-manifests/applicationset.yaml');
  const all = await cli(['appset', file, '--repo', repo.dir, '--clusters', 'fleet']);
  assert.equal(all.code, 2);
  assert.match(all.stderr, /all name the cluster "in-cluster"/);
  assert.match(all.stderr, /--cluster C or -l SELECTOR/);
  const one = await cli(['appset', file, '--repo', repo.dir, '--clusters', 'fleet', '--cluster', 'production-ap-south-1-mc01']);
  assert.equal(one.code, 0, one.stderr);
  assert.deepEqual([...one.stdout.matchAll(/^ {2}name: (.*)$/gm)].map((m) => m[1]), ['argocd', 'hypershift']);
  assert.ok(one.stdout.includes('cluster_name: mc01'));
  const stray = await cli(['appset', file, '--repo', repo.dir, '--cluster', 'production-ap-south-1-mc01']);
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /use them with --clusters fleet/);
});

test('a folder that is almost this layout, or another generation of it, is named in the "not a fleet repository" message', async () => {
  const cases: { name: string; files: Record<string, string>; message: RegExp }[] = [
    { name: 'environments without deploy/', files: { 'config.yaml': rosaConfig(MAIN) }, message: /config\.yaml defines environments, but there is no deploy\/ folder/ },
    { name: 'deploy/ with a config.yaml of another shape', files: { 'config.yaml': 'region_deployments:\n  - name: eu-west-1\n', 'deploy/x/y/argocd/a.yaml': 'a: 1\n' }, message: /config\.yaml has no environments map \(it has region_deployments\)/ },
    {
      name: 'argocd/config.yaml with argocd/rendered/',
      files: { 'argocd/config.yaml': 'shards:\n  - region: eu-west-1\n    environment: integration\n', 'argocd/rendered/integration/eu-west-1/regional-cluster-values.yaml': 'a: 1\n' },
      message: /argocd\/config\.yaml with argocd\/rendered\/ is an earlier ROSA Regional Platform layout, which fleetplan does not read/,
    },
    {
      name: 'config/ folders with deploy/',
      // The later generation is read (test/layouts/rosa-config-dir.test.ts); without a region file it is named, with what it lacks.
      files: { 'config/defaults.yaml': 'git:\n  revision: main\n', 'config/integration/defaults.yaml': 'a: 1\n', 'deploy/integration/us-east-1/argocd-values-regional-cluster.yaml': 'a: 1\n' },
      message: /config\/defaults\.yaml with deploy\/ is the later ROSA Regional Platform layout, but no config\/<env>\/<region>\.yaml declares a region deployment/,
    },
  ];
  for (const c of cases) {
    const dir = writeTree(c.files);
    try {
      const r = await cli(['plan', '--repo', dir]);
      assert.equal(r.code, 2, c.name);
      assert.match(r.stderr, /is not a fleet repository/, c.name);
      assert.match(r.stderr, c.message, c.name);
    } finally {
      removeTree(dir);
    }
  }
});

test('the plan shows the ECS bootstrap the repository runs, not fleetplan\'s, and no note about fleet.yaml', async () => {
  const r = await cli(['plan', '--repo', repo.dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /fleet\.yaml/);
  assert.doesNotMatch(r.stdout, /gitops-operator|argocd-cm|config-management plugin/, 'none of fleetplan\'s own bootstrap steps');
  const plan = await planOf(repo.dir);
  const mc = cluster(plan, 'integration-eu-central-1-mc01') as ReturnType<typeof cluster> & { stages: unknown[]; bootstrap: { file: string; description: string; objects: string[] }[]; bootstrapNotes?: string[] };
  assert.deepEqual(mc.stages, []);
  assert.deepEqual(mc.bootstrap.map((s) => [s.file, s.objects]), [
    ['ECS task: Argo CD', []],
    ['ECS task: identity', ['Secret/argocd/local-cluster-identity']],
    ['ECS task: root', ['Application/argocd/root']],
  ]);
  assert.match(mc.bootstrap[0]!.description, /helm upgrade --install argocd argo\/argo-cd in namespace argocd/);
  assert.match(mc.bootstrap[2]!.description, /reading deploy\/integration\/eu-central-1\/argocd\/management-cluster-manifests at main/);
  assert.match(mc.bootstrapNotes?.[0] ?? '', /Terraform runs the ECS Fargate task of terraform\/modules\/ecs-bootstrap .* fleetplan bootstrap does not run it/);
  const b = await cli(['bootstrap', '--repo', repo.dir, '--cluster', 'integration-eu-central-1-mc01']);
  assert.equal(b.code, 2, b.stderr);
  assert.match(b.stderr, /this repository bootstraps its clusters itself \(ECS bootstrap task\): fleetplan bootstrap does not run it/);
});

/** A plain Argo CD repository's Application and its folder, beside which this layout's look-alikes are put. */
const WEB_APP = {
  'apps/web.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\n  namespace: argocd\nspec:\n  project: default\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: web\n  source:\n    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: web\n',
  'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
};

test('markers of this layout in a repository read as another layout are named, with what this layout lacks', async () => {
  const dir = writeTree({
    'config.yaml': rosaConfig(MAIN),
    ...WEB_APP,
  });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; message: string; file?: string }[] }).findings;
    const chosen = findings.find((f) => f.code === 'layout-chosen');
    assert.match(chosen?.message ?? '', /read as the argocd layout .*other layouts' markers: rosa-regional \(config\.yaml\): not used, config\.yaml defines environments, but there is no deploy\/ folder of rendered ApplicationSets/);
    assert.ok(findings.some((f) => f.code === 'not-read' && f.file === 'config.yaml' && /looks like the rosa-regional layout/.test(f.message)), JSON.stringify(findings));
  } finally {
    removeTree(dir);
  }
});

test('a plain config.yaml is not a marker of this layout', async () => {
  const dir = writeTree({
    'config.yaml': 'environments:\n  dev:\n    debug: true\n',
    ...WEB_APP,
  });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.doesNotMatch(r.stdout, /rosa-regional/);
  } finally {
    removeTree(dir);
  }
});

test('a plain config.yaml beside a deploy/ folder does not make the repository this layout: its Argo CD Applications are read', async () => {
  // environments: without region_deployments or sectors is any tool's settings file, and deploy/ a common folder name.
  const dir = writeTree({
    'config.yaml': 'environments:\n  dev:\n    replicas: 1\n  prod:\n    replicas: 3\n',
    'deploy/k8s/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n',
    ...WEB_APP,
  });
  try {
    const plan = await planOf(dir);
    assert.equal(plan.layout, 'argocd');
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)), ['web']);
    const r = await cli(['validate', '--repo', dir]);
    assert.doesNotMatch(r.stdout, /rosa-regional|argocd\/config\/management-cluster/);
  } finally {
    removeTree(dir);
  }
});

test('render --leaves says what it wrote: the Applications the ApplicationSets generate, and no leaf manifests', async () => {
  const out = join(repo.dir, '..', `${repo.dir.split('/').pop()}-leaves`);
  try {
    const w = await cli(['render', '--repo', repo.dir, '--leaves', '--out', out]);
    assert.equal(w.code, 0, w.stderr);
    const apps = readdirSync(out).filter((c) => existsSync(join(out, c, 'apps'))).reduce((n, c) => n + readdirSync(join(out, c, 'apps')).length, 0);
    assert.equal(apps, 12);
    assert.doesNotMatch(w.stderr, /no apps are rendered/);
    assert.match(w.stderr, /leaves: none built: .*the 12 Applications the ApplicationSets generate are written \(<cluster>\/apps\/\), not the manifests they deploy/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
