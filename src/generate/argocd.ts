/**
 * Stage 3, generate (Argo CD, app-of-apps): a resolved cluster → the Applications it gets, the
 * AppProjects they use, and the day-0 bootstrap manifests that hand the cluster to Argo CD.
 * Pure: objects out; rendering to files is src/render.
 */
import type { Fleet } from '../model/fleet.js';
import type { ResolvedApp, ResolvedCluster } from '../model/resolved.js';
import type { ProjectSpec } from '../model/spec.js';
import { IN_CLUSTER, RESOURCES_FINALIZER, SYNC_WAVE_ANNOTATION } from '../model/constants.js';
import { cmpPluginObjects } from './cmp-plugin.js';
import { deepMerge } from '../model/merge.js';
import { applicationSetBootstrap } from './applicationset-delivery.js';
import type { K8sObject } from '../model/k8s.js';
import { VARIABLES_CONFIGMAP, ROOT_APPLICATION } from '../model/constants.js';
import type { BootstrapFile } from '../model/bootstrap.js';
import { bootstrapFile } from '../model/bootstrap.js';



/**
 * Without this health check an Application reports Healthy as soon as it exists, so an
 * app-of-apps parent does not wait for a wave's children to become healthy before starting the
 * next wave (argo-cd issues #3781 and #5585; Argo CD 1.8 removed the built-in check).
 */
export const APPLICATION_HEALTH_LUA = `hs = {}
hs.status = "Progressing"
hs.message = ""
if obj.status ~= nil then
  if obj.status.health ~= nil then
    hs.status = obj.status.health.status
    if obj.status.health.message ~= nil then
      hs.message = obj.status.health.message
    end
  end
end
return hs
`;

export function applicationFor(cluster: ResolvedCluster, app: ResolvedApp, plugin?: { name: string }): K8sObject {
  if (app.manifest) return app.manifest as K8sObject;
  const source: Record<string, unknown> = { repoURL: app.source.repoURL, targetRevision: app.source.targetRevision };
  if (app.source.path !== undefined) source.path = app.source.path;
  // Kustomize directories go through the plugin, which substitutes the cluster's variables.
  if (plugin && app.source.path !== undefined && app.source.chart === undefined && app.source.helm === undefined) {
    source.plugin = { name: plugin.name };
  }
  if (app.source.chart !== undefined) source.chart = app.source.chart;
  if (app.source.helm !== undefined) {
    const helm: Record<string, unknown> = {};
    if (app.source.helm.releaseName) helm.releaseName = app.source.helm.releaseName;
    if (app.source.helm.valueFiles) helm.valueFiles = app.source.helm.valueFiles;
    if (app.source.helm.values) helm.valuesObject = app.source.helm.values;
    source.helm = helm;
  }
  if (app.extraSource) Object.assign(source, app.extraSource);
  const spec: Record<string, unknown> = {
    project: app.project,
    source,
    destination: { ...app.destination },
  };
  // Object.assign, not a spread: V8 builds a spread copy that is then extended (syncOptions) many
  // times slower, and this runs per Application. An own `__proto__` key keeps the spread.
  const policy = app.syncPolicy ?? {};
  const syncPolicy: Record<string, unknown> = Object.hasOwn(policy, '__proto__') ? { ...policy } : Object.assign({}, policy);
  if (app.syncOptions.length > 0) syncPolicy.syncOptions = app.syncOptions;
  if (Object.keys(syncPolicy).length > 0) spec.syncPolicy = syncPolicy;
  if (app.ignoreDifferences) spec.ignoreDifferences = app.ignoreDifferences;
  if (app.extraSpec) Object.assign(spec, app.extraSpec);
  // A multi-source Application (extraSpec.sources, e.g. a Validated Patterns chart app) has no single source.
  if (spec.sources !== undefined) delete spec.source;
  const metadata: K8sObject['metadata'] = { name: app.name };
  if (cluster.objectNamespace !== false) metadata.namespace = cluster.gitopsNamespace;
  if (Object.keys(app.annotations).length > 0) metadata.annotations = app.annotations;
  if (Object.keys(app.labels).length > 0) metadata.labels = app.labels;
  if (app.finalizers.length > 0) metadata.finalizers = app.finalizers;
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata, spec };
}

