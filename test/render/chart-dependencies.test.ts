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

test('render --leaves: file:// dependencies not in charts/ are built as Argo CD builds them (helm dependency build), in a private copy, and their changes change the build', async () => {
  const dir = writeTree({
    'apps/shop.yaml': argoApplication('shop', '    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: charts/shop\n'),
    'charts/shop/Chart.yaml': chartYaml('  - name: common\n    version: 1.0.0\n    repository: file://../common\n  - name: extra\n    version: 0.1.0\n    repository: file://extra\n    condition: extra.enabled\n'),
    'charts/shop/values.yaml': 'extra:\n  enabled: true\n',
    'charts/shop/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\n',
    'charts/common/Chart.yaml': 'apiVersion: v2\nname: common\nversion: 1.0.0\n',
    'charts/common/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: common\ndata:\n  v: one\n',
    'charts/shop/extra/Chart.yaml': 'apiVersion: v2\nname: extra\nversion: 0.1.0\n',
    'charts/shop/extra/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  const out = writeTree({});
  const built = (): string => execFileSync('sh', ['-c', `cat ${join(out, 'in-cluster/manifests/shop')}/*`]).toString();
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(built(), /name: common\n/);
    assert.match(built(), /name: extra\n/);
    assert.match(built(), /v: one/);
    // Nothing written into the repository: no charts/ folder, no Chart.lock.
    assert.equal(execFileSync('git', ['-C', dir, 'status', '--porcelain', '--ignored', 'charts/shop']).toString().includes('charts/shop/charts'), false);
    assert.equal(execFileSync('sh', ['-c', `ls ${join(dir, 'charts/shop')}`]).toString().split('\n').filter(Boolean).sort().join(','), 'Chart.yaml,extra,templates,values.yaml');
    // The dependency outside the chart is part of the build's key: its change is built, not served from the cache.
    writeTree({ 'charts/common/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: common\ndata:\n  v: two\n' }, dir);
    const r2 = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.match(built(), /v: two/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
