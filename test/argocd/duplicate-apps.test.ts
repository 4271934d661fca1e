/**
 * Two Applications with one name in one Argo CD namespace are one object on the cluster: the later
 * apply overwrites the earlier (issue #12 part 1, ADR 0367). The follower used to keep the first it
 * reached and say nothing. Now it reports `duplicate-app` (error) at the second, naming both files
 * with their lines and `metadata.name`, and the plan says which one the cluster ends up with:
 * - both in what one Application renders: Argo CD keeps the last of its target objects
 *   (controller/state.go DeduplicateTargetObjects, RepeatedResourceWarning), so the later file;
 * - written by two different parents, or by an ApplicationSet and a parent: each sync overwrites
 *   the other's, so which one stays is not determinable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, path: string, namespace: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/homelab.git
    targetRevision: main
    path: ${path}
  destination:
    server: https://kubernetes.default.svc
    namespace: ${namespace}
`;

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: v\n';

type Found = { severity: string; code: string; file?: string; line?: number; path?: string; message: string };
type Plan = { clusters: { name: string; notes: string[]; apps: { name: string; destination: { namespace?: string }; source: { path?: string } }[] }[] };

async function run(dir: string): Promise<{ plan: Plan; findings: Found[] }> {
  const p = await cli(['plan', '--repo', dir, '-o', 'json']);
  const v = await cli(['validate', '--repo', dir, '-o', 'json']);
  return { plan: JSON.parse(p.stdout) as Plan, findings: (JSON.parse(v.stdout) as { findings: Found[] }).findings };
}

test('duplicate-app: two files of one parent\'s directory writing one Application name: the later file wins, both are named', async () => {
  const dir = writeTree({
    'argocd/root.yaml': app('root', 'argocd', 'argocd'),
    'argocd/web-one.yaml': app('web', 'apps/a', 'one'),
    'argocd/web-two.yaml': app('web', 'apps/a', 'two'),
    'apps/a/cm.yaml': CM,
  });
  try {
    const { plan, findings } = await run(dir);
    const c = plan.clusters[0]!;
    assert.equal(c.apps.find((a) => a.name === 'web')?.destination.namespace, 'two', 'Argo CD keeps the last of the target objects');
    const note = c.notes.find((n) => /web/.test(n) && /argocd\/web-one\.yaml:4/.test(n) && /argocd\/web-two\.yaml:4/.test(n));
    assert.ok(note, `a note names both files: ${c.notes.join(' | ')}`);
    assert.match(note, /ends up with .*argocd\/web-two\.yaml:4/);
    const dups = findings.filter((f) => f.code === 'duplicate-app');
    assert.equal(dups.length, 1, JSON.stringify(dups));
    assert.equal(dups[0]!.severity, 'error');
    assert.equal(dups[0]!.file, 'argocd/web-two.yaml');
    assert.equal(dups[0]!.line, 4);
    assert.equal(dups[0]!.path, 'metadata.name');
    assert.match(dups[0]!.message, /argocd\/web-one\.yaml:4/);
  } finally {
    removeTree(dir);
  }
});

test('duplicate-app: one Application name written by two different parents: which one stays is not determinable', async () => {
  const dir = writeTree({
    'argocd/root.yaml': app('root', 'argocd', 'argocd'),
    'argocd/x.yaml': app('x', 'parents/x', 'argocd'),
    'argocd/y.yaml': app('y', 'parents/y', 'argocd'),
    'parents/x/web.yaml': app('web', 'apps/a', 'from-x'),
    'parents/y/web.yaml': app('web', 'apps/a', 'from-y'),
    'apps/a/cm.yaml': CM,
  });
  try {
    const { plan, findings } = await run(dir);
    const c = plan.clusters[0]!;
    const note = c.notes.find((n) => /parents\/x\/web\.yaml:4/.test(n) && /parents\/y\/web\.yaml:4/.test(n));
    assert.ok(note, `a note names both files: ${c.notes.join(' | ')}`);
    assert.match(note, /not determinable/);
    const dups = findings.filter((f) => f.code === 'duplicate-app');
    assert.equal(dups.length, 1, JSON.stringify(dups));
    assert.equal(dups[0]!.path, 'metadata.name');
    assert.match(dups[0]!.message, /parents\/x\/web\.yaml:4/);
    assert.match(dups[0]!.message, /parents\/y\/web\.yaml:4/);
  } finally {
    removeTree(dir);
  }
});

test('duplicate-app: an ApplicationSet generating the name of an Application of the repository is reported with both places', async () => {
  const appset = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: webs
  namespace: argocd
spec:
  goTemplate: true
  generators:
    - list:
        elements:
          - name: web
  template:
    metadata:
      name: '{{.name}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/homelab.git
        targetRevision: main
        path: apps/a
      destination:
        server: https://kubernetes.default.svc
        namespace: from-appset
`;
  const dir = writeTree({
    'argocd/root.yaml': app('root', 'argocd', 'argocd'),
    'argocd/appset.yaml': appset,
    'argocd/web.yaml': app('web', 'apps/a', 'from-file'),
    'apps/a/cm.yaml': CM,
  });
  try {
    const { plan, findings } = await run(dir);
    const c = plan.clusters[0]!;
    const note = c.notes.find((n) => /argocd\/appset\.yaml:4/.test(n) && /argocd\/web\.yaml:4/.test(n));
    assert.ok(note, `a note names both places: ${c.notes.join(' | ')}`);
    assert.match(note, /not determinable/);
    assert.match(note, /ApplicationSet webs/);
    const dups = findings.filter((f) => f.code === 'duplicate-app');
    assert.equal(dups.length, 1, JSON.stringify(dups));
    assert.match(dups[0]!.message, /ApplicationSet webs/);
  } finally {
    removeTree(dir);
  }
});

test('duplicate-app: the same Application reached twice with the same content (a self-managing root) is no finding', async () => {
  const dir = writeTree({
    'argocd/root.yaml': app('root', 'argocd', 'argocd'),
    'argocd/web.yaml': app('web', 'apps/a', 'one'),
    'apps/a/cm.yaml': CM,
  });
  try {
    const { plan, findings } = await run(dir);
    assert.deepEqual(findings.filter((f) => f.code === 'duplicate-app'), []);
    assert.ok(!plan.clusters[0]!.notes.some((n) => /two Applications/.test(n)));
  } finally {
    removeTree(dir);
  }
});
