/**
 * The lab example end to end through the CLI: the apps and waves seed 001 lists, app for app,
 * a clean validate, deterministic render, and init --example lab.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, removeTree } from '../support/fleet-fixture.js';

const LAB = 'examples/lab';
const argocdText = (out: string) => readFileSync(join(out, 'hub/bootstrap/20-argocd.yaml'), 'utf8');

const expected: Record<string, Record<number, string[]>> = {
  hub: {
    5: ['acm-operator', 'reflector-operator', 'mtv-operator'],
    15: ['acm-instance', 'mtv-configuration'],
    20: ['cert-manager-operator', 'external-dns-operator', 'metallb-operator', 'nmstate-operator', 'aap-operator', 'gitops-bootstrap-policy', 'etl4', 'etl6'],
    25: ['acm-configuration', 'acm-observability', 'cert-manager-configuration', 'external-dns-configuration', 'metallb-configuration', 'nmstate-configuration', 'nmstate-instance', 'aap-configuration', 'ova-server'],
    30: ['kube-ops-view', 'web-terminal-operator'],
  },
  spoke: {
    5: ['openshift-virtualization', 'descheduler-operator', 'node-health-check-operator'],
    15: ['hyperconverged-instance', 'descheduler-configuration', 'node-health-check-configuration'],
    16: ['openshift-config'],
    20: ['cert-manager-operator', 'external-dns-operator', 'metallb-operator', 'nmstate-operator'],
    21: ['metallb-configuration', 'nmstate-configuration'],
    25: ['cert-manager-configuration', 'external-dns-configuration', 'nmstate-instance'],
    30: ['kube-ops-view', 'web-terminal-operator'],
  },
};

const expectedFrom: Record<string, string> = {
  'cert-manager-operator': 'groups/all/group.yaml',
  'external-dns-operator': 'groups/all/group.yaml',
  'metallb-operator': 'groups/all/group.yaml',
  'nmstate-operator': 'groups/all/group.yaml',
  'cert-manager-configuration': 'groups/all/group.yaml',
  'external-dns-configuration': 'groups/all/group.yaml',
  'nmstate-instance': 'groups/all/group.yaml',
  'openshift-virtualization': 'groups/prod/group.yaml',
  'descheduler-operator': 'groups/prod/group.yaml',
  'node-health-check-operator': 'groups/prod/group.yaml',
  'hyperconverged-instance': 'groups/prod/group.yaml',
  'descheduler-configuration': 'groups/prod/group.yaml',
  'node-health-check-configuration': 'groups/prod/group.yaml',
};

interface JsonPlan {
  fleet: string;
  clusters: { name: string; role: string; hub: string | null; apps: { name: string; wave: number; from: string; source: { targetRevision: string } }[] }[];
  findings: unknown[];
}

test('plan -o json lists exactly the apps and waves of seed 001 per cluster', async () => {
  const r = await cli(['plan', '-o', 'json', '--repo', LAB]);
  assert.equal(r.code, 0, r.stderr);
  const plan = JSON.parse(r.stdout) as JsonPlan;
  assert.equal(plan.fleet, 'lab');
  assert.deepEqual(plan.clusters.map((c) => c.name), ['hub', 'etl4', 'etl6']);
  assert.deepEqual(plan.findings, []);
  for (const c of plan.clusters) {
    const want = expected[c.name === 'hub' ? 'hub' : 'spoke']!;
    const got: Record<number, string[]> = {};
    for (const a of c.apps) (got[a.wave] ??= []).push(a.name);
    const norm = (m: Record<number, string[]>) => Object.fromEntries(Object.entries(m).map(([w, apps]) => [w, [...apps].sort()]));
    assert.deepEqual(norm(got), norm(want), `apps and waves of ${c.name}`);
    for (const a of c.apps) {
      // The hub's etl4 and etl6 apps are generated from the spokes' provision: sections, so they
      // come from the spokes' cluster.yaml (they were hand-written hub overlays in seed 001).
      const provisioned = c.name === 'hub' && (a.name === 'etl4' || a.name === 'etl6');
      const from = provisioned ? `clusters/${a.name}/cluster.yaml` : (expectedFrom[a.name] ?? `clusters/${c.name}/cluster.yaml`);
      assert.equal(a.from, from, `${c.name}/${a.name} comes from ${from}`);
    }
  }
});

test('plan shows the hub provisioning each spoke and each spoke waiting for its ManagedCluster', async () => {
  const r = await cli(['plan', '-o', 'json', '--repo', LAB]);
  const plan = JSON.parse(r.stdout) as {
    clusters: { name: string; provisions: string[]; provisioning?: { app: string; path: string }; waitsFor: { cluster: string; kind: string; name: string; condition: { type: string } }[]; apps: { name: string; wave: number; source: { path: string } }[] }[];
  };
  const hub = plan.clusters.find((c) => c.name === 'hub')!;
  assert.deepEqual(hub.provisions, ['etl4', 'etl6']);
  assert.deepEqual(hub.waitsFor, []);
  for (const spoke of ['etl4', 'etl6']) {
    const app = hub.apps.find((a) => a.name === spoke)!;
    assert.equal(app.wave, 20);
    assert.equal(app.source.path, `rendered/hub/provision/${spoke}`);
    const c = plan.clusters.find((x) => x.name === spoke)!;
    assert.deepEqual(c.provisioning, { app: spoke, hub: 'hub', installer: 'agent', path: `rendered/hub/provision/${spoke}` });
    assert.deepEqual(c.waitsFor.map((w) => [w.cluster, w.kind, w.name, w.condition.type]), [['hub', 'ManagedCluster', spoke, 'ManagedClusterConditionAvailable']]);
  }
  const text = await cli(['plan', '--repo', LAB]);
  assert.match(text.stdout, /etl4 \(needs acm-instance; provisions etl4\)/);
  assert.match(text.stdout, /^ {2}wait: ManagedCluster etl6 Available on hub \(created by app etl6 on hub\)$/m);
});

test('plan prints the waves in order for people', async () => {
  const r = await cli(['plan', '--repo', LAB, '--cluster', 'etl4']);
  assert.equal(r.code, 0);
  const waves = [...r.stdout.matchAll(/^ {2}wave +(\d+)/gm)].map((m) => Number(m[1]));
  assert.deepEqual(waves, [5, 15, 16, 20, 21, 25, 30]);
  assert.match(r.stdout, /metallb-configuration \(needs metallb-operator\)/);
  assert.match(r.stdout, /90-root-application\.yaml/);
});

test('plan -o mermaid draws clusters, waves and needs', async () => {
  const r = await cli(['plan', '--repo', LAB, '-o', 'mermaid']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^flowchart TB/);
  assert.match(r.stdout, /subgraph c__etl4__w21\["wave 21"\]/);
  assert.match(r.stdout, /c__etl4__app__metallb_operator -.->\|needs\| c__etl4__app__metallb_configuration/);
  assert.match(r.stdout, /c__hub ==>\|provisions\| c__etl4/);
});

test('validate on the lab fleet is clean', async () => {
  const r = await cli(['validate', '--repo', LAB]);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(r.stdout, 'no findings\n');
});

test('render gives the same bytes twice', async () => {
  const a = await cli(['render', '--repo', LAB]);
  const b = await cli(['render', '--repo', LAB]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.ok(a.stdout.length > 10_000);
});

test('render --out writes apps, projects and bootstrap per cluster, identically on a second run', async () => {
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-render-'));
  try {
    const r = await cli(['render', '--repo', LAB, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    // beside the cluster folders, the list of files render wrote (only those are ever removed)
    assert.deepEqual(readdirSync(out).sort(), ['.fleetplan-manifest', 'etl4', 'etl6', 'hub']);
    // The fleet's apps and gitops-self, Argo CD's own configuration (ADR 0240).
    assert.equal(readdirSync(join(out, 'hub/apps')).length, 25);
    assert.ok(readdirSync(join(out, 'hub/apps')).includes('gitops-self.yaml'));
    assert.equal(readdirSync(join(out, 'etl4/apps')).length, 19);
    assert.deepEqual(readdirSync(join(out, 'hub/bootstrap')), ['00-gitops-operator.yaml', '10-rbac.yaml', '15-plugin.yaml', '20-argocd.yaml', '90-root-application.yaml']);
    assert.match(readFileSync(join(out, 'etl4/apps/openshift-config.yaml'), 'utf8'), /plugin:\n {6}name: fleetplan/);
    assert.match(readFileSync(join(out, 'etl4/bootstrap/15-plugin.yaml'), 'utf8'), /CLUSTER_BASE_DOMAIN: etl4\.qe\.lab\.example\.com/);
    assert.match(argocdText(out), /argocd-cmp-server/);
    assert.deepEqual(readdirSync(join(out, 'hub/projects')), ['cluster-config.yaml']);
    assert.deepEqual(readdirSync(join(out, 'hub/provision')).sort(), ['etl4', 'etl6', 'gitops-bootstrap-policy']);
    assert.equal(readdirSync(join(out, 'hub/provision/etl4')).filter((f) => f.startsWith('baremetalhost-')).length, 3);
    const app = readFileSync(join(out, 'etl4/apps/metallb-configuration.yaml'), 'utf8');
    assert.match(app, /^# Generated by fleetplan from fleet\.yaml, clusters\/etl4\/cluster\.yaml\./);
    assert.match(app, /argocd\.argoproj\.io\/sync-wave: "21"/);
    assert.match(app, /- resources-finalizer\.argocd\.argoproj\.io/);
    const argocd = readFileSync(join(out, 'hub/bootstrap/20-argocd.yaml'), 'utf8');
    assert.match(argocd, /kind: Application\n/);
    assert.match(argocd, /obj\.status\.health\.status/);
    const second = await cli(['render', '--repo', LAB, '--out', out]);
    assert.match(second.stderr, /0 written, \d+ unchanged, 0 removed/);
  } finally {
    removeTree(out);
  }
});

test('render -o json is a kubectl List', async () => {
  const r = await cli(['render', '--repo', LAB, '--cluster', 'hub', '-o', 'json']);
  const list = JSON.parse(r.stdout) as { kind: string; items: { kind: string }[] };
  assert.equal(list.kind, 'List');
  // 24 apps, the root Application (bootstrap) and gitops-self (ADR 0240).
  assert.equal(list.items.filter((i) => i.kind === 'Application').length, 26);
});

test('init --example lab writes the lab fleet, which plans like examples/lab', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-init-'));
  try {
    const r = await cli(['init', join(dir, 'lab'), '--example', 'lab']);
    assert.equal(r.code, 0, r.stderr);
    const a = await cli(['plan', '-o', 'json', '--repo', join(dir, 'lab')]);
    const b = await cli(['plan', '-o', 'json', '--repo', LAB]);
    assert.equal(a.stdout, b.stdout);
    const again = await cli(['init', join(dir, 'lab'), '--example', 'lab']);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already exists/);
  } finally {
    removeTree(dir);
  }
});

test('init without an example writes a starter fleet that validates', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-init-'));
  try {
    assert.equal((await cli(['init', dir])).code, 0);
    const v = await cli(['validate', '--repo', dir]);
    assert.equal(v.code, 0, v.stdout);
  } finally {
    removeTree(dir);
  }
});

test('render --out after a spoke leaves the fleet removes its generated provisioning directory, and nothing a person wrote', async () => {
  const repo = mkdtempSync(join(tmpdir(), 'fleetplan-lab-copy-'));
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-out-'));
  try {
    cpSync(LAB, repo, { recursive: true });
    assert.equal((await cli(['render', '--repo', repo, '--out', out])).code, 0);
    assert.ok(readdirSync(join(out, 'hub/provision')).includes('etl6'));
    writeFileSync(join(out, 'hub/provision/etl4/NOTES.yaml'), 'kept: true\n');
    rmSync(join(repo, 'clusters/etl6'), { recursive: true });
    // The hub's overlay on the spoke's provisioning app goes with it.
    const hub = join(repo, 'clusters/hub/cluster.yaml');
    writeFileSync(hub, readFileSync(hub, 'utf8').replace('    etl6:\n      needs:\n        - acm-instance\n', ''));
    const again = await cli(['render', '--repo', repo, '--out', out]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(readdirSync(join(out, 'hub/provision')).sort(), ['etl4', 'gitops-bootstrap-policy']);
    assert.match(again.stderr, /[1-9]\d* removed/);
    assert.equal(readFileSync(join(out, 'hub/provision/etl4/NOTES.yaml'), 'utf8'), 'kept: true\n');
  } finally {
    removeTree(repo);
    removeTree(out);
  }
});
