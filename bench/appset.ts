// Benchmark: 1,000 cluster Secrets × 100 git directories through a matrix (100,000
// Applications), with an in-memory repository. Reports wall time and peak memory.
// Run: `npx tsc -p . && node dist/bench/appset.js [flat|go]`.
import { pathToFileURL } from 'node:url';
import { generateApplications } from '../src/appset/applications.js';
import type { GenerateOptions } from '../src/appset/applications.js';
import { createMemoryTree, createRepoServer } from '../src/appset/repo-server.js';
import type { ApplicationSet, ClusterSecret } from '../src/appset/types.js';
import { goTemplateEngine } from '../src/appset/go-engine.js';

export interface AppsetBenchResult {
  name: string;
  applications: number;
  ms: number;
  peakRssMB: number;
  heapUsedMB: number;
}

export function benchClusters(n: number): ClusterSecret[] {
  const out: ClusterSecret[] = [];
  for (let i = 0; i < n; i++) {
    const sector = ['integration', 'staging', 'production'][i % 3]!;
    out.push({
      name: `cluster-${i}`,
      namespace: 'argocd',
      labels: {
        'argocd.argoproj.io/secret-type': 'cluster',
        cluster_type: i % 10 === 0 ? 'management-cluster' : 'regional-cluster',
        environment: sector,
        region_alias: `region-${i % 4}`,
      },
      annotations: { git_repo: 'https://github.com/example/fleet.git', git_revision: 'main' },
      data: { name: `cluster-${i}`, server: `https://cluster-${i}.example.com:6443`, config: '{}' },
    });
  }
  return out;
}

export function benchAppSet(goTemplate: boolean): ApplicationSet {
  const t = (flat: string, go: string): string => (goTemplate ? go : flat);
  return {
    metadata: { name: 'root-applicationset', namespace: 'argocd' },
    spec: {
      goTemplate,
      generators: [
        {
          matrix: {
            generators: [
              { clusters: { selector: { matchLabels: { 'argocd.argoproj.io/secret-type': 'cluster' } } } },
              { git: { repoURL: t('{{metadata.annotations.git_repo}}', '{{ .metadata.annotations.git_repo }}'), revision: 'main', directories: [{ path: 'argocd/config/*' }] } },
            ],
          },
        },
      ],
      template: {
        metadata: { name: t('{{name}}-{{path.basename}}', '{{ .name }}-{{ .path.basename }}'), labels: { cluster: t('{{nameNormalized}}', '{{ .nameNormalized }}') } },
        spec: {
          project: 'default',
          sources: [
            {
              path: t('{{path}}', '{{ .path.path }}'),
              repoURL: t('{{metadata.annotations.git_repo}}', '{{ .metadata.annotations.git_repo }}'),
              targetRevision: t('{{metadata.annotations.git_revision}}', '{{ .metadata.annotations.git_revision }}'),
              helm: {
                valueFiles: [
                  'values.yaml',
                  t(
                    '$values/deploy/{{metadata.labels.environment}}/{{metadata.labels.region_alias}}/argocd/{{metadata.labels.cluster_type}}-values.yaml',
                    '$values/deploy/{{ .metadata.labels.environment }}/{{ .metadata.labels.region_alias }}/argocd/{{ .metadata.labels.cluster_type }}-values.yaml',
                  ),
                ],
              },
            },
            { ref: 'values', repoURL: t('{{metadata.annotations.git_repo}}', '{{ .metadata.annotations.git_repo }}'), targetRevision: t('{{metadata.annotations.git_revision}}', '{{ .metadata.annotations.git_revision }}') },
          ],
          destination: { server: t('{{server}}', '{{ .server }}'), namespace: t('{{path.basename}}', '{{ .path.basename }}') },
          syncPolicy: { automated: { prune: true, selfHeal: true } },
        },
      },
    },
  };
}

/** Runs the 100,000-Application matrix once and reports time and peak memory. */
export async function benchAppsetMatrix(options: { clusters?: number; directories?: number; goTemplate?: boolean } = {}): Promise<AppsetBenchResult> {
  const clusters = options.clusters ?? 1000;
  const directories = options.directories ?? 100;
  const goTemplate = options.goTemplate ?? false;
  const files: Record<string, string> = {};
  for (let d = 0; d < directories; d++) files[`argocd/config/component-${String(d).padStart(3, '0')}/values.yaml`] = 'replicas: 1\n';
  const git = createRepoServer(createMemoryTree(files));
  const gen: GenerateOptions = { clusterSecrets: benchClusters(clusters), git, ...goTemplateEngine };
  const t0 = performance.now();
  const res = await generateApplications(benchAppSet(goTemplate), gen);
  const ms = performance.now() - t0;
  const mem = process.memoryUsage();
  return {
    name: `appset matrix ${clusters} clusters × ${directories} directories (${goTemplate ? 'goTemplate' : 'flat'})`,
    applications: res.applications.length,
    ms: Math.round(ms),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapUsedMB: Math.round(mem.heapUsed / 1024 / 1024),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mode = process.argv[2] ?? 'flat';
  const r = await benchAppsetMatrix({ goTemplate: mode === 'go' });
  console.log(`${r.name}: ${r.applications} Applications in ${r.ms} ms, peak RSS ${r.peakRssMB} MB, heap ${r.heapUsedMB} MB`);
}
