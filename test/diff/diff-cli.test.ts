// fleetplan diff on real git repositories built here: one base commit on main, then a change
// (uncommitted, or committed on a branch). Each case's text, JSON, Markdown and HTML reports are golden
// files under test/golden/diff/<case>/ (UPDATE_GOLDEN=1 rewrites them; review the diff). Commit
// dates and authors are fixed, so commit SHAs (and the reports that name them) are too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { git } from '../support/git.js';
import { diffGolden as golden, edit } from '../support/diff-repo.js';

const TOOLS = resolve('.tools/bin');


const cluster = (name: string, role: string, sector: string, groups: string[], extra = '') =>
  `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
spec:
  role: ${role}
${role === 'spoke' ? '  hub: hub\n' : ''}  sector: ${sector}
  groups: [${groups.join(', ')}]
${extra}`;

const fleetYaml = (pin: string) => `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: t
spec:
  repoURL: https://git.example.com/fleet.git
  revision: main
  sectors:
    - name: canary
    - name: production
      revision: ${pin}
  defaults:
    project: platform
`;

const GROUP = `apiVersion: fleetplan.io/v1alpha1
kind: Group
metadata:
  name: base
spec:
  apps:
    operator:
      path: components/operator
      namespace: op
      wave: 5
    config:
      path: components/config
      namespace: op
      needs: [operator]
    monitoring:
      path: components/monitoring
      namespace: monitoring
      wave: 10
`;

const EDGE = `apiVersion: fleetplan.io/v1alpha1
kind: Group
metadata:
  name: edge
spec:
  apps:
    ingress:
      path: components/ingress
      namespace: ingress
      wave: 15
`;

