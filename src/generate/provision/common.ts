/**
 * Pieces every installer shares: defaults, the cluster's labels, its Namespace, ManagedCluster and
 * KlusterletAddonConfig, and the ExternalSecrets that turn credential references into Secrets.
 */
import type { K8sObject } from '../../model/k8s.js';
import type { CredentialRef, Installer, NetworksSpec, PoolSpec, ProvisionSpec, SecretStoreRef } from '../../model/spec.js';

/** Sync wave of a provisioning app on the hub unless the spec says otherwise (seed 001: wave 20). */
export const DEFAULT_REFRESH_INTERVAL = '1h';
export const CLUSTERSET_LABEL = 'cluster.open-cluster-management.io/clusterset';
export const PULL_SECRET = 'pull-secret';
export const CLOUD_SECRET = 'aws-credentials';
export const INSTALL_CONFIG_SECRET = 'install-config';

export const API = {
  managedCluster: 'cluster.open-cluster-management.io/v1',
  managedClusterSet: 'cluster.open-cluster-management.io/v1beta2',
  managedClusterSetBinding: 'cluster.open-cluster-management.io/v1beta2',
  placement: 'cluster.open-cluster-management.io/v1beta1',
  klusterletAddonConfig: 'agent.open-cluster-management.io/v1',
  gitOpsCluster: 'apps.open-cluster-management.io/v1beta1',
  policy: 'policy.open-cluster-management.io/v1',
  placementBinding: 'policy.open-cluster-management.io/v1',
  operatorPolicy: 'policy.open-cluster-management.io/v1beta1',
  configurationPolicy: 'policy.open-cluster-management.io/v1',
  externalSecret: 'external-secrets.io/v1',
  clusterDeployment: 'hive.openshift.io/v1',
  hiveMachinePool: 'hive.openshift.io/v1',
  agentClusterInstall: 'extensions.hive.openshift.io/v1beta1',
  infraEnv: 'agent-install.openshift.io/v1beta1',
  nmStateConfig: 'agent-install.openshift.io/v1beta1',
  bareMetalHost: 'metal3.io/v1alpha1',
  capiCluster: 'cluster.x-k8s.io/v1beta1',
  capiMachinePool: 'cluster.x-k8s.io/v1beta1',
  awsManagedControlPlane: 'controlplane.cluster.x-k8s.io/v1beta2',
  awsManagedMachinePool: 'infrastructure.cluster.x-k8s.io/v1beta2',
} as const;

/** Network defaults of OpenShift's installer (and CAPA's pod CIDR for EKS). */
export const DEFAULT_NETWORKS: Record<Installer, NetworksSpec> = {
  'hive-aws': { machine: '10.0.0.0/16', pod: '10.128.0.0/14', hostPrefix: 23, service: '172.30.0.0/16', type: 'OVNKubernetes' },
  agent: { pod: '10.128.0.0/14', hostPrefix: 23, service: '172.30.0.0/16', type: 'OVNKubernetes' },
  'capi-eks': { pod: '192.168.0.0/16' },
};

export const DEFAULT_POOLS: Record<Installer, { controlPlane: PoolSpec; workers: PoolSpec }> = {
  'hive-aws': {
    controlPlane: { replicas: 3, instanceType: 'm5.xlarge', rootVolume: { size: 120, type: 'gp3' } },
    workers: { replicas: 3, instanceType: 'm5.xlarge', rootVolume: { size: 120, type: 'gp3' } },
  },
  'capi-eks': { controlPlane: {}, workers: { replicas: 2, instanceType: 'm5.xlarge', minSize: 1, maxSize: 10, diskSize: 20, amiType: 'AL2_x86_64' } },
  agent: { controlPlane: {}, workers: {} },
};

export interface ProvisionInput {
  /** Cluster name = namespace on the hub = ManagedCluster name. */
  name: string;
  hub: string;
  spec: ProvisionSpec;
  /** Cloud region (provision.region, else the cluster's region). */
  region: string | undefined;
  /** The fleet name: the default ManagedClusterSet. */
  fleetName: string;
}

export function networksOf(input: ProvisionInput): NetworksSpec {
  return { ...DEFAULT_NETWORKS[input.spec.installer], ...(input.spec.networks ?? {}) };
}

export function poolOf(input: ProvisionInput, which: 'controlPlane' | 'workers'): PoolSpec {
  const d = DEFAULT_POOLS[input.spec.installer][which];
  const s = input.spec[which] ?? {};
  return { ...d, ...s, ...(d.rootVolume || s.rootVolume ? { rootVolume: { ...(d.rootVolume ?? {}), ...(s.rootVolume ?? {}) } } : {}) };
}

export function clusterSetOf(input: ProvisionInput): string {
  return input.spec.clusterSet ?? input.fleetName;
}

/** `4.20` → `4.20.0`; `v1.28` → `1.28`. */
export function fullVersion(version: string): string {
  const v = version.replace(/^v/, '');
  return v.split('.').length === 2 ? `${v}.0` : v;
}

export function imageSetOf(input: ProvisionInput): string {
  if (input.spec.imageSet) return input.spec.imageSet;
  return `img${fullVersion(input.spec.version ?? '')}-multi-appsub`;
}

