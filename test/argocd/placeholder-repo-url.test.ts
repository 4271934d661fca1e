/**
 * A repoURL the user fills in before applying (`REPLACE`, `<repo-url>`, `CHANGEME`, an envsubst
 * `${GITOPS_REPO}`, an empty host) was taken for a server URL and named "another repository"
 * (with the hint to clone it), an apps-not-read warning about a repository that does not exist.
 * It is a placeholder: said as such (a not-read info at the repoURL, and a note), and a real
 * URL of another repository keeps the warning (ADR 0392).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { placeholderRepoURL } from '../../src/model/git-url.js';

const CASES: Array<[string, string, boolean]> = [
  ['a placeholder word', 'REPLACE', true],
  ['a placeholder word in lower case', 'changeme', true],
  ['an upper-case placeholder inside a URL', 'https://github.com/YOUR_ORG/gitops.git', true],
  ['angle brackets', '<repo-url>', true],
  ['an envsubst variable', '${INFRA_GITOPS_REPO}', true],
  ['an empty host', 'https:///org/repo.git', true],
  ['empty', '', true],
  ['a GitHub URL', 'https://github.com/acme/platform.git', false],
  ['a repository named like a placeholder word, in lower case', 'https://github.com/acme/replace-me', false],
  ['the scp form', 'git@github.com:acme/platform.git', false],
  ['a host path without a scheme', 'github.com/acme/platform', false],
  ['an OCI registry', 'oci://ghcr.io/acme/charts', false],
  ['a Helm repository', 'https://charts.example.com', false],
];

for (const [name, url, placeholder] of CASES) {
  test(`placeholderRepoURL: ${name} (${JSON.stringify(url)}) ${placeholder ? 'is' : 'is not'} a placeholder`, () => {
    assert.equal(placeholderRepoURL(url) !== undefined, placeholder, placeholderRepoURL(url));
  });
}

function repo(rootURL: string): string {
  const dir = writeTree({
    'bootstrap/root.yaml': argoPathApplication({ name: 'root-applications', path: 'clusters/hub', namespace: 'argocd', repoURL: rootURL }),
    'apps/web.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web', repoURL: 'https://github.com/acme/fleet.git' }),
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  k: v\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/fleet.git']);
  return dir;
}

type Found = { severity: string; code: string; message: string; path?: string; file?: string };

test('a root whose repoURL is REPLACE: a placeholder the user fills in, not another repository', async () => {
  const dir = repo('REPLACE');
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: Found[] }).findings;
    assert.equal(findings.some((f) => /another repository/.test(f.message)), false, JSON.stringify(findings));
    assert.equal(findings.some((f) => f.code === 'apps-not-read'), false);
    const info = findings.find((f) => f.code === 'not-read' && f.path === 'spec.source.repoURL');
    assert.ok(info, JSON.stringify(findings));
    assert.equal(info.severity, 'info');
    assert.equal(info.file, 'bootstrap/root.yaml');
    assert.match(info.message, /repoURL "REPLACE" is a placeholder the user fills in before applying/);
    const p = await cli(['plan', '--repo', dir]);
    assert.match(p.stdout, /note: not read: Application root-applications \(bootstrap\/root.yaml:4\) spec.source.repoURL "REPLACE" is a placeholder/);
  } finally {
    removeTree(dir);
  }
});

test('a root whose repoURL is another real repository keeps the apps-not-read warning', async () => {
  const dir = repo('https://github.com/acme/other.git');
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: Found[] }).findings;
    assert.ok(findings.some((f) => f.code === 'apps-not-read' && f.severity === 'warning' && /another repository/.test(f.message)), JSON.stringify(findings));
  } finally {
    removeTree(dir);
  }
});
