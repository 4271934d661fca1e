/**
 * Argo CD 3.1 native OCI sources (ADR 0317) under `render --leaves`, against the loopback
 * registry of test/support/oci-registry.ts serving non-chart artifacts (one tar+gzip layer, as
 * `oras push` writes): built at `path` as a git source would be (plain manifests, kustomize),
 * plain HTTP only where a repository Secret says `insecureOCIForceHttp`, a digest that the
 * registry's bytes do not match failing at `targetRevision`, and nothing fetched offline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { startOciRegistry, tarGzip } from '../support/oci-registry.js';
import type { OciRegistry } from '../support/oci-registry.js';
import { requireTools, toolEnv } from '../helpers/tools.js';
import { parseManifests, placeInNamespace, serializeObject } from '../../src/render/leaves/manifests.js';

const run = promisify(execFile);

const CM = (name: string, value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  value: "${value}"\n`;

function application(name: string, source: Record<string, string>): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
    namespace: ${name}
  source:
${Object.entries(source).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`).join('')}`;
}

/** A repository Secret (or credential template) as Argo CD's declarative setup writes one. */
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

async function gitInit(dir: string): Promise<void> {
  await run('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  await run('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
}

function leafFiles(out: string, cluster: string, app: string): Map<string, string> {
  const dir = join(out, cluster, 'manifests', app);
  return new Map(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

async function withRepo(registry: OciRegistry, files: Record<string, string>, body: (fleet: string, work: string) => Promise<void>): Promise<void> {
  const fleet = writeTree(files);
  await gitInit(fleet);
  const work = writeTree({});
  try {
    await body(fleet, work);
  } finally {
    await registry.close();
    removeTree(fleet);
    removeTree(work);
  }
}

const render = (fleet: string, work: string, extra: string[] = []) =>
  cli(['render', '--repo', fleet, '--out', join(work, 'out'), '--leaves', '--cache-dir', join(work, 'cache'), ...extra], process.cwd(), toolEnv(work));

const plainHttp = (host: string) => repoSecret('registry', 'repo-creds', { url: `oci://${host}`, type: 'oci', insecureOCIForceHttp: 'true' });

test('a native oci:// source of plain manifests is pulled with --fetch and its path built as a directory source, with the digest said; the second run reads the digest from the fetch cache', async () => {
  const registry = await startOciRegistry();
  const digest = registry.putArtifact('team/guestbook', '1.0.0', { files: { 'manifests/a.yaml': CM('alpha', '1'), 'manifests/b.yml': CM('beta', '2'), 'manifests/notes.txt': 'not a manifest', 'other/c.yaml': CM('gamma', '3') } });
  await withRepo(registry, {
    'apps/guestbook.yaml': application('guestbook', { repoURL: `oci://${registry.host}/team/guestbook`, targetRevision: '1.0.0', path: 'manifests' }),
    'argocd/registry.yaml': plainHttp(registry.host),
  }, async (fleet, work) => {
    const r = await render(fleet, work, ['--fetch']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stderr.includes(`note: cluster in-cluster, app guestbook: fetched OCI artifact oci://${registry.host}/team/guestbook tag 1.0.0, digest ${digest}`), r.stderr);
    // The files plus the namespace the sync sets, the destination `guestbook` (ADR 0420).
    assert.deepEqual([...leafFiles(join(work, 'out'), 'in-cluster', 'guestbook').values()], placeInNamespace(parseManifests(CM('alpha', '1') + '---\n' + CM('beta', '2'), 'expected'), 'guestbook').objects.map(serializeObject));

    // Pinned to the digest it resolved to, the next run needs no network.
    const pinned = writeTree({ 'apps/guestbook.yaml': application('guestbook', { repoURL: `oci://${registry.host}/team/guestbook`, targetRevision: digest, path: 'manifests' }) });
    await gitInit(pinned);
    try {
      const before = registry.requests.length;
      const again = await cli(['render', '--repo', pinned, '--out', join(work, 'out2'), '--leaves', '--cache-dir', join(work, 'cache')], process.cwd(), toolEnv(work));
      assert.equal(again.code, 0, again.stderr);
      assert.equal(registry.requests.length, before, 'nothing asked of the registry');
      assert.ok(again.stderr.includes(`from the fetch cache: OCI artifact oci://${registry.host}/team/guestbook digest ${digest}`), again.stderr);
    } finally {
      removeTree(pinned);
    }
  });
});

test('a native oci:// source holding a kustomization is built with kustomize, as kustomize builds the same files', async () => {
  const { kubectl } = requireTools();
  const files = {
    'deploy/kustomization.yaml': 'namePrefix: prod-\ncommonLabels:\n  tier: web\nresources:\n  - cm.yaml\n',
    'deploy/cm.yaml': CM('settings', 'x'),
  };
  const registry = await startOciRegistry();
  registry.putArtifact('team/web', 'v2', { files });
  await withRepo(registry, {
    'apps/web.yaml': application('web', { repoURL: `oci://${registry.host}/team/web`, targetRevision: 'v2', path: 'deploy' }),
    'argocd/registry.yaml': plainHttp(registry.host),
  }, async (fleet, work) => {
    const r = await render(fleet, work, ['--fetch']);
    assert.equal(r.code, 0, r.stderr);
    const local = writeTree(files);
    try {
      const expected = (await run(kubectl, ['kustomize', join(local, 'deploy')], { env: toolEnv(work) })).stdout;
      // kustomize's output plus the namespace the sync sets, the destination `web` (ADR 0420).
      assert.deepEqual([...leafFiles(join(work, 'out'), 'in-cluster', 'web').values()], placeInNamespace(parseManifests(expected, 'kustomize'), 'web').objects.map(serializeObject));
      assert.match([...leafFiles(join(work, 'out'), 'in-cluster', 'web').values()].join(''), /name: prod-settings/);
    } finally {
      removeTree(local);
    }
  });
});

test('a semver range is resolved against the registry tags (the highest match), and the tag chosen is said', async () => {
  const registry = await startOciRegistry();
  for (const v of ['1.0.0', '1.4.0', '2.0.0']) registry.putArtifact('team/app', v, { files: { 'cm.yaml': CM('app', v) } });
  await withRepo(registry, {
    'apps/app.yaml': application('app', { repoURL: `oci://${registry.host}/team/app`, targetRevision: '^1.0.0', path: '.' }),
    'argocd/registry.yaml': plainHttp(registry.host),
  }, async (fleet, work) => {
    const r = await render(fleet, work, ['--fetch']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /fetched OCI artifact oci:\/\/localhost:\d+\/team\/app tag 1\.4\.0 \(resolved from \^1\.0\.0\), digest sha256:/);
    assert.ok(registry.requests.some((q) => q.path.startsWith('/v2/team/app/tags/list')));
    assert.match([...leafFiles(join(work, 'out'), 'in-cluster', 'app').values()].join(''), /value: 1\.4\.0/);
  });
});

test('plain HTTP only where a repository Secret says insecureOCIForceHttp: without it the pull is HTTPS (as Argo CD does) and fails at spec.source.repoURL, naming the setting', async () => {
  const registry = await startOciRegistry();
  registry.putArtifact('team/guestbook', '1.0.0', { files: { 'cm.yaml': CM('alpha', '1') } });
  await withRepo(registry, {
    'apps/guestbook.yaml': application('guestbook', { repoURL: `oci://${registry.host}/team/guestbook`, targetRevision: '1.0.0', path: '.' }),
  }, async (fleet, work) => {
    const r = await render(fleet, work, ['--fetch']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /error: apps\/guestbook\.yaml:12:\d+ spec\.source\.repoURL: cluster in-cluster, app guestbook: oci:\/\/localhost:\d+\/team\/guestbook: could not reach localhost:\d+ over HTTPS/);
    assert.match(r.stderr, /insecureOCIForceHttp/);
    assert.ok(!registry.requests.some((q) => q.status === 200 && q.path.includes('/manifests/')), 'no manifest was served');
  });
});

test('a digest in targetRevision that the registry\'s manifest does not match fails at spec.source.targetRevision, and nothing is written', async () => {
  const registry = await startOciRegistry();
  const digest = registry.putArtifact('team/guestbook', '1.0.0', { files: { 'cm.yaml': CM('alpha', '1') } });
  registry.tamperManifest('team/guestbook', digest, Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: {}, layers: [] })));
  await withRepo(registry, {
    'apps/guestbook.yaml': application('guestbook', { repoURL: `oci://${registry.host}/team/guestbook`, targetRevision: digest, path: '.' }),
    'argocd/registry.yaml': plainHttp(registry.host),
  }, async (fleet, work) => {
    const r = await render(fleet, work, ['--fetch']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /error: apps\/guestbook\.yaml:13:\d+ spec\.source\.targetRevision: cluster in-cluster, app guestbook: oci:\/\/localhost:\d+\/team\/guestbook: the registry sent a manifest for sha256:[0-9a-f]{64} whose sha256 is sha256:[0-9a-f]{64}/);
    assert.throws(() => readdirSync(join(work, 'out', 'in-cluster', 'manifests', 'guestbook')));
  });
});