export function appProjectFor(fleet: Fleet, cluster: ResolvedCluster, name: string, p: ProjectSpec, wave: number): K8sObject {
  if (p.manifest) {
    const m = p.manifest as K8sObject;
    // An AppProject written with its namespace (the argocd layout's own objects) keeps it.
    return cluster.objectNamespace === false || m.metadata.namespace !== undefined ? m : { ...m, metadata: { ...m.metadata, namespace: cluster.gitopsNamespace } };
  }
  const metadata: K8sObject['metadata'] = {
    name,
    namespace: cluster.gitopsNamespace,
    annotations: { ...(p.annotations ?? {}), [SYNC_WAVE_ANNOTATION]: String(wave) },
  };
  if (p.labels && Object.keys(p.labels).length) metadata.labels = p.labels;
  const spec: Record<string, unknown> = {
    description: p.description ?? `Apps of cluster ${cluster.name}`,
    sourceRepos: p.sourceRepos ?? [fleet.repoURL],
    destinations: p.destinations ?? [{ server: IN_CLUSTER, namespace: '*' }],
    clusterResourceWhitelist: p.clusterResourceWhitelist ?? [{ group: '*', kind: '*' }],
  };
  if (p.namespaceResourceWhitelist) spec.namespaceResourceWhitelist = p.namespaceResourceWhitelist;
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata, spec };
}

/** AppProjects sync one wave before the earliest app (and never later than wave -1). */
export function projectWave(cluster: ResolvedCluster): number {
  const min = cluster.apps.reduce((m, a) => Math.min(m, a.wave), 0);
  return min - 1;
}

export function projectsFor(fleet: Fleet, cluster: ResolvedCluster): K8sObject[] {
  const wave = projectWave(cluster);
  return Object.entries(cluster.projects).map(([name, p]) => appProjectFor(fleet, cluster, name, p, wave));
}

/** The repository path the root Application reads: `<renderedPath>/<cluster>`. */
export function renderedClusterPath(fleet: Fleet, cluster: string): string {
  return `${fleet.renderedPath}/${cluster}`;
}


/**
 * Day-0 manifests, in the order they are applied: the GitOps operator (OpenShift) or Argo CD's
 * namespace, the RBAC the controllers need, the Argo CD instance with the Application health
 * check, and the root Application pointing at the cluster's rendered apps.
 */
