/**
 * An ApplicationSet that generates nothing, or that fleetplan cannot read, says why (ADR 0336):
 * - a cluster generator nested in a matrix or merge (the EKS-blueprints / gitops-bridge shape) with
 *   a selector and no cluster Secret in the repository names the selector and `--clusters`;
 * - a git generator whose repoURL is another repository than the clone is not read from this
 *   clone's files (it used to fail with "revision not found" in this clone, an error Argo CD
 *   never hits): the plan names the repository it did not read, and validate has no error for it.
 * A git generator on this repository is still evaluated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

function appSet(name: string, generators: string): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: ${name}
  namespace: argocd
spec:
  generators:
${generators}
  template:
    metadata:
      name: '${name}-{{path.basename}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/platform.git
        targetRevision: main
        path: '{{path}}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{path.basename}}'
`;
}

function repo(): string {
  const dir = writeTree({
    'bootstrap/addons.yaml': appSet('addons', `    - merge:
        mergeKeys: [server]
        generators:
          - clusters:
              selector:
                matchLabels:
                  enable_metrics: 'true'
          - clusters:
              selector:
                matchLabels:
                  environment: prod`),
    'bootstrap/external.yaml': appSet('external', `    - git:
        repoURL: https://git.example.com/team/other.git
        revision: master
        directories:
          - path: addons/*`),
    'bootstrap/own.yaml': appSet('own', `    - git:
        repoURL: https://github.com/acme/platform
        revision: main
        directories:
          - path: addons/*`),
    'addons/metrics/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: metrics\n',
  });
  const git = (...args: string[]): void => void execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', 'https://github.com/acme/platform.git');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'fixture');
  return dir;
}

test('plan: a nested cluster generator whose selector matches no cluster Secret names the selector and --clusters', async () => {
  const dir = repo();
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ApplicationSet addons \(bootstrap\/addons\.yaml\) generates no Application: its generators \(merge\) give no parameters; its cluster generator \(selector enable_metrics=true; selector environment=prod\) matches no cluster: the repository has no cluster Secret .* pass --clusters FILE/);
  } finally {
    removeTree(dir);
  }
});

test('plan: a git generator on another repository is said not read, and the one on this repository is evaluated', async () => {
  const dir = repo();
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ApplicationSet external \(bootstrap\/external\.yaml\): its git generator reads https:\/\/git\.example\.com\/team\/other\.git, another repository than this clone \(https:\/\/github\.com\/acme\/platform\.git\); fleetplan reads only this repository/);
    assert.doesNotMatch(r.stdout + r.stderr, /revision "master" not found/);
    assert.match(r.stdout, /ApplicationSet own \(bootstrap\/own\.yaml\) generates 1 Application: own-metrics/);
  } finally {
    removeTree(dir);
  }
});

test('validate: a git generator on another repository is no error', async () => {
  const dir = repo();
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; severity: string; message: string }[] }).findings;
    assert.deepEqual(findings.filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`), []);
    assert.ok(findings.some((f) => f.code === 'appset-other-repository' && f.severity === 'info'), JSON.stringify(findings));
  } finally {
    removeTree(dir);
  }
});
