// `fleetplan appset` end to end: golden outputs under test/golden/appset/<case>/ (appset.yaml,
// clusters.yaml, repo/ committed into a throwaway git repository, expected.*).
// UPDATE_GOLDEN=1 rewrites the expected files.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run.js';
import { git } from '../support/git.js';

const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-appset-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const GOLDEN = 'test/golden/appset';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}

/** Commits the case's repo/ into a fresh repository; `after` may add later commits. */
function makeRepo(name: string, then?: (dir: string) => void, target = name): string {
  const dir = join(tmp, target);
  cpSync(join(GOLDEN, name, 'repo'), dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  git(dir, 'tag', 'v1');
  then?.(dir);
  return dir;
}

function golden(name: string, file: string, actual: string): void {
  const path = join(GOLDEN, name, file);
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(path)) writeFileSync(path, actual);
  assert.equal(actual, readFileSync(path, 'utf8'));
}

test('matrix of cluster Secrets × git directories (flat mode)', async () => {
  const repo = makeRepo('matrix-flat');
  const r = await cli(['appset', join(GOLDEN, 'matrix-flat/appset.yaml'), '--clusters', join(GOLDEN, 'matrix-flat/clusters.yaml'), '--repo', repo]);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
  golden('matrix-flat', 'expected.yaml', r.stdout);
});

test('--explain shows the generator and params of each Application', async () => {
  const repo = makeRepo('matrix-flat', undefined, 'explain');
  const r = await cli(['appset', join(GOLDEN, 'matrix-flat/appset.yaml'), '--clusters', join(GOLDEN, 'matrix-flat/clusters.yaml'), '--repo', repo, '--explain']);
  assert.equal(r.code, 0);
  golden('matrix-flat', 'expected-explain.yaml', r.stdout);
});

test('-o json prints an array with sorted keys', async () => {
  const repo = makeRepo('matrix-flat', undefined, 'json');
  const r = await cli(['appset', join(GOLDEN, 'matrix-flat/appset.yaml'), '--clusters', join(GOLDEN, 'matrix-flat/clusters.yaml'), '--repo', repo, '-o', 'json']);
  assert.equal(r.code, 0);
  golden('matrix-flat', 'expected.json', r.stdout);
  assert.equal((JSON.parse(r.stdout) as unknown[]).length, 4);
});

test('git files are read at the generator revision, not at HEAD or the working tree', async () => {
  const repo = makeRepo('git-files-pinned', (dir) => {
    writeFileSync(join(dir, 'clusters/eu/config.yaml'), 'cluster:\n  name: eu-CHANGED\n');
    git(dir, 'commit', '-q', '-am', 'second');
    writeFileSync(join(dir, 'clusters/us/east/config.yaml'), '[]\n');
  });
  const r = await cli(['appset', join(GOLDEN, 'git-files-pinned/appset.yaml'), '--repo', repo]);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
  golden('git-files-pinned', 'expected.yaml', r.stdout);
  assert.ok(!r.stdout.includes('CHANGED'));
});

test('reports duplicate Application names on stderr and exits 1', async () => {
  const file = join(tmp, 'dup.yaml');
  writeFileSync(
    file,
    `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: dup}
spec:
  generators:
    - list:
        elements: [{env: a}, {env: b}]
  template:
    metadata: {name: same}
    spec: {project: default}
`,
  );
  const r = await cli(['appset', file]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /ApplicationSet dup contains applications with duplicate name: same \(from spec\.generators\[0\]\.list\)/);
  assert.equal((r.stdout.match(/^kind: Application$/gm) ?? []).length, 1);
});

