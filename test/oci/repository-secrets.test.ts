/**
 * Argo CD repository Secrets of the repository (ADR 0316) deciding how a chart source is pulled
 * under `render --leaves --fetch`, against the loopback registry with the real Helm: `enableOCI`
 * makes a repoURL Go cannot parse (IP:port) an OCI registry without an assumption; a Secret that
 * does not enable OCI for it is an error at repoURL (Argo CD cannot fetch it either); a repo-creds
 * template matched by the longest URL prefix gives its login, which is never printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { startOciRegistry } from '../support/oci-registry.js';
import type { OciRegistry } from '../support/oci-registry.js';
import { requireTools, toolEnv } from '../helpers/tools.js';

const run = promisify(execFile);

/** A registry holding `charts/web` 1.2.0 (a ConfigMap naming its version), pushed with `helm push`. */
async function registryWithChart(login?: { username: string; password: string }): Promise<{ registry: OciRegistry; work: string; close(): Promise<void> }> {
  const { helm } = requireTools();
  const registry = await startOciRegistry(login ?? {});
  const work = writeTree({});
  const env = { ...toolEnv(work), HELM_CONFIG_HOME: join(work, 'helm-config'), HELM_CACHE_HOME: join(work, 'helm-cache'), HELM_DATA_HOME: join(work, 'helm-data') };
  const registryConfig = join(work, 'push.json');
  if (login) {
    await new Promise<void>((resolve, reject) => {
      const child = execFile(helm, ['registry', 'login', registry.host, '--username', login.username, '--password-stdin', '--registry-config', registryConfig], { env }, (e) => (e ? reject(e) : resolve()));
      child.stdin!.end(login.password);
    });
  }
  const chart = join(work, 'src', 'web');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 1.2.0\n');
  writeFileSync(join(chart, 'templates', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-web\ndata:\n  version: {{ .Chart.Version | quote }}\n');
  await run(helm, ['package', chart, '--destination', work], { env });
  await run(helm, ['push', join(work, 'web-1.2.0.tgz'), `oci://${registry.host}/charts`, ...(login ? ['--registry-config', registryConfig] : [])], { env });
  return {
    registry,
    work,
    close: async () => {
      await registry.close();
      removeTree(work);
    },
  };
}

function repoSecret(name: string, type: 'repository' | 'repo-creds', data: Record<string, string>): string {
  return `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  namespace: argocd
  labels:
    argocd.argoproj.io/secret-type: ${type}
stringData:
${Object.entries(data).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`).join('')}`;
}

const chartSource = (repoURL: string) => `    repoURL: ${repoURL}\n    chart: web\n    targetRevision: 1.2.0\n`;

async function inRepo(files: Record<string, string>, body: (fleet: string, work: string) => Promise<void>): Promise<void> {
  const fleet = writeTree(files);
  await run('git', ['-C', fleet, 'init', '-q', '-b', 'main']);
  await run('git', ['-C', fleet, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  const work = writeTree({});
  try {
    await body(fleet, work);
  } finally {
    removeTree(fleet);
    removeTree(work);
  }
}

const render = (fleet: string, work: string) => cli(['render', '--repo', fleet, '--out', join(work, 'out'), '--leaves', '--fetch', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));

test('a repository Secret with enableOCI makes an IP:port repoURL (which Go cannot parse) an OCI registry: pulled as OCI, the Secret named, nothing assumed', async () => {
  const pushed = await registryWithChart();
  const url = `127.0.0.1:${pushed.registry.port}/charts`;
  try {
    await inRepo({
      'apps/web.yaml': argoApplication('web', chartSource(url)),
      'argocd/repo.yaml': repoSecret('charts', 'repository', { url, type: 'helm', enableOCI: 'true' }),
    }, async (fleet, work) => {
      const r = await render(fleet, work);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /note: cluster in-cluster, app web: repository 127\.0\.0\.1:\d+\/charts as configured by Secret charts \(argocd\/repo\.yaml:1\): enableOCI/);
      assert.doesNotMatch(r.stderr, /assumed/);
      assert.match(r.stderr, /fetched chart oci:\/\/127\.0\.0\.1:\d+\/charts\/web 1\.2\.0, digest sha256:/);
    });
  } finally {
    await pushed.close();
  }
});

test('a repository Secret for that URL without enableOCI makes Argo CD read it as a Helm HTTP repository, which cannot work: an error at spec.source.repoURL, nothing pulled', async () => {
  const pushed = await registryWithChart();
  const url = `127.0.0.1:${pushed.registry.port}/charts`;
  try {
    await inRepo({
      'apps/web.yaml': argoApplication('web', chartSource(url)),
      'argocd/repo.yaml': repoSecret('charts', 'repository', { url, type: 'helm' }),
    }, async (fleet, work) => {
      const before = pushed.registry.requests.length;
      const r = await render(fleet, work);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /error: apps\/web\.yaml:12:\d+ spec\.source\.repoURL: cluster in-cluster, app web: not built: Argo CD reads repoURL 127\.0\.0\.1:\d+\/charts as a Helm HTTP repository \(Secret charts \(argocd\/repo\.yaml:1\) does not set enableOCI: "true"\)/);
      assert.equal(pushed.registry.requests.length, before);
    });
  } finally {
    await pushed.close();
  }
});

test('a repo-creds template matched by the longest URL prefix gives the registry login (no --registry-config), and its password is never printed', async () => {
  const pushed = await registryWithChart({ username: 'fleet', password: 's3cret-pw' });
  const host = pushed.registry.host;
  try {
    await inRepo({
      'apps/web.yaml': argoApplication('web', chartSource(`${host}/charts`)),
      // The shorter prefix has a wrong password: the longer one must win, as in Argo CD.
      'argocd/creds-short.yaml': repoSecret('any-localhost', 'repo-creds', { url: 'localhost', username: 'fleet', password: 'wrong-pw' }),
      'argocd/creds.yaml': repoSecret('registry', 'repo-creds', { url: host, type: 'helm', enableOCI: 'true', username: 'fleet', password: 's3cret-pw' }),
    }, async (fleet, work) => {
      const r = await render(fleet, work);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /configured by Secret registry \(argocd\/creds\.yaml:1\) \(credential template\): enableOCI, a login/);
      assert.doesNotMatch(r.stdout + r.stderr, /s3cret-pw|wrong-pw/);
    });
  } finally {
    await pushed.close();
  }
});

test('a repository Secret whose credentials are in a SealedSecret says they are not readable and asks for --registry-config', async () => {
  const pushed = await registryWithChart({ username: 'fleet', password: 's3cret-pw' });
  const host = pushed.registry.host;
  try {
    await inRepo({
      'apps/web.yaml': argoApplication('web', chartSource(`${host}/charts`)),
      'argocd/sealed.yaml': `apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: registry
  namespace: argocd
spec:
  encryptedData:
    password: AgBy3i4OJSWK+PiTySYZZA==
    username: AgBy3i4OJSWK+PiTySYZZB==
  template:
    metadata:
      labels:
        argocd.argoproj.io/secret-type: repository
    data:
      url: ${host}/charts
      type: helm
`,
    }, async (fleet, work) => {
      const r = await render(fleet, work);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /the credentials of SealedSecret registry \(argocd\/sealed\.yaml:1\) are not readable \(username, password are encrypted or come from a secret store\): give the registry login with --registry-config FILE/);
      assert.match(r.stderr, /registry-unauthorized|not authorized/);
    });
  } finally {
    await pushed.close();
  }
});
