/**
 * A chart of the repository whose Chart.yaml names dependencies from a remote repository that are
 * not in its charts/ folder: Argo CD's repo-server runs `helm dependency build` before templating
 * it, which needs the network. render --leaves used to print Helm's own words ("You may need to
 * run `helm dependency build`", blamed on the chart as a failed build); it now says which
 * dependency is missing from where, that Argo CD fetches it, and how to vendor it. A dependency
 * that is vendored (charts/NAME-VERSION.tgz or charts/NAME/) or local (file://) is built as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { missingChartDependencies } from '../../src/render/leaves/chart-dependencies.js';

const chartYaml = (deps: string) => `apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n${deps}`;
const remoteDep = '  - name: redis\n    version: 17.3.7\n    repository: https://charts.example.com/stable\n';

test('missingChartDependencies: remote and not vendored is missing; a vendored archive or folder, a file:// dependency, or none is not', () => {
  const files: Record<string, string> = {};
  const reader = {
    kind: (p: string) => (p in files ? 'file' : Object.keys(files).some((f) => f.startsWith(`${p}/`)) ? 'dir' : undefined),
    readText: (p: string) => files[p]!,
    listFiles: (d: string) => Object.keys(files).filter((f) => f.startsWith(`${d}/`)).sort(),
  } as const;
  files['/c/Chart.yaml'] = chartYaml(remoteDep);
  assert.deepEqual(missingChartDependencies(reader, '/c'), [{ name: 'redis', version: '17.3.7', repository: 'https://charts.example.com/stable' }]);
  files['/c/charts/redis-17.3.7.tgz'] = 'x';
  assert.deepEqual(missingChartDependencies(reader, '/c'), []);
  delete files['/c/charts/redis-17.3.7.tgz'];
  files['/c/charts/redis/Chart.yaml'] = 'name: redis\n';
  assert.deepEqual(missingChartDependencies(reader, '/c'), []);
  files['/r/Chart.yaml'] = chartYaml('  - name: redis\n    version: ~17.3.0\n    repository: https://charts.example.com/stable\n');
  assert.equal(missingChartDependencies(reader, '/r').length, 1, 'a range with nothing vendored is missing');
  files['/r/charts/redis-17.3.9.tgz'] = 'x';
  assert.deepEqual(missingChartDependencies(reader, '/r'), [], 'a range is vendored as the archive of the version it resolved to');
  files['/d/Chart.yaml'] = chartYaml('  - name: common\n    version: 1.0.0\n    repository: file://../common\n');
  assert.deepEqual(missingChartDependencies(reader, '/d'), []);
  files['/e/Chart.yaml'] = 'apiVersion: v1\nname: old\nversion: 1.0.0\n';
  files['/e/requirements.yaml'] = `dependencies:\n${remoteDep}`;
  assert.equal(missingChartDependencies(reader, '/e').length, 1, 'apiVersion v1 charts list them in requirements.yaml');
});

test('render --leaves: a chart whose remote dependency is not vendored says which, from where, and how to vendor it', async () => {
  const dir = writeTree({
    'apps/shop.yaml': argoApplication('shop', '    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: charts/shop\n'),
    'charts/shop/Chart.yaml': chartYaml(remoteDep),
    'charts/shop/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /chart charts\/shop depends on redis 17\.3\.7 from https:\/\/charts\.example\.com\/stable, which is not in charts\/shop\/charts/);
    assert.match(r.stderr, /helm dependency build/);
    assert.doesNotMatch(r.stderr, /You may need to run/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