const CLOUD: Record<Installer, { cloud: string; vendor: string }> = {
  'hive-aws': { cloud: 'Amazon', vendor: 'OpenShift' },
  'capi-eks': { cloud: 'Amazon', vendor: 'EKS' },
  agent: { cloud: 'BareMetal', vendor: 'OpenShift' },
};

/** The labels that identify the cluster to ACM placements (without the cluster-set label). */
export function clusterLabels(input: ProvisionInput): Record<string, string> {
  const { cloud, vendor } = CLOUD[input.spec.installer];
  const labels: Record<string, string> = { cloud, vendor, name: input.name };
  if (input.region) labels.region = input.region;
  return { ...labels, ...(input.spec.labels ?? {}) };
}

export function namespaceFor(input: ProvisionInput): K8sObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: input.name, labels: { name: input.name } } };
}

export function managedClusterFor(input: ProvisionInput): K8sObject {
  return {
    apiVersion: API.managedCluster,
    kind: 'ManagedCluster',
    metadata: { name: input.name, labels: { ...clusterLabels(input), [CLUSTERSET_LABEL]: clusterSetOf(input) } },
    spec: { hubAcceptsClient: true },
  };
}

export function klusterletAddonConfigFor(input: ProvisionInput): K8sObject {
  return {
    apiVersion: API.klusterletAddonConfig,
    kind: 'KlusterletAddonConfig',
    metadata: { name: input.name, namespace: input.name },
    spec: {
      clusterName: input.name,
      clusterNamespace: input.name,
      clusterLabels: clusterLabels(input),
      applicationManager: { enabled: true },
      certPolicyController: { enabled: true },
      policyController: { enabled: true },
      searchCollector: { enabled: true },
      iamPolicyController: { enabled: true },
    },
  };
}

/** The store a reference reads from: its own, else the spec's default. */
export function storeOf(input: ProvisionInput, ref: CredentialRef): SecretStoreRef | undefined {
  return ref.store ?? input.spec.credentials?.store;
}

/**
 * An ExternalSecret that writes Secret `name` in the cluster's namespace from `ref` (one entry per
 * secret key → store property). Undefined when the reference names an existing Secret instead.
 */
export function externalSecretFor(
  input: ProvisionInput,
  name: string,
  ref: CredentialRef,
  data: { secretKey: string; property?: string }[],
  type?: string,
): K8sObject | undefined {
  if (ref.secretName !== undefined || ref.key === undefined) return undefined;
  const store = storeOf(input, ref);
  const target: Record<string, unknown> = { name, creationPolicy: 'Owner' };
  if (type) target.template = { type };
  return {
    apiVersion: API.externalSecret,
    kind: 'ExternalSecret',
    metadata: { name, namespace: input.name },
    spec: {
      refreshInterval: input.spec.credentials?.refreshInterval ?? DEFAULT_REFRESH_INTERVAL,
      secretStoreRef: { name: store?.name ?? '', kind: store?.kind ?? 'ClusterSecretStore' },
      target,
      data: data.map((d) => {
        const remoteRef: Record<string, string> = { key: ref.key! };
        const property = d.property ?? ref.property;
        if (property !== undefined) remoteRef.property = property;
        return { secretKey: d.secretKey, remoteRef };
      }),
    },
  };
}

/** The Secret name a reference ends up as: the existing Secret, or the one the ExternalSecret writes. */
export function secretNameOf(ref: CredentialRef | undefined, generated: string): string {
  return ref?.secretName ?? generated;
}

/** The pull secret (every installer that pulls OpenShift images), when a reference is given. */
export function pullSecretObjects(input: ProvisionInput): K8sObject[] {
  const ref = input.spec.credentials?.pullSecret;
  if (!ref) return [];
  const es = externalSecretFor(input, PULL_SECRET, ref, [{ secretKey: '.dockerconfigjson', property: ref.property ?? '.dockerconfigjson' }], 'kubernetes.io/dockerconfigjson');
  return es ? [es] : [];
}

/** AWS credentials for Hive and CAPA, when a reference is given. */
export function cloudSecretObjects(input: ProvisionInput): K8sObject[] {
  const ref = input.spec.credentials?.cloud;
  if (!ref) return [];
  const es = externalSecretFor(input, CLOUD_SECRET, ref, [
    { secretKey: 'aws_access_key_id', property: 'aws_access_key_id' },
    { secretKey: 'aws_secret_access_key', property: 'aws_secret_access_key' },
  ]);
  return es ? [es] : [];
}

/** The hub app that carries the hub-wide ACM–GitOps wiring (named after seed 001's app). */


/**
 * The OpenShift update channel: `stable-4.20` as given, or a bare `stable` completed with the
 * version's minor (seed 000 writes `channel: stable` next to `version: "4.15"`).
 */
export function channelOf(spec: ProvisionSpec): string | undefined {
  if (spec.channel === undefined) return undefined;
  if (spec.channel.includes('-') || spec.version === undefined) return spec.channel;
  return `${spec.channel}-${spec.version.replace(/^v/, '').split('.').slice(0, 2).join('.')}`;
}
