/**
 * The kustomize-patches rule, one named table: for each code a failing and a passing case, on a
 * fleet whose app builds an overlay of a base (a ManagedCluster and a ConfigMap). Each case lists
 * the findings it expects as `severity code file:line`. A second test builds every case with the
 * real kustomize: where the rule says error, `kubectl kustomize` fails; elsewhere it builds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadFleet, validateFleet } from '../../src/index.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { requireTools } from '../helpers/tools.js';

const CODES = new Set(['patch-path-missing', 'namespace-on-cluster-scoped', 'patch-target-unmatched']);

const BASE: Record<string, string> = {
  'fleet.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: t\nspec:\n  repoURL: https://git.example.com/fleet.git\n',
  'clusters/one/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  apps:\n    x:\n      path: apps/x\n      namespace: x\n',
  'base/kustomization.yaml': 'resources:\n  - mc.yaml\n  - cm.yaml\n',
  'base/mc.yaml': 'apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: a\n  labels:\n    name: a\nspec:\n  hubAcceptsClient: true\n  taints:\n    - key: k\n      effect: NoSelect\n',
  'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: x\ndata:\n  k: v\n',
};

/** An overlay of the base with one inline JSON patch; its first operation is on line 7. */
function overlay(ops: string, target = 'kind: ManagedCluster', extra = ''): Record<string, string> {
  const body = ops.trim().split('\n').map((l) => `      ${l}`).join('\n');
  return { 'apps/x/kustomization.yaml': `${extra}resources:\n  - ../../base\npatches:\n  - target:\n      ${target}\n    patch: |\n${body}\n` };
}

interface Case {
  name: string;
  files: Record<string, string>;
  expect: string[];
}

const K = 'apps/x/kustomization.yaml';

const cases: Case[] = [
  {
    name: 'patch-path-missing: replace of a missing key is reported at its operation (kustomize adds it)',
    files: overlay('- op: replace\n  path: /metadata/labels/region\n  value: us-west-2'),
    expect: [`warning patch-path-missing ${K}:7`],
  },
  {
    name: 'patch-path-missing passes: add of the same key',
    files: overlay('- op: add\n  path: /metadata/labels/region\n  value: us-west-2'),
    expect: [],
  },
  {
    name: 'patch-path-missing passes: replace of a present key, and of a key an earlier operation added',
    files: overlay('- op: replace\n  path: /metadata/labels/name\n  value: b\n- op: add\n  path: /metadata/labels/region\n  value: r\n- op: replace\n  path: /metadata/labels/region\n  value: s'),
    expect: [],
  },
  {
    name: 'patch-path-missing: remove of a missing key fails the build (error)',
    files: overlay('- op: remove\n  path: /metadata/labels/region'),
    expect: [`error patch-path-missing ${K}:7`],
  },
  {
    name: 'patch-path-missing passes: remove of a present key',
    files: overlay('- op: remove\n  path: /metadata/labels/name'),
    expect: [],
  },
  {
    name: 'patch-path-missing: replace below a missing parent fails the build (error)',
    files: overlay('- op: replace\n  path: /spec/a/b\n  value: c'),
    expect: [`error patch-path-missing ${K}:7`],
  },
  {
    name: 'patch-path-missing: a list index past the end fails the build (error), on the operation\'s own line',
    files: overlay('- op: add\n  path: /metadata/labels/x\n  value: y\n- op: replace\n  path: /spec/taints/1/key\n  value: k2\n- op: replace\n  path: /spec/taints/3\n  value: {}'),
    expect: [`error patch-path-missing ${K}:10`, `error patch-path-missing ${K}:13`],
  },
  {
    name: 'patch-path-missing: test of a missing key fails the build (error)',
    files: overlay('- op: test\n  path: /spec/paused\n  value: true'),
    expect: [`error patch-path-missing ${K}:7`],
  },
  {
    name: 'patch-path-missing: copy from a missing key copies null (warning), move from it fails (error)',
    files: overlay('- op: copy\n  from: /metadata/labels/region\n  path: /metadata/labels/r2\n- op: move\n  from: /metadata/labels/zone\n  path: /metadata/labels/z2'),
    expect: [`warning patch-path-missing ${K}:7`, `error patch-path-missing ${K}:10`],
  },
  {
    name: 'patch-path-missing: replace of a missing annotation is a warning, not an error (metadata.annotations always exists while kustomize builds)',
    files: overlay('- op: replace\n  path: /metadata/annotations/a\n  value: b'),
    expect: [`warning patch-path-missing ${K}:7`],
  },
  {
    name: 'patch-path-missing: an operation in a patch file is reported in that file',
    files: {
      'apps/x/kustomization.yaml': 'resources:\n  - ../../base\npatches:\n  - path: ops.yaml\n    target:\n      kind: ConfigMap\n',
      'apps/x/ops.yaml': '# the ConfigMap has no key2\n- op: remove\n  path: /data/key2\n',
    },
    expect: ['error patch-path-missing apps/x/ops.yaml:2'],
  },
  {
    name: 'patch-path-missing: patchesJson6902 runs after commonLabels, patches before them',
    files: {
      'apps/x/kustomization.yaml': 'resources:\n  - ../../base\ncommonLabels:\n  tier: t\npatches:\n  - target:\n      kind: ConfigMap\n    patch: |\n      - op: test\n        path: /metadata/labels/tier\n        value: t\npatchesJson6902:\n  - target:\n      version: v1\n      kind: ConfigMap\n      name: c\n    patch: |\n      - op: test\n        path: /metadata/labels/tier\n        value: t\n',
    },
    expect: [`error patch-path-missing ${K}:9`],
  },
  {
    name: 'patch-path-missing passes: objects a strategic-merge patch may change are not judged',
    files: {
      'apps/x/kustomization.yaml': 'resources:\n  - ../../base\npatches:\n  - patch: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: c\n        namespace: x\n      data:\n        key2: v\n  - target:\n      kind: ConfigMap\n    patch: |\n      - op: remove\n        path: /data/key2\n',
    },
    expect: [],
  },
  {
    name: 'patch-path-missing passes: a target matched by the original name after a namePrefix of the base',
    files: {
      'base/kustomization.yaml': 'namePrefix: p-\nresources:\n  - mc.yaml\n  - cm.yaml\n',
      ...overlay('- op: replace\n  path: /data/k\n  value: w', 'kind: ConfigMap\n      name: c'),
    },
    expect: [],
  },
  {
    name: 'patch-target-unmatched: a target that selects no object',
    files: overlay('- op: replace\n  path: /spec/replicas\n  value: 2', 'kind: Deployment'),
    expect: [`warning patch-target-unmatched ${K}:5`],
  },
  {
    name: 'patch-target-unmatched passes: name fields are anchored regular expressions',
    files: overlay('- op: replace\n  path: /data/k\n  value: w', 'kind: ConfigMap\n      name: "c|d"'),
    expect: [],
  },
  {
    name: 'patch-target-unmatched passes: not reported when a resource cannot be read (remote)',
    files: {
      'apps/x/kustomization.yaml': 'resources:\n  - ../../base\n  - https://github.com/example/repo//deploy?ref=v1\npatches:\n  - target:\n      kind: Deployment\n    patch: |\n      - op: replace\n        path: /spec/replicas\n        value: 2\n',
    },
    expect: [],
  },
  {
    name: 'namespace-on-cluster-scoped: a patch that sets metadata.namespace on a ManagedCluster',
    files: overlay('- op: add\n  path: /metadata/namespace\n  value: a'),
    expect: [`warning namespace-on-cluster-scoped ${K}:7`],
  },
  {
    name: 'namespace-on-cluster-scoped: a ManagedCluster written with a namespace, and a kustomization namespace kustomize puts on it',
    files: {
      'apps/x/kustomization.yaml': 'namespace: x\nresources:\n  - mc.yaml\n',
      'apps/x/mc.yaml': 'apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: b\n  namespace: b\n',
    },
    expect: [`warning namespace-on-cluster-scoped ${K}:1`, 'warning namespace-on-cluster-scoped apps/x/mc.yaml:5'],
  },
  {
    name: 'namespace-on-cluster-scoped passes: kustomize leaves the kinds it knows alone; namespaced kinds take it',
    files: {
      'apps/x/kustomization.yaml': 'namespace: x\nresources:\n  - objs.yaml\n',
      'apps/x/objs.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: y\n',
    },
    expect: [],
  },
];

