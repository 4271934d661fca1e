/**
 * The synthetic fleet of ./synthetic.ts written in the gitops-standards layout (seed 001), as
 * svitnin-redhat/openshift-virtualization-gitops lays it out:
 *   .helm-charts/argocd-app-of-app   the real repository's chart: Chart.yaml and templates copied
 *                                    verbatim, values.yaml (the chart's defaults) written with the
 *                                    fleet's defaults (project, annotations, sync policy, repoURL)
 *   .bootstrap/argocd.yaml           the `environment-variables` ConfigMap the plugin substitutes
 *   clusters/cluster-versions.yaml   cluster → revision (canary: main, production: the pinned sha)
 *   clusters/<c>/kustomization.yaml  groups `all` and the region as resources, the tier as a
 *                                    kustomize Component, the chart with the cluster's values.yaml,
 *                                    and the replacement of every targetRevision from cluster-versions
 *   groups/<g>/                      kustomization.yaml (Kustomization or Component) + values.yaml
 *   components/<comp>/               the same kustomize directories as the native fleet
 *
 * Every Application equals the native fleet's, except that the chart writes no metadata.namespace.
 * What the chart cannot say the way the native layout does is written out:
 *   - waves: the effective wave (from `needs`) as the sync-wave annotation
 *   - `${CLUSTER_REGION}` (a native built-in): the region group's name, literally
 *   - the annotation every cluster adds to `platform-0`: on `platform-0` in group `all` (the
 *     chart renders each values file on its own, so a cluster cannot amend a group's app)
 * The chart is Apache-2.0 (gnunn-gitops/argocd-app-of-app-chart); it is copied into the generated
 * fleet (a temporary directory), never into this repository.
 */
import { cpSync, existsSync } from 'node:fs';
import { realRepo } from '../test/support/shared.js';
import type { SyntheticApp, SyntheticOptions } from './synthetic.js';
import { PLATFORM_0_ANNOTATIONS, SYNTHETIC_PLATFORM_DOMAIN, SYNTHETIC_REPO_URL, componentFiles, fileWriter, syntheticShape } from './synthetic.js';

/**
 * The real repository's chart, from the shared data beside the repository ($FLEETPLAN_SHARED or
 * ../shared/realrepos, as the real-data tests use it). Resolved on call: only the tests of
 * `npm run test:real` and the benchmark need it.
 */
export function realChartDir(): string {
  return realRepo('svitnin-redhat__openshift-virtualization-gitops', '.helm-charts', 'argocd-app-of-app');
}

export interface GitopsStandardsOptions extends SyntheticOptions {
  /** Where the argocd-app-of-app chart is copied from (default: realChartDir()). */
  chartDir?: string;
}

/** The chart's defaults, matching the native fleet's `defaults` (fleet.yaml of ./synthetic.ts). */
const CHART_VALUES = `default:
  project:

  app:
    annotations:
      argocd.argoproj.io/compare-options: IgnoreExtraneous
    finalizers:
      - resources-finalizer.argocd.argoproj.io
    enabled: true
    enableAutoSync: true
    autoSyncPrune: false
    project: platform
    destination:
      namespace: openshift-gitops
      server: https://kubernetes.default.svc
    source:
      repoURL: \${INFRA_GITOPS_REPO}
      targetRevision: HEAD
    syncOptions:
    - ServerSideApply=true
    - PruneLast=true
    syncPolicyRetry:
      limit: -1
      backoff:
        duration: 5s
        factor: 2
        maxDuration: 10m
`;

/** The `environment-variables` ConfigMap's data, as written (`${cluster_name}` is set at bootstrap). */
export const ENVIRONMENT_VARIABLES: Record<string, string> = {
  CLUSTER_NAME: '${cluster_name}',
  CLUSTER_BASE_DOMAIN: `\${cluster_name}.${SYNTHETIC_PLATFORM_DOMAIN}`,
  PLATFORM_BASE_DOMAIN: SYNTHETIC_PLATFORM_DOMAIN,
  INFRA_GITOPS_REPO: SYNTHETIC_REPO_URL,
};

/** The variables the config-management plugin of cluster `c` substitutes (the ConfigMap once bootstrapped). */
export function pluginVariables(cluster: string): Record<string, string> {
  return Object.fromEntries(Object.entries(ENVIRONMENT_VARIABLES).map(([k, v]) => [k, v.split('${cluster_name}').join(cluster)]));
}

const CHART_USE = `helmGlobals:
  chartHome: ../../.helm-charts

helmCharts:
- name: argocd-app-of-app
  valuesFile: values.yaml
  namespace: openshift-gitops
`;

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

