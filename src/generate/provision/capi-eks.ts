/**
 * `capi-eks`: an EKS cluster through Cluster API (CAPA's AWSManagedControlPlane with managed node
 * groups), registered with ACM as a ManagedCluster.
 */
import type { K8sObject } from '../../model/k8s.js';
import type { ProvisionBundle } from './bundle.js';
import type { ProvisionInput } from './common.js';
import { API, clusterLabels, cloudSecretObjects, klusterletAddonConfigFor, managedClusterFor, namespaceFor, networksOf, poolOf, pullSecretObjects } from './common.js';

/** `1.28` → `v1.28` (Cluster API and CAPA both take a leading v). */
export function kubernetesVersion(version: string | undefined): string {
  if (!version) return '';
  return version.startsWith('v') ? version : `v${version}`;
}

export function capiEksBundle(input: ProvisionInput): ProvisionBundle {
  const { name } = input;
  const net = networksOf(input);
  const workers = poolOf(input, 'workers');
  const version = kubernetesVersion(input.spec.version);
  const labels = clusterLabels(input);
  const { name: _n, ...clusterObjLabels } = labels;
  const controlPlaneRef = { apiVersion: API.awsManagedControlPlane, kind: 'AWSManagedControlPlane', name };
  const clusterNetwork: Record<string, unknown> = { pods: { cidrBlocks: [net.pod] } };
  if (net.service) clusterNetwork.services = { cidrBlocks: [net.service] };
  const scaling: Record<string, number> = {};
  if (workers.minSize !== undefined) scaling.minSize = workers.minSize;
  if (workers.maxSize !== undefined) scaling.maxSize = workers.maxSize;
  const pool: Record<string, unknown> = {};
  if (workers.instanceType) pool.instanceType = workers.instanceType;
  if (Object.keys(scaling).length) pool.scaling = scaling;
  if (workers.diskSize !== undefined) pool.diskSize = workers.diskSize;
  if (workers.amiType) pool.amiType = workers.amiType;
  const objects: K8sObject[] = [
    namespaceFor(input),
    ...cloudSecretObjects(input),
    ...pullSecretObjects(input),
    {
      apiVersion: API.capiCluster,
      kind: 'Cluster',
      metadata: { name, namespace: name, labels: clusterObjLabels },
      spec: { clusterNetwork, infrastructureRef: controlPlaneRef, controlPlaneRef },
    },
    {
      apiVersion: API.awsManagedControlPlane,
      kind: 'AWSManagedControlPlane',
      metadata: { name, namespace: name },
      // sshKeyName "" means no SSH key (omitting it would attach CAPA's default key).
      spec: { region: input.region ?? '', version, eksClusterName: name, associateOIDCProvider: true, sshKeyName: '' },
    },
    { apiVersion: API.awsManagedMachinePool, kind: 'AWSManagedMachinePool', metadata: { name, namespace: name }, spec: pool },
    {
      apiVersion: API.capiMachinePool,
      kind: 'MachinePool',
      metadata: { name, namespace: name },
      spec: {
        clusterName: name,
        replicas: workers.replicas ?? 0,
        template: {
          spec: {
            bootstrap: { dataSecretName: '' },
            clusterName: name,
            infrastructureRef: { apiVersion: API.awsManagedMachinePool, kind: 'AWSManagedMachinePool', name },
            version,
          },
        },
      },
    },
    managedClusterFor(input),
    klusterletAddonConfigFor(input),
  ];
  return { cluster: name, hub: input.hub, installer: 'capi-eks', objects, files: [], secretGenerators: [] };
}
