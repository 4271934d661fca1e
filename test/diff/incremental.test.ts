// Incremental diff (docs/adr/0245-incremental-diff.md): only the clusters whose inputs differ are
// rendered, and the result equals the full comparison (every cluster rendered on both sides) on
// each change below. Real git repositories made here; the progress line says how many clusters
// were rendered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { diffFleet } from '../../src/api/diff.js';
import type { DiffOptions } from '../../src/api/diff.js';
import type { FleetDiff } from '../../src/diff/index.js';
import { diffJson } from '../../src/diff/index.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { git } from '../support/git.js';
import { edit } from '../support/diff-repo.js';

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
  vars:
    ZONE: ${name}-zone
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

const BASE = `apiVersion: fleetplan.io/v1alpha1
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
  zone: \${ZONE}
`;

/** main: a hub, edge-1 and edge-2 (canary, unpinned), core-1 (canary, base only), prod-1 (production, pinned to the first commit). */
function makeRepo(): { dir: string; first: string } {
  const dir = writeTree({
    'fleet.yaml': fleetYaml('main'),
    'README.md': 'the fleet\n',
    'groups/base/group.yaml': BASE,
    'groups/edge/group.yaml': EDGE,
    'clusters/hub/cluster.yaml': cluster('hub', 'hub', 'canary', ['base']),
    'clusters/prod-1/cluster.yaml': cluster('prod-1', 'spoke', 'production', ['base']),
    'components/operator/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/operator/cm.yaml': configMap('operator-settings', 'level: info'),
    'components/config/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/config/cm.yaml': configMap('config', 'mode: a'),
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
      'clusters/edge-2/cluster.yaml': cluster('edge-2', 'spoke', 'canary', ['base', 'edge']),
      'clusters/core-1/cluster.yaml': cluster('core-1', 'spoke', 'canary', ['base']),
    },
    dir,
  );
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return { dir, first };
}

const secret = (value: string) => `apiVersion: v1
kind: Secret
metadata:
  name: ingress-credentials
stringData:
  password: ${value}
  user: admin
`;


/** The diff both ways, and how many clusters the incremental one rendered (from its progress line). */
async function both(options: DiffOptions): Promise<{ full: FleetDiff; incremental: FleetDiff; rendered: number; of: number }> {
  const full = await diffFleet({ ...options, full: true });
  const { diff: incremental, rendered, of } = await counted(options);
  return { full, incremental, rendered, of };
}

/** The incremental diff, how many clusters it rendered and whether it answered from the records of a previous run (its progress lines). */
async function counted(options: DiffOptions): Promise<{ diff: FleetDiff; rendered: number; of: number; fromRecords: boolean; lines: string[] }> {
  const lines: string[] = [];
  const diff = await diffFleet({ ...options, onProgress: (m) => lines.push(m) });
  const line = lines.find((l) => /^rendering \d+ of \d+ clusters/.test(l));
  assert.ok(line, `no progress line saying what was rendered in: ${lines.join(' | ')}`);
  const [, rendered, of] = /^rendering (\d+) of (\d+)/.exec(line)!;
  return { diff, rendered: Number(rendered), of: Number(of), fromRecords: !lines.some((l) => l.startsWith('reading ')), lines };
}

/**
 * The diff with a record cache (docs/adr/0267-diff-read-sets.md), twice: the first run fills it,
 * the second reads it. Both must equal the full diff (as the JSON document, which is what a user
 * sees: findings read back from a record have no keys whose value is undefined).
 */
