/**
 * Stage 3, generate: the cluster identity Secret, an Argo CD cluster Secret
 * (`argocd.argoproj.io/secret-type: cluster`) for the in-cluster destination, labelled with the
 * cluster's role, sector and region and annotated with the Git repository and revision it tracks,
 * so ApplicationSet cluster generators select and template on it (seed 004). It holds no
 * credential: in-cluster access uses the application controller's service account. Pure.
 */
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { IN_CLUSTER } from '../layering/resolve.js';
import type { K8sObject } from './argocd.js';

export const CLUSTER_SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';

/** `cluster-<name>`: the Secret's name. */
export function clusterSecretName(cluster: string): string {
  return `cluster-${cluster}`;
}

export function clusterSecretFor(fleet: Fleet, cluster: ResolvedCluster): K8sObject {
  const labels: Record<string, string> = { ...cluster.labels, [CLUSTER_SECRET_TYPE_LABEL]: 'cluster', role: cluster.role };
  if (cluster.sector !== undefined) labels.sector = cluster.sector;
  if (cluster.region !== undefined) labels.region = cluster.region;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: clusterSecretName(cluster.name),
      namespace: cluster.gitopsNamespace,
      labels,
      annotations: { cluster_name: cluster.name, git_repo: fleet.repoURL, git_revision: cluster.revision },
    },
    type: 'Opaque',
    stringData: { name: cluster.name, server: IN_CLUSTER, config: '{"tlsClientConfig":{"insecure":false}}' },
  };
}
