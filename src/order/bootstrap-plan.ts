/**
 * Stage 7a, plan the bootstrap of one resolved cluster: ordered stages, each the objects
 * fleetplan server-side applies and the readiness it then waits for. Pure.
 *
 *   spoke-provisioning  (spokes, run against the hub) ClusterDeployment installed, ManagedCluster available
 *   namespaces          the Argo CD namespace (+ the CRDs of upstream manifests)   wait: CRDs Established
 *   gitops-operator     OLM Subscription (OpenShift) / upstream manifests           wait: CSV Succeeded, operator Deployment, Argo CD CRDs
 *   cluster-config      variables ConfigMap, plugin definition, cluster identity Secret
 *   argocd              RBAC, the ArgoCD instance with the plugin sidecar and the Application health check
 *                                                                                   wait: server, repo-server, application-controller
 *   secret-store        ClusterSecretStore (credentials by reference), applied once its CRD is Established
 *   root-application    the root Application
 *   wave N …            (applied by Argo CD) every child Application Synced and Healthy, wave by wave
 *
 * The objects come from src/generate (bootstrapFor, the identity and plugin generators); this
 * module only orders them and says what to wait for. The variables ConfigMap precedes the ArgoCD
 * instance because the plugin sidecar loads it: a repo-server started without it never becomes ready.
 */
import { UsageError } from '../errors/index.js';
import type { K8sObject } from '../model/k8s.js';
import { bootstrapFor } from '../generate/argocd.js';
import { ROOT_APPLICATION, VARIABLES_CONFIGMAP } from '../model/constants.js';
import { upstreamPluginObjects } from '../generate/argocd-plugin.js';
import { clusterSecretFor } from '../generate/cluster-identity.js';
import type { BootstrapFile, BootstrapPlan, BootstrapStage, ReadyCondition, WaitSpec } from '../model/bootstrap.js';
import type { ObjectKey } from '../model/k8s.js';
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { keyOf } from '../model/k8s.js';
import type { BootstrapStepId } from '../model/bootstrap.js';
import { planFluxBootstrap } from './flux-bootstrap-plan.js';

export interface BootstrapPlanOptions {
  /** Upstream Argo CD install manifests (non-OpenShift clusters), parsed from a local file or directory. */
  argocdManifests?: K8sObject[];
  /** A ClusterSecretStore to apply (it may only reference credentials, never hold them). */
  secretStore?: K8sObject;
  /** The Secret holding the store's credentials, created by the user on the cluster, never in Git. */
  secretStoreCredentials?: { namespace: string; name: string };
  /**
   * What a spoke waits for on its hub (default: Hive ClusterDeployment `<c>/<c>` installed and
   * ManagedCluster `<c>` available). Without `clusterDeployment` (a cluster not installed by Hive,
   * e.g. Cluster API) only the ManagedCluster is awaited and the spoke needs --spoke-kubeconfig.
   */
  provisioning?: { clusterDeployment?: ObjectKey; managedCluster: ObjectKey };
  /** Flux's install manifests (`flux install --export`), for a fleet with gitops.engine: flux. */
  fluxManifests?: K8sObject[];
}

export const OPENSHIFT_OPERATOR_NAMESPACE = 'openshift-operators';
export const OPENSHIFT_OPERATOR_DEPLOYMENT = 'openshift-gitops-operator-controller-manager';
export const ARGOCD_CRDS = ['applications.argoproj.io', 'appprojects.argoproj.io', 'argocds.argoproj.io'];
export const SECRET_STORE_CRD = 'clustersecretstores.external-secrets.io';

/** Kinds without a namespace that upstream manifests contain (everything else gets the Argo CD namespace). */
const CLUSTER_SCOPED = new Set([
  'Namespace', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding', 'APIService', 'PriorityClass',
  'StorageClass', 'PersistentVolume', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'IngressClass',
]);



function wait(object: ObjectKey, condition: ReadyCondition, text: string): WaitSpec {
  return { object, condition, text };
}

function crdKey(name: string): ObjectKey {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name };
}

function workload(kind: 'Deployment' | 'StatefulSet', namespace: string, name: string): WaitSpec {
  return wait({ apiVersion: 'apps/v1', kind, namespace, name }, 'available', `${kind} ${namespace}/${name} ${kind === 'Deployment' ? 'available' : 'ready'}`);
}

function stage(s: Omit<BootstrapStage, 'files' | 'notes'> & Partial<Pick<BootstrapStage, 'files' | 'notes'>>): BootstrapStage {
  return { files: [], notes: [], ...s };
}

