/**
 * Stage 3, generate: the config-management plugin on upstream Argo CD (non-OpenShift clusters).
 * On OpenShift, bootstrapFor merges the sidecar into the ArgoCD resource; upstream Argo CD has
 * no such resource, so the sidecar goes into the `argocd-repo-server` Deployment as a partial
 * object that server-side apply merges by container and volume name: fleetplan then owns the
 * sidecar and its volumes, never the rest of the Deployment. Pure: objects out.
 */
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { VARIABLES_CONFIGMAP } from '../model/constants.js';
import { type K8sObject } from '../model/k8s.js';
import { cmpPluginObjects } from './cmp-plugin.js';

/** The variables ConfigMap, the plugin ConfigMap and the repo-server sidecar; undefined without a plugin. */
export function upstreamPluginObjects(fleet: Fleet, cluster: ResolvedCluster): K8sObject[] | undefined {
  if (!fleet.plugin) return undefined;
  const ns = cluster.gitopsNamespace;
  const cmp = cmpPluginObjects({
    namespace: ns,
    image: fleet.plugin.image,
    pluginName: fleet.plugin.name,
    variables: Object.keys(cluster.vars),
    argocdName: 'argocd',
    variablesConfigMap: VARIABLES_CONFIGMAP,
  });
  const repo = (cmp.argocdPatch as { spec: { repo: { sidecarContainers: unknown[]; volumes: unknown[] } } }).spec.repo;
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: VARIABLES_CONFIGMAP, namespace: ns }, data: { ...cluster.vars } },
    cmp.configMap as K8sObject,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'argocd-repo-server', namespace: ns },
      spec: { template: { spec: { containers: repo.sidecarContainers, volumes: repo.volumes } } },
    },
  ];
}
