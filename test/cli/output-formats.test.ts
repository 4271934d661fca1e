/** -o yaml next to -o json: the same document, for every command that prints data. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseAllDocuments } from 'yaml';
import { toSortedJson } from '../../src/yaml/serialize.js';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const LAB = 'examples/lab';

const pairs: { name: string; json: string[]; yaml: string[]; code?: number }[] = [
  { name: 'plan', json: ['plan', '--repo', LAB, '-o', 'json'], yaml: ['plan', '--repo', LAB, '-o', 'yaml'] },
  { name: 'plan of some clusters', json: ['plan', '--repo', LAB, '-l', 'role=spoke', '-o', 'json'], yaml: ['plan', '--repo', LAB, '-l', 'role=spoke', '-o', 'yaml'] },
  { name: 'validate', json: ['validate', '--repo', LAB, '-o', 'json'], yaml: ['validate', '--repo', LAB, '-o', 'yaml'] },
  { name: 'render', json: ['render', '--repo', LAB, '--cluster', 'etl6', '-o', 'json'], yaml: ['render', '--repo', LAB, '--cluster', 'etl6', '-o', 'yaml'] },
  { name: 'schema', json: ['schema', 'Cluster'], yaml: ['schema', 'Cluster', '-o', 'yaml'] },
  { name: 'version', json: ['version', '-o', 'json'], yaml: ['version', '-o', 'yaml'] },
];

for (const p of pairs) {
  test(`${p.name}: -o yaml is the document of -o json`, async () => {
    const j = await cli(p.json);
    const y = await cli(p.yaml);
    assert.equal(j.code, p.code ?? 0, j.stderr);
    assert.equal(y.code, p.code ?? 0, y.stderr);
    const fromJson = JSON.parse(j.stdout) as unknown;
    // render -o yaml is a stream of objects; -o json a kubectl List of them.
    const fromYaml = p.name === 'render' ? { apiVersion: 'v1', kind: 'List', items: parseAllDocuments(y.stdout).map((d) => d.toJS() as unknown).filter((d) => d !== null) } : (parse(y.stdout) as unknown);
    assert.deepEqual(fromYaml, fromJson);
  });
}

test('plan -o json keeps its bytes: sorted keys, two-space indent, one trailing newline', async () => {
  const r = await cli(['plan', '--repo', LAB, '-o', 'json']);
  assert.equal(r.stdout, toSortedJson(JSON.parse(r.stdout)));
});

test('plan and validate -o yaml include the findings and do not repeat them on stderr', async () => {
  const dir = writeTree(baseFleet({ 'groups/base/group.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\nspec:\n  apps:\n    a:\n      path: components/operator\n      needs: [nope]\n' }));
  try {
    const plan = await cli(['plan', '--repo', dir, '-o', 'yaml']);
    assert.equal(plan.code, 1);
    assert.equal(plan.stderr, '');
    assert.equal((parse(plan.stdout) as { findings: { code: string }[] }).findings[0]?.code, 'unknown-need');
    const validate = await cli(['validate', '--repo', dir, '-o', 'yaml']);
    assert.equal(validate.code, 1);
    const doc = parse(validate.stdout) as { findings: { code: string; line: number }[]; summary: { errors: number } };
    assert.ok(doc.findings.some((f) => f.code === 'unknown-need' && f.line === 9));
    assert.ok(doc.summary.errors >= 1);
  } finally {
    removeTree(dir);
  }
});

test('an unknown -o names the formats of that command', async () => {
  for (const [cmd, formats] of [['plan', 'text, json, yaml, mermaid, dot'], ['validate', 'text, json, yaml, sarif'], ['schema', 'json, yaml'], ['version', 'text, json, yaml']] as const) {
    const r = await cli([cmd, '-o', 'xml', '--repo', LAB]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`--output must be one of ${formats}, got "xml"`));
  }
});
