/**
 * A synthetic native fleet for benchmarks: N clusters of `appsPerCluster` apps each, layered the
 * way real fleets are (a group every cluster has, a region group, a tier group, and the cluster's
 * own apps), with needs chains, variables in app fields and one kustomize directory per component.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SyntheticOptions {
  clusters: number;
  appsPerCluster: number;
  regions?: number;
  tiers?: number;
}

export function writeSyntheticFleet(dir: string, o: SyntheticOptions): { files: number } {
  const regions = o.regions ?? 5;
  const tiers = o.tiers ?? 4;
  // Split: 50% from `all`, 25% from the region group, 12.5% from the tier group, the rest the cluster's own.
  const nAll = Math.floor(o.appsPerCluster / 2);
  const nRegion = Math.floor(o.appsPerCluster / 4);
  const nTier = Math.floor(o.appsPerCluster / 8);
  const nOwn = o.appsPerCluster - nAll - nRegion - nTier;
  let files = 0;
  const write = (path: string, text: string) => {
    const abs = join(dir, path);
    mkdirSync(join(abs, '..'), { recursive: true });
    writeFileSync(abs, text);
    files++;
  };
  write(
    'fleet.yaml',
    `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: synthetic
spec:
  repoURL: https://git.example.com/platform/fleet.git
  revision: main
  sectors:
    - name: canary
    - name: production
      revision: 0123456789abcdef0123456789abcdef01234567
  vars:
    PLATFORM_BASE_DOMAIN: example.com
  defaults:
    project: platform
    annotations:
      argocd.argoproj.io/compare-options: IgnoreExtraneous
    syncPolicy:
      automated:
        prune: false
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
  const components = new Set<string>();
  const appBlock = (name: string, component: string, wave: number | undefined, needs: string[], extra = '') => {
    components.add(component);
    let s = `    ${name}:\n      path: components/${component}\n      namespace: ${component}\n`;
    if (wave !== undefined) s += `      wave: ${wave}\n`;
    if (needs.length) s += `      needs: [${needs.join(', ')}]\n`;
    return s + extra;
  };
  const group = (name: string, body: string) =>
    write(`groups/${name}/group.yaml`, `apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: ${name}\nspec:\n  apps:\n${body}`);
  // `all`: operators at wave 5 and their configurations after them.
  let body = '';
  for (let i = 0; i < nAll; i++) {
    body += i % 2 === 0 ? appBlock(`platform-${i}`, `platform-${i}`, 5 + (i % 4) * 5, []) : appBlock(`platform-${i}`, `platform-${i}`, undefined, [`platform-${i - 1}`]);
  }
  group('all', body);
  for (let r = 0; r < regions; r++) {
    let b = '';
    for (let i = 0; i < nRegion; i++) b += appBlock(`regional-${i}`, `regional-${i}`, 30, [], `      annotations:\n        region: \${CLUSTER_REGION}\n`);
    group(`region-${r}`, b);
  }
  for (let t = 0; t < tiers; t++) {
    let b = '';
    for (let i = 0; i < nTier; i++) b += appBlock(`tier-${i}`, `tier-${t}-${i}`, i === 0 ? 40 : undefined, i > 0 ? [`tier-${i - 1}`] : []);
    group(`tier-${t}`, b);
  }
  const pad = String(o.clusters).length;
  for (let c = 0; c < o.clusters; c++) {
    const name = `c${String(c).padStart(pad, '0')}`;
    let apps = '';
    for (let i = 0; i < nOwn; i++) apps += appBlock(`own-${i}`, `own-${i % 10}`, undefined, [i === 0 ? 'platform-1' : `own-${i - 1}`]);
    write(
      `clusters/${name}/cluster.yaml`,
      `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
spec:
  role: ${c === 0 ? 'hub' : 'spoke'}
${c === 0 ? '' : `  hub: c${'0'.repeat(pad)}\n`}  region: region-${c % regions}
  sector: ${c % 10 === 0 ? 'canary' : 'production'}
  groups: [all, region-${c % regions}, tier-${c % tiers}]
  vars:
    CLUSTER_BASE_DOMAIN: \${CLUSTER_NAME}.\${PLATFORM_BASE_DOMAIN}
  apps:
    platform-0:
      annotations:
        cluster-domain: \${CLUSTER_BASE_DOMAIN}
${apps}`,
    );
  }
  for (const comp of components) {
    write(`components/${comp}/kustomization.yaml`, 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - configmap.yaml\n');
    write(
      `components/${comp}/configmap.yaml`,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${comp}\n  namespace: ${comp}\ndata:\n  cluster: \${CLUSTER_NAME}\n  domain: \${CLUSTER_BASE_DOMAIN}\n`,
    );
  }
  return { files };
}
