/**
 * `--root FILE` (ADR 0345): a repository of unrelated examples has many loose Applications, and
 * guessing every one a root of one Argo CD gave false conflicts (two examples writing the same
 * object) that blocked render with no way to choose. With --root only what the given roots reach
 * is read; a root that is outside, missing or holds no Argo CD object is an error naming it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const URL = 'https://github.com/acme/examples.git';

/** An Application of the example `n`, deploying examples/<n>/app into the namespace `ns`. */
function application(n: string, ns = 'guestbook'): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: guestbook-${n}
  namespace: argocd
spec:
  project: default
  source:
    repoURL: ${URL}
    targetRevision: main
    path: examples/${n}/app
  destination:
    server: https://kubernetes.default.svc
    namespace: ${ns}
`;
}

/** The same ConfigMap in both examples: one Argo CD applying both would have two apps own it. */
function configMap(n: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: guestbook-ui\n  namespace: guestbook\ndata:\n  from: ${n}\n`;
}

/** Two unrelated examples, each a root Application of its own, in one git repository. */
function examplesRepo(extra: Record<string, string> = {}): string {
  const dir = writeTree({
    'examples/one/root.yaml': application('one'),
    'examples/one/app/cm.yaml': configMap('one'),
    'examples/two/root.yaml': application('two'),
    'examples/two/app/cm.yaml': configMap('two'),
    ...extra,
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', URL]);
  return dir;
}

function commitAll(dir: string): void {
  execFileSync('git', ['-C', dir, 'add', '-A']);
  execFileSync('git', ['-C', dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'fixture']);
}

test('guessed roots: both examples are roots of one Argo CD, the shared ConfigMap is an error, and the note says --root chooses them', async () => {
  const dir = examplesRepo();
  try {
    const v = await cli(['validate', '--repo', dir]);
    assert.equal(v.code, 1, v.stderr);
    assert.match(v.stdout, /shared-object/);
    const p = await cli(['plan', '--repo', dir]);
    assert.match(p.stdout, /note: roots \(guessed: [^)]*--root FILE chooses them\): examples\/one\/root\.yaml, examples\/two\/root\.yaml/);
  } finally {
    removeTree(dir);
  }
});

test('--root FILE: only its apps, no conflict with the other example, and the note says the root was given', async () => {
  const dir = examplesRepo();
  try {
    const v = await cli(['validate', '--repo', dir, '--root', 'examples/one/root.yaml']);
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.doesNotMatch(v.stdout, /shared-object/);
    const p = await cli(['plan', '--repo', dir, '--root', 'examples/one/root.yaml', '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { name: string; notes?: string[]; apps: { name: string }[] }[]; findings: { code: string; message: string; file?: string }[] };
    assert.deepEqual(plan.clusters.map((c) => c.name), ['in-cluster']);
    assert.deepEqual(plan.clusters[0]!.apps.map((a) => a.name), ['guestbook-one']);
    assert.ok(plan.clusters[0]!.notes?.some((n) => n.startsWith('roots (given with --root') && n.endsWith(': examples/one/root.yaml')), JSON.stringify(plan.clusters[0]!.notes));
    const unread = plan.findings.filter((f) => f.code === 'not-read');
    assert.equal(unread.length, 1, 'one note for what --root leaves out, not a line per object');
    assert.match(unread[0]!.message, /1 file with Argo CD objects is not reached from the roots given with --root.*examples\/two\/root\.yaml/);
    const r = await cli(['render', '--repo', dir, '--root', 'examples/one/root.yaml']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /name: guestbook-one/);
    assert.doesNotMatch(r.stdout, /guestbook-two/);
  } finally {
    removeTree(dir);
  }
});

test('--root DIR without a kustomization reads its own files as kubectl apply -f DIR does; an absolute path inside the repository is taken relative to it', async () => {
  const dir = examplesRepo();
  try {
    for (const root of ['examples/two', join(dir, 'examples/two/root.yaml')]) {
      const p = await cli(['plan', '--repo', dir, '--root', root, '-o', 'json']);
      assert.equal(p.code, 0, p.stderr);
      const plan = JSON.parse(p.stdout) as { clusters: { apps: { name: string }[] }[] };
      assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)), ['guestbook-two'], root);
    }
  } finally {
    removeTree(dir);
  }
});

