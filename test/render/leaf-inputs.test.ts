import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relative, resolve } from 'node:path';
import { createSourceReader } from '../../src/adapters/source-reader.js';
import { InputWalker, isRemote } from '../../src/render/leaves/inputs.js';

const ROOT = resolve('test/fixtures/leaves/repo');
const rel = (files: string[]) => files.map((f) => relative(ROOT, f));

const cases: { name: string; dir: string; files: string[]; missing?: string[]; remote?: string[]; usesHelm?: boolean }[] = [
  {
    name: 'follows resources, components and generator files',
    dir: 'apps/web',
    files: [
      'apps/web/deployment.yaml',
      'apps/web/kustomization.yaml',
      'apps/web/namespace.yaml',
      'apps/web/settings.properties',
      'components/labels/cluster-info.yaml',
      'components/labels/kustomization.yaml',
    ],
  },
  {
    name: 'follows directory resources (bases) and patch files',
    dir: 'apps/api',
    files: [
      'apps/api/kustomization.yaml',
      'apps/api/service-patch.yaml',
      'bases/service/kustomization.yaml',
      'bases/service/service.yaml',
      'components/labels/cluster-info.yaml',
      'components/labels/kustomization.yaml',
    ],
  },
  {
    name: 'reads the whole chart under helmGlobals.chartHome and the valuesFile',
    dir: 'apps/chart',
    files: ['apps/chart/kustomization.yaml', 'apps/chart/values.yaml', 'charts/tiny/Chart.yaml', 'charts/tiny/templates/configmap.yaml', 'charts/tiny/values-override.yaml', 'charts/tiny/values.yaml'],
    usesHelm: true,
  },
  {
    name: 'lists a missing resource so that the key still changes when it appears',
    dir: 'apps/broken',
    files: ['apps/broken/kustomization.yaml'],
    missing: ['apps/broken/does-not-exist.yaml'],
  },
  {
    name: 'marks a remote resource as uncacheable',
    dir: 'apps/remote',
    files: ['apps/remote/kustomization.yaml', 'apps/remote/local.yaml'],
    remote: ['https://github.com/example/manifests//deploy?ref=v1.0.0'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const inputs = new InputWalker(createSourceReader()).kustomization(resolve(ROOT, c.dir));
    assert.deepEqual(rel(inputs.files), c.files);
    assert.deepEqual(rel(inputs.missing), c.missing ?? []);
    assert.deepEqual(inputs.remote, c.remote ?? []);
    assert.equal(inputs.usesHelm, c.usesHelm ?? false);
  });
}

const remotes: [string, boolean][] = [
  ['https://github.com/org/repo//dir?ref=v1', true],
  ['git@github.com:org/repo.git', true],
  ['github.com/org/repo/dir?ref=main', true],
  ['../../components/x', false],
  ['deployment.yaml', false],
];
for (const [ref, expected] of remotes) {
  test(`isRemote(${JSON.stringify(ref)}) is ${expected}`, () => assert.equal(isRemote(ref), expected));
}