async function withRecords(options: DiffOptions, full: FleetDiff): Promise<{ cold: boolean; warm: boolean; lines: string[] }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'fleetplan-diffinc-records-'));
  try {
    const cold = await counted({ ...options, cacheDir });
    assert.equal(diffJson(cold.diff), diffJson(full), 'the run that fills the records');
    const warm = await counted({ ...options, cacheDir });
    assert.equal(diffJson(warm.diff), diffJson(full), 'the run that reads the records');
    assert.deepEqual(warm.diff.clusters, full.clusters);
    return { cold: cold.fromRecords, warm: warm.fromRecords, lines: warm.lines };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

interface Case {
  name: string;
  /** Committed into the base before the change (both sides have it). */
  setup?(dir: string): void;
  change(dir: string, first: string): DiffOptions['from'] | void;
  /** Clusters the incremental diff renders (on either side). */
  rendered: number;
  /** Clusters whose status is not unchanged/pinned, as a check that the change shows. */
  changed: string[];
  leaves?: boolean;
  /** Whether the change introduces or fixes a finding. */
  findings?: boolean;
  /** Whether a second run answers from the records of the first without reading both revisions (loading reads nothing that changed). */
  fromRecords: boolean;
}

const cases: Case[] = [
  {
    // Every cluster reads groups/base: all of them are rendered.
    name: 'a change to a shared group file',
    change: (dir) => edit(dir, 'groups/base/group.yaml', 'wave: 5', 'wave: 6'),
    rendered: 5,
    changed: ['hub', 'core-1', 'edge-1', 'edge-2'],
    fromRecords: false,
  },
  {
    // Only the edge clusters read groups/edge; the hub's provisioning names its spokes, so it is rendered too.
    name: 'a change to a group only some clusters read',
    change: (dir) => edit(dir, 'groups/edge/group.yaml', 'namespace: ingress', 'namespace: ingress-nginx'),
    rendered: 3,
    changed: ['edge-1', 'edge-2'],
    fromRecords: false,
  },
  {
    // Only core-1 reads its cluster file (and its hub, whose provisioning reads the spoke's definition).
    name: 'a change to a file only one cluster reads',
    change: (dir) => edit(dir, 'clusters/core-1/cluster.yaml', 'ZONE: core-1-zone', 'ZONE: core-1-zone\n  apps:\n    config:\n      wave: 9'),
    rendered: 2,
    changed: ['core-1'],
    fromRecords: false,
  },
  {
    name: 'a change with no effect on any cluster (README, component content without --leaves)',
    change: (dir) => {
      edit(dir, 'README.md', 'the fleet', 'the fleet, edited');
      edit(dir, 'components/ingress/cm.yaml', 'class: nginx', 'class: haproxy');
    },
    rendered: 0,
    changed: [],
    fromRecords: true,
  },
  {
    name: 'a change in fleet.yaml (every cluster reads it)',
    change: (dir) => edit(dir, 'fleet.yaml', 'project: platform', 'project: platform\n    annotations:\n      team: core'),
    rendered: 5,
    changed: ['hub', 'core-1', 'edge-1', 'edge-2'],
    fromRecords: false,
  },
  {
    name: 'an added and a removed cluster, committed on a branch',
    change: (dir) => {
      git(dir, 'checkout', '-q', '-b', 'change');
      rmSync(join(dir, 'clusters/edge-2'), { recursive: true });
      writeTree({ 'clusters/edge-3/cluster.yaml': cluster('edge-3', 'spoke', 'canary', ['base', 'edge']) }, dir);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'change');
      return 'main';
    },
    // edge-3 (added), edge-2 (removed), and the hub whose spokes changed (its objects do not name them).
    rendered: 3,
    changed: ['edge-3', 'edge-2'],
    fromRecords: false,
  },
  {
    // The production sector's pin moves from the first commit to main's: prod-1 is compared at both pins.
    name: 'a pinned sector promoted',
    change: (dir) => {
      const head = git(dir, 'rev-parse', 'HEAD');
      edit(dir, 'fleet.yaml', /revision: [0-9a-f]{40}/, `revision: ${head}`);
    },
    rendered: 5,
    changed: ['prod-1'],
    fromRecords: false,
  },
  {
    // Component content is seen only with --leaves; the clusters that build it show it.
    name: 'a component change with --leaves',
    change: (dir) => edit(dir, 'components/ingress/cm.yaml', 'class: nginx', 'class: haproxy'),
    rendered: 0,
    changed: ['edge-1', 'edge-2'],
    leaves: true,
    fromRecords: false,
  },
  {
    // A Secret in a component: its values are redacted on both sides, the changed key marked (leaf files compared in memory).
    name: 'a Secret changed in a component, with --leaves',
    setup: (dir) => writeTree({ 'components/ingress/kustomization.yaml': 'resources: [cm.yaml, secret.yaml]\n', 'components/ingress/secret.yaml': secret('s3cr3t-old') }, dir),
    change: (dir) => edit(dir, 'components/ingress/secret.yaml', 's3cr3t-old', 's3cr3t-new'),
    rendered: 0,
    changed: ['edge-1', 'edge-2'],
    leaves: true,
    fromRecords: false,
  },
  {
    // A cluster's variables reach its leaves: only that cluster's leaves differ, the others' files are the same on both sides.
    name: 'a cluster variable change, with --leaves',
    change: (dir) => edit(dir, 'clusters/core-1/cluster.yaml', 'ZONE: core-1-zone', 'ZONE: core-1-zone-b'),
    rendered: 2,
    changed: ['core-1'],
    leaves: true,
    fromRecords: false,
  },
  {
    // A leaf build that fails on both sides (a resource that is not there) is noted once, as the full diff notes it, beside a change that builds.
    name: 'a leaf build failing on both sides beside a changed one, with --leaves',
    change: (dir) => edit(dir, 'components/config/cm.yaml', 'mode: a', 'mode: b'),
    setup: (dir) => writeTree({ 'components/operator/kustomization.yaml': 'resources: [cm.yaml, missing.yaml]\n' }, dir),
    rendered: 0,
    changed: ['hub', 'core-1', 'edge-1', 'edge-2'],
    leaves: true,
    fromRecords: false,
  },
  {
    // The production sector's pin removed: prod-1 goes from what the pin holds to main. Its side at
    // the pin is built at the pin, so its leaves are compared with main's built objects even where
    // main's files are the same on both sides of the change (docs/adr/0354).
    name: 'a pin removed, with --leaves',
    change: (dir, first) => edit(dir, 'fleet.yaml', `      revision: ${first}\n`, ''),
    setup: (dir) => edit(dir, 'components/operator/cm.yaml', 'level: info', 'level: debug'),
    rendered: 5,
    changed: ['prod-1'],
    leaves: true,
    // The pin's removal changes a finding (the sector no longer pins a commit).
    findings: true,
    fromRecords: false,
  },
  {
    // A component removed from a group's app: that app's leaves are removed, object by object.
    name: 'a component emptied, with --leaves',
    change: (dir) => {
      writeTree({ 'components/ingress/kustomization.yaml': 'resources: []\n' }, dir);
    },
    rendered: 0,
    changed: ['edge-1', 'edge-2'],
    leaves: true,
    fromRecords: false,
  },
  {
    // Nothing loading or validation reads: the records answer, nothing is loaded.
    name: 'a change to a file nothing reads',
    change: (dir) => edit(dir, 'README.md', 'the fleet', 'the fleet, edited'),
    rendered: 0,
    changed: [],
    fromRecords: true,
  },
  {
    // Validation reads component content (a variable the cluster does not define), loading does not:
    // the working tree is validated, the base's findings come from its record.
    name: 'a component change that introduces a finding',
    change: (dir) => edit(dir, 'components/ingress/cm.yaml', 'class: nginx', 'class: ${INGRESS_CLASS}'),
    rendered: 0,
    changed: [],
    findings: true,
    fromRecords: true,
  },
  {
    name: 'a component change committed on a branch (both revisions recorded)',
    change: (dir) => {
      git(dir, 'checkout', '-q', '-b', 'change');
      edit(dir, 'components/ingress/cm.yaml', 'class: nginx', 'class: ${INGRESS_CLASS}');
      git(dir, 'commit', '-q', '-am', 'change');
      return 'main';
    },
    rendered: 0,
    changed: [],
    findings: true,
    fromRecords: true,
  },
  {
    name: 'a deleted component file',
    change: (dir) => rmSync(join(dir, 'components/ingress/cm.yaml')),
    rendered: 0,
    changed: [],
    findings: true,
    fromRecords: true,
  },
  {
    name: 'a renamed component file',
    change: (dir) => {
      git(dir, 'mv', 'components/config/cm.yaml', 'components/config/configmap.yaml');
      edit(dir, 'components/config/kustomization.yaml', 'cm.yaml', 'configmap.yaml');
    },
    rendered: 0,
    changed: [],
    fromRecords: true,
  },
  {
    // A new file at the top of the repository that no reader asks for (they ask for fleet.yaml and other named files).
    name: 'an added file at the top of the repository',
    change: (dir) => {
      writeTree({ 'NOTES.md': 'notes\n' }, dir);
    },
    rendered: 0,
    changed: [],
    fromRecords: true,
  },
];

