/**
 * Golden render trees (docs/adr/0160-golden-render-trees.md): `fleetplan render --out DIR` of the
 * example fleet and of one fixture per repository layout fleetplan reads, compared file by file
 * with test/golden/render/<case>/. Each case renders twice (the trees must be byte-identical) and
 * its tree must hold nothing that depends on the machine or the run. `UPDATE_GOLDEN=1 npm test`
 * rewrites the golden trees; review them as ordinary YAML diffs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { requireTools, tempDir, removeDir, toolEnv } from './helpers/tools.js';
import {
  checkGoldenTree,
  compareTrees,
  formatDifferences,
  lineDiff,
  readTreeBytes,
  renderWithCli,
  runBuiltCli,
  runDependentContent,
  updatingGolden,
  writeGolden,
} from './helpers/golden-tree.js';
import { buildSeed004Repo } from './support/seed004-repo.js';

interface GoldenCase {
  /** Folder under test/golden/render/. */
  name: string;
  /** The layout `plan -o json` must report, so that a fixture is never silently read as another layout. */
  layout: 'native' | 'gitops-standards' | 'region-specs' | 'helmfile-flux' | 'validated-patterns';
  /** The repository to render: a path relative to the checkout, or one prepared in the case's temp dir. */
  repo: (tmp: string) => string;
}

const CASES: GoldenCase[] = [
  { name: 'lab', layout: 'native', repo: () => 'examples/lab' },
  { name: 'seed-001-verbatim', layout: 'native', repo: () => 'test/fixtures/seed-001-verbatim' },
  {
    // gitops.delivery: applicationset, rendered from the three-commit repository the other seed 004
    // tests use (fixed authors and dates, so the pinned commits are the same on every machine).
    name: 'seed-004-applicationset',
    layout: 'native',
    repo: (tmp) => {
      const dir = join(tmp, 'seed-004');
      buildSeed004Repo(dir);
      return dir;
    },
  },
  { name: 'flux', layout: 'native', repo: () => 'test/fixtures/flux' },
  // The chart under .helm-charts/ is a stand-in of our own, so the reader builds both clusters with
  // the real kustomize and Helm from .tools/bin (the fallback of ADR 0080), not with its evaluator.
  { name: 'gitops-standards', layout: 'gitops-standards', repo: () => 'test/fixtures/gitops-standards' },
  { name: 'region-specs', layout: 'region-specs', repo: () => 'test/fixtures/region-specs' },
  { name: 'helmfile-flux', layout: 'helmfile-flux', repo: () => 'test/fixtures/helmfile-flux' },
  { name: 'validated-patterns', layout: 'validated-patterns', repo: () => 'test/fixtures/validated-patterns/pattern' },
];

async function layoutOf(repo: string, env: Record<string, string>): Promise<string> {
  const r = await runBuiltCli(['plan', '--repo', repo, '-o', 'json'], env);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { layout: string }).layout;
}

for (const c of CASES) {
  test(`render --out of ${c.name} (${c.layout} layout) equals test/golden/render/${c.name}, byte for byte, twice`, async (t) => {
    // The kustomize and Helm of .tools/bin, on a PATH and HOME of the test's own: no tool or
    // setting of the machine can change the tree (and gitops-standards fails if they are missing).
    requireTools();
    const tmp = tempDir('golden');
    try {
      const home = join(tmp, 'home');
      mkdirSync(home);
      const env = toolEnv(home);
      const repo = c.repo(tmp);
      const first = join(tmp, 'render-1');
      const second = join(tmp, 'render-2');
      // Independent runs, so at once: each renders into its own empty directory.
      const [layout] = await Promise.all([layoutOf(repo, env), renderWithCli(repo, first, env), renderWithCli(repo, second, env)]);
      assert.equal(layout, c.layout);
      const tree = readTreeBytes(first);
      const again = compareTrees(tree, readTreeBytes(second));
      assert.equal(again.length, 0, `two renders of ${c.name} differ:\n${formatDifferences(again, first)}`);
      const leaks = runDependentContent(tree, [process.cwd(), resolve(repo), tmp, resolve(tmp), homedir()]);
      assert.deepEqual(leaks, [], 'the rendered tree depends on the machine or the run');
      const diffs = checkGoldenTree(c.name, first);
      if (updatingGolden() && diffs.length > 0) {
        const count = (k: string) => diffs.filter((d) => d.kind === k).length;
        t.diagnostic(`UPDATE_GOLDEN: rewrote test/golden/render/${c.name}: ${count('changed')} changed, ${count('extra')} new, ${count('missing')} removed file(s)`);
      }
    } finally {
      removeDir(tmp);
    }
  });
}

// The helper itself: each kind of difference is reported, and readably.

function tree(files: Record<string, string>): Map<string, Buffer> {
  return new Map(Object.entries(files).map(([p, s]) => [p, Buffer.from(s)]));
}

