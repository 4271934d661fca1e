/**
 * `render --leaves --fetch` (docs/adr/0283-fetch-remote-sources.md), on loopback only: a Helm
 * chart repository served by node:http (index.yaml and archives made here with `helm package`
 * from a chart the test writes) and a remote kustomize base served by `git http-backend`
 * (test/support/git-http-server.ts). Without --fetch nothing is requested and each app says why
 * it was not built; with it the leaves equal `helm template` of the pulled chart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { startGitHttpServer } from '../support/git-http-server.js';
import { locateKustomize } from '../../src/adapters/kustomize.js';
import { parseManifests, placeInNamespace, serializeObject } from '../../src/render/leaves/manifests.js';

const run = promisify(execFile);
const HELM = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../.tools/bin/helm');

/** A chart repository on loopback: `web` 1.2.0 and 1.3.0, each a ConfigMap naming its version and a value. */
async function chartRepository(): Promise<{ url: string; requests: string[]; dir: string; close(): Promise<void> }> {
  const dir = writeTree({});
  const served = join(dir, 'served');
  mkdirSync(served);
  for (const version of ['1.2.0', '1.3.0']) {
    const chart = join(dir, `src-${version}`, 'web');
    mkdirSync(join(chart, 'templates'), { recursive: true });
    writeFileSync(join(chart, 'Chart.yaml'), `apiVersion: v2\nname: web\nversion: ${version}\n`);
    writeFileSync(join(chart, 'values.yaml'), 'greeting: hello\n');
    writeFileSync(
      join(chart, 'templates', 'cm.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-web\ndata:\n  version: {{ .Chart.Version | quote }}\n  greeting: {{ .Values.greeting | quote }}\n',
    );
    execFileSync(HELM, ['package', chart, '--destination', served], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '', HOME: dir } });
  }
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '/');
    const name = (req.url ?? '/').replace(/^\/+/, '');
    if (!/^[A-Za-z0-9._-]+$/.test(name)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(join(served, name));
      res.writeHead(200, { 'Content-Type': name.endsWith('.yaml') ? 'text/yaml' : 'application/gzip' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  execFileSync(HELM, ['repo', 'index', served, '--url', url], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '', HOME: dir } });
  return {
    url,
    requests,
    dir,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      removeTree(dir);
    },
  };
}