test('without --fetch a native OCI source is not fetched: an error at spec.source.repoURL says it is not available offline and names --fetch', async () => {
  const registry = await startOciRegistry();
  registry.putArtifact('team/guestbook', '1.0.0', { files: { 'cm.yaml': CM('alpha', '1') } });
  await withRepo(registry, {
    'apps/guestbook.yaml': application('guestbook', { repoURL: `oci://${registry.host}/team/guestbook`, targetRevision: '1.0.0', path: '.' }),
    'argocd/registry.yaml': plainHttp(registry.host),
  }, async (fleet, work) => {
    const r = await render(fleet, work);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(registry.requests.length, 0, 'nothing asked of the registry');
    assert.match(r.stderr, /error: apps\/guestbook\.yaml:12:\d+ spec\.source\.repoURL: cluster in-cluster, app guestbook: not built: the OCI artifact oci:\/\/localhost:\d+\/team\/guestbook 1\.0\.0 is not available offline/);
    assert.match(r.stderr, /pass --fetch/);
  });
});

test('a chart beside an oci:// repoURL is ignored as Argo CD 3 ignores it (the repoURL itself is the artifact), and the note says how to write it', async () => {
  const registry = await startOciRegistry();
  registry.putArtifact('charts', '1.0.0', { files: { 'cm.yaml': CM('whole-repo', '1') } });
  await withRepo(registry, {
    'apps/web.yaml': application('web', { repoURL: `oci://${registry.host}/charts`, chart: 'web', targetRevision: '1.0.0' }),
    'argocd/registry.yaml': plainHttp(registry.host),
  }, async (fleet, work) => {
    const r = await render(fleet, work, ['--fetch']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /chart web is ignored: Argo CD \(3\.x\) pulls an oci:\/\/ repoURL itself as the artifact \(write repoURL: oci:\/\/localhost:\d+\/charts\/web and path: \. for the chart\)/);
    assert.match([...leafFiles(join(work, 'out'), 'in-cluster', 'web').values()].join(''), /name: whole-repo/);
  });
});

