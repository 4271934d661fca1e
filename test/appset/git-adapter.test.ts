// The git adapter reads a real repository (a throwaway one per test run) at a revision, and the
// working tree when no revision is given; the pathspec matcher agrees with `git ls-files`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createLocalGitTree } from '../../src/adapters/git.js';
import { createRepoServer } from '../../src/appset/repo-server.js';
import { compileGitPathspec } from '../../src/appset/glob.js';

const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (dir: string, ...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { env, encoding: 'utf8' }).trim();

const root = mkdtempSync(join(tmpdir(), 'fleetplan-git-'));
after(() => rmSync(root, { recursive: true, force: true }));

function write(dir: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
}

const repo = join(root, 'repo');
mkdirSync(repo);
git(repo, 'init', '-q', '-b', 'main');
write(repo, {
  'apps/a/config.json': '{"v": 1}',
  'apps/b/config.json': '{"v": 2}',
  'apps/b/sub/config.json': '{"v": 3}',
  '.hidden/x/config.json': '{}',
  'README.md': 'hi',
});
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'one');
const first = git(repo, 'rev-parse', 'HEAD');
git(repo, 'tag', 'v1');
write(repo, { 'apps/c/config.json': '{"v": 4}', 'apps/a/config.json': '{"v": 10}' });
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'two');
// Working-tree changes, not committed.
write(repo, { 'apps/d/config.json': '{"v": 5}', 'apps/a/config.json': '{"v": 100}' });

test('reads files and directories at a commit, not the working tree', async () => {
  const tree = createLocalGitTree(repo);
  try {
    const server = createRepoServer(tree);
    assert.deepEqual(await server.getDirectories('https://example.com/any.git', first), ['apps', 'apps/a', 'apps/b', 'apps/b/sub']);
    const files = await server.getFiles('any', 'v1', 'apps/*/config.json', 'pathspec');
    assert.deepEqual([...files.entries()], [
      ['apps/a/config.json', '{"v": 1}'],
      ['apps/b/config.json', '{"v": 2}'],
      ['apps/b/sub/config.json', '{"v": 3}'],
    ]);
    const head = await server.getFiles('any', 'HEAD', 'apps/*/config.json', 'doublestar');
    assert.deepEqual([...head.keys()], ['apps/a/config.json', 'apps/b/config.json', 'apps/c/config.json']);
    assert.equal(head.get('apps/a/config.json'), '{"v": 10}');
    const main = await server.getFiles('any', 'main', 'apps/c/config.json', 'pathspec');
    assert.equal(main.get('apps/c/config.json'), '{"v": 4}');
  } finally {
    tree.close();
  }
});

test('reads the working tree when no revision is given', async () => {
  const tree = createLocalGitTree(repo);
  try {
    const server = createRepoServer(tree);
    assert.deepEqual(await server.getDirectories('any', ''), ['apps', 'apps/a', 'apps/b', 'apps/b/sub', 'apps/c', 'apps/d']);
    const files = await server.getFiles('any', '', 'apps/**/config.json', 'doublestar');
    assert.equal(files.get('apps/a/config.json'), '{"v": 100}');
    assert.equal(files.get('apps/d/config.json'), '{"v": 5}');
  } finally {
    tree.close();
  }
});

test('rejects an unknown revision with an input error', async () => {
  const tree = createLocalGitTree(repo);
  try {
    await assert.rejects(tree.listFiles('any', 'no-such-branch'), { name: 'InputError', message: /revision "no-such-branch" not found/ });
  } finally {
    tree.close();
  }
});

test('rejects a directory that is not a git repository', async () => {
  const notRepo = join(root, 'plain');
  mkdirSync(notRepo, { recursive: true });
  const tree = createLocalGitTree(notRepo);
  try {
    await assert.rejects(tree.listFiles('any', 'HEAD'), { name: 'InputError', message: /is not a git repository/ });
  } finally {
    tree.close();
  }
});

test('reads many files through one cat-file process', async () => {
  const big = join(root, 'big');
  mkdirSync(big);
  git(big, 'init', '-q', '-b', 'main');
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`d${i % 7}/f${i}.yaml`] = `i: ${i}\n${'x'.repeat(i * 37)}\n`;
  write(big, files);
  git(big, 'add', '-A');
  git(big, 'commit', '-q', '-m', 'many');
  const tree = createLocalGitTree(big);
  try {
    const got = await createRepoServer(tree).getFiles('any', 'HEAD', '**/*.yaml', 'doublestar');
    assert.equal(got.size, 300);
    for (const [p, c] of Object.entries(files)) assert.equal(got.get(p), c, p);
  } finally {
    tree.close();
  }
});

test('the pathspec matcher agrees with git ls-files', () => {
  const spec = join(root, 'pathspec');
  mkdirSync(spec);
  git(spec, 'init', '-q', '-b', 'main');
  const paths = [
    'cluster-charts/cluster1/mychart/charts/mysubchart/values.yaml',
    'cluster-charts/cluster1/mychart/values.yaml',
    'cluster-charts/cluster1/myotherchart/values.yaml',
    'cluster-charts/cluster2/values.yaml',
    'some-path/values.yaml',
    'some-path/staging/values.yaml',
    'p1/config.json',
    'p1/p2/config.json',
    'p1/app2/config.json',
    'config.json',
    'a[1]/b.txt',
    'x?y/z.json',
  ];
  write(spec, Object.fromEntries(paths.map((p) => [p, 'x'])));
  git(spec, 'add', '-A');
  const patterns = [
    'cluster-charts/*/*/values.yaml',
    'cluster-charts/*/values.yaml',
    'some-path/*.yaml',
    '**/config.json',
    'p1/**/config.json',
    'p1',
    'p1/',
    'config.json',
    '*.json',
    'p?/config.json',
    'p[0-9]/config.json',
    'p[!2]/*',
    'a[1]/b.txt',
    'x\\?y/*',
    'cluster-charts',
    './p1/*.json',
  ];
  for (const pattern of patterns) {
    const want = execFileSync('git', ['-C', spec, 'ls-files', '-z', '--', pattern], { env, encoding: 'utf8' }).split('\0').filter(Boolean).sort();
    const m = compileGitPathspec(pattern);
    assert.deepEqual(paths.filter((p) => m(p)).sort(), want, pattern);
  }
});
