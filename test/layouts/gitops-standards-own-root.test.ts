/**
 * A gitops-standards repository bootstraps each cluster with its own files: `.bootstrap/` holds the
 * operator Subscription, the ArgoCD and the root Application `root-applications` reading
 * `clusters/${cluster_name}`, applied by hand with envsubst. The plan showed fleetplan's bootstrap
 * instead (an operator step, `root Application reading rendered/hub`), and render --out wrote a
 * root reading `rendered/hub`, a folder the repository does not have. Now the repository's root is
 * the cluster's root (its repoURL, path and revision) and the plan says so (ADR 0399).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { cli, removeTree } from '../support/fleet-fixture.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/gitops-standards', import.meta.url));
const ORIGIN = 'https://git.example.org/platform/standards-fleet.git';

const ROOT = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: root-applications
  namespace: openshift-gitops
  labels:
    app-source: root
spec:
  project: default
  source:
    repoURL: \${gitops_repo}
    targetRevision: HEAD
    path: clusters/\${cluster_name}
  destination:
    server: https://kubernetes.default.svc
    namespace: openshift-gitops
  syncPolicy:
    automated:
      prune: true
`;

const SUBSCRIPTION = `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata:
  name: openshift-gitops-operator
  namespace: openshift-operators
spec:
  channel: latest
  name: openshift-gitops-operator
  source: redhat-operators
  sourceNamespace: openshift-marketplace
`;

function repo(withRoot: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-gs-root-'));
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, '.bootstrap/subscription.yaml'), SUBSCRIPTION);
  if (withRoot) writeFileSync(join(dir, '.bootstrap/root-application.yaml'), ROOT);
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', ORIGIN]);
  return dir;
}

interface Step { file: string; description: string; objects: string[] }

test('the repository\'s own root Application of .bootstrap/ is the cluster\'s root: plan lists its bootstrap files, render writes that root', async () => {
  const dir = repo(true);
  try {
    const p = await cli(['plan', '--repo', dir, '--cluster', 'hub']);
    assert.equal(p.code, 0, p.stderr);
    assert.doesNotMatch(p.stdout, /rendered\/hub/);
    assert.match(p.stdout, /note: root: Application openshift-gitops\/root-applications of \.bootstrap\/root-application\.yaml \(the repository's own\) reads clusters\/hub at HEAD of https:\/\/git\.example\.org\/platform\/standards-fleet\.git/);
    assert.match(p.stdout, /\$\{gitops_repo\} is filled in when the file is applied: shown as the clone's origin/);
    const j = await cli(['plan', '--repo', dir, '--cluster', 'hub', '-o', 'json']);
    const hub = (JSON.parse(j.stdout) as { clusters: { name: string; bootstrap: Step[] }[] }).clusters.find((c) => c.name === 'hub')!;
    // The repository's files, the root last (it needs the Argo CD the others install).
    assert.deepEqual(hub.bootstrap.map((s) => s.file), ['.bootstrap/argocd.yaml', '.bootstrap/subscription.yaml', '.bootstrap/root-application.yaml']);
    assert.deepEqual(hub.bootstrap[1]!.objects, ['Subscription/openshift-operators/openshift-gitops-operator']);
    assert.deepEqual(hub.bootstrap[2]!.objects, ['Application/openshift-gitops/root-applications']);

    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(out, 'hub/bootstrap/00-gitops-operator.yaml')), false, 'none of fleetplan\'s bootstrap');
    const root = readFileSync(join(out, 'hub/bootstrap/90-root-application.yaml'), 'utf8');
    assert.match(root, /path: clusters\/hub\n/);
    assert.match(root, /repoURL: https:\/\/git\.example\.org\/platform\/standards-fleet\.git\n/);
    assert.match(root, /targetRevision: HEAD\n/);
    assert.match(root, /labels:\n {4}app-source: root\n/);
    assert.match(readFileSync(join(out, 'edge-a/bootstrap/90-root-application.yaml'), 'utf8'), /path: clusters\/edge-a\n/);

    const b = await cli(['bootstrap', '--repo', dir, '--cluster', 'hub', '--dry-run']);
    assert.notEqual(b.code, 0);
    assert.match(b.stderr, /bootstraps its clusters itself \(\.bootstrap\/, applied by hand\)/);
  } finally {
    removeTree(dir);
  }
});

test('without a root Application in .bootstrap/, the plan keeps fleetplan\'s bootstrap', async () => {
  const dir = repo(false);
  try {
    const p = await cli(['plan', '--repo', dir, '--cluster', 'hub']);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /root Application reading rendered\/hub/);
  } finally {
    removeTree(dir);
  }
});
