/**
 * The parts of OCI fetching that the end-to-end tests (oci.test.ts) do not reach: which Argo CD
 * repoURLs are OCI registries (Go's url.Parse rules, ADR 0301), the `helm pull` arguments for a
 * plain-HTTP (Flux `insecure: true`) or digest-pinned source, and the parts of the distribution
 * protocol that Helm's client does not use against the test registry (chunked uploads, pagination,
 * refusals).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHelmOciRepo } from '../../src/model/helm-oci.js';
import { createChartFetcher } from '../../src/adapters/chart-fetch.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { startOciRegistry } from '../support/oci-registry.js';

test('isHelmOciRepo follows Argo CD: a URL Go parses without a host is OCI; a scheme, or a colon in the first segment without one, is not', () => {
  const cases: [string, boolean][] = [
    ['ghcr.io/acme/charts', true],
    ['registry-1.docker.io/bitnamicharts', true],
    ['registry.example.com:5000/charts', true],
    ['localhost:5000/charts', true],
    // Go: "first path segment in URL cannot contain colon" — Argo CD needs enableOCI for it.
    ['127.0.0.1:5000/charts', false],
    ['https://charts.example.com', false],
    ['oci://ghcr.io/acme/charts', false],
    ['', false],
  ];
  assert.deepEqual(cases.map(([url]) => [url, isHelmOciRepo(url)]), cases);
});

/** A helm stand-in that records its arguments and writes an archive where `helm pull` would. */
function fakeHelm(dir: string, digest: string): { binary: string; calls: () => string[][] } {
  const log = join(dir, 'calls.log');
  const binary = join(dir, 'helm');
  writeFileSync(
    binary,
    `#!/bin/sh
printf '%s\\n' "$*" >> '${log}'
if [ "$1" = pull ]; then
  while [ $# -gt 0 ]; do if [ "$1" = --destination ]; then dest="$2"; fi; shift; done
  printf 'chart' > "$dest/web-1.2.0.tgz"
  echo "Pulled: example"; echo "Digest: ${digest}"
  exit 0
fi
if [ "$1" = show ]; then echo 'apiVersion: v2'; echo 'name: web'; echo 'version: 1.2.0'; fi
`,
  );
  chmodSync(binary, 0o755);
  return { binary, calls: () => readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ')) };
}

test('helm pull gets --plain-http only for a source that says insecure, and a digest-pinned chart is pulled by its digest and found again by it', async () => {
  const dir = writeTree({});
  const digest = `sha256:${'a'.repeat(64)}`;
  const helm = fakeHelm(dir, digest);
  const fetcher = createChartFetcher({ cacheDir: join(dir, 'cache'), helm: () => Promise.resolve({ binary: helm.binary, version: '3.18.0', template: () => Promise.reject(new Error('unused')) }), env: { PATH: process.env.PATH } });
  try {
    await fetcher.pull({ chart: 'oci://registry.example.com/charts/web', version: '1.2.0', plainHttp: true });
    await fetcher.pull({ chart: 'oci://registry.example.com/charts/other', version: '1.2.0' });
    const pinned = await fetcher.pull({ chart: 'oci://registry.example.com/charts/pinned', digest });
    const pulls = helm.calls().filter((c) => c[0] === 'pull');
    assert.deepEqual(pulls.map((c) => [c[1], c.includes('--plain-http'), c.includes('--version')]), [
      ['oci://registry.example.com/charts/web', true, true],
      ['oci://registry.example.com/charts/other', false, true],
      [`oci://registry.example.com/charts/pinned@${digest}`, false, false],
    ]);
    assert.equal(pinned.digest, digest);
    const again = fetcher.cached({ chart: 'oci://registry.example.com/charts/pinned', digest });
    assert.deepEqual(again && [again.version, again.digest, again.pulled], ['1.2.0', digest, false]);
    assert.equal(fetcher.cached({ chart: 'oci://registry.example.com/charts/pinned', digest: `sha256:${'b'.repeat(64)}` }), undefined, 'another digest is not the cached chart');
    // The registry answered with another digest than the pinned one: refused, named.
    await assert.rejects(fetcher.pull({ chart: 'oci://registry.example.com/charts/moved', digest: `sha256:${'c'.repeat(64)}` }), /manifest digest is sha256:a{64}, not the pinned sha256:c{64}/);
  } finally {
    fetcher.close();
    removeTree(dir);
  }
});

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

test('the test registry takes chunked uploads in order, refuses a chunk out of order, a wrong digest and a manifest naming an unknown blob, pages tags, and asks for a login', async () => {
  const reg = await startOciRegistry();
  const base = `http://127.0.0.1:${reg.port}`;
  try {
    const blob = Buffer.from('0123456789');
    const start = await fetch(`${base}/v2/charts/web/blobs/uploads/`, { method: 'POST' });
    assert.equal(start.status, 202);
    const at = start.headers.get('location')!;
    const first = await fetch(base + at, { method: 'PATCH', body: blob.subarray(0, 5), headers: { 'Content-Range': '0-4', 'Content-Type': 'application/octet-stream' } });
    assert.deepEqual([first.status, first.headers.get('range')], [202, '0-4']);
    const wrong = await fetch(base + at, { method: 'PATCH', body: blob.subarray(5), headers: { 'Content-Range': '0-4' } });
    assert.equal(wrong.status, 416);
    await fetch(base + at, { method: 'PATCH', body: blob.subarray(5), headers: { 'Content-Range': '5-9' } });
    const bad = await fetch(`${base}/v2/charts/web/blobs/uploads/`, { method: 'POST' });
    const badDone = await fetch(`${base}${bad.headers.get('location')!}?digest=${sha(Buffer.from('other'))}`, { method: 'PUT', body: blob });
    assert.equal(badDone.status, 400);
    const done = await fetch(`${base}${at}?digest=${encodeURIComponent(sha(blob))}`, { method: 'PUT' });
    assert.deepEqual([done.status, done.headers.get('docker-content-digest')], [201, sha(blob)]);
    const head = await fetch(`${base}/v2/charts/web/blobs/${sha(blob)}`, { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers.get('content-length')], [200, '10']);

    const config = Buffer.from('{}');
    await fetch(`${base}/v2/charts/web/blobs/uploads/?digest=${sha(config)}`, { method: 'POST', body: config });
    const manifest = (layer: string) => Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: { mediaType: 'application/vnd.cncf.helm.config.v1+json', digest: sha(config), size: 2 }, layers: [{ mediaType: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip', digest: layer, size: 10 }] }));
    const unknown = await fetch(`${base}/v2/charts/web/manifests/0.1.0`, { method: 'PUT', body: manifest(sha(Buffer.from('nope'))), headers: { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' } });
    assert.equal(unknown.status, 400);
    for (const tag of ['1.0.0', '1.1.0', '2.0.0']) {
      const put = await fetch(`${base}/v2/charts/web/manifests/${tag}`, { method: 'PUT', body: manifest(sha(blob)), headers: { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' } });
      assert.equal(put.status, 201);
    }
    const page = await fetch(`${base}/v2/charts/web/tags/list?n=2`);
    assert.deepEqual(await page.json(), { name: 'charts/web', tags: ['1.0.0', '1.1.0'] });
    assert.match(page.headers.get('link') ?? '', /last=1\.1\.0>; rel="next"/);
    const rest = await fetch(`${base}/v2/charts/web/tags/list?n=2&last=1.1.0`);
    assert.deepEqual(await rest.json(), { name: 'charts/web', tags: ['2.0.0'] });
    const got = await fetch(`${base}/v2/charts/web/manifests/2.0.0`);
    assert.equal(got.headers.get('docker-content-digest'), sha(Buffer.from(await got.arrayBuffer())));
  } finally {
    await reg.close();
  }
  const locked = await startOciRegistry({ username: 'u', password: 'p' });
  try {
    const r = await fetch(`http://127.0.0.1:${locked.port}/v2/`);
    assert.deepEqual([r.status, r.headers.get('www-authenticate')], [401, 'Basic realm="fleetplan-test-registry"']);
    const ok = await fetch(`http://127.0.0.1:${locked.port}/v2/`, { headers: { Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` } });
    assert.equal(ok.status, 200);
  } finally {
    await locked.close();
  }
});
