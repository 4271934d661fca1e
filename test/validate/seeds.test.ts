/**
 * Validation on the seed fixtures and the real repositories: the seed-001 spoke waves written
 * verbatim give exactly the two ordering errors, the lab stays clean, the helmfile + Flux
 * snapshots of seed 003 load, plan and validate, leaf objects replace the static reading, and
 * SARIF carries every rule's help.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { loadFleet, validateFleet } from '../../src/index.js';
import { cli } from '../support/fleet-fixture.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../helpers/tools.js';

const VERBATIM = 'test/fixtures/seed-001-verbatim';
const HOME_OPS = '../shared/realrepos/onedr0p__home-ops';

interface JsonFindings {
  findings: { severity: string; code: string; message: string; file?: string; line?: number }[];
  summary: { errors: number; warnings: number };
}

test('seed 001 verbatim: exactly two crd-order errors, naming both apps and the API group', async () => {
  const r = await cli(['validate', '--repo', VERBATIM, '-o', 'json']);
  assert.equal(r.code, 1);
  const { findings, summary } = JSON.parse(r.stdout) as JsonFindings;
  assert.deepEqual(summary, { errors: 2, warnings: 0, notes: 0 });
  assert.deepEqual(findings.map((f) => [f.code, f.file, f.line]), [
    ['crd-order', 'clusters/etl4/cluster.yaml', 23],
    ['crd-order', 'clusters/etl4/cluster.yaml', 27],
  ]);
  assert.match(findings[0]!.message, /"metallb-configuration" at wave 6 applies metallb\.io .* before "metallb-operator" \(wave 20\)/);
  assert.match(findings[1]!.message, /"nmstate-configuration" at wave 15 applies nmstate\.io .* before "nmstate-operator" \(wave 20\)/);
});

test('seed 001 verbatim: turning crd-order into a warning exits 0', async () => {
  const { fleet } = loadFleet(VERBATIM);
  fleet.validation = { rules: { 'crd-order': 'warning' } };
  const findings = validateFleet(fleet);
  assert.deepEqual(findings.map((f) => f.severity), ['warning', 'warning']);
});

test('the lab fleet has no findings from any rule', () => {
  const { fleet } = loadFleet('examples/lab');
  assert.deepEqual(validateFleet(fleet), []);
});

test('leaf objects, when supplied, replace the static reading of an app', () => {
  const { fleet } = loadFleet('examples/lab');
  const findings = validateFleet(fleet, {
    clusters: ['etl4'],
    leaves: {
      objects: (cluster, app) =>
        cluster === 'etl4' && app === 'descheduler-operator'
          ? [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token', namespace: 'x' }, data: { t: 'eA==' } }]
          : undefined,
    },
  });
  // The rendered descheduler-operator no longer subscribes to the descheduler, and commits a Secret.
  assert.deepEqual(findings.map((f) => f.code).sort(), ['secret-in-git']);
});

test('validate --leaves reads the objects of render --leaves and finds the same two errors', async () => {
  requireTools();
  const out = tempDir('validate-leaves');
  const home = tempDir('validate-leaves-home');
  try {
    const env = toolEnv(home);
    const r = await cli(['render', '--repo', VERBATIM, '--out', out, '--leaves', '--cache-dir', `${home}/cache`], process.cwd(), env);
    assert.equal(r.code, 0, r.stderr);
    const v = await cli(['validate', '--repo', VERBATIM, '--leaves', out, '-o', 'json'], process.cwd(), env);
    const { findings } = JSON.parse(v.stdout) as JsonFindings;
    assert.deepEqual(findings.map((f) => [f.code, f.line]), [['crd-order', 23], ['crd-order', 27]]);
  } finally {
    removeDir(out);
    removeDir(home);
  }
});

test('sarif lists every rule with its default level and help', async () => {
  const r = await cli(['validate', '--repo', VERBATIM, '-o', 'sarif']);
  const sarif = JSON.parse(r.stdout) as { runs: { tool: { driver: { rules: { id: string; help?: { text: string }; defaultConfiguration?: { level: string } }[] } }; results: { ruleId: string; ruleIndex: number }[] }[] };
  const rules = sarif.runs[0]!.tool.driver.rules;
  for (const id of ['crd-order', 'applicationset-waves', 'no-application-health', 'helmfile-needs-cycle', 'flux-unknown-dependency', 'mesh-cidr-overlap', 'secret-in-git', 'unknown-secret-store', 'placement-not-allowed', 'unpinned-protected-sector', 'shared-object', 'missing-path', 'empty-source', 'patch-path-missing', 'namespace-on-cluster-scoped', 'patch-target-unmatched', 'destination-before-registration']) {
    const rule = rules.find((x) => x.id === id);
    assert.ok(rule?.help?.text, `${id} has help`);
    assert.ok(rule.defaultConfiguration?.level, `${id} has a default level`);
  }
  for (const res of sarif.runs[0]!.results) assert.equal(rules[res.ruleIndex]!.id, res.ruleId);
});

for (const snapshot of ['at-ba0958d9', 'at-d9078e4d']) {
  const repo = `${HOME_OPS}/${snapshot}`;
  test(`seed 003 ${snapshot}: the helmfile + Flux layout plans in needs/dependsOn order and validates without graph errors`, { skip: !existsSync(repo) && 'real repositories not present' }, async () => {
    const plan = await cli(['plan', '--repo', repo, '-o', 'json']);
    const p = JSON.parse(plan.stdout) as { layout: string; clusters: { notes: string[]; bootstrap: unknown[]; apps: { name: string; wave: number }[] }[] };
    assert.equal(p.layout, 'helmfile-flux');
    const c = p.clusters[0]!;
    assert.match(c.notes[0]!, /topological depth/);
    assert.deepEqual(c.bootstrap, []);
    const wave = (n: string) => c.apps.find((a) => a.name === n)!.wave;
    const chain = ['cilium', 'coredns', 'spegel'].map((n) => wave(`helmfile:kube-system/${n}`));
    assert.deepEqual(chain, [1, 2, 3]);
    assert.ok(wave('helmfile:flux-system/flux-instance') > wave('helmfile:external-secrets/onepassword-connect'));
    const v = await cli(['validate', '--repo', repo, '-o', 'json']);
    const { findings } = JSON.parse(v.stdout) as JsonFindings;
    // This copy leaves out some Kustomization paths and one component (SOURCE.md: partial copy);
    // those are reported, nothing else.
    const rest = findings.filter((f) => f.code !== 'missing-path' && !(f.code === 'flux-missing-component' && /kopiur\/backup/.test(f.message)));
    assert.deepEqual(rest, []);
    assert.deepEqual(findings.filter((f) => f.code === 'missing-path').map((f) => `${f.file}:${f.line}`), snapshot === 'at-d9078e4d'
      ? ['kubernetes/apps/default/plex/ks.yaml:12', 'kubernetes/apps/default/plex/ks.yaml:32', 'kubernetes/apps/kopiur-system/kopiur/ks.yaml:32', 'kubernetes/apps/o11y/grafana-operator/ks.yaml:27']
      : []);
    if (snapshot === 'at-d9078e4d') {
      assert.ok(wave('flux:external-secrets/onepassword-connect') > wave('flux:external-secrets/external-secrets'));
      assert.ok(wave('flux:flux-system/cluster-apps') > wave('helmfile:flux-system/flux-instance'));
    }
  });
}
