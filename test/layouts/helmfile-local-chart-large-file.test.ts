// A local chart's files are digested for diff (ADR 0395); a file in the chart folder larger than
// fleetplan's input limit (a vendored dependency archive, say) must not stop plan of the repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

test('helmfile: a local chart holding a file over the input limit is still planned', async () => {
  const dir = writeTree({
    'helmfile.yaml': 'releases:\n  - name: web\n    namespace: web\n    chart: ./charts/web\n',
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
  });
  try {
    writeFileSync(join(dir, 'charts/web/big.bin'), Buffer.alloc(9 * 1024 * 1024, 1));
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /helmfile:web\/web/);
  } finally {
    removeTree(dir);
  }
});
