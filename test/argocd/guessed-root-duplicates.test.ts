/**
 * Two guessed roots (no --root: every Argo CD object no other object applies, ADR 0345) that write
 * Applications of one name (ADR 0377). fleetplan guessed that both are applied to one Argo CD; a
 * repository often keeps templates or alternative examples beside its real bootstrap, and applying
 * one of them is what its README says. So the collision is a `duplicate-app` **warning** naming
 * both files and saying that --root chooses the roots applied together; with --root naming both it
 * is known that both are applied, and it is the error of ADR 0367. Within one root (its own
 * app-of-apps) it stays an error: the tests in duplicate-apps.test.ts keep that.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, namespace: string) => argoPathApplication({ name, path: 'apps/a', namespace, repoURL: 'https://github.com/acme/homelab.git' });

const appset = (name: string, namespace: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: ${name}
  namespace: argocd
spec:
  goTemplate: true
  generators:
    - list:
        elements:
          - env: prod
  template:
    metadata:
      name: 'web-{{.env}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/homelab.git
        targetRevision: main
        path: apps/a
      destination:
        server: https://kubernetes.default.svc
        namespace: ${namespace}
`;

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: v\n';

type Found = { severity: string; code: string; file?: string; line?: number; path?: string; message: string };

async function validate(dir: string, extra: string[] = []): Promise<{ code: number; dups: Found[] }> {
  const v = await cli(['validate', '--repo', dir, '-o', 'json', ...extra]);
  const findings = (JSON.parse(v.stdout) as { findings: Found[] }).findings;
  return { code: v.code, dups: findings.filter((f) => f.code === 'duplicate-app') };
}

test('guessed roots: two root files writing one Application name with other content: a warning naming both, and --root chooses', async () => {
  const dir = writeTree({ 'bootstrap/web.yaml': app('web', 'one'), 'templates/web.yaml': app('web', 'two'), 'apps/a/cm.yaml': CM });
  try {
    const { code, dups } = await validate(dir);
    assert.equal(dups.length, 1, JSON.stringify(dups));
    assert.equal(dups[0]!.severity, 'warning');
    assert.equal(dups[0]!.file, 'templates/web.yaml');
    assert.equal(dups[0]!.line, 4);
    assert.equal(dups[0]!.path, 'metadata.name');
    assert.match(dups[0]!.message, /bootstrap\/web\.yaml:4 and templates\/web\.yaml:4/);
    assert.match(dups[0]!.message, /guessed/);
    assert.match(dups[0]!.message, /--root FILE/);
    assert.equal(code, 0, 'a warning does not fail validate');
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    const plan = JSON.parse(p.stdout) as { clusters: { notes: string[] }[] };
    assert.ok(plan.clusters[0]!.notes.some((n) => n.includes('bootstrap/web.yaml:4 and templates/web.yaml:4')), 'the plan says it too');
  } finally {
    removeTree(dir);
  }
});

test('roots given with --root: both applied together, so the same collision is the error of ADR 0367', async () => {
  const dir = writeTree({ 'bootstrap/web.yaml': app('web', 'one'), 'templates/web.yaml': app('web', 'two'), 'apps/a/cm.yaml': CM });
  try {
    const { code, dups } = await validate(dir, ['--root', 'bootstrap/web.yaml', '--root', 'templates/web.yaml']);
    assert.equal(dups.length, 1, JSON.stringify(dups));
    assert.equal(dups[0]!.severity, 'error');
    assert.match(dups[0]!.message, /applied last wins/);
    assert.doesNotMatch(dups[0]!.message, /guessed/);
    assert.equal(code, 1);
  } finally {
    removeTree(dir);
  }
});

test('guessed roots: a copy of a root with the same content is a warning that says both files write one object', async () => {
  const dir = writeTree({ 'bootstrap/web.yaml': app('web', 'one'), 'templates/web.yaml': app('web', 'one'), 'apps/a/cm.yaml': CM });
  try {
    const { dups } = await validate(dir);
    assert.equal(dups.length, 1, JSON.stringify(dups));
    assert.equal(dups[0]!.severity, 'warning');
    assert.match(dups[0]!.message, /same content/);
    assert.doesNotMatch(dups[0]!.message, /a person applying the roots by hand and a person/);
  } finally {
    removeTree(dir);
  }
});

test('guessed roots: two root ApplicationSets generating one Application name: a warning, and one object in the plan', async () => {
  const dir = writeTree({ 'appsets/one.yaml': appset('webs-one', 'one'), 'appsets/two.yaml': appset('webs-two', 'two'), 'apps/a/cm.yaml': CM });
  try {
    const { dups } = await validate(dir);
    assert.equal(dups.length, 1, JSON.stringify(dups));
    assert.equal(dups[0]!.severity, 'warning');
    assert.match(dups[0]!.message, /ApplicationSet webs-one \(appsets\/one\.yaml:4\)/);
    assert.match(dups[0]!.message, /ApplicationSet webs-two \(appsets\/two\.yaml:4\)/);
    assert.match(dups[0]!.message, /--root FILE/);
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    const plan = JSON.parse(p.stdout) as { clusters: { apps: { name: string }[] }[] };
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)), ['web-prod']);
  } finally {
    removeTree(dir);
  }
});