for (const c of cases) {
  test(`incremental diff equals the full diff: ${c.name}`, async () => {
    const { dir, first } = makeRepo();
    const cache = mkdtempSync(join(tmpdir(), 'fleetplan-diffinc-cache-'));
    try {
      if (c.setup) {
        c.setup(dir);
        git(dir, 'add', '-A');
        git(dir, 'commit', '-q', '-m', 'setup');
      }
      const from = c.change(dir, first);
      const options: DiffOptions = {
        root: dir,
        ...(from ? { from, to: 'HEAD' } : {}),
        ...(c.leaves ? { leaves: { env: { ...process.env }, kustomize: join(TOOLS, 'kubectl'), helm: join(TOOLS, 'helm'), cacheDir: cache, bundledDir: false } } : {}),
      };
      const { full, incremental, rendered, of } = await both(options);
      assert.deepEqual(incremental, full);
      assert.doesNotMatch(diffJson(incremental), /s3cr3t/, 'no Secret value in the report');
      assert.equal(of, full.clusters.length);
      assert.equal(rendered, c.rendered, `clusters rendered by the incremental diff`);
      assert.deepEqual(
        full.clusters.filter((x) => x.status !== 'unchanged' && x.status !== 'pinned').map((x) => x.name).sort(),
        [...c.changed].sort(),
      );
      assert.equal(full.findings.introduced.length + full.findings.fixed.length > 0, c.findings === true, 'findings delta');
      const records = await withRecords(options, full);
      assert.equal(records.cold, false, 'the first run reads both revisions');
      assert.equal(records.warm, c.fromRecords, `the second run answers from the records: ${records.lines.join(' | ')}`);
    } finally {
      removeTree(dir);
      rmSync(cache, { recursive: true, force: true });
    }
  });
}