test('--root given twice: both roots, applied to one Argo CD as guessed loose roots are', async () => {
  const dir = examplesRepo();
  try {
    const p = await cli(['plan', '--repo', dir, '--root', 'examples/two/root.yaml', '--root', 'examples/one/root.yaml', '-o', 'json']);
    const plan = JSON.parse(p.stdout) as { clusters: { name: string; apps: { name: string }[] }[] };
    assert.deepEqual(plan.clusters.map((c) => [c.name, c.apps.map((a) => a.name).sort()]), [['in-cluster', ['guestbook-one', 'guestbook-two']]]);
  } finally {
    removeTree(dir);
  }
});

test('--root DIR with a kustomization builds it (kubectl apply -k) and follows the Applications it writes', async () => {
  const dir = examplesRepo({ 'examples/two/kustomization.yaml': 'resources:\n  - root.yaml\n' });
  try {
    const p = await cli(['plan', '--repo', dir, '--root', 'examples/two', '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { notes?: string[]; apps: { name: string }[] }[] };
    assert.deepEqual(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)), ['guestbook-two']);
    assert.ok(plan.clusters[0]!.notes?.some((n) => n.endsWith(': kustomize build examples/two')), JSON.stringify(plan.clusters[0]!.notes));
  } finally {
    removeTree(dir);
  }
});

const bad: { name: string; root: string; message: RegExp }[] = [
  { name: 'a missing root', root: 'examples/three/root.yaml', message: /--root examples\/three\/root\.yaml: no such file or directory in the repository .*relative to --repo/ },
  { name: 'a root outside the repository', root: '../elsewhere/root.yaml', message: /--root \.\.\/elsewhere\/root\.yaml: the root is outside the repository/ },
  { name: 'an absolute root outside the repository', root: '/etc/hostname', message: /--root \/etc\/hostname: the root is outside the repository/ },
  { name: 'a file with no Argo CD object', root: 'examples/one/app/cm.yaml', message: /examples\/one\/app\/cm\.yaml: --root examples\/one\/app\/cm\.yaml: examples\/one\/app\/cm\.yaml holds no Argo CD Application or ApplicationSet/ },
  { name: 'a directory with no Argo CD object', root: 'examples/one/app', message: /--root examples\/one\/app: examples\/one\/app \(its own \.yaml, \.yml and \.json files, as kubectl apply -f reads a directory\) holds no Argo CD Application/ },
];

for (const b of bad) {
  test(`--root: ${b.name} is an input error naming it (exit 2), for plan, render, validate and diff`, async () => {
    const dir = examplesRepo();
    try {
      commitAll(dir);
      for (const cmd of [['plan'], ['render'], ['validate'], ['diff', '--from', 'HEAD']]) {
        const r = await cli([...cmd, '--repo', dir, '--root', b.root]);
        assert.equal(r.code, 2, `${cmd[0]}: ${r.stdout}${r.stderr}`);
        assert.match(r.stderr, b.message, cmd[0]);
      }
    } finally {
      removeTree(dir);
    }
  });
}

test('--root on a repository not read as Argo CD is an error naming the layout', async () => {
  const dir = writeTree(baseFleet());
  try {
    const r = await cli(['plan', '--repo', dir, '--root', 'fleet.yaml']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--root fleet\.yaml: this repository is read as the native layout, which has no Argo CD roots to choose/);
  } finally {
    removeTree(dir);
  }
});

test('diff --root: a change to an Application the root does not reach is no change; one it reaches is', async () => {
  const dir = examplesRepo();
  try {
    commitAll(dir);
    writeTree({ 'examples/two/root.yaml': application('two', 'guestbook-moved') }, dir);
    const other = await cli(['diff', '--repo', dir, '--from', 'HEAD', '--root', 'examples/one/root.yaml', '-o', 'json']);
    assert.equal(other.code, 0, other.stderr);
    assert.equal(JSON.parse(other.stdout).clusters[0].status, 'unchanged');
    const guessed = await cli(['diff', '--repo', dir, '--from', 'HEAD', '-o', 'json']);
    assert.equal(JSON.parse(guessed.stdout).clusters[0].status, 'changed', 'the guessed roots read examples/two: the same edit is a change there');
    const own = await cli(['diff', '--repo', dir, '--from', 'HEAD', '--root', 'examples/two/root.yaml', '-o', 'json']);
    const objects = (JSON.parse(own.stdout) as { clusters: { objects: { name: string; fields: { path: string; to: unknown }[] }[] }[] }).clusters[0]!.objects;
    assert.deepEqual(objects.map((o) => [o.name, o.fields.map((f) => `${f.path}=${String(f.to)}`)]), [['guestbook-two', ['spec.destination.namespace=guestbook-moved']]]);
  } finally {
    removeTree(dir);
  }
});