export function planBootstrap(fleet: Fleet, cluster: ResolvedCluster, options: BootstrapPlanOptions = {}): BootstrapPlan {
  // A Flux fleet installs Flux and hands it the root Kustomization (docs/adr/0261-native-flux-bootstrap.md).
  if (fleet.engine === 'flux') return planFluxBootstrap(fleet, cluster, options.fluxManifests ? { fluxManifests: options.fluxManifests } : {});
  return planBootstrapOf(fleet, cluster, bootstrapFor(fleet, cluster), options);
}

/**
 * planBootstrap over the cluster's bootstrap files when the caller has them already (`plan`
 * lists the same files: one bootstrapFor per cluster, not two). The files are only read.
 */
export function planBootstrapOf(fleet: Fleet, cluster: ResolvedCluster, files: readonly BootstrapFile[], options: BootstrapPlanOptions = {}): BootstrapPlan {
  const ns = cluster.gitopsNamespace;
  const file = (step: BootstrapStepId) => files.find((f) => f.step === step);
  const notes: string[] = [];
  const stages: BootstrapStage[] = [];
  let mergedIntoManifests: K8sObject[] = [];

  if (cluster.role === 'spoke' && cluster.hub !== undefined && cluster.hub !== cluster.name) {
    // Hive and the agent installer make a ClusterDeployment; Cluster API (EKS) does not, and a
    // spoke the fleet does not provision (imported into ACM) has only its ManagedCluster.
    const hive = cluster.provision !== undefined && cluster.provision.installer !== 'capi-eks';
    const p = options.provisioning ?? {
      ...(hive ? { clusterDeployment: { apiVersion: 'hive.openshift.io/v1', kind: 'ClusterDeployment', namespace: cluster.name, name: cluster.name } } : {}),
      managedCluster: { apiVersion: 'cluster.open-cluster-management.io/v1', kind: 'ManagedCluster', name: cluster.name },
    };
    stages.push(stage({
      name: 'spoke-provisioning',
      kind: 'spoke-provisioning',
      description: cluster.provision ? `on hub ${cluster.hub}: the spoke is installed and joined` : `on hub ${cluster.hub}: the spoke (not provisioned by the fleet) is imported and joined`,
      objects: [],
      waits: [
        ...(p.clusterDeployment ? [wait(p.clusterDeployment, 'cluster-installed', `ClusterDeployment ${p.clusterDeployment.namespace ?? ''}/${p.clusterDeployment.name} installed`)] : []),
        wait(p.managedCluster, 'cluster-available', `ManagedCluster ${p.managedCluster.name} available`),
      ],
      notes: [p.clusterDeployment
        ? `then the spoke's admin kubeconfig comes from the Hive Secret named by the ClusterDeployment (or --spoke-kubeconfig)`
        : 'then the spoke is reached with --spoke-kubeconfig'],
    }));
  }

  if (!fleet.plugin) notes.push('no config-management plugin: leaf manifests get no variables (set gitops.plugin.image in fleet.yaml to add it)');
  // OpenShift: bootstrapFor's plugin step and the sidecar merged into the ArgoCD instance.
  const pluginFile = file('plugin');
  const identityFile = file('cluster-identity');
  const upstream = cluster.platform === 'openshift' ? undefined : upstreamPluginObjects(fleet, cluster);

  if (cluster.platform === 'openshift') {
    stages.push(stage({
      name: 'namespaces',
      kind: 'namespaces',
      description: `Namespace ${ns}`,
      objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }],
      waits: [wait({ apiVersion: 'v1', kind: 'Namespace', name: ns }, 'exists', `Namespace ${ns} active`)],
    }));
    const op = file('gitops-operator')!;
    const sub = op.objects[0]!;
    const subNs = sub.metadata.namespace ?? OPENSHIFT_OPERATOR_NAMESPACE;
    const manual = (sub.spec as { installPlanApproval?: string } | undefined)?.installPlanApproval === 'Manual';
    stages.push(stage({
      name: 'gitops-operator',
      kind: 'gitops-operator',
      description: op.description,
      objects: op.objects,
      files: [op.name],
      waits: [
        wait(keyOf(sub), 'operator-installed', `${manual ? 'InstallPlan approved (Manual: by a person), ' : ''}CSV of Subscription ${subNs}/${sub.metadata.name} Succeeded`),
        workload('Deployment', subNs, OPENSHIFT_OPERATOR_DEPLOYMENT),
        ...ARGOCD_CRDS.map((c) => wait(crdKey(c), 'established', `CRD ${c} Established`)),
      ],
    }));
  } else {
    const manifests = (options.argocdManifests ?? []).map((o) => withNamespace(o, ns));
    const isFirst = (o: K8sObject) => o.kind === 'CustomResourceDefinition' || o.kind === 'Namespace';
    const nsFile = file('namespace')!;
    const early = [...nsFile.objects, ...manifests.filter((o) => isFirst(o) && !(o.kind === 'Namespace' && o.metadata.name === ns))];
    const crds = early.filter((o) => o.kind === 'CustomResourceDefinition');
    stages.push(stage({
      name: 'namespaces',
      kind: 'namespaces',
      description: `Namespace ${ns}${crds.length ? ` and ${crds.length} CRDs of the Argo CD manifests` : ''}`,
      objects: early,
      files: [nsFile.name],
      waits: [
        wait({ apiVersion: 'v1', kind: 'Namespace', name: ns }, 'exists', `Namespace ${ns} active`),
        ...crds.map((c) => wait(keyOf(c), 'established', `CRD ${c.metadata.name} Established`)),
      ],
    }));
    // One field manager applies each object once per run: an object both the manifests and
    // fleetplan define (argocd-cm, the repo-server with the plugin sidecar) is merged into the
    // manifest's copy, or server-side apply would drop what the other copy set, on every run.
    const own = [...file('argocd-cm')!.objects, ...(upstream?.filter((o) => o.kind === 'Deployment') ?? [])];
    const rest = manifests.filter((o) => !isFirst(o)).map((o) => {
      const mine = own.find((x) => sameObject(x, o));
      return mine ? mergeManifest(o, mine) : o;
    });
    mergedIntoManifests = own.filter((x) => rest.some((o) => sameObject(x, o)));
    stages.push(stage({
      name: 'gitops-operator',
      kind: 'gitops-operator',
      description: 'upstream Argo CD manifests',
      objects: rest,
      waits: [],
      notes: options.argocdManifests === undefined
        ? ['the upstream Argo CD manifests cannot be fetched by fleetplan: pass --argocd-manifests FILE|DIR (e.g. a downloaded install.yaml)']
        : [],
    }));
  }

  // The variables ConfigMap precedes the ArgoCD instance: the plugin sidecar loads it at start.
  const pluginConfig = pluginFile?.objects ?? upstream?.filter((o) => o.kind === 'ConfigMap') ?? [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: VARIABLES_CONFIGMAP, namespace: ns }, data: { ...cluster.vars } },
  ];
  stages.push(stage({
    name: 'cluster-config',
    kind: 'cluster-config',
    description: `the cluster's variables${fleet.plugin ? `, the ${fleet.plugin.name} plugin definition` : ''} and its identity Secret`,
    // Under applicationset delivery bootstrapFor already has the identity Secret (step cluster-identity).
    objects: [...pluginConfig, ...(identityFile?.objects ?? [clusterSecretFor(fleet, cluster)])],
    files: [...(pluginFile ? [pluginFile.name] : []), ...(identityFile ? [identityFile.name] : [])],
    waits: [],
  }));

  const rbac = file('rbac')!;
  if (cluster.platform === 'openshift') {
    const argo = file('argocd')!;
    const instance = argo.objects[0]!;
    const name = instance.metadata.name;
    stages.push(stage({
      name: 'argocd',
      kind: 'argocd',
      description: `${argo.description}; cluster-admin for its controllers`,
      objects: [...rbac.objects, instance],
      files: [rbac.name, argo.name],
      waits: [
        workload('Deployment', ns, `${name}-server`),
        workload('Deployment', ns, `${name}-repo-server`),
        workload('StatefulSet', ns, `${name}-application-controller`),
      ],
    }));
  } else {
    const cm = file('argocd-cm')!;
    stages.push(stage({
      name: 'argocd',
      kind: 'argocd',
      description: `${cm.description}${upstream ? ' and the plugin sidecar' : ''}; cluster-admin for its controllers`,
      objects: [...rbac.objects, ...cm.objects, ...(upstream?.filter((o) => o.kind === 'Deployment') ?? [])].filter((o) => !mergedIntoManifests.includes(o)),
      files: [rbac.name, cm.name],
      waits: [
        workload('Deployment', ns, 'argocd-server'),
        workload('Deployment', ns, 'argocd-repo-server'),
        workload('StatefulSet', ns, 'argocd-application-controller'),
      ],
    }));
  }

  const store = secretStoreStage(options);
  if (store) stages.push(store);

  const rootFile = file('root-application') ?? file('root-applicationset');
  if (!rootFile) throw new UsageError(`cluster ${cluster.name} has no root Application to bootstrap (delivery ${fleet.delivery})`);
  const root = rootFile.objects[0]!;
  stages.push(stage({
    name: 'root-application',
    kind: 'root-application',
    description: rootFile.description,
    objects: rootFile.objects,
    files: [rootFile.name],
    waits: [],
  }));
  if (root.kind !== 'Application') {
    // The root ApplicationSet names its Applications through its generators, not the fleet's apps.
    notes.push('the Applications of the root ApplicationSet are not awaited: watch them in Argo CD');
    return { cluster: cluster.name, platform: cluster.platform, gitopsNamespace: ns, stages, notes };
  }

  const waves = [...new Set(cluster.apps.map((a) => a.wave))].sort((a, b) => a - b);
  for (const [i, w] of waves.entries()) {
    const apps = cluster.apps.filter((a) => a.wave === w);
    const waits = apps.map((a) =>
      wait({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', namespace: ns, name: a.name }, 'synced-healthy', `Application ${a.name} Synced and Healthy`));
    if (i === waves.length - 1) {
      waits.push(wait(keyOf(root), 'synced-healthy', `Application ${ROOT_APPLICATION} Synced and Healthy (Argo CD has taken over)`));
    }
    stages.push(stage({
      name: `wave ${w}`,
      kind: 'wave',
      wave: w,
      description: `${apps.length} Application${apps.length === 1 ? '' : 's'}, synced by Argo CD`,
      objects: [],
      waits,
      optional: true,
    }));
  }
  return { cluster: cluster.name, platform: cluster.platform, gitopsNamespace: ns, stages, notes };
}

function secretStoreStage(options: BootstrapPlanOptions): BootstrapStage | undefined {
  const store = options.secretStore;
  const creds = options.secretStoreCredentials;
  if (!store && !creds) return undefined;
  if (!store) {
    throw new UsageError('--secret-store-credentials needs --secret-store FILE (the ClusterSecretStore that references them)');
  }
  if (store.kind !== 'ClusterSecretStore' || !store.apiVersion.startsWith('external-secrets.io/')) {
    throw new UsageError(`--secret-store must hold an external-secrets.io ClusterSecretStore, got ${store.apiVersion} ${store.kind}`);
  }
  const waits: WaitSpec[] = [];
  if (creds) {
    waits.push(wait({ apiVersion: 'v1', kind: 'Secret', namespace: creds.namespace, name: creds.name }, 'exists', `credentials Secret ${creds.namespace}/${creds.name} exists (created by you, never in Git)`));
  }
  waits.push(wait(keyOf(store), 'ready-condition', `ClusterSecretStore ${store.metadata.name} Ready`));
  return stage({
    name: 'secret-store',
    kind: 'secret-store',
    description: `ClusterSecretStore ${store.metadata.name}${creds ? `, credentials from Secret ${creds.namespace}/${creds.name}` : ''}`,
    objects: [store],
    waits,
    gate: { crd: SECRET_STORE_CRD },
    notes: [`applied once CRD ${SECRET_STORE_CRD} is Established (usually installed by an early wave), while the waves go on`],
  });
}

function sameObject(a: K8sObject, b: K8sObject): boolean {
  return a.kind === b.kind && a.metadata.name === b.metadata.name && (a.metadata.namespace ?? '') === (b.metadata.namespace ?? '');
}

/**
 * `extra` merged into a manifest object: maps deeply, lists of named items (containers,
 * volumes) by name, other lists replaced.
 */
export function mergeManifest<T>(base: T, extra: unknown): T {
  if (Array.isArray(base) && Array.isArray(extra) && [...base, ...extra].every((x) => isNamed(x))) {
    const out = base.map((x) => {
      const over = extra.find((y) => (y as { name: string }).name === (x as { name: string }).name);
      return over ? mergeManifest(x, over) : x;
    });
    for (const y of extra) if (!base.some((x) => (x as { name: string }).name === (y as { name: string }).name)) out.push(y);
    return out as T;
  }
  if (!isMap(base) || !isMap(extra)) return extra as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) out[k] = k in base ? mergeManifest(base[k], v) : v;
  return out as T;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNamed(v: unknown): boolean {
  return isMap(v) && typeof v.name === 'string';
}

function withNamespace(o: K8sObject, ns: string): K8sObject {
  if (CLUSTER_SCOPED.has(o.kind) || o.metadata.namespace !== undefined) return o;
  return { ...o, metadata: { ...o.metadata, namespace: ns } };
}

/**
 * Parses `secret/NAMESPACE/NAME` (the `--secret-store-credentials` form).
 */
export function parseSecretRef(text: string): { namespace: string; name: string } {
  const m = /^secrets?\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-.a-z0-9]*[a-z0-9])?)$/.exec(text);
  if (!m) throw new UsageError(`--secret-store-credentials must be secret/NAMESPACE/NAME, got "${text}"`);
  return { namespace: m[1]!, name: m[3]! };
}