/** The record of the base, written by a first run, then damaged as the case says; the next run must take the full path and be right. */
const damaged: { name: string; damage(file: string, other: string): void }[] = [
  { name: 'a corrupt record (not JSON)', damage: (file) => writeFileSync(file, '{"format":"diff-v1",') },
  { name: 'a truncated record', damage: (file) => writeFileSync(file, readFileSync(file, 'utf8').slice(0, 100)) },
  {
    // A record of another revision under this one's key (as a stale or foreign file would be): its tree differs.
    name: 'a record of another revision',
    damage: (file, other) => writeFileSync(file, readFileSync(other)),
  },
  {
    // A record whose read-set says loading read nothing: well-formed, but not what this build wrote.
    name: 'a record from another build',
    damage: (file) => writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), build: 'another' })),
  },
  {
    // The warm path searches the read-set's lists by bisection (docs/adr/0334): lists out of order are no record.
    name: 'a record whose read-set lists are out of order',
    damage: (file) => {
      const r = JSON.parse(readFileSync(file, 'utf8')) as { reads: { content: string[]; kind: string[]; list: string[] } };
      writeFileSync(file, JSON.stringify({ ...r, reads: { ...r.reads, content: [...r.reads.content].reverse(), kind: [...r.reads.kind].reverse(), list: [...r.reads.list].reverse() } }));
    },
  },
];

