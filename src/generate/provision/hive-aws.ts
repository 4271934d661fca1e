/**
 * `hive-aws`: OpenShift on AWS through Hive. The install-config Secret comes from a kustomize
 * secretGenerator over a generated install-config.yaml that holds no credential (its pullSecret is
 * empty: Hive injects the one `pullSecretRef` names), or from an ExternalSecret when
 * `credentials.installConfig` points at a stored install-config.
 */
import type { K8sObject } from '../../model/k8s.js';
import type { ProvisionBundle } from './bundle.js';
import type { ProvisionInput } from './common.js';
import {
  API,
  CLOUD_SECRET,
  INSTALL_CONFIG_SECRET,
  PULL_SECRET,
  cloudSecretObjects,
  externalSecretFor,
  imageSetOf,
  klusterletAddonConfigFor,
  managedClusterFor,
  namespaceFor,
  networksOf,
  poolOf,
  pullSecretObjects,
  secretNameOf,
} from './common.js';

export const INSTALL_CONFIG_FILE = 'install-config.yaml';

export function hiveAwsBundle(input: ProvisionInput): ProvisionBundle {
  const { name } = input;
  const creds = input.spec.credentials ?? {};
  const objects: K8sObject[] = [namespaceFor(input), ...cloudSecretObjects(input), ...pullSecretObjects(input)];
  const bundle: ProvisionBundle = { cluster: name, hub: input.hub, installer: 'hive-aws', objects, files: [], secretGenerators: [] };
  if (creds.installConfig) {
    const es = externalSecretFor(input, INSTALL_CONFIG_SECRET, creds.installConfig, [{ secretKey: INSTALL_CONFIG_FILE }]);
    if (es) objects.push(es);
  } else {
    bundle.files.push({ name: INSTALL_CONFIG_FILE, value: installConfigFor(input) });
    bundle.secretGenerators.push({ name: INSTALL_CONFIG_SECRET, namespace: name, files: [INSTALL_CONFIG_FILE] });
  }
  const workers = poolOf(input, 'workers');
  objects.push(
    {
      apiVersion: API.clusterDeployment,
      kind: 'ClusterDeployment',
      metadata: { name, namespace: name },
      spec: {
        baseDomain: input.spec.baseDomain ?? '',
        clusterName: name,
        controlPlaneConfig: { servingCertificates: {} },
        platform: { aws: { credentialsSecretRef: { name: secretNameOf(creds.cloud, CLOUD_SECRET) }, region: input.region ?? '' } },
        provisioning: {
          imageSetRef: { name: imageSetOf(input) },
          installConfigSecretRef: { name: secretNameOf(creds.installConfig, INSTALL_CONFIG_SECRET) },
        },
        pullSecretRef: { name: secretNameOf(creds.pullSecret, PULL_SECRET) },
      },
    },
    {
      apiVersion: API.hiveMachinePool,
      kind: 'MachinePool',
      metadata: { name: `${name}-worker`, namespace: name },
      spec: {
        clusterDeploymentRef: { name },
        name: 'worker',
        platform: { aws: { rootVolume: workers.rootVolume ?? {}, type: workers.instanceType ?? '' } },
        replicas: workers.replicas ?? 0,
      },
    },
    managedClusterFor(input),
    klusterletAddonConfigFor(input),
  );
  return bundle;
}

/** install-config.yaml without credentials (Hive adds the pull secret from pullSecretRef). */
export function installConfigFor(input: ProvisionInput): Record<string, unknown> {
  const net = networksOf(input);
  const cp = poolOf(input, 'controlPlane');
  const w = poolOf(input, 'workers');
  const pool = (poolName: string, p: typeof cp) => ({
    architecture: 'amd64',
    hyperthreading: 'Enabled',
    name: poolName,
    replicas: p.replicas ?? 0,
    platform: { aws: { ...(p.rootVolume ? { rootVolume: p.rootVolume } : {}), type: p.instanceType ?? '' } },
  });
  const config: Record<string, unknown> = {
    apiVersion: 'v1',
    metadata: { name: input.name },
    baseDomain: input.spec.baseDomain ?? '',
    controlPlane: pool('master', cp),
    compute: [pool('worker', w)],
    networking: {
      networkType: net.type ?? 'OVNKubernetes',
      clusterNetwork: [{ cidr: net.pod, hostPrefix: net.hostPrefix }],
      machineNetwork: [{ cidr: net.machine }],
      serviceNetwork: [net.service],
    },
    platform: { aws: { region: input.region ?? '' } },
    pullSecret: '',
  };
  if (input.spec.sshPublicKey) config.sshKey = input.spec.sshPublicKey;
  return config;
}
