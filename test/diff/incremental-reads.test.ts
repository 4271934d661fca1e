// Read-sets of the incremental diff (docs/adr/0267-diff-read-sets.md): which changed paths touch
// what a revision's load read, how reads are recorded, and the invariant the records rest on —
// loading and validation read the repository only through the RepoFileSystem port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkoutSnapshot, fleetCheckout } from '../../src/adapters/git-snapshot.js';
import { treeFileSystem } from '../../src/adapters/git-tree-fs.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { git } from '../support/git.js';
import type { ChangedPath, ReadSet } from '../../src/api/diff-reads.js';
import { emptyReadSet, normalPath, readSetRecord, recordingFileSystem, touchedBy, touchedByRecord } from '../../src/api/diff-reads.js';
import type { RepoFileSystem } from '../../src/ports/filesystem.js';

const reads = (r: { content?: string[]; kind?: string[]; list?: string[] }): ReadSet => ({
  content: new Set(r.content ?? []),
  kind: new Set(r.kind ?? []),
  list: new Set(r.list ?? []),
  links: false,
  unknown: false,
});

const cases: { name: string; reads: ReadSet; changes: ChangedPath[]; touched: string | undefined }[] = [
  { name: 'a file whose content was read, modified', reads: reads({ content: ['clusters/a/cluster.yaml'] }), changes: [{ path: 'clusters/a/cluster.yaml', change: 'content' }], touched: 'clusters/a/cluster.yaml' },
  { name: 'a file only asked whether it exists, modified in place', reads: reads({ kind: ['components/x/kustomization.yaml'] }), changes: [{ path: 'components/x/kustomization.yaml', change: 'content' }], touched: undefined },
  { name: 'a file only asked whether it exists, deleted', reads: reads({ kind: ['components/x/kustomization.yaml'] }), changes: [{ path: 'components/x/kustomization.yaml', change: 'entry' }], touched: 'components/x/kustomization.yaml' },
  { name: 'a file added in a listed directory', reads: reads({ list: ['clusters'] }), changes: [{ path: 'clusters/new/cluster.yaml', change: 'entry' }], touched: 'clusters/new/cluster.yaml' },
  { name: 'a file added below a directory asked about (it may appear)', reads: reads({ kind: ['groups/edge'] }), changes: [{ path: 'groups/edge/group.yaml', change: 'entry' }], touched: 'groups/edge/group.yaml' },
  { name: 'an untracked directory above a file that was read', reads: reads({ content: ['groups/edge/group.yaml'] }), changes: [{ path: 'groups', change: 'entry' }], touched: 'groups' },
  { name: 'a file added in a directory nothing read', reads: reads({ content: ['fleet.yaml'], list: ['clusters'] }), changes: [{ path: 'docs/notes.md', change: 'entry' }], touched: undefined },
  { name: 'a modified file nothing read', reads: reads({ content: ['fleet.yaml'], list: ['clusters'] }), changes: [{ path: 'clusters/a/notes.md', change: 'content' }], touched: undefined },
  { name: 'a file added at the top when the root was listed', reads: reads({ list: [''] }), changes: [{ path: 'NOTES.md', change: 'entry' }], touched: 'NOTES.md' },
  { name: 'the second of two changes', reads: reads({ content: ['fleet.yaml'] }), changes: [{ path: 'README.md', change: 'content' }, { path: 'fleet.yaml', change: 'content' }], touched: 'fleet.yaml' },
];

for (const c of cases) {
  test(`read-sets: ${c.name}`, () => {
    assert.equal(touchedBy(c.reads, c.changes), c.touched);
    // The warm path's search of a record's sorted lists (docs/adr/0334) answers the same.
    assert.equal(touchedByRecord(readSetRecord(c.reads), c.changes), c.touched);
  });
}

test('read-sets: searching a record\'s sorted lists answers as the sets do, for every change near what was read', () => {
  // Paths that sort around each other ('a/b' < 'a/b.yaml' < 'a/b/c' < 'a/b0'), the root, and a non-ASCII name.
  const universe = ['', 'a', 'a/b', 'a/b.yaml', 'a/b/c', 'a/b/c/d.yaml', 'a/b0', 'a/b0/x', 'a-b', 'a-b/c', 'b', 'b/é.yaml', 'c/d/e/f'];
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const pick = () => universe.filter(() => random(4) === 0);
  for (let round = 0; round < 400; round++) {
    const r = reads({ content: pick(), kind: pick(), list: pick() });
    const changes: ChangedPath[] = [{ path: universe[random(universe.length)]!.replace(/^$/, 'a'), change: random(2) === 0 ? 'content' : 'entry' }];
    assert.equal(touchedByRecord(readSetRecord(r), changes), touchedBy(r, changes), JSON.stringify({ r: readSetRecord(r), changes }));
  }
});

