import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError, ToolError } from '../../src/errors/index.js';
import type { LeafJob } from '../../src/render/leaves/index.js';
import type { RenderLeavesOptions } from '../../src/api/leaves.js';
import { renderLeaves } from '../../src/api/leaves.js';
import { copyTree, readTree, removeDir, requireTools, tempDir, toolEnv } from '../helpers/tools.js';

const FIXTURE = resolve('test/fixtures/leaves/repo');
const CLUSTERS: Record<string, Record<string, string>> = {
  c1: { CLUSTER_NAME: 'c1', BASE_DOMAIN: 'example.com' },
  c2: { CLUSTER_NAME: 'c2', BASE_DOMAIN: 'example.com', REGION: 'us-east-1' },
  c3: { CLUSTER_NAME: 'c3', BASE_DOMAIN: 'example.org' },
};

function fleetJobs(): LeafJob[] {
  const jobs: LeafJob[] = [];
  for (const [cluster, variables] of Object.entries(CLUSTERS)) {
    jobs.push({ cluster, app: 'web', source: { kind: 'kustomize', path: 'apps/web' }, variables });
    jobs.push({ cluster, app: 'api', source: { kind: 'kustomize', path: 'apps/api' }, variables });
    jobs.push({ cluster, app: 'chart', source: { kind: 'kustomize', path: 'apps/chart' }, variables });
    jobs.push({
      cluster,
      app: 'tiny',
      source: { kind: 'helm', path: 'charts/tiny', releaseName: 'tiny', namespace: 'tiny-ns', values: { message: `hello ${cluster}` } },
      variables,
    });
  }
  jobs.push({ cluster: 'c1', app: 'broken', source: { kind: 'kustomize', path: 'apps/broken' }, variables: CLUSTERS.c1! });
  return jobs;
}

interface Sandbox {
  repo: string;
  out: string;
  cache: string;
  options: RenderLeavesOptions;
  done(): void;
}

function sandbox(copyRepo = false): Sandbox {
  const { kubectl, helm } = requireTools();
  const dir = tempDir('leaves');
  const repo = copyRepo ? join(dir, 'repo') : FIXTURE;
  if (copyRepo) copyTree(FIXTURE, repo);
  const out = join(dir, 'out');
  const cache = join(dir, 'cache');
  return {
    repo,
    out,
    cache,
    options: { repoRoot: repo, outDir: out, cacheDir: cache, kustomize: kubectl, helm, env: toolEnv(join(dir, 'home')) },
    done: () => removeDir(dir),
  };
}

function byJob(results: { cluster: string; app: string }[]) {
  return (cluster: string, app: string) => {
    const r = results.find((x) => x.cluster === cluster && x.app === app);
    assert.ok(r, `no result for ${cluster}/${app}`);
    return r as (typeof results)[number] & Awaited<ReturnType<typeof renderLeaves>>['results'][number];
  };
}

