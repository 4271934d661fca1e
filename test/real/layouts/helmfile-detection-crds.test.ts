/**
 * Seed 003 (onedr0p/home-ops, both shared snapshots) under ADR 0363 and 0365: each snapshot is
 * read as helmfile-flux and the plan says why the flux layout (the flux-instance HelmRelease's
 * `instance.sync.path`) was not used — at HEAD it has ks.yaml files, in the older partial copy
 * the folder the entry syncs is not there. At HEAD, `crds.yaml` takes its chart and version from
 * the release template of its base `default.yaml` (bases merged before the file, ADR 0364), and
 * render --leaves builds each of its releases as the CRDs only, as its bootstrap
 * (`helmfile template | yq select CustomResourceDefinition | kubectl apply`) applies them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';
import { loadFleet } from '../../../src/index.js';
import { resolveFleet } from '../../../src/layering/resolve-fleet.js';
import { leafJobsFor } from '../../../src/render/leaves/jobs.js';
import { nodeFileSystem } from '../../../src/adapters/node-fs.js';

const WHY: Record<string, RegExp> = {
  'at-d9078e4d': /flux \(kubernetes\/apps\/flux-system\/flux-instance\/app\/helmrelease\.yaml\): not used, helmfile-flux comes first: it reads the ks\.yaml files under kubernetes\//,
  'at-ba0958d9': /not used, helmfile-flux comes first: the folder its entry syncs \(kubernetes\/flux\/cluster\) is not in the repository/,
};

for (const snapshot of Object.keys(WHY)) {
  test(`seed 003 ${snapshot}: helmfile-flux, and the chosen-layout note says why the flux layout is not used`, async () => {
    const r = await cli(['plan', '--repo', realRepo('onedr0p__home-ops', snapshot), '-o', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const p = JSON.parse(r.stdout) as { layout: string; findings: { code: string; message: string }[] };
    assert.equal(p.layout, 'helmfile-flux');
    assert.match(p.findings.find((f) => f.code === 'layout-chosen')?.message ?? '', WHY[snapshot]!);
  });
}

test('seed 003 at-d9078e4d: the CRD-phase releases of crds.yaml get their charts through bases: default.yaml, and their leaves are the CRDs only', () => {
  const root = realRepo('onedr0p__home-ops', 'at-d9078e4d');
  const { fleet } = loadFleet(root);
  const resolved = resolveFleet(fleet);
  const { jobs, skipped } = leafJobsFor(fleet, resolved.clusters, nodeFileSystem(root));
  const crdApps = resolved.clusters.flatMap((c) => c.apps.filter((a) => a.labels['fleetplan.io/phase'] === 'crds').map((a) => a.name));
  assert.ok(crdApps.length >= 5, crdApps.join(', '));
  for (const name of crdApps) {
    const job = jobs.find((j) => j.app === name);
    assert.ok(job, `${name} is built: ${JSON.stringify(skipped.filter((s) => s.app === name))}`);
    assert.equal(job.source.kind, 'helm');
    const src = job.source as { chart?: string; only?: string };
    assert.match(src.chart ?? '', /^oci:\/\//, name);
    assert.equal(src.only, 'crds', name);
  }
  // An apps-phase release is built whole.
  const cilium = jobs.find((j) => j.app === 'helmfile:kube-system/cilium');
  assert.ok(cilium && !(cilium.source as { only?: string }).only);
});