export function bootstrapFor(fleet: Fleet, cluster: ResolvedCluster): BootstrapFile[] {
  const ns = cluster.gitopsNamespace;
  const files: BootstrapFile[] = [];
  if (cluster.platform === 'openshift') {
    const op = fleet.operator;
    files.push(bootstrapFile({ step: 'gitops-operator', description: 'OpenShift GitOps operator (OLM Subscription)',
      objects: [
        {
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'Subscription',
          metadata: { name: 'openshift-gitops-operator', namespace: 'openshift-operators' },
          spec: {
            channel: op.channel ?? 'latest',
            installPlanApproval: op.installPlanApproval ?? 'Automatic',
            name: 'openshift-gitops-operator',
            source: op.source ?? 'redhat-operators',
            sourceNamespace: op.sourceNamespace ?? 'openshift-marketplace',
            config: { env: [{ name: 'ARGOCD_CLUSTER_CONFIG_NAMESPACES', value: ns }] },
          },
        },
      ],
    }));
  } else {
    files.push(bootstrapFile({ step: 'namespace', description: `Namespace ${ns} (install upstream Argo CD into it)`,
      objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }],
    }));
  }
  const controllerSA = cluster.platform === 'openshift' ? `${ns}-argocd-application-controller` : 'argocd-application-controller';
  const appsetSA = cluster.platform === 'openshift' ? `${ns}-applicationset-controller` : 'argocd-applicationset-controller';
  files.push(bootstrapFile({ step: 'rbac', description: 'cluster-admin for the Argo CD application and ApplicationSet controllers',
    objects: [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: `${ns}-cluster-admin` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [
          { kind: 'ServiceAccount', name: controllerSA, namespace: ns },
          { kind: 'ServiceAccount', name: appsetSA, namespace: ns },
        ],
      },
    ],
  }));
  let argocdPatch: object = {};
  if (cluster.platform === 'openshift' && fleet.plugin) {
    const cmp = cmpPluginObjects({
      namespace: ns,
      image: fleet.plugin.image,
      pluginName: fleet.plugin.name,
      variables: Object.keys(cluster.vars),
      argocdName: ns,
      variablesConfigMap: VARIABLES_CONFIGMAP,
    });
    argocdPatch = cmp.argocdPatch;
    files.push(bootstrapFile({ step: 'plugin', description: `the cluster's variables and the ${fleet.plugin.name} config-management plugin`,
      objects: [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: VARIABLES_CONFIGMAP, namespace: ns }, data: { ...cluster.vars } },
        cmp.configMap as K8sObject,
      ],
    }));
  }
  if (cluster.platform === 'openshift') {
    files.push(bootstrapFile({ step: 'argocd', description: `the ArgoCD instance, with the health check that makes app-of-apps waves wait${fleet.plugin ? ' and the plugin sidecar' : ''}`,
      objects: [
        deepMerge({
          apiVersion: 'argoproj.io/v1beta1',
          kind: 'ArgoCD',
          metadata: { name: ns, namespace: ns },
          spec: {
            resourceTrackingMethod: 'annotation',
            kustomizeBuildOptions: '--enable-helm --load-restrictor LoadRestrictionsNone',
            resourceHealthChecks: [{ group: 'argoproj.io', kind: 'Application', check: APPLICATION_HEALTH_LUA }],
            server: { route: { enabled: true, tls: { termination: 'reencrypt', insecureEdgeTerminationPolicy: 'Redirect' } } },
            rbac: { defaultPolicy: '', policy: 'g, system:cluster-admins, role:admin\ng, cluster-admins, role:admin\n', scopes: '[groups]' },
          },
        } as K8sObject, argocdPatch),
      ],
    }));
  } else {
    files.push(bootstrapFile({ step: 'argocd-cm', description: 'argocd-cm with the health check that makes app-of-apps waves wait',
      objects: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'argocd-cm', namespace: ns, labels: { 'app.kubernetes.io/name': 'argocd-cm', 'app.kubernetes.io/part-of': 'argocd' } },
          data: {
            'application.resourceTrackingMethod': 'annotation',
            'resource.customizations.health.argoproj.io_Application': APPLICATION_HEALTH_LUA,
          },
        },
      ],
    }));
  }
  if (fleet.delivery === 'applicationset') {
    files.push(...applicationSetBootstrap(fleet, cluster));
    return files;
  }
  files.push(bootstrapFile({ step: 'root-application', description: `root Application reading ${renderedClusterPath(fleet, cluster.name)}`,
    objects: [rootApplication(fleet, cluster)],
  }));
  return files;
}

export function rootApplication(fleet: Fleet, cluster: ResolvedCluster): K8sObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name: ROOT_APPLICATION,
      namespace: cluster.gitopsNamespace,
      finalizers: [RESOURCES_FINALIZER],
    },
    spec: {
      project: 'default',
      source: {
        repoURL: fleet.repoURL,
        targetRevision: cluster.revision,
        path: renderedClusterPath(fleet, cluster.name),
        directory: { recurse: true, include: '{apps/*.yaml,projects/*.yaml}' },
      },
      destination: { server: IN_CLUSTER, namespace: cluster.gitopsNamespace },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        retry: { limit: -1, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
      },
    },
  };
}