test('renders every app of every cluster, one build per distinct source, and keeps going past a failing build', async () => {
  const sb = sandbox();
  try {
    const t0 = performance.now();
    const run = await renderLeaves(fleetJobs(), sb.options);
    const uncachedMs = performance.now() - t0;
    const get = byJob(run.results);
    // web, api, chart and tiny (3 different values) plus broken: 4 + 2 + 1 … every cluster shares web/api/chart.
    assert.deepEqual(run.stats, { builds: 7, hits: 6, misses: 7, uncacheable: 0 });
    assert.equal(get('c1', 'web').objects, 4);
    assert.deepEqual(get('c1', 'web').files, [
      'c1/manifests/web/01-namespace-web.yaml',
      'c1/manifests/web/02-configmap-web-cluster-info.yaml',
      'c1/manifests/web/03-configmap-web-web-settings.yaml',
      'c1/manifests/web/04-deployment-web-web.yaml',
    ]);
    assert.equal(get('c2', 'api').objects, 2);
    assert.equal(get('c3', 'chart').objects, 1);
    const broken = get('c1', 'broken');
    assert.ok(broken.error instanceof ToolError);
    assert.match(broken.error.message, /^cluster c1, app broken: kustomize build of apps\/broken failed: .*does-not-exist\.yaml/);
    assert.equal(broken.error.location?.file, 'apps/broken');
    for (const r of run.results.filter((x) => x.app !== 'broken')) assert.equal(r.error, undefined, `${r.cluster}/${r.app}: ${r.error?.format()}`);

    const tree = readTree(sb.out);
    assert.equal(tree.get('c2/manifests/web/02-configmap-web-cluster-info.yaml'), [
      'apiVersion: v1',
      'data:',
      '  cluster: c2',
      '  domain: apps.c2.example.com',
      '  region: us-east-1',
      '  shell: echo $HOME ${NOT_A_VARIABLE}',
      'kind: ConfigMap',
      'metadata:',
      '  labels:',
      '    fleet.example.com/cluster: c2',
      '  name: cluster-info',
      '  namespace: web',
      '',
    ].join('\n'));
    assert.match(tree.get('c1/manifests/web/02-configmap-web-cluster-info.yaml') ?? '', /region: eu-west-1/);
    assert.match(tree.get('c3/manifests/chart/01-configmap-tiny-tiny-config.yaml') ?? '', /cluster: c3\n {2}message: from-kustomize\n/);
    assert.match(tree.get('c2/manifests/tiny/01-configmap-tiny-ns-tiny-config.yaml') ?? '', /message: hello c2/);

    // Second run into a fresh directory: nothing is built, every job is a hit, and the bytes are identical.
    const t1 = performance.now();
    const again = await renderLeaves(fleetJobs(), { ...sb.options, outDir: `${sb.out}-2` });
    const cachedMs = performance.now() - t1;
    assert.deepEqual(again.stats, { builds: 1, hits: 12, misses: 1, uncacheable: 0 }, 'only the failing build runs again');
    assert.ok(again.results.filter((r) => r.app !== 'broken').every((r) => r.cached));
    assert.deepEqual(readTree(`${sb.out}-2`), tree);
    // And without any cache at all: the same bytes.
    await renderLeaves(fleetJobs(), { ...sb.options, outDir: `${sb.out}-3`, cacheDir: false });
    assert.deepEqual(readTree(`${sb.out}-3`), tree);
    console.log(`# leaf fixtures: uncached run ${uncachedMs.toFixed(0)} ms, cached run ${cachedMs.toFixed(0)} ms`);
  } finally {
    sb.done();
  }
});

test('a change to one file rebuilds only the builds that read it', async () => {
  const sb = sandbox(true);
  try {
    const jobs = fleetJobs().filter((j) => j.app !== 'broken');
    const first = await renderLeaves(jobs, sb.options);
    assert.equal(first.stats.builds, 6);

    // The shared component: web and api read it, chart and tiny do not.
    appendFileSync(join(sb.repo, 'components/labels/cluster-info.yaml'), '  extra: "1"\n');
    const second = await renderLeaves(jobs, sb.options);
    assert.equal(second.stats.builds, 2);
    const rebuilt = (r: typeof second) => [...new Set(r.results.filter((x) => !x.cached).map((x) => x.app))].sort();
    assert.deepEqual(rebuilt(second), ['api', 'web']);
    assert.match(readFileSync(join(sb.out, 'c3/manifests/api/01-configmap-api-cluster-info.yaml'), 'utf8'), /extra: '1'/);

    // A generator file: only web reads it.
    writeFileSync(join(sb.repo, 'apps/web/settings.properties'), 'greeting=bonjour\n');
    const third = await renderLeaves(jobs, sb.options);
    assert.deepEqual(rebuilt(third), ['web']);

    // The chart's values file read through helmCharts.valuesFile.
    writeFileSync(join(sb.repo, 'apps/chart/values.yaml'), 'message: changed\n');
    const fourth = await renderLeaves(jobs, sb.options);
    assert.deepEqual(rebuilt(fourth), ['chart']);

    // A chart template: both the helmCharts kustomization and the helm source read it.
    appendFileSync(join(sb.repo, 'charts/tiny/templates/configmap.yaml'), '  added: "yes"\n');
    const fifth = await renderLeaves(jobs, sb.options);
    assert.deepEqual(rebuilt(fifth), ['chart', 'tiny']);
  } finally {
    sb.done();
  }
});

