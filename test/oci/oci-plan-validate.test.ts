/**
 * `plan` and `validate` on Argo CD 3.1 native OCI sources and repository Secrets (ADR 0316,
 * 0317): the plan lists the source as written and says its content is not read offline (and the
 * fleet's identity is not taken from it); validate names a malformed reference at its line, a
 * chart that Argo CD ignores beside an oci:// repoURL, and a repository Secret Argo CD cannot read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

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

function repo(files: Record<string, string>): string {
  const dir = writeTree(files);
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

test('plan lists an oci:// source exactly as written, notes that its content is not read offline, and keeps the fleet identity from the git origin', async () => {
  const dir = repo({
    'apps/guestbook.yaml': application('guestbook', { repoURL: 'oci://ghcr.io/acme/guestbook', targetRevision: '1.0.0', path: '.' }),
    'apps/local.yaml': application('local', { repoURL: 'https://github.com/acme/platform.git', targetRevision: 'main', path: 'local' }),
    'local/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout) as { clusters: { revision: string; notes: string[]; apps: { name: string; source: Record<string, string> }[] }[] };
    const c = plan.clusters[0]!;
    assert.deepEqual(c.apps.find((a) => a.name === 'guestbook')!.source, { path: '.', repoURL: 'oci://ghcr.io/acme/guestbook', targetRevision: '1.0.0' });
    assert.equal(c.revision, 'main');
    assert.ok(c.notes.some((n) => n.startsWith('not read offline: the OCI artifact of guestbook (oci://ghcr.io/acme/guestbook 1.0.0): Argo CD 3.1 pulls it from the registry')), c.notes.join('\n'));
  } finally {
    removeTree(dir);
  }
});

test('validate: a malformed OCI repoURL and targetRevision are errors at their lines, a chart beside an oci:// repoURL is a warning, and a path that would be in the artifact is not checked in the repository', async () => {
  const dir = repo({
    'apps/a.yaml': [
      application('upper', { repoURL: 'oci://ghcr.io/Acme/guestbook', targetRevision: '1.0.0', path: '.' }),
      application('short-digest', { repoURL: 'oci://ghcr.io/acme/web', targetRevision: 'sha256:abc', path: 'not-in-this-repo' }),
      application('tagged', { repoURL: 'oci://ghcr.io/acme/web:1.0.0', targetRevision: '1.0.0', path: '.' }),
      application('with-chart', { repoURL: 'oci://ghcr.io/acme/charts', chart: 'web', targetRevision: '1.0.0' }),
      application('fine', { repoURL: 'oci://registry.example.com:5000/team/app', targetRevision: '>=1.0.0 <2.0.0', path: 'deploy' }),
    ].join('---\n'),
  });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; severity: string; line?: number; path?: string; app?: string; message: string }[] }).findings.filter((f) => f.code !== 'layout-chosen');
    const got = findings.map((f) => `${f.severity} ${f.code} ${f.app} ${f.line} ${f.path}`).sort();
    assert.deepEqual(got, [
      'error invalid-oci-reference short-digest 28 spec.source.targetRevision',
      'error invalid-oci-reference tagged 42 spec.source.repoURL',
      'error invalid-oci-reference upper 12 spec.source.repoURL',
      'warning oci-chart-ignored with-chart 58 spec.source.chart',
    ]);
    assert.match(findings.find((f) => f.app === 'tagged')!.message, /a tag belongs in targetRevision, not in repoURL/);
  } finally {
    removeTree(dir);
  }
});

test('validate: a repository Secret whose enableOCI is not a Go boolean is an error at the Secret, and a Secret without enableOCI for a schemeless IP:port chart repoURL is an error at repoURL', async () => {
  const dir = repo({
    'apps/web.yaml': application('web', { repoURL: '10.0.0.5:5000/charts', chart: 'web', targetRevision: '1.0.0' }),
    'argocd/repo.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: charts
  labels:
    argocd.argoproj.io/secret-type: repository
stringData:
  url: 10.0.0.5:5000/charts
  type: helm
---
apiVersion: v1
kind: Secret
metadata:
  name: other
  labels:
    argocd.argoproj.io/secret-type: repository
stringData:
  url: registry.example.com/x
  enableOCI: "yes"
`,
  });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; file?: string; line?: number; message: string }[] }).findings;
    const notOci = findings.find((f) => f.code === 'chart-repository-not-oci');
    assert.ok(notOci, JSON.stringify(findings));
    assert.equal(`${notOci.file}:${notOci.line}`, 'apps/web.yaml:12');
    const bad = findings.find((f) => f.code === 'repository-secret-invalid');
    assert.ok(bad, JSON.stringify(findings));
    assert.equal(`${bad.file}:${bad.line}`, 'argocd/repo.yaml:11');
    assert.match(bad.message, /Secret other: enableOCI: "yes" is not a boolean/);
  } finally {
    removeTree(dir);
  }
});