const invalid: { name: string; yaml: string; message: RegExp }[] = [
  {
    name: 'names file, line and field of a wrongly typed goTemplate',
    yaml: 'kind: ApplicationSet\nmetadata: {name: x}\nspec:\n  goTemplate: "yes"\n  generators: [{list: {elements: []}}]\n',
    message: /bad\.yaml:4:15 spec\.goTemplate: spec\.goTemplate: expected true or false, got "yes"/,
  },
  {
    name: 'names the generator of a matrix with three children',
    yaml: 'kind: ApplicationSet\nmetadata: {name: x}\nspec:\n  generators:\n    - matrix:\n        generators:\n          - list: {elements: []}\n          - list: {elements: []}\n          - list: {elements: []}\n',
    message: /bad\.yaml:7:11 spec\.generators\[0\]\.matrix\.generators: ApplicationSet x: found more than two generators, Matrix support only two/,
  },
  {
    name: 'names an unknown generator',
    yaml: 'kind: ApplicationSet\nmetadata: {name: x}\nspec:\n  generators:\n    - lists: {elements: []}\n',
    message: /bad\.yaml:5:14 spec\.generators\[0\]\.lists: ApplicationSet x: unknown generator "lists" \(known generators:/,
  },
  {
    name: 'names a flat-mode list value that is not a string',
    yaml: 'kind: ApplicationSet\nmetadata: {name: x}\nspec:\n  generators:\n    - list:\n        elements:\n          - replicas: 3\n',
    message: /bad\.yaml:7:23 spec\.generators\[0\]\.list\.elements\[0\]\.replicas: ApplicationSet x: error parsing value as string/,
  },
  {
    name: 'names a git directories entry without a path',
    yaml: 'kind: ApplicationSet\nmetadata: {name: x}\nspec:\n  generators:\n    - git:\n        repoURL: r\n        directories:\n          - pth: apps/*\n',
    message: /bad\.yaml:8:13 spec\.generators\[0\]\.git\.directories\[0\]: ApplicationSet x: directories\[0\]: expected \{path: string, exclude\?: boolean\}/,
  },
  {
    name: 'names a values entry that is not a string',
    yaml: 'kind: ApplicationSet\nmetadata: {name: x}\nspec:\n  generators:\n    - clusters:\n        values:\n          replicas: 3\n',
    message: /bad\.yaml:7:21 spec\.generators\[0\]\.clusters\.values\.replicas: ApplicationSet x: values\.replicas: expected a string, got 3 \(quote the value\)/,
  },
  {
    name: 'names the template field whose Go template fails',
    yaml: 'kind: ApplicationSet\nmetadata: {name: x}\nspec:\n  goTemplate: true\n  goTemplateOptions: [missingkey=error]\n  generators: [{list: {elements: [{env: dev}]}}]\n  template:\n    metadata:\n      name: \'{{ .env }}-{{ .cluster }}\'\n',
    message: /bad\.yaml:9:13 spec\.template\.metadata\.name: ApplicationSet x: failed to execute go template \{\{ \.env \}\}-\{\{ \.cluster \}\}: template: base:1:14: executing "base" at <\.cluster>: map has no entry for key "cluster"/,
  },
];

for (const c of invalid) {
  test(`invalid ApplicationSet: ${c.name}`, async () => {
    const file = join(tmp, 'bad.yaml');
    writeFileSync(file, c.yaml);
    const r = await cli(['appset', file]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, c.message);
  });
}

test('rejects an unknown output format', async () => {
  const r = await cli(['appset', join(GOLDEN, 'matrix-flat/appset.yaml'), '-o', 'xml']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /-o xml: expected yaml or json/);
});

test('seed 004: cluster identity Secrets × git directories, pinned revisions read at their commit (goTemplate)', async () => {
  const repo = makeRepo('seed004', (dir) => {
    // A component added after the pinned commit: only the cluster following main sees it.
    cpSync(join(dir, 'argocd/config/shared/monitoring'), join(dir, 'argocd/config/shared/logging'), { recursive: true });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'add logging');
  });
  assert.equal(git(repo, 'rev-parse', 'v1'), 'b23b8a8c46d507e5dfe164a400d5b37d130a0af8', 'fixture commit is reproducible');
  const r = await cli(['appset', join(GOLDEN, 'seed004/appset.yaml'), '--clusters', join(GOLDEN, 'seed004/clusters.yaml'), '--repo', repo]);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
  golden('seed004', 'expected.yaml', r.stdout);
  const names = [...r.stdout.matchAll(/^ {2}name: (.*)$/gm)].map((m) => m[1]);
  assert.deepEqual(names, [
    'integration-us-east-1-mc01-argocd',
    'integration-us-east-1-mc01-hypershift',
    'integration-us-east-1-mc01-logging',
    'integration-us-east-1-mc01-maestro-agent',
    'integration-us-east-1-mc01-monitoring',
    'staging-eu-west-1-rc-argocd',
    'staging-eu-west-1-rc-frontend-api',
    'staging-eu-west-1-rc-maestro',
    'staging-eu-west-1-rc-monitoring',
  ]);
});

test('--revision replaces a HEAD generator revision; without it HEAD is the last commit', async () => {
  const repo = makeRepo(
    'matrix-flat',
    (dir) => {
      cpSync(join(dir, 'apps/guestbook'), join(dir, 'apps/added-later'), { recursive: true });
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'add an app');
      // Not committed: never seen with a revision.
      cpSync(join(dir, 'apps/guestbook'), join(dir, 'apps/uncommitted'), { recursive: true });
    },
    'revision',
  );
  const args = ['appset', join(GOLDEN, 'matrix-flat/appset.yaml'), '--clusters', join(GOLDEN, 'matrix-flat/clusters.yaml'), '--repo', repo];
  const head = await cli(args);
  assert.match(head.stdout, /name: stage-1-added-later/);
  assert.doesNotMatch(head.stdout, /uncommitted/);
  const pinned = await cli([...args, '--revision', 'v1']);
  assert.equal(pinned.code, 0);
  assert.doesNotMatch(pinned.stdout, /added-later/);
  assert.equal(pinned.stdout, readFileSync(join(GOLDEN, 'matrix-flat/expected.yaml'), 'utf8'));
});