/** An argocd-layout repository (with an origin) holding one Application per entry. */
function fleetRepo(apps: Record<string, string>): string {
  const files: Record<string, string> = {};
  for (const [name, source] of Object.entries(apps)) {
    files[`apps/${name}.yaml`] = argoApplication(name, source);
  }
  const dir = writeTree(files);
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

function chartSource(url: string, version: string): string {
  return `    repoURL: ${url}\n    chart: web\n    targetRevision: "${version}"\n`;
}

function leafFiles(out: string, app: string): Map<string, string> {
  const dir = join(out, 'in-cluster', 'manifests', app);
  return new Map(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

test('without --fetch a remote chart is not requested and the app says it was not fetched', async () => {
  const repo = await chartRepository();
  const fleet = fleetRepo({ web: chartSource(repo.url, '1.2.0') });
  const work = writeTree({});
  try {
    const r = await cli(['render', '--repo', fleet, '--out', join(work, 'out'), '--leaves', '--cache-dir', join(work, 'cache')]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(repo.requests, [], 'nothing is fetched offline');
    assert.match(r.stderr, /error: apps\/web\.yaml:13:5 spec\.source\.chart: cluster in-cluster, app web: remote chart web 1\.2\.0 from http:\/\/127\.0\.0\.1:\d+ is not in the local chart cache \(not available offline\)/);
    assert.match(r.stderr, /pass --fetch to let helm pull it/);
  } finally {
    await repo.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('with --fetch the chart is pulled once into the fetch cache and the leaves equal helm template of it', async () => {
  const repo = await chartRepository();
  const fleet = fleetRepo({ web: chartSource(repo.url, '1.2.0') });
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const r = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /note: cluster in-cluster, app web: fetched chart web from http:\/\/127\.0\.0\.1:\d+ 1\.2\.0, archive sha256:[0-9a-f]{64}/);
    assert.ok(repo.requests.includes('/web-1.2.0.tgz'), repo.requests.join(' '));
    // What `helm template` of the pulled archive gives, with Argo CD's release name and namespace.
    const expected = (await run(HELM, ['template', 'web', join(repo.dir, 'served', 'web-1.2.0.tgz'), '--namespace', 'web', '--include-crds'], { env: { PATH: process.env.PATH ?? '', HOME: work } })).stdout;
    // The leaf is that output plus the namespace the sync sets: the destination `web` (ADR 0420).
    const files = leafFiles(out, 'web');
    assert.deepEqual([...files.values()], placeInNamespace(parseManifests(expected, 'helm template'), 'web').objects.map(serializeObject));
    assert.deepEqual([...files.keys()], ['01-configmap-web-web-web.yaml']);
    assert.match(files.get('01-configmap-web-web-web.yaml') ?? '', /greeting: hello\n {2}version: 1\.2\.0\n/);
    // A second run finds the exact version in the fetch cache: no request, even without --fetch.
    const before = repo.requests.length;
    const again = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--cache-dir', join(work, 'cache')]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(repo.requests.length, before, 'served from the fetch cache');
    assert.match(again.stderr, /from the fetch cache: chart web .* 1\.2\.0/);
  } finally {
    await repo.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('a version range is resolved by helm against the repository index and the version printed', async () => {
  const repo = await chartRepository();
  const fleet = fleetRepo({ web: chartSource(repo.url, '^1.0.0') });
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const r = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(repo.requests.includes('/index.yaml'), 'the range is resolved against the index');
    assert.match(r.stderr, /fetched chart web from http:\/\/127\.0\.0\.1:\d+ 1\.3\.0 \(resolved from \^1\.0\.0\)/);
    // Named with the destination namespace `web` the sync sets (ADR 0420).
    assert.match(leafFiles(out, 'web').get('01-configmap-web-web-web.yaml') ?? '', /version: 1\.3\.0/);
  } finally {
    await repo.close();
    removeTree(fleet);
    removeTree(work);
  }
});

test('a remote kustomize base is not fetched offline and is built by kustomize with --fetch', async () => {
  const server = await startGitHttpServer({ username: 'fleet', password: 'secret-pw' });
  const base = writeTree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-remote-base\ndata:\n  where: remote\n',
  });
  const url = server.createRepo('platform/base.git').replace('http://', 'http://fleet:secret-pw@');
  const git = (...args: string[]) => run('git', ['-C', base, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args]);
  await git('init', '-q', '-b', 'main');
  await git('add', '.');
  await git('commit', '-qm', 'base');
  await git('push', '-q', url, 'main');
  const fleet = fleetRepo({ site: '    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: site\n' });
  mkdirSync(join(fleet, 'site'));
  writeFileSync(join(fleet, 'site', 'kustomization.yaml'), `resources:\n- ${url}//app?ref=main\nnamespace: site\n`);
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const requests = server.requests.length;
    const offline = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--cache-dir', join(work, 'cache')], process.cwd(), { PATH: process.env.PATH, HOME: work });
    assert.equal(offline.code, 1, offline.stderr);
    assert.equal(server.requests.length, requests, 'kustomize did not reach the server');
    assert.match(offline.stderr, /app site: not built: site reads remote resources, not fetched offline: http:\/\/\*\*\*@127\.0\.0\.1:\d+\/platform\/base\.git\/\/app\?ref=main/);
    assert.doesNotMatch(offline.stderr, /secret-pw/, 'credentials in a URL are not shown');
    assert.match(offline.stderr, /pass --fetch/);
    // kustomize runs git for a git URL: PATH from the test's environment.
    const online = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), { PATH: process.env.PATH, HOME: work });
    assert.equal(online.code, 0, online.stderr);
    assert.ok(server.requests.length > requests, 'kustomize fetched the base');
    assert.deepEqual([...leafFiles(out, 'site').entries()], [['01-configmap-site-from-remote-base.yaml', 'apiVersion: v1\ndata:\n  where: remote\nkind: ConfigMap\nmetadata:\n  name: from-remote-base\n  namespace: site\n']]);
  } finally {
    await server.close();
    removeTree(base);
    removeTree(fleet);
    removeTree(work);
  }
});

test('--fetch without --leaves is a usage error', async () => {
  const fleet = fleetRepo({ web: chartSource('http://127.0.0.1:9', '1.0.0') });
  try {
    const r = await cli(['render', '--repo', fleet, '--fetch']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--fetch needs --leaves/);
  } finally {
    removeTree(fleet);
  }
});

test('an offline kustomize cannot fetch a remote base even one fleetplan did not see; without offline it can', async () => {
  const server = await startGitHttpServer({ username: 'fleet', password: 'pw' });
  const base = writeTree({ 'app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: guarded\n' });
  const url = server.createRepo('base.git').replace('http://', 'http://fleet:pw@');
  const git = (...args: string[]) => run('git', ['-C', base, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args]);
  await git('init', '-q', '-b', 'main');
  await git('add', '.');
  await git('commit', '-qm', 'base');
  await git('push', '-q', url, 'main');
  const site = writeTree({ 'kustomization.yaml': `resources:\n- ${url}//app?ref=main\n` });
  const env = { PATH: process.env.PATH, HOME: site };
  try {
    const offline = await locateKustomize({ env, offline: true });
    const before = server.requests.length;
    await assert.rejects(offline.build(site, []), /accumulating resources/);
    // git never asked for the repository. (kustomize's plain HTTP GET of the URL does reach a
    // loopback server: Go sends no loopback request through a proxy; any other host gets the refusing proxy.)
    const gitRequests = server.requests.slice(before).filter((r) => /info\/refs|git-upload-pack/.test(r.path));
    assert.deepEqual(gitRequests, [], 'git was not allowed to reach the server');
    const online = await locateKustomize({ env });
    assert.match(await online.build(site, []), /name: guarded/);
  } finally {
    await server.close();
    removeTree(base);
    removeTree(site);
  }
});

test('a multi-source chart gets its $ref value files from this repository, as Argo CD resolves them; one from another repository is not guessed', async () => {
  const repo = await chartRepository();
  const multi = (ref: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: web
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
    namespace: web
  sources:
    - repoURL: ${repo.url}
      chart: web
      targetRevision: 1.2.0
      helm:
        valueFiles:
          - $values/values/$ARGOCD_APP_NAME.yaml
    - repoURL: ${ref}
      targetRevision: main
      ref: values
`;
  const fleet = writeTree({ 'apps/web.yaml': multi('https://github.com/acme/platform'), 'values/web.yaml': 'greeting: from-the-repository\n' });
  execFileSync('git', ['-C', fleet, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', fleet, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  const work = writeTree({});
  try {
    const out = join(work, 'out');
    const r = await cli(['render', '--repo', fleet, '--out', out, '--leaves', '--fetch', '--cache-dir', join(work, 'cache')]);
    assert.equal(r.code, 0, r.stderr);
    const expected = (await run(HELM, ['template', 'web', join(repo.dir, 'served', 'web-1.2.0.tgz'), '--namespace', 'web', '--include-crds', '--values', join(fleet, 'values', 'web.yaml')], { env: { PATH: process.env.PATH ?? '', HOME: work } })).stdout;
    // helm template's output plus the namespace the sync sets, the destination `web` (ADR 0420).
    assert.deepEqual([...leafFiles(out, 'web').values()], placeInNamespace(parseManifests(expected, 'helm template'), 'web').objects.map(serializeObject));
    assert.match(leafFiles(out, 'web').get('01-configmap-web-web-web.yaml') ?? '', /greeting: from-the-repository/);

    writeFileSync(join(fleet, 'apps', 'web.yaml'), multi('https://github.com/acme/other-values'));
    const other = await cli(['render', '--repo', fleet, '--out', join(work, 'out2'), '--leaves', '--fetch', '--cache-dir', join(work, 'cache')]);
    assert.match(other.stderr, /note: in-cluster\/web not rendered: value file \$values\/values\/\$ARGOCD_APP_NAME\.yaml is in another repository \(https:\/\/github\.com\/acme\/other-values\)/);
  } finally {
    await repo.close();
    removeTree(fleet);
    removeTree(work);
  }
});
