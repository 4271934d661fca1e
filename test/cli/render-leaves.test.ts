/** `render --leaves` on the lab fleet with the real kustomize: every app, deterministic, cached. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cli, removeTree } from '../support/fleet-fixture.js';

const tools = resolve('.tools/bin');

function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(p.slice(dir.length + 1), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

test('render --leaves renders every app of every lab cluster; a second run gives the same bytes and builds nothing', async () => {
  assert.ok(existsSync(join(tools, 'kubectl')), 'kubectl missing in .tools/bin: run `node scripts/setup-tools.mjs`');
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-leaves-out-'));
  const cache = mkdtempSync(join(tmpdir(), 'fleetplan-leaves-cache-'));
  const env = { PATH: `${tools}:/usr/bin:/bin`, HOME: tmpdir() };
  try {
    const args = ['render', '--repo', 'examples/lab', '--out', out, '--leaves', '--cache-dir', cache];
    const first = await cli(args, process.cwd(), env);
    assert.equal(first.code, 0, first.stderr);
    // The hub's provisioning apps (etl4, etl6, gitops-bootstrap-policy) read fleetplan's own
    // output under hub/provision/, so they are not built again.
    assert.match(first.stderr, /leaves: 57 of 63 apps rendered, .*; 6 not built \(fleetplan's own output: 6\)\n/);
    const provisioning = ['etl4', 'etl6', 'gitops-bootstrap-policy'];
    for (const name of provisioning) assert.match(first.stderr, new RegExp(`note: hub/${name} not rendered: its objects are fleetplan's own output`));
    // Argo CD's self-managing app reads the bootstrap files (ADR 0240).
    for (const cluster of ['hub', 'etl4', 'etl6']) assert.match(first.stderr, new RegExp(`note: ${cluster}/gitops-self not rendered: its objects are fleetplan's own output at rendered/${cluster}/bootstrap`));
    for (const cluster of ['hub', 'etl4', 'etl6']) {
      const apps = readdirSync(join(out, cluster, 'apps')).map((f) => f.replace(/\.yaml$/, '')).filter((a) => (cluster !== 'hub' || !provisioning.includes(a)) && a !== 'gitops-self').sort();
      assert.deepEqual(readdirSync(join(out, cluster, 'manifests')).sort(), apps, `every app of ${cluster} has manifests`);
    }
    // Variables were substituted per cluster.
    const console4 = readFileSync(join(out, 'etl4/manifests/openshift-config/03-console-cluster.yaml'), 'utf8');
    assert.match(console4, /customProductName: etl4 \(etl4\.qe\.lab\.example\.com\)/);
    const before = snapshot(out);
    const second = await cli(args, process.cwd(), env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /0 builds, 57 cached, 0 missed/);
    assert.deepEqual(snapshot(out), before);
  } finally {
    removeTree(out);
    removeTree(cache);
  }
});

test('render --leaves without --out is a usage error', async () => {
  const r = await cli(['render', '--repo', 'examples/lab', '--leaves']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--leaves needs --out/);
});