test('read-sets: paths are recorded in one spelling, and a path leaving the root makes the set untrusted', () => {
  assert.equal(normalPath('./clusters//a/'), 'clusters/a');
  assert.equal(normalPath('.'), '');
  assert.equal(normalPath('a/../b'), 'b');
  assert.equal(normalPath('../x'), undefined);
  const fake: RepoFileSystem = { root: '/r', readText: () => 'x', exists: () => true, isDirectory: () => false, list: () => ['b'], outsideLinks: () => [] };
  const r = emptyReadSet();
  const fs = recordingFileSystem(fake, r);
  assert.equal(fs.readText('./a/f.yaml'), 'x');
  assert.equal(fs.exists('a/g.yaml'), true);
  assert.equal(fs.isDirectory('a/h'), false);
  assert.deepEqual(fs.list('a/'), ['b']);
  assert.deepEqual(fs.outsideLinks?.(), []);
  assert.deepEqual([[...r.content], [...r.kind], [...r.list], r.links, r.unknown], [['a/f.yaml'], ['a/g.yaml', 'a/h'], ['a'], true, false]);
  fs.readText('../outside');
  assert.equal(r.unknown, true);
});

// The records are exact only while loading and validation read files through the port: a stage
// that read the disk, ran a process or looked at the environment would read what no read-set saw.
const STAGES = ['model', 'yaml', 'appset', 'load', 'layering', 'generate', 'order', 'render', 'validate', 'layouts'];
const FORBIDDEN = [/from ['"](node:)?(fs|fs\/promises|child_process)['"]/, /\bprocess\.env\b/, /\bprocess\.cwd\(/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

test('loading, resolution and validation read no file, process or environment but through their ports', () => {
  const offending: string[] = [];
  for (const stage of STAGES) {
    for (const file of sources(join('src', stage))) {
      const text = readFileSync(file, 'utf8');
      for (const re of FORBIDDEN) if (re.test(text)) offending.push(`${file}: ${re.source}`);
    }
  }
  assert.deepEqual(offending, []);
});

// A revision read from git's objects (docs/adr/0296-diff-tree-reads.md) answers every question as
// the checkout of it does, and notes a doubt where it cannot.
test('a revision read from git objects answers as its checkout does; anything else is a doubt', async () => {
  const dir = writeTree({
    'fleet.yaml': 'kind: Fleet\n',
    'clusters/a/cluster.yaml': 'name: a\n',
    'components/x/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/x/cm.yaml': '\ufeffdata: "ünïcode"\n',
    'components/x/sub/deep.yaml': 'deep: true\n',
    'README.md': 'r\n',
  });
  try {
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'first');
    const where = await fleetCheckout(dir);
    const commit = git(dir, 'rev-parse', 'HEAD');
    const snapshot = await checkoutSnapshot(where, commit);
    const tree = treeFileSystem(where, commit, ['fleet.yaml', 'components/x/cm.yaml', 'no/such.yaml']);
    assert.ok(tree, 'a tree without links is served');
    try {
      const disk = nodeFileSystem(snapshot.root);
      assert.equal(basename(tree.fs.root), basename(snapshot.root), 'the same directory name (layouts may name the fleet after it)');
      const paths = ['', '.', '.git', 'fleet.yaml', 'clusters', 'clusters/a', 'clusters/a/cluster.yaml', 'components/x', 'components/x/sub', 'components/x/cm.yaml', 'components/x/cm.yaml/z', 'missing', 'missing/deeper', 'README.md'];
      for (const p of paths) {
        assert.equal(tree.fs.exists(p), disk.exists(p), `exists(${p})`);
        assert.equal(tree.fs.isDirectory(p), disk.isDirectory(p), `isDirectory(${p})`);
        if (p !== '.git') assert.deepEqual(tree.fs.list(p), disk.list(p), `list(${p})`);
      }
      for (const p of ['fleet.yaml', 'components/x/cm.yaml', 'components/x/sub/deep.yaml', 'README.md']) assert.equal(tree.fs.readText(p), disk.readText(p), `readText(${p})`);
      assert.deepEqual(tree.fs.outsideLinks?.(), disk.outsideLinks?.());
      assert.equal(tree.doubt(), undefined, 'every question so far was answered as the checkout answers it');
      assert.throws(() => tree.fs.readText('missing.yaml'));
      assert.equal(tree.doubt(), 'missing.yaml', 'a read of a missing file is a doubt (the checkout\'s error is not reproduced)');
    } finally {
      tree.close();
      snapshot.close();
    }
    for (const odd of ['a/../fleet.yaml', './fleet.yaml', 'clusters/', '.git/config', '/etc/passwd']) {
      const t = treeFileSystem(where, commit, [])!;
      try {
        t.fs.exists(odd);
        assert.equal(t.doubt(), odd, `${odd}: not in the canonical form, a doubt`);
      } finally {
        t.close();
      }
    }
    symlinkSync('fleet.yaml', join(dir, 'link.yaml'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'link');
    assert.equal(treeFileSystem(where, git(dir, 'rev-parse', 'HEAD'), []), undefined, 'a tree holding a symlink is not served');
    // Attributes may make the checkout's bytes differ from the blob's (eol, filters): not served either.
    git(dir, 'rm', '-q', 'link.yaml');
    writeTree({ 'components/.gitattributes': '*.yaml text eol=crlf\n' }, dir);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'attributes');
    assert.equal(treeFileSystem(where, git(dir, 'rev-parse', 'HEAD'), []), undefined, 'a tree holding .gitattributes is not served');
  } finally {
    removeTree(dir);
  }
});
