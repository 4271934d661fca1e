/**
 * The file kinds as typed data (mirrors src/spec/schemas.ts). An `AppSpec` is one layer's view of an
 * app; layers are merged into a `ResolvedApp` (src/model/resolved.ts).
 */

export type Platform = 'openshift' | 'kubernetes';
export type ClusterRole = 'hub' | 'spoke' | 'regional' | 'management' | 'standalone' | 'infra';
export type Engine = 'argocd' | 'flux';
export type Delivery = 'app-of-apps' | 'applicationset';

export interface AppSpec {
  enabled?: boolean;
  path?: string;
  chart?: string;
  repoURL?: string;
  targetRevision?: string;
  helm?: { releaseName?: string; valueFiles?: string[]; values?: Record<string, unknown> };
  namespace?: string;
  server?: string;
  project?: string;
  wave?: number;
  needs?: string[];
  provides?: string[];
  syncOptions?: string[];
  syncPolicy?: Record<string, unknown>;
  ignoreDifferences?: Record<string, unknown>[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  finalizers?: string[];
  /** Fields merged into the Application's `spec.source` as they are (e.g. a chart's `extraSourceFields`, `plugin`). */
  extraSource?: Record<string, unknown>;
  /** Fields merged into the Application's `spec` as they are (e.g. a chart's `extraFields`). */
  extraSpec?: Record<string, unknown>;
  /**
   * The exact Application, for layouts whose Applications the model cannot express field by field
   * (read from a real `kustomize build`); generation emits it as it is.
   */
  manifest?: Record<string, unknown>;
}

export interface Metadata {
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface SectorSpec {
  name: string;
  revision?: string;
  protected?: boolean;
}

export interface ProjectSpec {
  description?: string;
  sourceRepos?: string[];
  destinations?: Record<string, unknown>[];
  clusterResourceWhitelist?: Record<string, unknown>[];
  namespaceResourceWhitelist?: Record<string, unknown>[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  /** The exact AppProject (layouts that write AppProjects themselves); generation emits it as it is. */
  manifest?: Record<string, unknown>;
}

export interface ApplicationSetDeliverySpec {
  /** Git directory generator paths (Go templates over the cluster identity Secret). */
  directories?: string[];
}

export type BootstrapRunnerType = 'job' | 'tekton';

export interface BootstrapRunnerSpec {
  type: BootstrapRunnerType;
  /** The fleetplan image (Containerfile); default gitops.plugin.image. */
  image?: string;
  /** `bootstrap --timeout` of the runner, which includes waiting for the spoke's install (default 2h). */
  timeout?: string;
}

/** A Secret on the cluster, or the ExternalSecret that makes it: credentials by reference, never by value. */
export interface MirrorCredentialsSpec {
  secretRef?: { namespace: string; name: string };
  externalSecretRef?: { namespace: string; name: string };
  /** Keys of the Secret's data (default `username`, `password`). */
  usernameKey?: string;
  passwordKey?: string;
}

export interface MirrorSpec {
  /** The repository URL inside the cluster, as Argo CD reads it in phase 2. */
  url: string;
  /** Where fleetplan pushes to, when it cannot reach `url` (e.g. through a port-forward or route). Default `url`. */
  pushURL?: string;
  /** The app (on each cluster) that deploys the Git service; phase 2 starts once it is Healthy. */
  app: string;
  /** The branch pushed to. Default: the cluster's revision when it is a branch name, else `main`. */
  branch?: string;
  credentials: MirrorCredentialsSpec;
}

export interface FleetSpec {
  repoURL: string;
  revision?: string;
  platform?: Platform;
  gitops?: {
    engine?: Engine;
    delivery?: Delivery;
    namespace?: string;
    renderedPath?: string;
    plugin?: { image: string; name?: string };
    /** Settings of `delivery: applicationset` (seed 004's root ApplicationSet). */
    applicationset?: ApplicationSetDeliverySpec;
    operator?: { channel?: string; source?: string; sourceNamespace?: string; installPlanApproval?: 'Automatic' | 'Manual' };
    /** What bootstraps each provisioned spoke from the hub (ADR 0239): a Job, or a Tekton PipelineRun. */
    bootstrapRunner?: BootstrapRunnerType | BootstrapRunnerSpec;
    /** Argo CD manages its own configuration after the hand-off (ADR 0240). Default true. */
    selfManaged?: boolean;
    /** The internal Git service of seed 000's phase 2 (docs/adr/0235-internal-git-mirror.md). */
    mirror?: MirrorSpec;
  };
  sectors?: SectorSpec[];
  vars?: Record<string, string | number | boolean>;
  defaults?: AppSpec;
  projects?: Record<string, ProjectSpec>;
  validation?: ValidationSpec;
}

/** A rule's level in `spec.validation.rules`: `off` drops its findings, the others set their severity. */
export type RuleLevel = 'off' | 'error' | 'warning' | 'info';

/** Which clusters a placement policy talks about; every given field must match. */
export interface ClusterSelector {
  roles?: ClusterRole[];
  names?: string[];
  groups?: string[];
  labels?: Record<string, string>;
}

/**
 * A placement policy: apps whose names match `apps` (globs with `*`) may run only on clusters
 * matching `allowedOn`, and every cluster matching `requiredOn` must get one of them (on the
 * cluster itself, or on its hub with `from: hub`).
 */
export interface PlacementPolicy {
  name: string;
  apps: string[];
  allowedOn?: ClusterSelector;
  requiredOn?: ClusterSelector;
  from?: 'cluster' | 'hub';
  severity?: 'error' | 'warning' | 'info';
}

export interface ValidationSpec {
  rules?: Record<string, RuleLevel>;
  placement?: PlacementPolicy[];
}

/** The networks of a cluster, for fleet-wide overlap checks. CIDRs may be IPv4 or IPv6. */
export interface ClusterNetwork {
  /** Clusters that share a mesh or routed network must not overlap; name it here. */
  mesh?: string;
  clusterID?: string;
  podCIDR?: string | string[];
  serviceCIDR?: string | string[];
  machineCIDR?: string | string[];
  apiVIP?: string | string[];
  ingressVIP?: string | string[];
}

export interface ClusterSpec {
  role: ClusterRole;
  hub?: string;
  region?: string;
  sector?: string;
  platform?: Platform;
  server?: string;
  groups?: string[];
  labels?: Record<string, string>;
  vars?: Record<string, string | number | boolean>;
  apps?: Record<string, AppSpec>;
  provision?: ProvisionSpec;
  network?: ClusterNetwork;
}

export interface GroupSpec {
  description?: string;
  apps?: Record<string, AppSpec>;
}

export interface Document<K extends string, S> {
  apiVersion: string;
  kind: K;
  metadata: Metadata;
  spec: S;
}

/** How a hub creates a cluster (src/generate/provision). Credentials are references, never values. */
export type Installer = 'hive-aws' | 'capi-eks' | 'agent';

export interface SecretStoreRef {
  name: string;
  kind?: 'ClusterSecretStore' | 'SecretStore';
}

/**
 * Where a credential lives: a key (and property) in a secret store, read by an ExternalSecret, or
 * the name of a Secret that already exists in the cluster's namespace on the hub.
 */
export interface CredentialRef {
  key?: string;
  property?: string;
  store?: SecretStoreRef;
  secretName?: string;
}

export interface RootVolumeSpec {
  size?: number;
  type?: string;
  iops?: number;
}

export interface PoolSpec {
  replicas?: number;
  instanceType?: string;
  rootVolume?: RootVolumeSpec;
  /** capi-eks: node group scaling and disk. */
  minSize?: number;
  maxSize?: number;
  diskSize?: number;
  amiType?: string;
}

export interface NetworksSpec {
  /** Machine network CIDR (the hosts' network). */
  machine?: string;
  /** Pod (cluster) network CIDR and the per-node prefix. */
  pod?: string;
  hostPrefix?: number;
  service?: string;
  apiVIPs?: string[];
  ingressVIPs?: string[];
  type?: string;
}

export interface HostNetworkSpec {
  interface: string;
  /** `address/prefix`, e.g. 192.168.135.160/24. */
  address: string;
  gateway?: string;
  dns?: string[];
  /** MAC of the interface; default the host's bootMACAddress. */
  macAddress?: string;
}

export interface HostSpec {
  name: string;
  role: 'master' | 'worker';
  bootMACAddress: string;
  bmc: { address: string; disableCertificateVerification?: boolean; credentials?: CredentialRef };
  rootDeviceHints?: Record<string, string | number | boolean>;
  network?: HostNetworkSpec;
}

export interface ProvisionSpec {
  installer: Installer;
  /** OpenShift version (hive-aws, agent) or Kubernetes version (capi-eks), e.g. "4.20" or "1.28". */
  version?: string;
  channel?: string;
  /** ClusterImageSet name; default derived from version. */
  imageSet?: string;
  baseDomain?: string;
  /** Cloud region; default the cluster's region. */
  region?: string;
  /** Sync wave of the provisioning app on the hub (default 20). */
  wave?: number;
  /** ManagedClusterSet the cluster joins (default: the fleet's name). */
  clusterSet?: string;
  /** Extra labels on the ManagedCluster (and klusterlet clusterLabels). */
  labels?: Record<string, string>;
  controlPlane?: PoolSpec;
  workers?: PoolSpec;
  networks?: NetworksSpec;
  sshPublicKey?: string;
  credentials?: {
    store?: SecretStoreRef;
    refreshInterval?: string;
    pullSecret?: CredentialRef;
    cloud?: CredentialRef;
    bmc?: CredentialRef;
    installConfig?: CredentialRef;
  };
  hosts?: HostSpec[];
}
