/**
 * The premise of the leaves benchmark (bench/leaves.ts): the synthetic fleet written in the
 * gitops-standards layout is the same fleet as the native one. On tiny sizes, every cluster's
 * Applications from both layouts must be equal as objects (the chart writes no metadata.namespace,
 * the only difference), the gitops-standards fleet must be read without the kustomize fallback,
 * and one cluster built with the real kustomize + Helm and substituted must give fleetplan's objects.
 * The gitops-standards fleet carries the real argocd-app-of-app chart (realrepos/ of the shared
 * data), hence the real-data suite.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import { compareObjects, parseObjects } from '../../../bench/objects.js';
import type { KubeObject } from '../../../bench/objects.js';
import { pluginVariables, writeSyntheticGitopsStandardsFleet } from '../../../bench/synthetic-gitops-standards.js';
import type { SyntheticOptions } from '../../../bench/synthetic.js';
import { syntheticShape, writeSyntheticFleet } from '../../../bench/synthetic.js';
import { applicationFor, projectsFor } from '../../../src/generate/argocd.js';
import { loadFleet } from '../../../src/index.js';
import { resolveCluster } from '../../../src/layering/resolve.js';
import { substitute } from '../../../src/model/substitute.js';
import type { LoadResult } from '../../../src/load/native.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../../helpers/tools.js';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

function bothLayouts(o: SyntheticOptions): { native: LoadResult; gitops: LoadResult; gitopsDir: string } {
  const nativeDir = tempDir('synthetic-native');
  const gitopsDir = tempDir('synthetic-gitops-standards');
  dirs.push(nativeDir, gitopsDir);
  writeSyntheticFleet(nativeDir, o);
  writeSyntheticGitopsStandardsFleet(gitopsDir, o);
  return { native: loadFleet(nativeDir), gitops: loadFleet(gitopsDir), gitopsDir };
}

function applications(result: LoadResult, cluster: string, withoutNamespace = false): KubeObject[] {
  const { cluster: rc, findings } = resolveCluster(result.fleet, cluster);
  assert.deepEqual(findings.filter((f) => f.severity === 'error'), [], `${result.fleet.layout} ${cluster}: resolution errors`);
  return rc.apps.map((a) => {
    const o = JSON.parse(JSON.stringify(applicationFor(rc, a))) as KubeObject;
    if (withoutNamespace) delete o.metadata.namespace;
    return o;
  });
}

const cases: { name: string; options: SyntheticOptions }[] = [
  { name: 'gives every cluster the same Applications in both layouts (16 apps, shared own components)', options: { clusters: 12, appsPerCluster: 16 } },
  { name: 'gives every cluster the same Applications in both layouts (30 apps, own components varying by cluster)', options: { clusters: 11, appsPerCluster: 30, ownComponents: 6 } },
];

for (const c of cases) {
  test(`the synthetic fleet ${c.name}`, () => {
    const { native, gitops } = bothLayouts(c.options);
    assert.equal(gitops.fleet.layout, 'gitops-standards');
    assert.deepEqual(gitops.fallbacks ?? [], [], 'read from the values, not built with kustomize');
    assert.deepEqual(gitops.findings.filter((f) => f.severity === 'error'), []);
    const names = syntheticShape(c.options).clusters.map((x) => x.name);
    assert.deepEqual(gitops.fleet.clusters.map((x) => x.name).sort(), names);
    for (const name of names) {
      const ours = applications(gitops, name);
      assert.equal(ours.length, c.options.appsPerCluster, `${name}: every app`);
      assert.deepEqual(compareObjects(applications(native, name, true), ours), [], `${name}: native vs gitops-standards`);
    }
  });
}

test("a generated gitops-standards cluster built with the real kustomize and the plugin's substitution gives fleetplan's Applications and AppProjects", () => {
  const { kubectl, helm } = requireTools();
  const { gitops, gitopsDir } = bothLayouts({ clusters: 11, appsPerCluster: 16 });
  const home = tempDir('synthetic-home');
  dirs.push(home);
  for (const cluster of ['c01']) {
    const built = execFileSync(kubectl, ['kustomize', '--enable-helm', '--load-restrictor', 'LoadRestrictionsNone', '--helm-command', helm, `clusters/${cluster}`], {
      cwd: gitopsDir,
      env: toolEnv(home),
      encoding: 'utf8',
    });
    const vars = pluginVariables(cluster);
    const sub = substitute(built, (n) => vars[n]);
    assert.deepEqual(sub.missing.map((m) => m.name), []);
    const real = parseObjects(sub.text).filter((o) => o.kind === 'Application' || o.kind === 'AppProject');
    const { cluster: rc } = resolveCluster(gitops.fleet, cluster);
    const ours = [...applications(gitops, cluster), ...projectsFor(gitops.fleet, rc).map((p) => JSON.parse(JSON.stringify(p)) as KubeObject)];
    assert.equal(real.filter((o) => o.kind === 'Application').length, 16);
    assert.deepEqual(compareObjects(real, ours), [], cluster);
  }
});
