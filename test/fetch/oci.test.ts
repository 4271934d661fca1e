/**
 * OCI chart sources under `render --leaves --fetch` (ADR 0283, 0301), against the in-process OCI
 * registry of test/support/oci-registry.ts on loopback, with the real Helm 3.18 of .tools/bin
 * pushing and pulling: an Argo CD Application whose repoURL is a registry written without a scheme
 * (as Argo CD writes OCI), kustomize `helmCharts` with an `oci://` repo, Flux HelmReleases from an
 * OCIRepository (tag, semver, digest) and a HelmRepository of `type: oci`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { startOciRegistry } from '../support/oci-registry.js';
import type { OciRegistry } from '../support/oci-registry.js';
import { fluxKustomization } from '../support/flux-fixture.js';
import { requireTools, toolEnv } from '../helpers/tools.js';
import { parseManifests, placeInNamespace, serializeObject } from '../../src/render/leaves/manifests.js';

const run = promisify(execFile);

interface Pushed {
  registry: OciRegistry;
  /** The packaged archives, by version. */
  archives: Map<string, string>;
  work: string;
  /** `--registry-config` written by `helm registry login` (when the registry has a login). */
  registryConfig?: string;
  close(): Promise<void>;
}

/** A registry holding `charts/web` at each version (a ConfigMap naming its version), pushed with `helm push`. */
async function registryWithCharts(versions: string[], login?: { username: string; password: string }): Promise<Pushed> {
  const { helm } = requireTools();
  const registry = await startOciRegistry(login ?? {});
  const work = writeTree({});
  const env = { ...toolEnv(work), HELM_CONFIG_HOME: join(work, 'helm-config'), HELM_CACHE_HOME: join(work, 'helm-cache'), HELM_DATA_HOME: join(work, 'helm-data') };
  let registryConfig: string | undefined;
  if (login) {
    registryConfig = join(work, 'registry.json');
    // `helm registry login --password-stdin`, as a user logs in: the password on stdin.
    await new Promise<void>((resolve, reject) => {
      const child = execFile(helm, ['registry', 'login', registry.host, '--username', login.username, '--password-stdin', '--registry-config', registryConfig!], { env }, (e) => (e ? reject(e) : resolve()));
      child.stdin!.end(login.password);
    });
  }
  const archives = new Map<string, string>();
  for (const version of versions) {
    const chart = join(work, `src-${version}`, 'web');
    mkdirSync(join(chart, 'templates'), { recursive: true });
    writeFileSync(join(chart, 'Chart.yaml'), `apiVersion: v2\nname: web\nversion: ${version}\n`);
    writeFileSync(join(chart, 'values.yaml'), 'greeting: hello\n');
    writeFileSync(join(chart, 'templates', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-web\ndata:\n  version: {{ .Chart.Version | quote }}\n  greeting: {{ .Values.greeting | quote }}\n');
    await run(helm, ['package', chart, '--destination', work], { env });
    const archive = join(work, `web-${version}.tgz`);
    await run(helm, ['push', archive, `oci://${registry.host}/charts`, ...(registryConfig ? ['--registry-config', registryConfig] : [])], { env });
    archives.set(version, archive);
  }
  return {
    registry,
    archives,
    work,
    ...(registryConfig ? { registryConfig } : {}),
    close: async () => {
      await registry.close();
      removeTree(work);
    },
  };
}

/** An argocd-layout repository holding the given files (gitInit gives it an origin). */
function fleetRepo(files: Record<string, string>): string {
  return writeTree(files);
}

function ociSource(host: string, version: string): string {
  return `    repoURL: ${host}/charts\n    chart: web\n    targetRevision: ${version}\n`;
}

async function gitInit(dir: string): Promise<void> {
  await run('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  await run('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
}

function leafFiles(out: string, cluster: string, app: string): Map<string, string> {
  const dir = join(out, cluster, 'manifests', app);
  return new Map(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

const manifestGets = (r: OciRegistry) => r.requests.filter((q) => q.method === 'GET' && q.path.includes('/manifests/'));

test('Argo CD: a chart from an OCI registry written without a scheme is pulled with --fetch, its digest printed, rendered as helm template renders it, and read from the fetch cache the next time', async () => {
  const pushed = await registryWithCharts(['1.2.0', '1.3.0']);
  const fleet = fleetRepo({ 'apps/web.yaml': argoApplication('web', ociSource(pushed.registry.host, '1.2.0')) });
  await gitInit(fleet);
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const env = toolEnv(work);
    const before = pushed.registry.requests.length;
    const r = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), env);
    assert.equal(r.code, 0, r.stderr);
    const digest = pushed.registry.digestOf('charts/web', '1.2.0')!;
    assert.ok(r.stderr.includes(`note: cluster in-cluster, app web: fetched chart oci://${pushed.registry.host}/charts/web 1.2.0, digest ${digest}, archive sha256:`), r.stderr);
    assert.ok(pushed.registry.requests.slice(before).some((q) => q.method === 'GET' && q.path === '/v2/charts/web/manifests/1.2.0'), 'pulled by its tag');
    const expected = (await run(requireTools().helm, ['template', 'web', pushed.archives.get('1.2.0')!, '--namespace', 'web', '--include-crds'], { env })).stdout;
    // helm template's output plus the namespace the sync sets, the destination `web` (ADR 0420).
    assert.deepEqual([...leafFiles(out, 'in-cluster', 'web').values()], placeInNamespace(parseManifests(expected, 'helm template'), 'web').objects.map(serializeObject));

    // The second run, with --fetch still given, takes the exact version from the fetch cache.
    const gets = manifestGets(pushed.registry).length;
    const again = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), env);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(manifestGets(pushed.registry).length, gets, 'no second manifest GET');
    assert.ok(again.stderr.includes(`from the fetch cache: chart oci://${pushed.registry.host}/charts/web 1.2.0, digest ${digest}`), again.stderr);
  } finally {
    await pushed.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('Argo CD: without --fetch the OCI chart is not requested and the error names the Application file, line and field', async () => {
  const pushed = await registryWithCharts(['1.2.0']);
  const fleet = fleetRepo({ 'apps/web.yaml': argoApplication('web', ociSource(pushed.registry.host, '1.2.0')) });
  await gitInit(fleet);
  const work = writeTree({});
  try {
    const before = pushed.registry.requests.length;
    const r = await cli(['render', '--repo', fleet, '--out', join(work, 'out'), '--leaves', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(r.code, 1, r.stderr);
    assert.equal(pushed.registry.requests.length, before, 'nothing is fetched offline');
    assert.match(r.stderr, /error: apps\/web\.yaml:13:\d+ spec\.source\.chart: cluster in-cluster, app web: remote chart oci:\/\/localhost:\d+\/charts\/web 1\.2\.0 is not in the local chart cache \(not available offline\)/);
    assert.match(r.stderr, /pass --fetch to let helm pull it/);
  } finally {
    await pushed.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('Argo CD: a tag the registry does not have is an error at spec.source.targetRevision; a version range is resolved against the tags and the version printed', async () => {
  const pushed = await registryWithCharts(['1.2.0', '1.3.0']);
  const fleet = fleetRepo({
    'apps/missing.yaml': argoApplication('missing', ociSource(pushed.registry.host, '9.9.9')),
    'apps/ranged.yaml': argoApplication('ranged', ociSource(pushed.registry.host, '^1.0.0')),
  });
  await gitInit(fleet);
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const r = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /error: apps\/missing\.yaml:14:\d+ spec\.source\.targetRevision: cluster in-cluster, app missing: helm pull of oci:\/\/localhost:\d+\/charts\/web 9\.9\.9 failed: that version is not in the repository: .*not found/);
    assert.ok(pushed.registry.requests.some((q) => q.path === '/v2/charts/web/tags/list'), 'the range is resolved against the tags');
    assert.match(r.stderr, /note: cluster in-cluster, app ranged: fetched chart oci:\/\/localhost:\d+\/charts\/web 1\.3\.0 \(resolved from \^1\.0\.0\), digest sha256:[0-9a-f]{64}/);
    // Named with the destination namespace the sync sets (ADR 0420).
    assert.match(leafFiles(out, 'in-cluster', 'ranged').get('01-configmap-ranged-ranged-web.yaml') ?? '', /version: 1\.3\.0/);
  } finally {
    await pushed.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('Argo CD: a registry with a login refuses a pull without --registry-config (error at spec.source.repoURL); the login from helm registry login is used with it, and the password is never shown', async () => {
  const pushed = await registryWithCharts(['1.2.0'], { username: 'fleet', password: 's3cret-pw' });
  const fleet = fleetRepo({ 'apps/web.yaml': argoApplication('web', ociSource(pushed.registry.host, '1.2.0')) });
  await gitInit(fleet);
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const refused = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /error: apps\/web\.yaml:12:\d+ spec\.source\.repoURL: cluster in-cluster, app web: helm pull of oci:\/\/localhost:\d+\/charts\/web 1\.2\.0 was refused by the registry \(not authorized\)/);
    assert.match(refused.stderr, /--registry-config FILE/);
    assert.ok(pushed.registry.requests.some((q) => q.status === 401));

    const ok = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--registry-config', pushed.registryConfig!, '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(ok.code, 0, ok.stderr);
    // Named with the destination namespace the sync sets (ADR 0420).
    assert.match(leafFiles(out, 'in-cluster', 'web').get('01-configmap-web-web-web.yaml') ?? '', /version: 1\.2\.0/);
    assert.doesNotMatch(refused.stderr + ok.stderr, /s3cret-pw/);
  } finally {
    await pushed.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('Argo CD: a registry that sends a chart whose bytes do not match its digest fails the pull, at spec.source.repoURL, and nothing is rendered', async () => {
  const pushed = await registryWithCharts(['1.2.0']);
  const bytes = readFileSync(pushed.archives.get('1.2.0')!);
  const layer = pushed.registry.layersOf('charts/web', '1.2.0').find((d) => d === `sha256:${createHash('sha256').update(bytes).digest('hex')}`)!;
  assert.ok(layer, 'the chart layer is the archive');
  const altered = Buffer.from(bytes);
  altered[altered.length - 1] = altered[altered.length - 1]! ^ 0xff;
  pushed.registry.tamper(layer, altered);
  const fleet = fleetRepo({ 'apps/web.yaml': argoApplication('web', ociSource(pushed.registry.host, '1.2.0')) });
  await gitInit(fleet);
  const work = writeTree({});
  try {
    const r = await cli(['render', '--repo', fleet, '--out', join(work, 'out'), '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /error: apps\/web\.yaml:12:\d+ spec\.source\.repoURL: cluster in-cluster, app web: helm pull of oci:\/\/localhost:\d+\/charts\/web 1\.2\.0 failed: the registry sent content that does not match its digest/);
    const fetched = join(work, 'cache', 'charts-fetched');
    assert.deepEqual(existsSync(fetched) ? readdirSync(fetched).flatMap((d) => readdirSync(join(fetched, d))) : [], [], 'nothing kept in the fetch cache');
    assert.ok(!existsSync(join(work, 'out', 'in-cluster', 'manifests', 'web')), 'nothing rendered');
  } finally {
    await pushed.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('Argo CD: a registry written as IP:port without a scheme is pulled as OCI, with a note that Argo CD needs enableOCI on its repository for it', async () => {
  const pushed = await registryWithCharts(['1.2.0']);
  const fleet = fleetRepo({ 'apps/web.yaml': argoApplication('web', ociSource(`127.0.0.1:${pushed.registry.port}`, '1.2.0')) });
  await gitInit(fleet);
  const work = writeTree({});
  try {
    const r = await cli(['render', '--repo', fleet, '--out', join(work, 'out'), '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /note: cluster in-cluster, app web: Argo CD reads repoURL 127\.0\.0\.1:\d+\/charts as an OCI registry only when its repository Secret sets enableOCI: "true"/);
    assert.match(r.stderr, /fetched chart oci:\/\/127\.0\.0\.1:\d+\/charts\/web 1\.2\.0, digest sha256:/);
  } finally {
    await pushed.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('Argo CD: a registry that cannot be reached is said as such at spec.source.repoURL, not as a missing version', async () => {
  // A loopback port nothing listens on: the connection is refused.
  const closed = await startOciRegistry();
  const port = closed.port;
  await closed.close();
  const fleet = fleetRepo({ 'apps/web.yaml': argoApplication('web', ociSource(`localhost:${port}`, '1.2.0')) });
  await gitInit(fleet);
  const work = writeTree({});
  try {
    const r = await cli(['render', '--repo', fleet, '--out', join(work, 'out'), '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /error: apps\/web\.yaml:12:\d+ spec\.source\.repoURL: cluster in-cluster, app web: helm pull of oci:\/\/localhost:\d+\/charts\/web 1\.2\.0 could not reach the repository: .*connection refused/);
  } finally {
    removeTree(fleet);
    removeTree(work);
  }
});

test('kustomize helmCharts with an oci:// repo (kustomize 5.6 pulls it itself): not built offline, built with --fetch', async () => {
  const pushed = await registryWithCharts(['1.2.0']);
  const fleet = fleetRepo({
    'apps/site.yaml': argoApplication('site', '    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: site\n'),
    'site/kustomization.yaml': `helmCharts:\n  - name: web\n    repo: oci://${pushed.registry.host}/charts\n    version: 1.2.0\n    releaseName: site\n`,
  });
  await gitInit(fleet);
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const before = pushed.registry.requests.length;
    const offline = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(offline.code, 1, offline.stderr);
    assert.equal(pushed.registry.requests.length, before, 'nothing is fetched offline');
    assert.match(offline.stderr, /app site: not built: site reads remote resources, not fetched offline: .*oci:\/\/localhost:\d+\/charts/);
    const online = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(online.code, 0, online.stderr);
    assert.ok(pushed.registry.requests.slice(before).some((q) => q.path === '/v2/charts/web/manifests/1.2.0'), 'kustomize pulled the chart');
    // Named with the destination namespace the sync sets (ADR 0420).
    assert.match(leafFiles(out, 'in-cluster', 'site').get('01-configmap-site-site-web.yaml') ?? '', /version: 1\.2\.0/);
  } finally {
    await pushed.close();
    removeTree(fleet);
    removeTree(work);
  }
});


/** A Flux repository (helmfile-less flux layout) with one Kustomization whose path holds `objects`. */
function fluxRepo(objects: string): Record<string, string> {
  return {
    'kubernetes/flux/cluster/ks.yaml': fluxKustomization('cluster-apps', 'kubernetes/apps').replace('  name: cluster-apps\n', '  name: cluster-apps\n  namespace: flux-system\n'),
    'kubernetes/apps/web/kustomization.yaml': 'namespace: web\nresources:\n  - ./ks.yaml\n',
    'kubernetes/apps/web/ks.yaml': fluxKustomization('web', 'kubernetes/apps/web/app', '  targetNamespace: web\n'),
    'kubernetes/apps/web/app/kustomization.yaml': 'resources:\n  - ./objects.yaml\n',
    'kubernetes/apps/web/app/objects.yaml': objects,
  };
}

function ociRepository(name: string, url: string, ref: string, extra = ''): string {
  return `apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: ${name}\nspec:\n  interval: 1h\n  url: ${url}\n  ref:\n${ref}${extra}---\n`;
}

function helmRelease(name: string, chart: string): string {
  return `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: ${name}\nspec:\n  interval: 1h\n${chart}---\n`;
}

test('Flux: OCIRepository by tag, semver and digest and a HelmRepository of type oci: said not fetched offline, pulled exactly with --fetch (version chosen printed, digest verified)', async () => {
  const pushed = await registryWithCharts(['1.2.0', '1.3.0']);
  const host = pushed.registry.host;
  const digest = pushed.registry.digestOf('charts/web', '1.2.0')!;
  const wrong = `sha256:${'0'.repeat(64)}`;
  const objects = [
    ociRepository('by-tag', `oci://${host}/charts/web`, '    tag: 1.2.0\n'),
    ociRepository('by-semver', `oci://${host}/charts/web`, '    semver: ">=1.0.0 <2.0.0"\n'),
    ociRepository('by-digest', `oci://${host}/charts/web`, `    digest: ${digest}\n    tag: 1.3.0\n`, '  insecure: true\n'),
    ociRepository('wrong-digest', `oci://${host}/charts/web`, `    digest: ${wrong}\n`),
    ociRepository('latest', `oci://${host}/charts/web`, '    tag: latest\n'),
    `apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: registry\nspec:\n  type: oci\n  interval: 1h\n  url: oci://${host}/charts\n---\n`,
    helmRelease('tagged', '  chartRef:\n    kind: OCIRepository\n    name: by-tag\n'),
    helmRelease('ranged', '  chartRef:\n    kind: OCIRepository\n    name: by-semver\n'),
    helmRelease('pinned', '  chartRef:\n    kind: OCIRepository\n    name: by-digest\n'),
    helmRelease('bad', '  chartRef:\n    kind: OCIRepository\n    name: wrong-digest\n'),
    helmRelease('floating', '  chartRef:\n    kind: OCIRepository\n    name: latest\n'),
    helmRelease('helmrepo', '  chart:\n    spec:\n      chart: web\n      version: 1.3.0\n      sourceRef:\n        kind: HelmRepository\n        name: registry\n'),
    helmRelease('helmrepo-range', '  chart:\n    spec:\n      chart: web\n      version: "~1.2.0"\n      sourceRef:\n        kind: HelmRepository\n        name: registry\n'),
  ].join('');
  const dir = writeTree(fluxRepo(objects));
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const before = pushed.registry.requests.length;
    const offline = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    assert.equal(pushed.registry.requests.length, before, 'nothing is fetched offline');
    const warn = (release: string) => new RegExp(`warning: cluster cluster, app flux:web/web: HelmRelease web/${release} not rendered: ([^\\n]*)`).exec(offline.stderr)?.[1] ?? `(no warning for ${release}: ${offline.stderr})`;
    assert.match(warn('tagged'), /chart oci:\/\/localhost:\d+\/charts\/web:1\.2\.0 is not available offline/);
    assert.match(warn('ranged'), /selected by a version range \(>=1\.0\.0 <2\.0\.0\), resolved only against the repository: pass --fetch/);
    assert.match(warn('pinned'), new RegExp(`chart oci://localhost:\\d+/charts/web@${digest} is not available offline`));
    assert.match(warn('helmrepo'), /not available offline/);
    assert.match(warn('helmrepo-range'), /version range \(~1\.2\.0\).*pass --fetch/);

    const online = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
    const note = (release: string) => new RegExp(`note: cluster cluster, app flux:web/web: HelmRelease web/${release}: ([^\\n]*)`).exec(online.stderr)?.[1] ?? `(no note for ${release}: ${online.stderr})`;
    // The release pinned by digest sorts first and pulled 1.2.0: the tag finds that exact version in the fetch cache.
    assert.match(note('tagged'), new RegExp(`(fetched|from the fetch cache:) chart oci://localhost:\\d+/charts/web 1\\.2\\.0, digest ${digest}`));
    assert.match(note('ranged'), /fetched chart oci:\/\/localhost:\d+\/charts\/web 1\.3\.0 \(resolved from >=1\.0\.0 <2\.0\.0\), digest sha256:/);
    // ref.digest wins over ref.tag (source-controller's order): 1.2.0, pulled by its digest.
    assert.match(note('pinned'), new RegExp(`chart oci://localhost:\\d+/charts/web 1\\.2\\.0 \\(pinned by digest\\), digest ${digest}`));
    assert.match(note('helmrepo'), /fetched chart oci:\/\/localhost:\d+\/charts\/web 1\.3\.0, digest sha256:/);
    assert.match(note('helmrepo-range'), /1\.2\.0 \(resolved from ~1\.2\.0\)/);
    assert.match(online.stderr, new RegExp(`HelmRelease web/bad not rendered: helm pull of oci://localhost:\\d+/charts/web@${wrong} failed: that digest is not in the repository`));
    assert.match(online.stderr, /HelmRelease web\/floating not rendered: OCIRepository web\/latest selects tag latest, which is not a chart version: Helm cannot pull a chart by it; pin ref\.digest or a version tag/);
    assert.match(online.stderr, /HelmRelease charts: 5 rendered, 2 not rendered/);
    const files = leafFiles(out, 'cluster', 'flux_web_web');
    const version = (release: string) => /version: "?([0-9.]+)"?/.exec([...files.entries()].find(([f]) => f.startsWith(`helm_web_${release}-`))?.[1] ?? '')?.[1];
    assert.deepEqual(['tagged', 'ranged', 'pinned', 'helmrepo', 'helmrepo-range'].map(version), ['1.2.0', '1.3.0', '1.2.0', '1.3.0', '1.2.0']);
  } finally {
    await pushed.close();
    removeTree(dir);
    removeTree(work);
  }
});
