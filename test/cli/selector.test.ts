/** -l/--selector through the CLI: every command that takes --cluster, intersection, errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree, baseFleet } from '../support/fleet-fixture.js';

const LAB = 'examples/lab';

const planned = async (args: string[]) => {
  const r = await cli(['plan', '--repo', LAB, '-o', 'json', ...args]);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { clusters: { name: string }[] }).clusters.map((c) => c.name);
};

const selections: { name: string; args: string[]; clusters: string[] }[] = [
  { name: 'no selector: every cluster', args: [], clusters: ['hub', 'etl4', 'etl6'] },
  { name: 'role by its short key', args: ['-l', 'role=spoke'], clusters: ['etl4', 'etl6'] },
  { name: 'the built-in role key', args: ['--selector', 'fleetplan.io/role!=spoke'], clusters: ['hub'] },
  { name: 'a group: any group of the cluster', args: ['-l', 'fleetplan.io/group=prod'], clusters: ['etl4', 'etl6'] },
  { name: 'a set of names', args: ['-l', 'fleetplan.io/name in (etl6,hub)'], clusters: ['hub', 'etl6'] },
  { name: 'the hub of spokes', args: ['-l', 'fleetplan.io/hub=hub'], clusters: ['etl4', 'etl6'] },
  { name: 'no hub key on the hub', args: ['-l', '!fleetplan.io/hub'], clusters: ['hub'] },
  { name: 'comma is AND', args: ['-l', 'sector=lab,region=rdu2,role notin (hub)'], clusters: ['etl4', 'etl6'] },
  { name: 'repeated -l: all must hold', args: ['-l', 'role=spoke', '-l', 'fleetplan.io/name!=etl4'], clusters: ['etl6'] },
  { name: '--cluster and -l: the named clusters that match', args: ['--cluster', 'hub', '--cluster', 'etl4', '-l', 'role=spoke'], clusters: ['etl4'] },
];

for (const s of selections) {
  test(`plan -l: ${s.name}`, async () => {
    assert.deepEqual(await planned(s.args), s.clusters);
  });
}

test('render and validate take -l too', async () => {
  const render = await cli(['render', '--repo', LAB, '-l', 'fleetplan.io/name=etl6', '-o', 'json']);
  assert.equal(render.code, 0, render.stderr);
  const items = (JSON.parse(render.stdout) as { items: { metadata: { name: string; labels?: Record<string, string> } }[] }).items;
  assert.ok(items.length > 0);
  const full = await cli(['render', '--repo', LAB, '--cluster', 'etl6', '-o', 'json']);
  assert.equal(render.stdout, full.stdout);
  const validate = await cli(['validate', '--repo', LAB, '-l', 'role=hub', '-o', 'json']);
  assert.equal(validate.code, 0, validate.stderr);
});

test('a cluster label from the cluster file selects it', async () => {
  const dir = writeTree(
    baseFleet({
      'clusters/two/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: two\n  labels:\n    tier: gold\nspec:\n  role: spoke\n  hub: one\n  sector: canary\n  groups: [base]\n',
    }),
  );
  try {
    const r = await cli(['plan', '--repo', dir, '-l', 'tier=gold', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { clusters: { name: string }[] }).clusters.map((c) => c.name), ['two']);
  } finally {
    removeTree(dir);
  }
});

const failures: { name: string; args: string[]; stderr: RegExp }[] = [
  { name: 'an invalid selector names the column and the problem', args: ['plan', '-l', 'role in (hub'], stderr: /^fleetplan plan: invalid selector "role in \(hub": column 13: expected "," or "\)", found the end of the selector \(a selector is k=v/ },
  { name: 'an invalid key', args: ['render', '-l', 'ro le=hub'], stderr: /invalid selector "ro le=hub": column 4: expected one of =, ==, !=, in, notin, >, <, "," or the end after the key "ro", found "le"/ },
  { name: 'a selector that matches nothing names it', args: ['validate', '-l', 'role=management'], stderr: /^fleetplan validate: no cluster matches the selector "role=management" \(clusters: hub, etl4, etl6\)\n$/ },
  { name: 'no match among the named clusters', args: ['plan', '--cluster', 'hub', '-l', 'role=spoke'], stderr: /no cluster matches the selector "role=spoke" among --cluster hub/ },
  { name: 'an unknown --cluster with -l is still named', args: ['plan', '--cluster', 'nope', '-l', 'role=spoke'], stderr: /no cluster named "nope"/ },
  { name: 'bootstrap needs exactly one cluster from -l', args: ['bootstrap', '-l', 'role=spoke'], stderr: /the selector matches 2 clusters \(etl4, etl6\): bootstrap takes one cluster, or --all/ },
  { name: 'bootstrap: -l and --all exclude each other', args: ['bootstrap', '-l', 'role=hub', '--all'], stderr: /give either --cluster C \(or -l SELECTOR\) or --all/ },
];

for (const f of failures) {
  test(`-l: ${f.name} (exit 2)`, async () => {
    const r = await cli([...f.args, '--repo', LAB]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, f.stderr);
  });
}
