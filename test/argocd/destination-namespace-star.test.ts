/**
 * The repository's own Applications are used by Argo CD as written: it accepts any destination
 * namespace and uses it only for namespaced objects without one (and for CreateNamespace).
 * gitops-bridge's cluster ApplicationSet sends a directory of cluster-scoped and namespaced-with-
 * namespace objects with `namespace: '*'`; fleetplan called that an invalid-name error and
 * `render` wrote nothing (ADR 0338). Now it is a warning saying when it would fail, and render works.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

function repo(): string {
  const dir = writeTree({
    'bootstrap/cluster.yaml': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: cluster-config
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/platform.git
    targetRevision: main
    path: environments/hub
    directory:
      recurse: true
  destination:
    server: https://kubernetes.default.svc
    namespace: '*'
`,
    'environments/hub/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n',
    'environments/hub/quota.yaml': 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: quota\n  namespace: team-a\nspec:\n  hard:\n    pods: "10"\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

test('argocd layout: a destination namespace "*" is a warning, not an invalid-name error', async () => {
  const dir = repo();
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; severity: string; message: string }[] }).findings;
    const bad = findings.filter((f) => f.code === 'invalid-name');
    assert.equal(bad.length, 1, JSON.stringify(findings));
    assert.equal(bad[0]!.severity, 'warning');
    assert.match(bad[0]!.message, /destination namespace "\*".*Argo CD accepts the Application, but a namespaced object without its own namespace, or CreateNamespace=true, fails to sync/);
  } finally {
    removeTree(dir);
  }
});

test('argocd layout: render writes an Application whose destination namespace is "*"', async () => {
  const dir = repo();
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-out-'));
  try {
    const r = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /rendered 1 cluster/);
  } finally {
    removeTree(dir);
    rmSync(out, { recursive: true, force: true });
  }
});