function findingsOf(files: Record<string, string>): string[] {
  const dir = writeTree({ ...BASE, ...files });
  try {
    const { fleet } = loadFleet(dir);
    return validateFleet(fleet)
      .filter((f) => CODES.has(f.code))
      .map((f) => `${f.severity} ${f.code} ${f.file}:${f.line ?? '-'}`)
      .sort();
  } finally {
    removeTree(dir);
  }
}

for (const c of cases) {
  test(`kustomize-patches: ${c.name}`, () => {
    assert.deepEqual(findingsOf(c.files), [...c.expect].sort());
  });
}

test('kustomize-patches: kustomize 5 fails exactly where the rule reports an error', () => {
  const { kubectl } = requireTools();
  for (const c of cases) {
    if (c.files['apps/x/kustomization.yaml']?.includes('https://')) continue; // remote: no network in tests
    const dir = writeTree({ ...BASE, ...c.files });
    let built = true;
    try {
      execFileSync(kubectl, ['kustomize', `${dir}/apps/x`], { stdio: 'pipe' });
    } catch {
      built = false;
    } finally {
      removeTree(dir);
    }
    assert.equal(built, !c.expect.some((e) => e.startsWith('error ')), `${c.name}: kustomize ${built ? 'builds' : 'fails'}`);
  }
});

test('kustomize-patches: the message says what kustomize does and what RFC 6902 does, the hint says op: add', () => {
  const dir = writeTree({ ...BASE, ...overlay('- op: replace\n  path: /metadata/labels/region\n  value: us-west-2') });
  try {
    const { fleet } = loadFleet(dir);
    const f = validateFleet(fleet).find((x) => x.code === 'patch-path-missing')!;
    assert.match(f.message, /replace \/metadata\/labels\/region on ManagedCluster a \(base\/mc\.yaml\): it has no \/metadata\/labels\/region/);
    assert.match(f.message, /kustomize 5 adds the field/);
    assert.match(f.message, /RFC 6902 requires the location to exist/);
    assert.match(f.hint ?? '', /op: add/);
    assert.equal(f.column, 9, 'the column of `op:`');
  } finally {
    removeTree(dir);
  }
});