// A cluster generator that selects no cluster: without a word, an empty output reads as "nothing to deploy".
const SELECTING = `kind: ApplicationSet
metadata: {name: root}
spec:
  goTemplate: true
  generators:
    - matrix:
        generators:
          - clusters:
              selector:
                matchLabels:
                  argocd.argoproj.io/secret-type: cluster
                  tier: edge
          - list: {elements: [{app: web}]}
  template:
    metadata: {name: '{{ .name }}-{{ .app }}'}
    spec: {project: default}
`;
const SECRET = (name: string, tier: string) => `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  labels: {argocd.argoproj.io/secret-type: cluster, tier: ${tier}}
stringData: {name: ${name}, server: https://${name}.example.com}
`;

test('without --clusters, a cluster generator that selects nothing is reported on stderr with what to pass (exit 2)', async () => {
  const file = join(tmp, 'selecting.yaml');
  writeFileSync(file, SELECTING);
  const r = await cli(['appset', file]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /selecting\.yaml:8:\d+: ApplicationSet root: the cluster generator \(spec\.generators\[0\]\.matrix\.generators\[0\], selector argocd\.argoproj\.io\/secret-type=cluster,tier=edge\) selects no cluster: no cluster Secrets were given/);
  assert.match(r.stderr, /hint: pass --clusters FILE .* or --clusters fleet/);
});

test('with --clusters whose Secrets all miss the selector, the run says so and fails (exit 1)', async () => {
  const file = join(tmp, 'selecting.yaml');
  const secrets = join(tmp, 'core-secrets.yaml');
  writeFileSync(file, SELECTING);
  writeFileSync(secrets, `${SECRET('a', 'core')}---\n${SECRET('b', 'core')}`);
  const r = await cli(['appset', file, '--clusters', secrets]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /selects none of the 2 cluster Secret\(s\) of --clusters .*core-secrets\.yaml/);
});

test('a cluster generator that matches is not reported', async () => {
  const file = join(tmp, 'selecting.yaml');
  const secrets = join(tmp, 'edge-secrets.yaml');
  writeFileSync(file, SELECTING);
  writeFileSync(secrets, `${SECRET('a', 'core')}---\n${SECRET('e', 'edge')}`);
  const r = await cli(['appset', file, '--clusters', secrets]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /name: e-web/);
});

test('bytes written to stdout are only written over once stdout is done with them (a pipe that takes its time)', async () => {
  const dir = join(tmp, 'slow-stdout');
  cpSync(join(GOLDEN, 'matrix-flat/repo'), dir, { recursive: true });
  const elements = Array.from({ length: 8000 }, (_, i) => `          - name: app-${i}\n            env: env-${i % 7}\n`).join('');
  const appset = join(dir, 'appset.yaml');
  writeFileSync(
    appset,
    `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: many\nspec:\n  goTemplate: true\n  generators:\n    - list:\n        elements:\n${elements}  template:\n    metadata:\n      name: '{{ .name }}'\n    spec:\n      project: default\n      source:\n        repoURL: https://git.example.com/fleet.git\n        path: 'envs/{{ .env }}/{{ .name }}'\n      destination:\n        server: https://kubernetes.default.svc\n        namespace: '{{ .env }}'\n`,
  );
  const want = await cli(['appset', appset, '--repo', dir]);
  assert.equal(want.code, 0, want.stderr);
  assert.ok(Buffer.byteLength(want.stdout) > 2 << 20, 'three pieces or more, so an output buffer is reused');
  // stdout copies a chunk only a little later (as a pipe writes it when the reader is ready).
  const pieces: Buffer[] = [];
  const code = await runCli(['appset', appset, '--repo', dir], {
    stdout: { write: () => assert.fail('bytes go through stdoutBytes') },
    stdoutBytes: (chunk) => new Promise<void>((done) => setImmediate(() => (pieces.push(Buffer.from(chunk)), done()))),
    stderr: { write: () => true },
    env: {},
    cwd: process.cwd(),
  });
  assert.equal(code, 0);
  assert.ok(pieces.length >= 3);
  assert.equal(Buffer.concat(pieces).toString('utf8'), want.stdout);
});
