/**
 * A synthetic native fleet for benchmarks: N clusters of `appsPerCluster` apps each, layered the
 * way real fleets are (a group every cluster has, a region group, a tier group, and the cluster's
 * own apps), with needs chains, variables in app fields and one kustomize directory per component.
 *
 * The fleet is described once by `syntheticShape`; `writeSyntheticFleet` writes it in the native
 * layout and ./synthetic-gitops-standards.ts writes the same fleet in the gitops-standards layout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SyntheticOptions {
  clusters: number;
  appsPerCluster: number;
  regions?: number;
  tiers?: number;
  /**
   * Components the clusters' own apps are drawn from. Absent: own app i uses `own-<i % 10>` on
   * every cluster. Given (n): own app i of cluster c uses `own-<(c + i) % n>`, so that clusters
   * differ in which components they run.
   */
  ownComponents?: number;
}

export const SYNTHETIC_REPO_URL = 'https://git.example.com/platform/fleet.git';
export const SYNTHETIC_PLATFORM_DOMAIN = 'example.com';
/** The production sector's pinned revision; the canary sector follows the fleet's `main`. */
export const SYNTHETIC_PINNED_REVISION = '0123456789abcdef0123456789abcdef01234567';

export interface SyntheticApp {
  name: string;
  component: string;
  /** The explicit wave, if any. */
  wave?: number;
  needs: string[];
  /** The wave Argo CD sees: the explicit one, else one above the latest of its needs. */
  effectiveWave: number;
  /** Extra annotations, in native form (values may hold `${VARIABLES}`). */
  annotations?: Record<string, string>;
}

export interface SyntheticGroup {
  name: string;
  apps: SyntheticApp[];
}

export interface SyntheticCluster {
  name: string;
  role: 'hub' | 'spoke';
  region: string;
  sector: 'canary' | 'production';
  /** The revision its apps track. */
  revision: string;
  groups: string[];
  /** Annotations the cluster adds to an app of its groups, by app name. */
  appAnnotations: Record<string, Record<string, string>>;
  apps: SyntheticApp[];
}

export interface SyntheticShape {
  groups: SyntheticGroup[];
  clusters: SyntheticCluster[];
  /** Every component directory, sorted. */
  components: string[];
}

/** Annotations every cluster adds to `platform-0`. */
export const PLATFORM_0_ANNOTATIONS: Record<string, string> = { 'cluster-domain': '${CLUSTER_BASE_DOMAIN}' };

export function syntheticShape(o: SyntheticOptions): SyntheticShape {
  const regions = o.regions ?? 5;
  const tiers = o.tiers ?? 4;
  // Split: 50% from `all`, 25% from the region group, 12.5% from the tier group, the rest the cluster's own.
  const nAll = Math.floor(o.appsPerCluster / 2);
  const nRegion = Math.floor(o.appsPerCluster / 4);
  const nTier = Math.floor(o.appsPerCluster / 8);
  const nOwn = o.appsPerCluster - nAll - nRegion - nTier;
  const components = new Set<string>();
  const waves = new Map<string, number>();
  const app = (name: string, component: string, wave: number | undefined, needs: string[], annotations?: Record<string, string>): SyntheticApp => {
    components.add(component);
    const effectiveWave = wave ?? Math.max(...needs.map((n) => waves.get(n)!)) + 1;
    waves.set(name, effectiveWave);
    return { name, component, ...(wave !== undefined ? { wave } : {}), needs, effectiveWave, ...(annotations ? { annotations } : {}) };
  };
  const groups: SyntheticGroup[] = [];
  // `all`: operators at wave 5 and their configurations after them.
  const all: SyntheticApp[] = [];
  for (let i = 0; i < nAll; i++) {
    all.push(i % 2 === 0 ? app(`platform-${i}`, `platform-${i}`, 5 + (i % 4) * 5, []) : app(`platform-${i}`, `platform-${i}`, undefined, [`platform-${i - 1}`]));
  }
  groups.push({ name: 'all', apps: all });
  for (let r = 0; r < regions; r++) {
    const apps: SyntheticApp[] = [];
    for (let i = 0; i < nRegion; i++) apps.push(app(`regional-${i}`, `regional-${i}`, 30, [], { region: '${CLUSTER_REGION}' }));
    groups.push({ name: `region-${r}`, apps });
  }
  for (let t = 0; t < tiers; t++) {
    const apps: SyntheticApp[] = [];
    for (let i = 0; i < nTier; i++) apps.push(app(`tier-${i}`, `tier-${t}-${i}`, i === 0 ? 40 : undefined, i > 0 ? [`tier-${i - 1}`] : []));
    groups.push({ name: `tier-${t}`, apps });
  }
  const pad = String(o.clusters).length;
  const clusters: SyntheticCluster[] = [];
  for (let c = 0; c < o.clusters; c++) {
    const apps: SyntheticApp[] = [];
    for (let i = 0; i < nOwn; i++) {
      const component = o.ownComponents === undefined ? `own-${i % 10}` : `own-${(c + i) % o.ownComponents}`;
      apps.push(app(`own-${i}`, component, undefined, [i === 0 ? 'platform-1' : `own-${i - 1}`]));
    }
    const sector = c % 10 === 0 ? 'canary' : 'production';
    clusters.push({
      name: `c${String(c).padStart(pad, '0')}`,
      role: c === 0 ? 'hub' : 'spoke',
      region: `region-${c % regions}`,
      sector,
      revision: sector === 'canary' ? 'main' : SYNTHETIC_PINNED_REVISION,
      groups: ['all', `region-${c % regions}`, `tier-${c % tiers}`],
      appAnnotations: { 'platform-0': PLATFORM_0_ANNOTATIONS },
      apps,
    });
  }
  return { groups, clusters, components: [...components].sort() };
}