for (const d of damaged) {
  test(`diff with ${d.name} falls back to reading both revisions, and equals the full diff`, async () => {
    const { dir } = makeRepo();
    const cacheDir = mkdtempSync(join(tmpdir(), 'fleetplan-diffinc-records-'));
    try {
      // Records of main and of a branch that changes a cluster file (so that both records differ).
      git(dir, 'checkout', '-q', '-b', 'change');
      edit(dir, 'clusters/core-1/cluster.yaml', 'ZONE: core-1-zone', 'ZONE: core-1-zone\n  apps:\n    config:\n      wave: 9');
      git(dir, 'commit', '-q', '-am', 'change');
      await diffFleet({ root: dir, from: 'main', to: 'change', cacheDir });
      const files = readdirSync(join(cacheDir, 'diff-v1'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
      assert.equal(files.length, 2, 'a record per revision');
      // The README changes on top of main: only main's record could answer.
      git(dir, 'checkout', '-q', 'main');
      edit(dir, 'README.md', 'the fleet', 'the fleet, edited');
      const options: DiffOptions = { root: dir, from: 'main', cacheDir };
      const mainTree = git(dir, 'rev-parse', 'main^{tree}');
      const mainRecord = files.find((f) => (JSON.parse(readFileSync(f, 'utf8')) as { tree: string }).tree === mainTree);
      const other = files.find((f) => f !== mainRecord);
      assert.ok(mainRecord !== undefined && other !== undefined, 'a record of main and one of the branch');
      d.damage(mainRecord, other);
      const full = await diffFleet({ ...options, full: true });
      const again = await counted(options);
      assert.equal(again.fromRecords, false, again.lines.join(' | '));
      assert.equal(diffJson(again.diff), diffJson(full));
      // The full path wrote the record again: the run after answers from it.
      const third = await counted(options);
      assert.equal(third.fromRecords, true, third.lines.join(' | '));
      assert.equal(diffJson(third.diff), diffJson(full));
    } finally {
      removeTree(dir);
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
}

/**
 * A new change (docs/adr/0296-diff-tree-reads.md): only the base is recorded (an earlier diff of
 * main against itself), the change is committed on a branch and touches only what validation
 * reads. The change is then validated from git's objects, without a checkout, and the diff equals
 * the full one; the record it writes lets the next run answer from the records alone.
 */
const newChanges: { name: string; change(dir: string): void; findings: boolean }[] = [
  { name: 'a component change that introduces a finding', change: (dir) => edit(dir, 'components/ingress/cm.yaml', 'class: nginx', 'class: ${INGRESS_CLASS}'), findings: true },
  {
    name: 'a component change that fixes a finding',
    change: (dir) => {
      // main gets the finding first; the branch fixes it.
      git(dir, 'checkout', '-q', 'main');
      edit(dir, 'components/ingress/cm.yaml', 'class: nginx', 'class: ${INGRESS_CLASS}');
      git(dir, 'commit', '-q', '-am', 'finding on main');
      git(dir, 'checkout', '-q', '-B', 'change');
      edit(dir, 'components/ingress/cm.yaml', 'class: ${INGRESS_CLASS}', 'class: nginx');
    },
    findings: true,
  },
  { name: 'a deleted component file', change: (dir) => rmSync(join(dir, 'components/ingress/cm.yaml')), findings: true },
  {
    name: 'a renamed component file',
    change: (dir) => {
      git(dir, 'mv', 'components/config/cm.yaml', 'components/config/configmap.yaml');
      edit(dir, 'components/config/kustomization.yaml', 'cm.yaml', 'configmap.yaml');
    },
    findings: false,
  },
];

for (const c of newChanges) {
  test(`a new change read from git objects equals the full diff: ${c.name}`, async () => {
    const { dir } = makeRepo();
    const cacheDir = mkdtempSync(join(tmpdir(), 'fleetplan-diffinc-records-'));
    try {
      git(dir, 'checkout', '-q', '-b', 'change');
      c.change(dir);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'change');
      // main's record only.
      await diffFleet({ root: dir, from: 'main', to: 'main', cacheDir });
      const options: DiffOptions = { root: dir, from: 'main', to: 'change' };
      const full = await diffFleet({ ...options, full: true });
      assert.equal(full.findings.introduced.length + full.findings.fixed.length > 0, c.findings, 'findings delta');
      const fresh = await counted({ ...options, cacheDir });
      assert.equal(diffJson(fresh.diff), diffJson(full));
      assert.equal(fresh.fromRecords, true, fresh.lines.join(' | '));
      assert.ok(fresh.lines.includes("validated change from git's objects (no checkout)"), fresh.lines.join(' | '));
      const again = await counted({ ...options, cacheDir });
      assert.equal(diffJson(again.diff), diffJson(full));
      assert.ok(!again.lines.some((l) => l.startsWith('validat')), `both revisions recorded: nothing validated (${again.lines.join(' | ')})`);
    } finally {
      removeTree(dir);
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
}