test('an artifact Argo CD would refuse is refused the same way: two content layers, a layer media type it does not accept, an image index', async () => {
  const registry = await startOciRegistry();
  const layer = (f: Record<string, string>) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', bytes: tarGzip(f) });
  registry.putArtifact('team/two', '1', { layers: [layer({ 'a.yaml': CM('a', '1') }), layer({ 'b.yaml': CM('b', '2') })] });
  registry.putArtifact('team/zstd', '1', { files: { 'cm.yaml': CM('a', '1') }, mediaType: 'application/vnd.example.manifests.tar+gzip' });
  registry.putArtifact('team/index', '1', { manifestMediaType: 'application/vnd.oci.image.index.v1+json' });
  await withRepo(registry, {
    'apps/two.yaml': application('two', { repoURL: `oci://${registry.host}/team/two`, targetRevision: '1', path: '.' }),
    'apps/zstd.yaml': application('zstd', { repoURL: `oci://${registry.host}/team/zstd`, targetRevision: '1', path: '.' }),
    'apps/index.yaml': application('index', { repoURL: `oci://${registry.host}/team/index`, targetRevision: '1', path: '.' }),
    'argocd/registry.yaml': plainHttp(registry.host),
  }, async (fleet, work) => {
    const r = await render(fleet, work, ['--fetch']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /app two: oci:\/\/localhost:\d+\/team\/two: expected only a single oci content layer, got 2/);
    assert.match(r.stderr, /app zstd: oci:\/\/localhost:\d+\/team\/zstd: oci layer media type application\/vnd\.example\.manifests\.tar\+gzip is not in the list of allowed media types/);
    assert.match(r.stderr, /app index: oci:\/\/localhost:\d+\/team\/index: the revision is an image index/);
  });
});

test('a Helm chart pushed with helm push, named as repoURL oci://…/charts/web with path ".", is unwrapped and rendered as helm template renders the chart (valuesObject and releaseName applied)', async () => {
  const { helm } = requireTools();
  const registry = await startOciRegistry();
  const src = writeTree({
    'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.3.0\n',
    'web/values.yaml': 'greeting: hello\n',
    'web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-web\ndata:\n  greeting: {{ .Values.greeting | quote }}\n',
  });
  const env = { ...toolEnv(src), HELM_CONFIG_HOME: join(src, 'hc'), HELM_CACHE_HOME: join(src, 'hca'), HELM_DATA_HOME: join(src, 'hd') };
  await run(helm, ['package', join(src, 'web'), '--destination', src], { env });
  await run(helm, ['push', join(src, 'web-0.3.0.tgz'), `oci://${registry.host}/charts`], { env });
  const expected = (await run(helm, ['template', 'site', join(src, 'web'), '--namespace', 'web', '--set', 'greeting=hi'], { env })).stdout;
  try {
    await withRepo(registry, {
      'apps/web.yaml': `${application('web', { repoURL: `oci://${registry.host}/charts/web`, targetRevision: '0.3.0', path: '.' })}    helm:\n      releaseName: site\n      valuesObject:\n        greeting: hi\n`,
      'argocd/registry.yaml': plainHttp(registry.host),
    }, async (fleet, work) => {
      const r = await render(fleet, work, ['--fetch']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /fetched OCI artifact oci:\/\/localhost:\d+\/charts\/web tag 0\.3\.0, digest sha256:[0-9a-f]{64} \(a Helm chart\)/);
      // helm template's output plus the namespace the sync sets, the destination `web` (ADR 0420).
      assert.deepEqual([...leafFiles(join(work, 'out'), 'in-cluster', 'web').values()], placeInNamespace(parseManifests(expected, 'helm template'), 'web').objects.map(serializeObject));
    });
  } finally {
    removeTree(src);
  }
});

