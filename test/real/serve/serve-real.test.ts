/**
 * `fleetplan serve` on the real repositories of the shared directory: each one is served (every
 * layout), and the dashboard's findings are exactly what `fleetplan validate -o json` reports, its
 * matrix holds every cluster the plan has, with each app's wave.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServe } from '../../../src/index.js';
import { cli } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';

const REPOS = [
  'onedr0p__home-ops/at-d9078e4d',
  'openshift-online__bootstrap-hyperfleet',
  'redhat-cop__gitops-standards-repo-template',
  'svitnin-redhat__openshift-virtualization-gitops',
  'validatedpatterns__multicloud-gitops',
];

interface Finding { severity: string; code: string; message: string; file?: string; line?: number }
const key = (f: Finding) => JSON.stringify([f.severity, f.code, f.file ?? '', f.line ?? 0, f.message]);

for (const name of REPOS) {
  test(`serve shows ${name} as plan and validate see it`, async () => {
    const root = realRepo(name);
    const server = await startServe({ root, port: 0, env: process.env });
    try {
      const model = (await (await fetch(`${server.url}api/model`)).json()) as { loaded: boolean; apps: string[]; clusters: { name: string }[]; cells: number[][]; findings: Finding[] };
      assert.equal(model.loaded, true);
      const validate = await cli(['validate', '--repo', root, '-o', 'json'], process.cwd(), process.env);
      const expected = (JSON.parse(validate.stdout) as { findings: Finding[] }).findings;
      assert.deepEqual(model.findings.map(key).sort(), expected.map(key).sort());
      const plan = await cli(['plan', '--repo', root, '-o', 'json'], process.cwd(), process.env);
      const clusters = (JSON.parse(plan.stdout) as { clusters: { name: string; apps: { name: string; wave: number }[] }[] }).clusters;
      assert.deepEqual(model.clusters.map((c) => c.name), clusters.map((c) => c.name));
      clusters.forEach((c, i) => {
        const cells = model.cells[i]!;
        const got: [string, number][] = [];
        for (let k = 0; k < cells.length; k += 2) got.push([model.apps[cells[k]!]!, cells[k + 1]!]);
        assert.deepEqual(got, c.apps.map((a) => [a.name, a.wave]), c.name);
      });
    } finally {
      await server.close();
    }
  });
}
