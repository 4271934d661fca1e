/**
 * The objects that install `fleetplan cmp` as an Argo CD config-management plugin on an
 * OpenShift GitOps instance, replacing the seed's `setenv-cmp-plugin` (`kustomize build | envsub`):
 *
 * - a ConfigMap whose `plugin.yaml` is the ConfigManagementPlugin definition, running
 *   `fleetplan cmp discover` / `fleetplan cmp generate --variable NAME…`;
 * - a patch for the `ArgoCD` custom resource adding the repo-server sidecar
 *   (`spec.repo.sidecarContainers`, `spec.repo.volumes`).
 *
 * The sidecar takes the cluster's variables from the `environment-variables` ConfigMap with
 * `envFrom.prefix: ARGOCD_ENV_`, so they arrive exactly like Application `plugin.env` values and
 * the plugin never needs to read any other environment variable.
 */

/** The prefix Argo CD gives Application `plugin.env` entries in the plugin's environment. */
export const ARGOCD_ENV_PREFIX = 'ARGOCD_ENV_';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks declared variable names; a name that cannot be a variable is a usage error. */
export function checkVariableNames(names: readonly string[]): string[] {
  for (const n of names) {
    if (!VARIABLE_NAME.test(n)) {
      throw new UsageError(`"${n}" is not a variable name`, { hint: 'variable names are letters, digits and "_", not starting with a digit' });
    }
  }
  return [...new Set(names)].sort();
}
import { UsageError } from '../errors/index.js';
import { dumpYaml } from '../yaml/index.js';

export interface CmpPluginOptions {
  /** Namespace of the Argo CD instance (e.g. `openshift-gitops`). */
  namespace: string;
  /** Image of the sidecar: must contain `fleetplan`, kustomize (or kubectl) and Helm 3 on PATH. */
  image: string;
  /** Plugin name, which Applications may name in `spec.source.plugin.name`. Default `fleetplan`. */
  pluginName?: string;
  /** Declared variable names (the cluster's variables). */
  variables: string[];
  /** Name of the `ArgoCD` resource to patch. Default `openshift-gitops`. */
  argocdName?: string;
  /** ConfigMap holding the cluster's variables. Default `environment-variables`. */
  variablesConfigMap?: string;
  /** Pass `--enable-alpha-plugins` to kustomize (KRM plugins such as PolicyGenerator). */
  alphaPlugins?: boolean;
}

export const DEFAULT_CMP_PLUGIN_NAME = 'fleetplan';

export function cmpPluginObjects(options: CmpPluginOptions): { configMap: object; argocdPatch: object } {
  const pluginName = options.pluginName ?? DEFAULT_CMP_PLUGIN_NAME;
  const variables = checkVariableNames(options.variables);
  const configMapName = `${pluginName}-cmp-plugin`;
  const tmpVolume = `${pluginName}-cmp-tmp`;
  const args = ['cmp', 'generate', ...variables.flatMap((v) => ['--variable', v])];
  if (options.alphaPlugins) args.push('--enable-alpha-plugins');
  const plugin = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ConfigManagementPlugin',
    metadata: { name: pluginName },
    spec: {
      // No spec.version: Applications then name the plugin by `pluginName` alone.
      generate: { command: ['fleetplan'], args },
      discover: { find: { command: ['fleetplan', 'cmp', 'discover'] } },
    },
  };
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: configMapName, namespace: options.namespace },
    data: { 'plugin.yaml': dumpYaml(plugin, { sortKeys: true, lineWidth: -1, noRefs: true }) },
  };
  const sidecar = {
    name: pluginName,
    image: options.image,
    command: ['/var/run/argocd/argocd-cmp-server'],
    envFrom: [{ configMapRef: { name: options.variablesConfigMap ?? 'environment-variables' }, prefix: ARGOCD_ENV_PREFIX }],
    env: [
      // Helm (run by kustomize for helmCharts) needs writable homes; only /tmp is writable.
      { name: 'HELM_CACHE_HOME', value: '/tmp/helm/cache' },
      { name: 'HELM_CONFIG_HOME', value: '/tmp/helm/config' },
      { name: 'HELM_DATA_HOME', value: '/tmp/helm/data' },
    ],
    securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    volumeMounts: [
      { mountPath: '/var/run/argocd', name: 'var-files' },
      { mountPath: '/home/argocd/cmp-server/plugins', name: 'plugins' },
      // Not the repo-server's /tmp: separate file systems limit path-traversal damage (Argo CD's advice).
      { mountPath: '/tmp', name: tmpVolume },
      { mountPath: '/home/argocd/cmp-server/config/plugin.yaml', subPath: 'plugin.yaml', name: configMapName },
    ],
  };
  const argocdPatch = {
    apiVersion: 'argoproj.io/v1beta1',
    kind: 'ArgoCD',
    metadata: { name: options.argocdName ?? 'openshift-gitops', namespace: options.namespace },
    spec: {
      repo: {
        sidecarContainers: [sidecar],
        volumes: [
          { name: configMapName, configMap: { name: configMapName } },
          { name: tmpVolume, emptyDir: {} },
        ],
      },
    },
  };
  return { configMap, argocdPatch };
}