test('compareTrees reports missing, extra and changed files by path, and nothing for equal trees', () => {
  const golden = tree({ 'a/apps/x.yaml': 'x: 1\n', 'a/apps/gone.yaml': 'g: 1\n', 'b/same.yaml': 's\n' });
  const rendered = tree({ 'a/apps/x.yaml': 'x: 2\n', 'a/apps/new.yaml': 'n: 1\n', 'b/same.yaml': 's\n' });
  assert.deepEqual(compareTrees(golden, rendered).map((d) => `${d.kind} ${d.path}`), ['missing a/apps/gone.yaml', 'extra a/apps/new.yaml', 'changed a/apps/x.yaml']);
  assert.deepEqual(compareTrees(golden, new Map(golden)), []);
});

test('a changed file is shown as a unified-style line diff, not as the whole file', () => {
  const before = Array.from({ length: 30 }, (_, i) => `line${i}: ${i}`);
  const after = [...before];
  after[10] = 'line10: ten';
  after.splice(20, 1);
  const d = lineDiff(before.join('\n') + '\n', after.join('\n') + '\n', 'hub/apps/x.yaml');
  assert.equal(
    d,
    [
      '--- golden/hub/apps/x.yaml',
      '+++ rendered/hub/apps/x.yaml',
      '@@ -8,7 +8,7 @@',
      ' line7: 7',
      ' line8: 8',
      ' line9: 9',
      '-line10: 10',
      '+line10: ten',
      ' line11: 11',
      ' line12: 12',
      ' line13: 13',
      '@@ -18,7 +18,6 @@',
      ' line17: 17',
      ' line18: 18',
      ' line19: 19',
      '-line20: 20',
      ' line21: 21',
      ' line22: 22',
      ' line23: 23',
    ].join('\n'),
  );
  assert.match(lineDiff('a\n', 'a', 'f'), /^-a\n\+a\\ \(no newline at end of file\)$/m);
});

test('a diff stops after the first 40 differing lines and says how many more there are', () => {
  const before = Array.from({ length: 100 }, (_, i) => `k${i}: old`).join('\n') + '\n';
  const after = Array.from({ length: 100 }, (_, i) => `k${i}: new`).join('\n') + '\n';
  const d = lineDiff(before, after, 'f.yaml');
  assert.equal(d.split('\n').filter((l) => /^[-+]k/.test(l)).length, 40);
  assert.match(d, /\n\.\.\. 160 more changed line\(s\) not shown$/);
});

test('checkGoldenTree fails with the report; UPDATE_GOLDEN=1 rewrites the golden tree exactly, stale files removed', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-golden-helper-'));
  const saved = process.env['UPDATE_GOLDEN'];
  try {
    const root = join(tmp, 'golden');
    const rendered = join(tmp, 'rendered');
    mkdirSync(join(rendered, 'hub', 'apps'), { recursive: true });
    writeFileSync(join(rendered, 'hub', 'apps', 'x.yaml'), 'x: 2\n');
    delete process.env['UPDATE_GOLDEN'];
    assert.throws(() => checkGoldenTree('case', rendered, root), /does not exist: run `UPDATE_GOLDEN=1 npm test`/);
    mkdirSync(join(root, 'case', 'hub', 'apps'), { recursive: true });
    writeFileSync(join(root, 'case', 'hub', 'apps', 'x.yaml'), 'x: 1\n');
    writeFileSync(join(root, 'case', 'hub', 'stale.yaml'), 'old\n');
    assert.throws(() => checkGoldenTree('case', rendered, root), (e: Error) => {
      assert.match(e.message, /in 2 file\(s\):\n {2}changed: hub\/apps\/x\.yaml\n {4}--- golden\/hub\/apps\/x\.yaml\n/);
      assert.match(e.message, /\n {4}-x: 1\n {4}\+x: 2\n/);
      assert.match(e.message, /\n {2}missing: hub\/stale\.yaml \(in the golden tree, not rendered\)/);
      return true;
    });
    process.env['UPDATE_GOLDEN'] = '1';
    assert.equal(checkGoldenTree('case', rendered, root).length, 2);
    assert.deepEqual([...readTreeBytes(join(root, 'case')).keys()], ['hub/apps/x.yaml']);
    assert.equal(readFileSync(join(root, 'case', 'hub', 'apps', 'x.yaml'), 'utf8'), 'x: 2\n');
    delete process.env['UPDATE_GOLDEN'];
    assert.deepEqual(checkGoldenTree('case', rendered, root), []);
    writeGolden(rendered, join(root, 'other'));
    assert.deepEqual(compareTrees(readTreeBytes(join(root, 'other')), readTreeBytes(rendered)), []);
  } finally {
    if (saved === undefined) delete process.env['UPDATE_GOLDEN'];
    else process.env['UPDATE_GOLDEN'] = saved;
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('runDependentContent finds absolute paths and file:// URLs in a tree', () => {
  const t = tree({ 'a.yaml': 'repoURL: file:///home/me/fleet\n', 'b.yaml': 'path: /work/x/fleet/apps\n', 'c.yaml': 'mountPath: /tmp\n' });
  assert.deepEqual(runDependentContent(t, ['/work/x']), ['a.yaml: a file:// URL', 'b.yaml: absolute path /work/x']);
});
