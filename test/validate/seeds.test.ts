/**
 * Validation on the seed fixtures: the seed-001 spoke waves written verbatim give exactly the two
 * ordering errors, the lab stays clean, leaf objects replace the static reading, and SARIF carries
 * every rule's help. (The helmfile + Flux snapshots of seed 003: test/real/validate/seeds.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, validateFleet } from '../../src/index.js';
import { cli } from '../support/fleet-fixture.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../helpers/tools.js';

const VERBATIM = 'test/fixtures/seed-001-verbatim';

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