/** The variables a cluster's apps are substituted with (what its config-management plugin would be given). */
export function syntheticVariables(cluster: SyntheticCluster): Record<string, string> {
  return {
    CLUSTER_NAME: cluster.name,
    CLUSTER_BASE_DOMAIN: `${cluster.name}.${SYNTHETIC_PLATFORM_DOMAIN}`,
    PLATFORM_BASE_DOMAIN: SYNTHETIC_PLATFORM_DOMAIN,
    CLUSTER_REGION: cluster.region,
  };
}

/** A component: one ConfigMap with the cluster's variables. */
export function componentFiles(comp: string): Record<string, string> {
  return {
    [`components/${comp}/kustomization.yaml`]: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - configmap.yaml\n',
    [`components/${comp}/configmap.yaml`]: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${comp}\n  namespace: ${comp}\ndata:\n  cluster: \${CLUSTER_NAME}\n  domain: \${CLUSTER_BASE_DOMAIN}\n`,
  };
}

export function fileWriter(dir: string): { write(path: string, text: string): void; count(): number } {
  let files = 0;
  return {
    write(path, text) {
      const abs = join(dir, path);
      mkdirSync(join(abs, '..'), { recursive: true });
      writeFileSync(abs, text);
      files++;
    },
    count: () => files,
  };
}

export function writeSyntheticFleet(dir: string, o: SyntheticOptions): { files: number; components: number } {
  const shape = syntheticShape(o);
  const { write, count } = fileWriter(dir);
  write(
    'fleet.yaml',
    `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: synthetic
spec:
  repoURL: ${SYNTHETIC_REPO_URL}
  revision: main
  sectors:
    - name: canary
    - name: production
      revision: ${SYNTHETIC_PINNED_REVISION}
  vars:
    PLATFORM_BASE_DOMAIN: ${SYNTHETIC_PLATFORM_DOMAIN}
  defaults:
    project: platform
    annotations:
      argocd.argoproj.io/compare-options: IgnoreExtraneous
    syncPolicy:
      automated:
        selfHeal: true
      retry:
        limit: -1
        backoff:
          duration: 5s
          factor: 2
          maxDuration: 10m
    syncOptions:
      - ServerSideApply=true
      - PruneLast=true
  projects:
    platform:
      description: Platform apps
`,
  );
  const appBlock = (a: SyntheticApp) => {
    let s = `    ${a.name}:\n      path: components/${a.component}\n      namespace: ${a.component}\n`;
    if (a.wave !== undefined) s += `      wave: ${a.wave}\n`;
    if (a.needs.length) s += `      needs: [${a.needs.join(', ')}]\n`;
    if (a.annotations) s += `      annotations:\n${Object.entries(a.annotations).map(([k, v]) => `        ${k}: ${v}\n`).join('')}`;
    return s;
  };
  for (const g of shape.groups) {
    write(`groups/${g.name}/group.yaml`, `apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: ${g.name}\nspec:\n  apps:\n${g.apps.map(appBlock).join('')}`);
  }
  const hub = shape.clusters.find((c) => c.role === 'hub')?.name;
  for (const c of shape.clusters) {
    const overrides = Object.entries(c.appAnnotations)
      .map(([app, ann]) => `    ${app}:\n      annotations:\n${Object.entries(ann).map(([k, v]) => `        ${k}: ${v}\n`).join('')}`)
      .join('');
    write(
      `clusters/${c.name}/cluster.yaml`,
      `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: ${c.name}
spec:
  role: ${c.role}
${c.role === 'spoke' && hub ? `  hub: ${hub}\n` : ''}  region: ${c.region}
  sector: ${c.sector}
  groups: [${c.groups.join(', ')}]
  vars:
    CLUSTER_BASE_DOMAIN: \${CLUSTER_NAME}.\${PLATFORM_BASE_DOMAIN}
  apps:
${overrides}${c.apps.map(appBlock).join('')}`,
    );
  }
  for (const comp of shape.components) for (const [path, text] of Object.entries(componentFiles(comp))) write(path, text);
  return { files: count(), components: shape.components.length };
}