test('a registry that asks for a token gets one for the login of a repo-creds template of type oci (matched by prefix); a wrong password is refused at spec.source.repoURL, and neither password is printed', async () => {
  const registry = await startOciRegistry({ username: 'fleet', password: 'tok3n-pw', bearer: true });
  registry.putArtifact('team/guestbook', '1.0.0', { files: { 'cm.yaml': CM('alpha', '1') } });
  const files = (password: string) => ({
    'apps/guestbook.yaml': application('guestbook', { repoURL: `oci://${registry.host}/team/guestbook`, targetRevision: '1.0.0', path: '.' }),
    'argocd/registry.yaml': repoSecret('registry', 'repo-creds', { url: `oci://${registry.host}/team`, type: 'oci', insecureOCIForceHttp: 'true', username: 'fleet', password }),
  });
  const wrong = writeTree(files('wr0ng-pw'));
  await gitInit(wrong);
  try {
    await withRepo(registry, files('tok3n-pw'), async (fleet, work) => {
      const r = await render(fleet, work, ['--fetch']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(registry.requests.some((q) => q.path.startsWith('/token') && q.status === 200), 'a token was asked for');
      assert.match([...leafFiles(join(work, 'out'), 'in-cluster', 'guestbook').values()].join(''), /name: alpha/);
      const refused = await cli(['render', '--repo', wrong, '--out', join(work, 'out2'), '--leaves', '--fetch', '--cache-dir', join(work, 'cache2')], process.cwd(), toolEnv(work));
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /error: apps\/guestbook\.yaml:12:\d+ spec\.source\.repoURL: cluster in-cluster, app guestbook: oci:\/\/localhost:\d+\/team\/guestbook: the registry refused a pull token \(not authorized\)/);
      assert.doesNotMatch(r.stdout + r.stderr + refused.stdout + refused.stderr, /tok3n-pw|wr0ng-pw/);
    });
  } finally {
    removeTree(wrong);
  }
});

test('a multi-source Application: a chart artifact with $values value files from this repository renders with them (the ref resolved before substitution, as Argo CD does)', async () => {
  const { helm } = requireTools();
  const registry = await startOciRegistry();
  const src = writeTree({
    'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.3.0\n',
    'web/values.yaml': 'greeting: hello\n',
    'web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-web\ndata:\n  greeting: {{ .Values.greeting | quote }}\n',
  });
  const env = { ...toolEnv(src), HELM_CONFIG_HOME: join(src, 'hc'), HELM_CACHE_HOME: join(src, 'hca'), HELM_DATA_HOME: join(src, 'hd') };
  await run(helm, ['package', join(src, 'web'), '--destination', src], { env });
  await run(helm, ['push', join(src, 'web-0.3.0.tgz'), `oci://${registry.host}/charts`], { env });
  try {
    await withRepo(registry, {
      'apps/web.yaml': `apiVersion: argoproj.io/v1alpha1
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
    - repoURL: oci://${registry.host}/charts/web
      chart: web
      targetRevision: 0.3.0
      helm:
        valueFiles:
          - $values/values/web.yaml
    - repoURL: https://github.com/acme/platform.git
      targetRevision: main
      ref: values
`,
      'values/web.yaml': 'greeting: from-the-repository\n',
      'argocd/registry.yaml': plainHttp(registry.host),
    }, async (fleet, work) => {
      const r = await render(fleet, work, ['--fetch']);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /chart web is ignored/, 'a repoURL that ends with the chart is that chart: nothing to say');
      assert.match([...leafFiles(join(work, 'out'), 'in-cluster', 'web').values()].join(''), /greeting: from-the-repository/);
    });
  } finally {
    removeTree(src);
  }
});