function applications(apps: SyntheticApp[], annotationsOf: (a: SyntheticApp) => Record<string, string>): string {
  if (apps.length === 0) return 'applications: {}\n';
  let s = 'applications:\n';
  for (const a of apps) {
    const ann = { 'argocd.argoproj.io/sync-wave': String(a.effectiveWave), ...annotationsOf(a) };
    s += `  ${a.name}:\n    annotations:\n`;
    for (const [k, v] of Object.entries(ann)) s += `      ${k}: ${quote(v)}\n`;
    s += `    destination:\n      namespace: ${a.component}\n    source:\n      path: components/${a.component}\n`;
  }
  return s;
}

/** Groups pulled in as kustomize Components (the others are resources). */
const isComponentGroup = (name: string) => name.startsWith('tier-');

export function writeSyntheticGitopsStandardsFleet(dir: string, o: GitopsStandardsOptions): { files: number; components: number } {
  const shape = syntheticShape(o);
  const chartDir = o.chartDir ?? realChartDir();
  if (!existsSync(`${chartDir}/templates/applications.yaml`)) {
    throw new Error(`${chartDir}: the argocd-app-of-app chart is not there (expected the real repository under realrepos/ of $FLEETPLAN_SHARED or ../shared)`);
  }
  const { write, count } = fileWriter(dir);
  cpSync(chartDir, `${dir}/.helm-charts/argocd-app-of-app`, { recursive: true, filter: (src) => !src.endsWith('/charts') });
  write('.helm-charts/argocd-app-of-app/values.yaml', CHART_VALUES);
  write(
    '.bootstrap/argocd.yaml',
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: environment-variables\n  namespace: openshift-gitops\ndata:\n${Object.entries(ENVIRONMENT_VARIABLES)
      .map(([k, v]) => `  ${k}: ${quote(v)}\n`)
      .join('')}`,
  );
  write(
    'clusters/cluster-versions.yaml',
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-versions\n  namespace: openshift-gitops\ndata:\n${shape.clusters.map((c) => `  ${c.name}: ${quote(c.revision)}\n`).join('')}`,
  );

  // Every cluster amends platform-0 the same way; the chart cannot amend a group's app, so group `all` carries it.
  for (const c of shape.clusters) {
    if (JSON.stringify(c.appAnnotations) !== JSON.stringify({ 'platform-0': PLATFORM_0_ANNOTATIONS })) {
      throw new Error(`cluster ${c.name} amends its groups' apps differently from the others: not expressible in the gitops-standards layout`);
    }
  }
  for (const g of shape.groups) {
    const kind = isComponentGroup(g.name) ? 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component' : 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization';
    write(`groups/${g.name}/kustomization.yaml`, `${kind}\n\n${CHART_USE}`);
    const annotationsOf = (a: SyntheticApp): Record<string, string> => {
      const ann: Record<string, string> = {};
      for (const [k, v] of Object.entries(a.annotations ?? {})) ann[k] = v.split('${CLUSTER_REGION}').join(g.name);
      if (g.name === 'all' && a.name === 'platform-0') Object.assign(ann, PLATFORM_0_ANNOTATIONS);
      return ann;
    };
    let values = applications(g.apps, annotationsOf);
    if (g.name === 'all') {
      values = `projects:
  platform:
    description: Platform apps
    sourceRepos:
    - \${INFRA_GITOPS_REPO}
    destinations: |
      - namespace: '*'
        server: https://kubernetes.default.svc
    extraFields: |
      clusterResourceWhitelist:
      - group: '*'
        kind: '*'

${values}`;
    }
    write(`groups/${g.name}/values.yaml`, values);
  }

  for (const c of shape.clusters) {
    const resources = c.groups.filter((g) => !isComponentGroup(g));
    const components = c.groups.filter(isComponentGroup);
    write(
      `clusters/${c.name}/kustomization.yaml`,
      `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization

resources:
  - ../cluster-versions.yaml
${resources.map((g) => `  - ../../groups/${g}\n`).join('')}${components.length ? `\ncomponents:\n${components.map((g) => `  - ../../groups/${g}\n`).join('')}` : ''}
${CHART_USE}
replacements:
- source:
    version: v1
    kind: ConfigMap
    name: cluster-versions
    fieldPath: data.${c.name}
  targets:
  - select:
      group: argoproj.io
      version: v1alpha1
      kind: Application
    fieldPaths:
    - spec.source.targetRevision
`,
    );
    write(`clusters/${c.name}/values.yaml`, applications(c.apps, (a) => a.annotations ?? {}));
  }
  for (const comp of shape.components) for (const [path, text] of Object.entries(componentFiles(comp))) write(path, text);
  return { files: count(), components: shape.components.length };
}
