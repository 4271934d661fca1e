// The ApplicationSet benchmark's inputs: 1,000 cluster Secrets × 100 git directories through a
// matrix (100,000 Applications). `npm run bench appset` runs them through the CLI
// (./appset-cli.ts); this file alone times the engine in memory, without YAML or git:
// `npx tsc -p . && node dist/bench/appset.js [go|flat]` (default go: the seed's mode).
import { pathToFileURL } from 'node:url';
import { generateApplications } from '../src/appset/applications.js';
import type { GenerateOptions } from '../src/appset/applications.js';
import { createMemoryTree, createRepoServer } from '../src/appset/repo-server.js';
import type { ApplicationSet, ClusterSecret } from '../src/appset/types.js';
import { goTemplateEngine } from '../src/appset/go-engine.js';

export interface AppsetBenchResult {
  name: string;
  applications: number;
  /** Wall time of each run, in ms. */
  runsMs: number[];
  /** The fastest and the median run (the machine is shared and noisy: the minimum is the signal). */
  minMs: number;
  medianMs: number;
  /** CPU time (user + system) of the fastest run: less sensitive than wall time to a busy machine. */
  cpuMs: number;
  /** Peak resident memory of the process over all runs. */
  peakRssMB: number;
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

/** Runs the 100,000-Application matrix `runs` times and reports time and peak memory. */
export async function benchAppsetMatrix(
  options: { clusters?: number; directories?: number; goTemplate?: boolean; runs?: number } = {},
): Promise<AppsetBenchResult> {
  const clusters = options.clusters ?? 1000;
  const directories = options.directories ?? 100;
  const goTemplate = options.goTemplate ?? true;
  const runs = Math.max(1, options.runs ?? 3);
  const files: Record<string, string> = {};
  for (let d = 0; d < directories; d++) files[`argocd/config/component-${String(d).padStart(3, '0')}/values.yaml`] = 'replicas: 1\n';
  const secrets = benchClusters(clusters);
  const appSet = benchAppSet(goTemplate);
  const runsMs: number[] = [];
  const cpus: number[] = [];
  let applications = 0;
  for (let i = 0; i < runs; i++) {
    // A fresh repo server per run: nothing is cached across runs.
    const gen: GenerateOptions = { clusterSecrets: secrets, git: createRepoServer(createMemoryTree(files)), ...goTemplateEngine };
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await generateApplications(appSet, gen);
    runsMs.push(Math.round(performance.now() - t0));
    const c = process.cpuUsage(c0);
    cpus.push(Math.round((c.user + c.system) / 1000));
    applications = res.applications.length;
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  return {
    name: `appset matrix ${clusters} clusters × ${directories} git directories (${goTemplate ? 'goTemplate' : 'flat'})`,
    applications,
    runsMs,
    minMs: sorted[0]!,
    cpuMs: cpus[runsMs.indexOf(sorted[0]!)]!,
    medianMs: sorted[Math.floor(sorted.length / 2)]!,
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

export function formatAppsetBench(r: AppsetBenchResult): string {
  return `${r.name}: ${r.applications} Applications, min ${r.minMs} ms (CPU ${r.cpuMs} ms), median ${r.medianMs} ms (runs ${r.runsMs.join(', ')}), peak RSS ${r.peakRssMB} MB (goal: < 2000 ms, < 1024 MB)`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mode = process.argv[2] ?? 'go';
  console.log(formatAppsetBench(await benchAppsetMatrix({ goTemplate: mode !== 'flat' })));
}
