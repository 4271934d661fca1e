/**
 * The parts of ADR 0316/0317 as named tables: repository Secrets matched as Argo CD's util/db
 * matches them, OCI references and revisions as its oci client reads them, semver ranges resolved
 * as versions.MaxVersion resolves them, and layers unpacked without leaving their directory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { normalizeGitUrl, readRepositorySecrets, repositoryFor } from '../../src/model/argocd-repositories.js';
import type { LocatedObject } from '../../src/model/argocd-repositories.js';
import { parseOciRepoURL } from '../../src/model/helm-oci.js';
import { maxVersion, ociRevision } from '../../src/render/leaves/oci.js';
import { extractLayer } from '../../src/adapters/oci-artifact.js';
import { tarGzip } from '../support/oci-registry.js';

const secret = (name: string, type: string, data: Record<string, string>, line = 1): LocatedObject => ({
  file: 'argocd/secrets.yaml',
  line,
  value: { apiVersion: 'v1', kind: 'Secret', metadata: { name, labels: { 'argocd.argoproj.io/secret-type': type } }, stringData: data },
});

test('normalizeGitUrl follows git.NormalizeGitURL: lower case, scp-style SSH, no .git, empty when Go cannot parse it', () => {
  const cases: [string, string][] = [
    ['https://GitHub.com/Acme/Repo.git', 'https://github.com/acme/repo'],
    ['git@github.com:acme/repo.git', 'git@github.com/acme/repo'],
    ['localhost:5000/charts', 'localhost:5000/charts'],
    ['127.0.0.1:5000/charts', ''],
    ['oci://ghcr.io/acme', 'oci://ghcr.io/acme'],
  ];
  for (const [input, want] of cases) assert.equal(normalizeGitUrl(input), want, input);
});

test('repositoryFor: the project\'s own repository Secret before a project-less one; credentials from the longest repo-creds prefix only when the repository has none, with its OCI flags', () => {
  const secrets = readRepositorySecrets([
    secret('shared', 'repository', { url: 'ghcr.io/acme/charts', enableOCI: 'true' }, 1),
    secret('team', 'repository', { url: 'ghcr.io/acme/charts', project: 'team', insecure: 'true' }, 10),
    secret('short', 'repo-creds', { url: 'ghcr.io', username: 'a', password: 'short' }, 20),
    secret('long', 'repo-creds', { url: 'ghcr.io/acme', username: 'a', password: 'long', enableOCI: 'true', insecureOCIForceHttp: 'true' }, 30),
    secret('own-login', 'repository', { url: 'ghcr.io/acme/private', username: 'me', password: 'mine' }, 40),
  ]);
  const shared = repositoryFor(secrets, 'ghcr.io/acme/charts', 'default')!;
  assert.equal(shared.secret?.name, 'shared');
  assert.equal(shared.template?.name, 'long', 'no credentials of its own: the longest prefix');
  assert.deepEqual(shared.credentials, { state: 'plain', username: 'a', password: 'long' });
  assert.equal(shared.insecureOCIForceHttp, true, 'the template\'s OCI flags replace the repository\'s');
  const team = repositoryFor(secrets, 'ghcr.io/acme/charts', 'team')!;
  assert.equal(team.secret?.name, 'team');
  assert.equal(team.insecure, true);
  const own = repositoryFor(secrets, 'ghcr.io/acme/private', 'default')!;
  assert.equal(own.template, undefined, 'a repository with credentials takes no template');
  assert.equal(own.enableOCI, false);
  assert.equal(repositoryFor(secrets, 'quay.io/x', 'default'), undefined);
  // 127.0.0.1:… does not parse in Go: no template prefix matches it, as in Argo CD.
  const ip = readRepositorySecrets([secret('ip', 'repo-creds', { url: '127.0.0.1:5000', enableOCI: 'true' })]);
  assert.equal(repositoryFor(ip, '127.0.0.1:5000/charts', 'default'), undefined);
});

test('readRepositorySecrets: data is base64, stringData wins; SealedSecret and ExternalSecret values are unreadable; a bool that Go rejects is a problem', () => {
  const [plain, sealed, external] = readRepositorySecrets([
    { file: 'a.yaml', line: 1, value: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'p', labels: { 'argocd.argoproj.io/secret-type': 'repository' } }, data: { url: Buffer.from('ghcr.io/x').toString('base64'), enableOCI: Buffer.from('false').toString('base64') }, stringData: { enableOCI: 'True', insecure: 'yes' } } },
    { file: 'b.yaml', line: 1, value: { apiVersion: 'bitnami.com/v1alpha1', kind: 'SealedSecret', metadata: { name: 's' }, spec: { encryptedData: { password: 'AgB', url: 'AgC' }, template: { metadata: { labels: { 'argocd.argoproj.io/secret-type': 'repo-creds' } } } } } },
    { file: 'c.yaml', line: 1, value: { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', metadata: { name: 'e' }, spec: { target: { template: { metadata: { labels: { 'argocd.argoproj.io/secret-type': 'repository' } }, data: { url: 'ghcr.io/y', type: 'helm', enableOCI: 'true', password: '{{ .token }}' } } } } } },
  ]);
  assert.equal(plain!.url, 'ghcr.io/x');
  assert.equal(plain!.enableOCI, true);
  assert.deepEqual(plain!.problems, ['insecure: "yes" is not a boolean (Argo CD fails to read the Secret)']);
  assert.equal(sealed!.url, undefined);
  assert.deepEqual(sealed!.credentials, { state: 'unreadable', fields: ['password'] });
  assert.equal(external!.enableOCI, true);
  assert.deepEqual(external!.credentials, { state: 'unreadable', fields: ['password'] });
  const r = repositoryFor([sealed!], 'ghcr.io/z', 'default')!;
  assert.match(r.uncertain[0]!, /SealedSecret s \(b\.yaml:1\) has no readable url/);
});

test('parseOciRepoURL and ociRevision read references and revisions as Argo CD 3.1 does', () => {
  assert.deepEqual(parseOciRepoURL('oci://registry.example.com:5000/team/app'), { registry: 'registry.example.com:5000', repository: 'team/app' });
  for (const [url, why] of [
    ['oci://ghcr.io', /names no repository/],
    ['oci://ghcr.io/Acme/app', /not a valid OCI repository name/],
    ['oci://ghcr.io/acme/app:1.0', /a tag belongs in targetRevision/],
    ['oci://ghcr.io/acme/app@sha256:00', /a digest belongs in targetRevision/],
    ['oci://bad_host/app', /not a host name/],
  ] as const) {
    const r = parseOciRepoURL(url);
    assert.ok(typeof r === 'string' && why.test(r), `${url}: ${String(r)}`);
  }
  const d = `sha256:${'a'.repeat(64)}`;
  assert.deepEqual(ociRevision(d), { kind: 'digest', digest: d });
  assert.deepEqual(ociRevision('1.2.3'), { kind: 'tag', tag: '1.2.3' });
  assert.deepEqual(ociRevision('latest'), { kind: 'tag', tag: 'latest' });
  assert.deepEqual(ociRevision('^1.2'), { kind: 'range', range: '^1.2' });
  assert.deepEqual(ociRevision('>=1.0.0 <2.0.0'), { kind: 'range', range: '>=1.0.0 <2.0.0' });
  for (const bad of ['', 'HEAD', 'sha256:abc', 'not a tag!']) assert.equal(typeof ociRevision(bad), 'string', bad);
});

test('maxVersion picks the highest tag that is a version in the range, ignoring tags that are not versions and pre-releases the range does not name', () => {
  const tags = ['1.0.0', '1.4.0', '1.5.0-rc.1', '2.0.0', 'latest', 'v1.3.0'];
  assert.equal(maxVersion('^1.0.0', tags), '1.4.0');
  assert.equal(maxVersion('~1.3', tags), 'v1.3.0');
  assert.equal(maxVersion('>=3', tags), undefined);
});

test('extractLayer unpacks files and directories, unwraps a Helm chart\'s folder, and refuses entries and symlinks that leave the directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-layer-'));
  try {
    extractLayer('x', tarGzip({ 'a/b.yaml': 'kind: A\n' }), 'application/vnd.oci.image.layer.v1.tar+gzip', join(dir, 'plain'), false, 1 << 20);
    assert.equal(readFileSync(join(dir, 'plain', 'a', 'b.yaml'), 'utf8'), 'kind: A\n');
    extractLayer('x', tarGzip({ 'web/Chart.yaml': 'name: web\n' }), 'application/vnd.cncf.helm.chart.content.v1.tar+gzip', join(dir, 'chart'), true, 1 << 20);
    assert.equal(readFileSync(join(dir, 'chart', 'Chart.yaml'), 'utf8'), 'name: web\n');
    const entry = (name: string, type: string, link = '') => {
      const h = Buffer.alloc(512);
      h.write(name, 0);
      h.write('0000644\0', 100);
      h.write('00000000000\0', 124);
      h.write(type, 156);
      h.write(link, 157);
      h.write('ustar\0', 257);
      return h;
    };
    const tar = (h: Buffer) => gzipSync(Buffer.concat([h, Buffer.alloc(1024)]));
    assert.throws(() => extractLayer('x', tar(entry('../evil.yaml', '0')), 'application/vnd.oci.image.layer.v1.tar+gzip', join(dir, 'e1'), false, 1 << 20), /outside the artifact/);
    assert.throws(() => extractLayer('x', tar(entry('link', '2', '../../etc/passwd')), 'application/vnd.oci.image.layer.v1.tar+gzip', join(dir, 'e2'), false, 1 << 20), /out-of-bounds symlinks/);
    extractLayer('x', tar(entry('inside', '2', 'a/b.yaml')), 'application/vnd.oci.image.layer.v1.tar+gzip', join(dir, 'e3'), false, 1 << 20);
    assert.equal(readlinkSync(join(dir, 'e3', 'inside')), 'a/b.yaml');
    assert.throws(() => extractLayer('x', tarGzip({ 'big.yaml': 'x'.repeat(2048) }), 'application/vnd.oci.image.layer.v1.tar+gzip', join(dir, 'e4'), false, 1024), /more than 1024 bytes/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
