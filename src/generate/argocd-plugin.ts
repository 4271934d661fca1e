/**
 * Stage 3, generate: the config-management plugin that runs `fleetplan cmp` beside Argo CD's
 * repo-server (docs/adr/0052-cmp-plugin.md): a ConfigMap with the plugin definition and the
 * sidecar container, which loads the cluster's variables ConfigMap with the `ARGOCD_ENV_` prefix.
 *
 * On OpenShift the sidecar goes into the ArgoCD resource (`spec.repo.sidecarContainers`); on
 * other Kubernetes into the `argocd-repo-server` Deployment, as a partial object that server-side
 * apply merges by container name (fleetplan then owns only the sidecar, not the Deployment).
 * Pure: objects out.
 */
import { dump } from 'js-yaml';
import type { K8sObject } from './argocd.js';
import { VARIABLES_CONFIGMAP } from './cluster-identity.js';

export const DEFAULT_PLUGIN_NAME = 'fleetplan';
const ENV_PREFIX = 'ARGOCD_ENV_';

export interface PluginOptions {
  namespace: string;
  /** Image with `fleetplan`, kustomize (or kubectl) and Helm 3 on PATH. */
  image: string;
  /** Declared variable names (the cluster's variables). */
  variables: readonly string[];
  pluginName?: string;
}

export interface PluginObjects {
  configMap: K8sObject;
  sidecar: Record<string, unknown>;
  volumes: Record<string, unknown>[];
}

export function pluginObjects(options: PluginOptions): PluginObjects {
  const pluginName = options.pluginName ?? DEFAULT_PLUGIN_NAME;
  const configMapName = `${pluginName}-cmp-plugin`;
  const tmpVolume = `${pluginName}-cmp-tmp`;
  const variables = [...options.variables].sort();
  const plugin = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ConfigManagementPlugin',
    metadata: { name: pluginName },
    spec: {
      generate: { command: ['fleetplan'], args: ['cmp', 'generate', ...variables.flatMap((v) => ['--variable', v])] },
      discover: { find: { command: ['fleetplan', 'cmp', 'discover'] } },
    },
  };
  const configMap: K8sObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: configMapName, namespace: options.namespace },
    data: { 'plugin.yaml': dump(plugin, { sortKeys: true, lineWidth: -1, noRefs: true }) },
  };
  const sidecar = {
    name: pluginName,
    image: options.image,
    command: ['/var/run/argocd/argocd-cmp-server'],
    envFrom: [{ configMapRef: { name: VARIABLES_CONFIGMAP }, prefix: ENV_PREFIX }],
    env: [
      { name: 'HELM_CACHE_HOME', value: '/tmp/helm/cache' },
      { name: 'HELM_CONFIG_HOME', value: '/tmp/helm/config' },
      { name: 'HELM_DATA_HOME', value: '/tmp/helm/data' },
    ],
    securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    volumeMounts: [
      { mountPath: '/var/run/argocd', name: 'var-files' },
      { mountPath: '/home/argocd/cmp-server/plugins', name: 'plugins' },
      { mountPath: '/tmp', name: tmpVolume },
      { mountPath: '/home/argocd/cmp-server/config/plugin.yaml', subPath: 'plugin.yaml', name: configMapName },
    ],
  };
  const volumes = [
    { name: configMapName, configMap: { name: configMapName } },
    { name: tmpVolume, emptyDir: {} },
  ];
  return { configMap, sidecar, volumes };
}

/** The ArgoCD resource with the sidecar added under `spec.repo` (OpenShift GitOps operator). */
export function withPluginSidecar(argocd: K8sObject, plugin: PluginObjects): K8sObject {
  const spec = { ...((argocd.spec as Record<string, unknown> | undefined) ?? {}) };
  const repo = { ...((spec.repo as Record<string, unknown> | undefined) ?? {}) };
  repo.sidecarContainers = [...((repo.sidecarContainers as unknown[] | undefined) ?? []), plugin.sidecar];
  repo.volumes = [...((repo.volumes as unknown[] | undefined) ?? []), ...plugin.volumes];
  spec.repo = repo;
  return { ...argocd, spec };
}

/** The sidecar as a partial `argocd-repo-server` Deployment (upstream Argo CD manifests). */
export function repoServerSidecarPatch(namespace: string, plugin: PluginObjects): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'argocd-repo-server', namespace },
    spec: { template: { spec: { containers: [plugin.sidecar], volumes: plugin.volumes } } },
  };
}
