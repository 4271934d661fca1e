/**
 * A repository that keeps one ArgoCD bootstrap file per kind of cluster (`.bootstrap/argocd_hub.yaml`
 * and `.bootstrap/argocd_spoke.yaml`, the plugin's variables on the repo-server sidecar's env) and no
 * `.bootstrap/argocd.yaml`. fleetplan read the variables from `.bootstrap/argocd.yaml` only, so
 * `${LOG_ENDPOINT}` stayed undefined where Argo CD substitutes it, and the bootstrap plan applied
 * both ArgoCD files to every cluster. Each cluster now gets the ArgoCD file named for its role,
 * its variables and its bootstrap step; a note says so, or says that fleetplan cannot tell.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { cli, removeTree } from '../support/fleet-fixture.js';
import { sidecarArgocd } from '../support/gitops-standards-argocd.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/gitops-standards', import.meta.url));

const argocd = (endpoint: string) => sidecarArgocd({ CLUSTER_NAME: '${cluster_name}', APPS_DOMAIN: 'apps.${cluster_name}.example.org', LOG_ENDPOINT: endpoint });

const ROOT = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: root-applications
  namespace: openshift-gitops
spec:
  project: default
  source:
    repoURL: https://git.example.org/platform/standards-fleet.git
    targetRevision: HEAD
    path: clusters/\${cluster_name}
  destination:
    server: https://kubernetes.default.svc
    namespace: openshift-gitops
`;

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-gs-argocd-role-'));
  cpSync(FIXTURE, dir, { recursive: true });
  rmSync(join(dir, '.bootstrap/argocd.yaml'));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  // A user's clone: render --leaves builds the apps whose source is this repository.
  execFileSync('git', ['init', '-q', dir]);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://git.example.org/platform/standards-fleet.git']);
  return dir;
}

test('one ArgoCD file per role: each cluster gets the variables and the bootstrap step of the file named for its role', async () => {
  const dir = repo({
    '.bootstrap/argocd_hub.yaml': argocd('https://logs.hub.example.org'),
    '.bootstrap/argocd_spoke.yaml': argocd('https://logs.spoke.example.org'),
    '.bootstrap/root-application.yaml': ROOT,
  });
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: { code: string; message: string }[] }).findings;
    assert.deepEqual(findings.filter((f) => f.code === 'undefined-variable'), [], v.stdout);
    const spoke = await cli(['plan', '--repo', dir, '--cluster', 'edge-a']);
    assert.equal(spoke.code, 0, spoke.stderr);
    assert.match(spoke.stdout, /kubectl apply -f \.bootstrap\/argocd_spoke\.yaml/);
    assert.doesNotMatch(spoke.stdout, /kubectl apply -f \.bootstrap\/argocd_hub\.yaml/);
    assert.match(spoke.stdout, /\.bootstrap\/argocd_spoke\.yaml.*role spoke/);
    const hub = await cli(['plan', '--repo', dir, '--cluster', 'hub']);
    assert.match(hub.stdout, /kubectl apply -f \.bootstrap\/argocd_hub\.yaml/);
    assert.doesNotMatch(hub.stdout, /kubectl apply -f \.bootstrap\/argocd_spoke\.yaml/);
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--cluster', 'edge-a', '--leaves', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const leafDir = join(out, 'edge-a/manifests/log-forwarder');
    const leaf = readdirSync(leafDir).map((f) => readFileSync(join(leafDir, f), 'utf8')).join('');
    assert.match(leaf, /url: https:\/\/logs\.spoke\.example\.org/);
    assert.match(leaf, /domain: apps\.edge-a\.example\.org/);
  } finally {
    removeTree(dir);
  }
});

test('ArgoCD files that agree on the variables need no choice; files that differ and name no role get a note', async () => {
  const same = repo({ '.bootstrap/argocd_hub.yaml': argocd('https://logs.example.org'), '.bootstrap/argocd_spoke.yaml': argocd('https://logs.example.org') });
  const unnamed = repo({ '.bootstrap/argocd-east.yaml': argocd('https://logs.east.example.org'), '.bootstrap/argocd-west.yaml': argocd('https://logs.west.example.org') });
  try {
    const v = await cli(['validate', '--repo', same, '-o', 'json']);
    assert.deepEqual((JSON.parse(v.stdout) as { findings: { code: string }[] }).findings.filter((f) => f.code === 'undefined-variable'), [], v.stdout);
    const p = await cli(['plan', '--repo', unnamed, '--cluster', 'edge-a']);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /cannot tell which of \.bootstrap\/argocd-east\.yaml, \.bootstrap\/argocd-west\.yaml/);
  } finally {
    removeTree(same);
    removeTree(unnamed);
  }
});