test('an undefined variable is an error naming the variable, the object, the source file, app and cluster', async () => {
  const sb = sandbox();
  try {
    const run = await renderLeaves(
      [
        { cluster: 'edge1', app: 'web', source: { kind: 'kustomize', path: 'apps/web' }, variables: { CLUSTER_NAME: 'edge1' } },
        { cluster: 'edge2', app: 'web', source: { kind: 'kustomize', path: 'apps/web' }, variables: { CLUSTER_NAME: 'edge2', BASE_DOMAIN: 'x.io' } },
      ],
      sb.options,
    );
    const [bad, good] = run.results;
    assert.ok(bad?.error instanceof InputError);
    assert.equal(bad.error.code, 'undefined-variable');
    assert.match(bad.error.message, /^cluster edge1, app web: undefined variable \$\{BASE_DOMAIN\} in ConfigMap\/web\/cluster-info \(build output line \d+\)$/);
    assert.deepEqual(bad.error.location, { file: 'components/labels/cluster-info.yaml', line: 7, column: 32 });
    assert.match(bad.error.hint ?? '', /define BASE_DOMAIN in cluster edge1's variables/);
    assert.equal(bad.files.length, 0);
    assert.equal(good?.error, undefined);
    assert.equal(run.stats.builds, 1);
  } finally {
    sb.done();
  }
});

test('refuses source paths outside the repository and unsafe app names', async () => {
  const sb = sandbox();
  try {
    const run = await renderLeaves(
      [
        { cluster: 'c1', app: 'escape', source: { kind: 'kustomize', path: '../outside' }, variables: {} },
        { cluster: 'c1', app: '../evil', source: { kind: 'kustomize', path: 'apps/web' }, variables: {} },
        { cluster: 'c1', app: 'gone', source: { kind: 'kustomize', path: 'apps/missing' }, variables: {} },
      ],
      sb.options,
    );
    assert.match(run.results[0]?.error?.message ?? '', /path "\.\.\/outside" escapes the repository/);
    assert.match(run.results[1]?.error?.message ?? '', /app name "\.\.\/evil" cannot be a directory name/);
    assert.match(run.results[2]?.error?.message ?? '', /source path "apps\/missing" is not a directory/);
    assert.equal(run.stats.builds, 0);
  } finally {
    sb.done();
  }
});

test('a missing kustomize fails each job with what to install, and nothing is built', async () => {
  const sb = sandbox();
  try {
    const run = await renderLeaves(fleetJobs().slice(0, 2), { ...sb.options, kustomize: undefined, env: { PATH: '/nonexistent', HOME: sb.cache }, bundledDir: false });
    for (const r of run.results) {
      assert.ok(r.error instanceof ToolError);
      assert.match(r.error.message, /kustomize not found/);
      assert.match(r.error.hint ?? '', /install kustomize 5/);
    }
  } finally {
    sb.done();
  }
});

test('templates a remote chart from the local chart cache, with values files and inline values in order', async () => {
  const sb = sandbox();
  try {
    const { execFileSync } = await import('node:child_process');
    execFileSync(sb.options.helm!, ['package', join(FIXTURE, 'charts/tiny'), '--destination', join(sb.cache, 'charts')], { env: sb.options.env, stdio: 'ignore' });
    const run = await renderLeaves(
      [
        { cluster: 'c1', app: 'remote', source: { kind: 'helm', chart: 'tiny', repoURL: 'https://charts.example.com', version: '0.1.0', releaseName: 'r', namespace: 'ns', values: { replicas: 5 } }, variables: { CLUSTER_NAME: 'c1' } },
        { cluster: 'c1', app: 'local', source: { kind: 'helm', path: 'charts/tiny', releaseName: 'l', namespace: 'ns', valueFiles: ['values-override.yaml'], values: { replicas: 7 } }, variables: { CLUSTER_NAME: 'c1' } },
      ],
      sb.options,
    );
    for (const r of run.results) assert.equal(r.error, undefined, r.error?.format());
    const tree = readTree(sb.out);
    assert.match(tree.get('c1/manifests/remote/01-configmap-ns-r-config.yaml') ?? '', /message: default\n {2}replicas: '5'/);
    assert.match(tree.get('c1/manifests/local/01-configmap-ns-l-config.yaml') ?? '', /message: from-a-values-file\n {2}replicas: '7'/);
  } finally {
    sb.done();
  }
});

test('a remote chart that is not cached locally is an error that says how to fetch it', async () => {
  const sb = sandbox();
  try {
    const run = await renderLeaves(
      [{ cluster: 'c1', app: 'ext', source: { kind: 'helm', chart: 'podinfo', repoURL: 'https://charts.example.com', version: '6.0.0', releaseName: 'p', namespace: 'p' }, variables: {} }],
      sb.options,
    );
    assert.match(run.results[0]?.error?.message ?? '', /remote chart podinfo 6\.0\.0 from https:\/\/charts\.example\.com is not in the local chart cache/);
    assert.match(run.results[0]?.error?.hint ?? '', /helm pull podinfo --repo https:\/\/charts\.example\.com --version 6\.0\.0/);
  } finally {
    sb.done();
  }
});
