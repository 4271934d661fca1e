/**
 * Correctness of the gitops-standards reader is defined by the real tools: for every cluster of
 * both real repositories, `kustomize build --enable-helm --load-restrictor LoadRestrictionsNone
 * clusters/<c>` (kubectl 1.33's kustomize 5.6, Helm 3.18 from .tools/bin) followed by the
 * config-management plugin's strict substitution with the `environment-variables` ConfigMap must
 * give, object by object, the Applications and AppProjects fleetplan generates.
 *
 * The repositories are copied into a temporary directory first: kustomize's Helm inflation may
 * write a charts/ cache into the chart home, and ../shared is read-only input.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { createClusterBuilder } from '../../../src/adapters/cluster-build.js';
import type { ClosableClusterBuilder } from '../../../src/adapters/cluster-build.js';
import { applicationFor, projectsFor } from '../../../src/generate/argocd.js';
import { loadFleet } from '../../../src/index.js';
import { resolveCluster } from '../../../src/layering/resolve.js';
import { substitute } from '../../../src/model/substitute.js';
import { clusterDirs } from '../../../src/layouts/gitops-standards/reader.js';
import { completeFallbacks } from '../../../src/layouts/gitops-standards/fallback.js';
import { nodeFileSystem } from '../../../src/adapters/node-fs.js';
import type { LoadResult } from '../../../src/load/native.js';
import { realRepo } from '../../support/shared.js';

const REPOS = [
  { name: 'svitnin-redhat__openshift-virtualization-gitops', clusters: { hub: [12, 1], etl4: [13, 1] } as Record<string, [number, number]> },
  { name: 'redhat-cop__gitops-standards-repo-template', clusters: {} as Record<string, [number, number]> },
];
const TOOLS = resolve('.tools/bin');
const env = { PATH: `${TOOLS}:${process.env.PATH ?? ''}` };

const CHANGED = 'redhat-cop__gitops-standards-repo-template-changed';
let work: string;
const builders = new Map<string, ClosableClusterBuilder>();
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'fleetplan-equality-'));
  for (const r of REPOS) cpSync(realRepo(r.name), join(work, r.name), { recursive: true });
  // A copy whose chart has an extra template: no longer a chart version fleetplan knows.
  cpSync(join(work, REPOS[1]!.name), join(work, CHANGED), { recursive: true });
  writeFileSync(join(work, CHANGED, '.helm/charts/argocd-app-of-app/templates/NOTES.txt'), 'installed\n');
  for (const name of [...REPOS.map((r) => r.name), CHANGED]) {
    builders.set(name, await createClusterBuilder(join(work, name), { env, kustomize: join(TOOLS, 'kubectl'), helm: join(TOOLS, 'helm') }));
  }
});
after(() => {
  for (const b of builders.values()) b.close();
  rmSync(work, { recursive: true, force: true });
});

type Obj = Record<string, unknown> & { kind: string; metadata: { name: string } };

/** The plugin's variables: the ConfigMap's data as applied at bootstrap for cluster `c` (`${cluster_name}` = c). */
function pluginVariables(repo: string, cluster: string): Record<string, string> {
  const file = join(repo, '.bootstrap/argocd.yaml');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  for (const doc of parseAllDocuments(text) as unknown as { toJS(): unknown }[]) {
    const v = doc.toJS() as { kind?: string; metadata?: { name?: string }; data?: Record<string, string> } | null;
    if (v?.kind === 'ConfigMap' && v.metadata?.name === 'environment-variables') {
      const out: Record<string, string> = {};
      for (const [k, x] of Object.entries(v.data ?? {})) out[k] = String(x).split('${cluster_name}').join(cluster);
      return out;
    }
  }
  return {};
}


/** kustomize build + strict substitution → Applications and AppProjects by kind/name. */
async function realObjects(repoDir: string, repoName: string, cluster: string): Promise<Map<string, Obj>> {
  const built = await builders.get(repoName)!.build(`clusters/${cluster}`);
  const vars = pluginVariables(repoDir, cluster);
  const sub = substitute(built, (n) => vars[n]);
  assert.deepEqual(sub.missing.map((m) => m.name), [], `the plugin would fail on ${cluster}: undefined variables`);
  const out = new Map<string, Obj>();
  for (const doc of parseAllDocuments(sub.text) as unknown as { toJS(): unknown }[]) {
    const o = doc.toJS() as Obj | null;
    if (o && (o.kind === 'Application' || o.kind === 'AppProject')) out.set(`${o.kind}/${o.metadata.name}`, o);
  }
  return out;
}

function fleetplanObjects(result: LoadResult, cluster: string): Map<string, Obj> {
  const { cluster: rc, findings } = resolveCluster(result.fleet, cluster);
  assert.deepEqual(findings.filter((f) => f.severity === 'error' && f.code !== 'missing-path'), [], `resolution errors on ${cluster}`);
  const out = new Map<string, Obj>();
  for (const app of rc.apps) out.set(`Application/${app.name}`, JSON.parse(JSON.stringify(applicationFor(rc, app))) as Obj);
  for (const p of projectsFor(result.fleet, rc)) out.set(`AppProject/${p.metadata.name}`, JSON.parse(JSON.stringify(p)) as Obj);
  return out;
}

function compare(real: Map<string, Obj>, ours: Map<string, Obj>, where: string): void {
  assert.deepEqual([...ours.keys()].sort(), [...real.keys()].sort(), `${where}: the same objects`);
  for (const [k, v] of real) assert.deepStrictEqual(ours.get(k), v, `${where}: ${k}`);
}

for (const repo of REPOS) {
  test(`every cluster of ${repo.name} gets exactly the Applications and AppProjects of kustomize build + the plugin's substitution`, async (t) => {
    const dir = join(work, repo.name);
    const result = loadFleet(dir);
    const clusters = clusterDirs(nodeFileSystem(dir));
    assert.ok(clusters.length > 0);
    t.diagnostic(`${repo.name}: ${clusters.length} clusters, ${result.fallbacks?.length ?? 0} built through the kustomize fallback`);
    // Both known chart versions are evaluated without the fallback.
    assert.deepEqual(result.fallbacks ?? [], []);
    for (const c of clusters) {
      const real = await realObjects(dir, repo.name, c);
      const ours = fleetplanObjects(result, c);
      compare(real, ours, `${repo.name} ${c}`);
      const expected = repo.clusters[c];
      if (expected) {
        const count = (kind: string) => [...ours.keys()].filter((k) => k.startsWith(`${kind}/`)).length;
        assert.deepEqual([count('Application'), count('AppProject')], expected, `${c}: Applications and AppProjects per SOURCE.md`);
      }
    }
  });
}

test('a cluster whose chart templates are unknown is built with the real kustomize, and still equals it', async () => {
  const dir = join(work, CHANGED);
  const result = loadFleet(dir);
  assert.deepEqual(result.fallbacks?.map((f) => f.cluster), clusterDirs(nodeFileSystem(dir)));
  await completeFallbacks(result, () => Promise.resolve(builders.get(CHANGED)!));
  for (const c of ['hub', 'non-prod-east']) {
    const def = result.fleet.clusters.find((d) => d.name === c)!;
    assert.match(def.notes!.join('\n'), /Applications read from kubectl kustomize 5\.6\.0, helm 3\.18\.0 of clusters\/.* \(fallback: chart .* has templates/);
    compare(await realObjects(dir, CHANGED, c), fleetplanObjects(result, c), `fallback ${c}`);
  }
});
