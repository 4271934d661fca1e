/** Broken fleets through the CLI: each exits non-zero with a message naming file and line. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const group = (apps: string) => ({
  'groups/base/group.yaml': `apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\nspec:\n  apps:\n${apps}`,
});

const broken: { name: string; files: Record<string, string>; where: RegExp; code: string }[] = [
  {
    name: 'a needs cycle',
    files: group('    a:\n      path: components/operator\n      needs: [b]\n    b:\n      path: components/config\n      needs: [a]\n'),
    where: /groups\/base\/group\.yaml:9:/,
    code: 'needs-cycle',
  },
  { name: 'an unknown need', files: group('    a:\n      path: components/operator\n      needs: [nope]\n'), where: /groups\/base\/group\.yaml:9:/, code: 'unknown-need' },
  {
    name: 'a wave conflict',
    files: group('    a:\n      path: components/operator\n      wave: 5\n    b:\n      path: components/config\n      wave: 4\n      needs: [a]\n'),
    where: /groups\/base\/group\.yaml:12:/,
    code: 'wave-conflict',
  },
  { name: 'an undefined variable', files: group('    a:\n      path: components/${NOPE}\n'), where: /groups\/base\/group\.yaml:8:/, code: 'undefined-variable' },
  { name: 'bad YAML', files: group('    a:\n      path: [components\n'), where: /groups\/base\/group\.yaml:\d+:/, code: 'yaml-syntax' },
  { name: 'a wrong type', files: group('    a:\n      path: components/operator\n      needs: a\n'), where: /groups\/base\/group\.yaml:9:/, code: 'schema' },
  { name: 'a missing path', files: group('    a:\n      path: components/absent\n'), where: /groups\/base\/group\.yaml:8:/, code: 'missing-path' },
  { name: 'a path leaving the repository', files: group('    a:\n      path: ../../etc\n'), where: /groups\/base\/group\.yaml:8:/, code: 'path-escapes-repo' },
];

for (const b of broken) {
  test(`validate: ${b.name} exits 1 naming file and line`, async () => {
    const dir = writeTree(baseFleet(b.files));
    try {
      const text = await cli(['validate', '--repo', dir]);
      assert.equal(text.code, 1, text.stdout);
      assert.match(text.stdout, new RegExp(b.code));
      const json = await cli(['validate', '--repo', dir, '-o', 'json']);
      const { findings } = JSON.parse(json.stdout) as { findings: { code: string; file: string; line: number }[] };
      const f = findings.find((x) => x.code === b.code);
      assert.ok(f, json.stdout);
      assert.match(`${f.file}:${f.line}:`, b.where);
      const sarif = JSON.parse((await cli(['validate', '--repo', dir, '-o', 'sarif'])).stdout) as { version: string; runs: { results: { ruleId: string }[] }[] };
      assert.equal(sarif.version, '2.1.0');
      assert.ok(sarif.runs[0]!.results.some((r) => r.ruleId === b.code));
      // Repository checks (paths) are validate's; everything else also stops render.
      if (b.code !== 'missing-path' && b.code !== 'path-escapes-repo') {
        const render = await cli(['render', '--repo', dir]);
        assert.equal(render.code, 1);
        assert.equal(render.stdout, '');
        assert.match(render.stderr, b.where);
      }
    } finally {
      removeTree(dir);
    }
  });
}

test('plan on a broken fleet still prints the plan, with the findings, and exits 1', async () => {
  const dir = writeTree(baseFleet(group('    a:\n      path: components/operator\n      needs: [nope]\n')));
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 1);
    const plan = JSON.parse(r.stdout) as { clusters: unknown[]; findings: { code: string }[] };
    assert.equal(plan.clusters.length, 1);
    assert.equal(plan.findings[0]?.code, 'unknown-need');
  } finally {
    removeTree(dir);
  }
});

test('usage errors exit 2', async () => {
  assert.equal((await cli(['plan', '--bogus'])).code, 2);
  assert.equal((await cli(['plan', '-o', 'xml', '--repo', 'examples/lab'])).code, 2);
  assert.equal((await cli(['plan', '--repo', 'examples/lab', '--cluster', 'nope'])).code, 2);
  assert.equal((await cli(['frobnicate'])).code, 2);
  const missing = await cli(['plan', '--repo', '/nonexistent/dir']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /does not exist/);
});

test('schema prints the JSON Schema of each kind', async () => {
  for (const kind of ['Fleet', 'cluster', 'GROUP']) {
    const r = await cli(['schema', kind]);
    assert.equal(r.code, 0);
    const s = JSON.parse(r.stdout) as { title: string; properties: { kind: { const: string } } };
    assert.equal(s.title.toLowerCase(), kind.toLowerCase());
    assert.equal(s.properties.kind.const.toLowerCase(), kind.toLowerCase());
  }
  assert.equal((await cli(['schema'])).stdout, 'Fleet\nCluster\nGroup\n');
  assert.equal((await cli(['schema', 'Pod'])).code, 2);
});