const configMap = (name: string, data: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
data:
  ${data}
`;

/**
 * The base commit (main): a hub and an edge spoke in sector canary (unpinned), and a spoke in
 * sector production, which pins the first commit (an older fleet: only the hub and prod-1).
 */
function makeRepo(): { dir: string; first: string } {
  const dir = writeTree({
    'fleet.yaml': fleetYaml('main'),
    'groups/base/group.yaml': GROUP,
    'groups/edge/group.yaml': EDGE,
    'clusters/hub/cluster.yaml': cluster('hub', 'hub', 'canary', ['base']),
    'clusters/prod-1/cluster.yaml': cluster('prod-1', 'spoke', 'production', ['base']),
    'components/operator/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/operator/cm.yaml': configMap('operator-settings', 'level: info'),
    'components/config/kustomization.yaml': 'resources: [cm.yaml, secret.yaml]\n',
    'components/config/cm.yaml': configMap('config', 'mode: a'),
    'components/config/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\nstringData:\n  token: first-secret\n',
    'components/monitoring/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/monitoring/cm.yaml': configMap('monitoring', 'retention: 7d'),
    'components/ingress/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/ingress/cm.yaml': configMap('ingress', 'class: nginx'),
  });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  const first = git(dir, 'rev-parse', 'HEAD');
  writeTree(
    {
      'fleet.yaml': fleetYaml(first),
      'clusters/edge-1/cluster.yaml': cluster('edge-1', 'spoke', 'canary', ['base', 'edge']),
    },
    dir,
  );
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return { dir, first };
}



interface Case {
  name: string;
  /** Changes the working tree (and may commit); returns extra diff arguments. */
  change(dir: string, first: string): string[] | void;
  /** The exit code with --exit-code. */
  exit: 0 | 1;
  check?(json: JsonDiff): void;
}

interface JsonDiff {
  clusters: { name: string; status: string; objects: { change: string; name: string; fields: { path: string; from?: unknown; to?: unknown }[] }[]; order: { what: string; app?: string; from: unknown; to: unknown }[]; leaves?: { app: string; change: string; diff: string }[]; pending?: { added: number; changed: number; removed: number } }[];
  findings: { introduced: { code: string }[]; fixed: { code: string }[] };
  summary: { changes: boolean };
}

const byName = (j: JsonDiff, n: string) => j.clusters.find((c) => c.name === n)!;

const cases: Case[] = [
  {
    name: 'group-value',
    change: (dir) => edit(dir, 'groups/edge/group.yaml', 'namespace: ingress', 'namespace: ingress-nginx'),
    exit: 1,
    check: (j) => {
      const edge = byName(j, 'edge-1');
      assert.equal(edge.status, 'changed');
      assert.deepEqual(edge.objects.map((o) => [o.change, o.name, o.fields.map((f) => [f.path, f.from, f.to])]), [
        ['changed', 'ingress', [['spec.destination.namespace', 'ingress', 'ingress-nginx']]],
      ]);
      assert.equal(byName(j, 'hub').status, 'unchanged');
    },
  },
  {
    name: 'wave',
    change: (dir) => edit(dir, 'groups/base/group.yaml', 'wave: 10', 'wave: 20'),
    exit: 1,
    check: (j) => {
      assert.deepEqual(byName(j, 'hub').order, [{ what: 'wave', app: 'monitoring', from: 10, to: 20 }]);
    },
  },
  {
    name: 'added-cluster',
    change: (dir) => writeTree({ 'clusters/edge-2/cluster.yaml': cluster('edge-2', 'spoke', 'canary', ['base', 'edge']) }, dir) && undefined,
    exit: 1,
    check: (j) => assert.equal(byName(j, 'edge-2').status, 'added'),
  },
  {
    name: 'removed-app',
    change: (dir) => edit(dir, 'clusters/edge-1/cluster.yaml', 'groups: [base, edge]\n', 'groups: [base, edge]\n  apps:\n    monitoring:\n      enabled: false\n'),
    exit: 1,
    check: (j) => assert.deepEqual(byName(j, 'edge-1').objects.map((o) => [o.change, o.name]), [['removed', 'monitoring']]),
  },
  {
    name: 'leaves',
    change: (dir) => {
      edit(dir, 'components/operator/cm.yaml', 'level: info', 'level: debug');
      edit(dir, 'components/config/secret.yaml', 'first-secret', 'second-secret');
      return ['--leaves', '--cluster', 'hub'];
    },
    exit: 1,
    check: (j) => {
      const hub = byName(j, 'hub');
      assert.deepEqual(hub.objects, [], 'the Applications do not change: only the leaves do');
      assert.deepEqual(hub.leaves!.map((l) => [l.app, l.change]), [['config', 'changed'], ['operator', 'changed']]);
      const text = JSON.stringify(hub.leaves);
      assert.ok(!text.includes('first-secret') && !text.includes('second-secret'), 'Secret values are redacted');
    },
  },
  {
    name: 'pinned-sector',
    change: (dir) => edit(dir, 'groups/base/group.yaml', 'path: components/config', 'path: components/config-v2'),
    exit: 1,
    check: (j) => {
      const prod = byName(j, 'prod-1');
      assert.equal(prod.status, 'pinned');
      assert.deepEqual(prod.pending, { added: 0, changed: 1, removed: 0 });
      assert.equal(byName(j, 'hub').status, 'changed');
    },
  },
  {
    name: 'promotion',
    // Moving production's pin from the first commit to the base commit: prod-1 gets edge-less base content at the new pin.
    change: (dir) => {
      edit(dir, 'clusters/prod-1/cluster.yaml', 'groups: [base]', 'groups: [base, edge]');
      git(dir, 'commit', '-q', '-am', 'prod-1 joins edge');
      const head = git(dir, 'rev-parse', 'HEAD');
      git(dir, 'checkout', '-q', '-b', 'promote');
      edit(dir, 'fleet.yaml', /revision: [0-9a-f]{40}/, `revision: ${head}`);
      git(dir, 'commit', '-q', '-am', 'promote production');
      return ['--from', 'main', '--to', 'promote', '--cluster', 'prod-1'];
    },
    exit: 1,
    check: (j) => {
      const prod = byName(j, 'prod-1');
      assert.equal(prod.status, 'changed');
      assert.ok(prod.objects.some((o) => o.change === 'added' && o.name === 'ingress'), 'the app of the new pin');
    },
  },
  {
    name: 'introduces-finding',
    change: (dir) => edit(dir, 'groups/base/group.yaml', 'needs: [operator]', 'needs: [operator, missing]'),
    exit: 1,
    check: (j) => assert.deepEqual([j.findings.introduced.map((f) => f.code), j.findings.fixed.length], [['unknown-need'], 0]),
  },
  {
    name: 'fixes-finding',
    change: (dir) => {
      edit(dir, 'groups/base/group.yaml', 'needs: [operator]', 'needs: [operator, missing]');
      git(dir, 'commit', '-q', '-am', 'broken');
      // Lines above the finding shift: it is still matched (fixed), not reported as new.
      edit(dir, 'groups/base/group.yaml', 'needs: [operator, missing]', 'needs: [operator]');
      edit(dir, 'groups/base/group.yaml', 'spec:\n', 'spec:\n  # shifted\n');
      return ['--from', 'HEAD'];
    },
    exit: 1,
    check: (j) => assert.deepEqual([j.findings.introduced.length, j.findings.fixed.map((f) => f.code)], [0, ['unknown-need']]),
  },
  {
    name: 'no-change',
    change: () => undefined,
    exit: 0,
    check: (j) => assert.equal(j.summary.changes, false),
  },
];

for (const c of cases) {
  test(`diff: ${c.name} — text, JSON, Markdown and HTML as the golden files; --exit-code ${c.exit}`, async () => {
    const { dir, first } = makeRepo();
    const home = join(tmpdir(), `fleetplan-diff-home-${process.pid}`);
    const env = { PATH: `${TOOLS}:/usr/local/bin:/usr/bin:/bin`, HOME: home, NO_COLOR: '1' };
    try {
      const extra = c.change(dir, first) ?? [];
      const args = ['diff', '--repo', dir, ...extra];
      const withCache = extra.includes('--leaves') ? ['--cache-dir', join(home, 'cache')] : [];
      const head = git(dir, 'status', '--porcelain');
      for (const [format, file] of [['text', 'text.txt'], ['json', 'diff.json'], ['markdown', 'comment.md'], ['html', 'report.html']] as const) {
        const r = await cli([...args, ...withCache, '-o', format], process.cwd(), env);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(!r.stdout.includes(dir) && !r.stdout.includes(tmpdir() + '/fleetplan-diff'), 'no temporary path in the report');
        golden(c.name, file, r.stdout);
        if (format === 'json') c.check?.(JSON.parse(r.stdout) as JsonDiff);
      }
      const r = await cli([...args, ...withCache, '--exit-code'], process.cwd(), env);
      assert.equal(r.code, c.exit, r.stderr);
      // The working tree, index and refs are as they were.
      assert.equal(git(dir, 'status', '--porcelain'), head);
      assert.equal(git(dir, 'worktree', 'list').split('\n').length, 1);
    } finally {
      removeTree(dir);
      rmSync(home, { recursive: true, force: true });
    }
  });
}

test('validate --base: only the findings the working tree introduces and fixes, exit 1 on a new error', async () => {
  const { dir } = makeRepo();
  try {
    edit(dir, 'groups/base/group.yaml', 'needs: [operator]', 'needs: [operator, missing]');
    const r = await cli(['validate', '--repo', dir, '--base', 'main', '-o', 'json'], process.cwd(), { NO_COLOR: '1' });
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as { introduced: { code: string }[]; fixed: unknown[]; summary: { introduced: number } };
    assert.deepEqual([doc.introduced.map((f) => f.code), doc.fixed], [['unknown-need'], []]);
    const text = await cli(['validate', '--repo', dir, '--base', 'main'], process.cwd(), { NO_COLOR: '1' });
    assert.match(text.stdout, /^compared with main \([0-9a-f]{12}\): 1 introduced, 0 fixed\n\+ error: groups\/base\/group\.yaml:14:\d+ spec\.apps\.config\.needs\[1\]: .*\[unknown-need\]\n$/);
    // Nothing new (the existing warnings and errors of the base are not listed): exit 0.
    git(dir, 'checkout', '-q', '--', '.');
    const clean = await cli(['validate', '--repo', dir, '--base', 'main'], process.cwd(), { NO_COLOR: '1' });
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stdout, /: 0 introduced, 0 fixed\n$/);
  } finally {
    removeTree(dir);
  }
});

test('diff: an unknown revision is an input error (exit 2), also with --exit-code', async () => {
  const { dir } = makeRepo();
  try {
    const r = await cli(['diff', '--repo', dir, '--from', 'no-such-branch', '--exit-code']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /revision "no-such-branch" is not a commit of/);
  } finally {
    removeTree(dir);
  }
});

test('diff: a sector that names the fleet\'s branch is not a pin: the change reaches its clusters', async () => {
  const { dir } = makeRepo();
  try {
    edit(dir, 'fleet.yaml', /revision: [0-9a-f]{40}/, 'revision: origin/main');
    git(dir, 'commit', '-q', '-am', 'production follows main');
    edit(dir, 'groups/base/group.yaml', 'wave: 10', 'wave: 20');
    const r = await cli(['diff', '--repo', dir, '--from', 'HEAD', '-o', 'json', '--cluster', 'prod-1']);
    assert.equal(r.code, 0, r.stderr);
    const prod = byName(JSON.parse(r.stdout) as JsonDiff, 'prod-1');
    assert.equal(prod.status, 'changed');
    assert.deepEqual(prod.order, [{ what: 'wave', app: 'monitoring', from: 10, to: 20 }]);
  } finally {
    removeTree(dir);
  }
});
