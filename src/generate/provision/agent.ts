/**
 * `agent`: OpenShift on bare metal through ACM's agent-based install (assisted installer). Each host
 * is a BareMetalHost that the BMC boots from the InfraEnv's discovery image; static networking
 * becomes one NMStateConfig per host; AgentClusterInstall carries the VIPs, networks and image set.
 */
import type { K8sObject } from '../../model/k8s.js';
import type { HostSpec } from '../../model/spec.js';
import type { ProvisionBundle } from './bundle.js';
import type { ProvisionInput } from './common.js';
import { API, PULL_SECRET, externalSecretFor, imageSetOf, klusterletAddonConfigFor, managedClusterFor, namespaceFor, networksOf, pullSecretObjects, secretNameOf } from './common.js';

export const INFRAENV_LABEL = 'infraenvs.agent-install.openshift.io';
export const AGENT_SELECTOR_LABEL = 'cluster-name';

export function bmcSecretName(host: HostSpec): string {
  return `${host.name}-bmc`;
}

export function agentBundle(input: ProvisionInput): ProvisionBundle {
  const { name } = input;
  const spec = input.spec;
  const hosts = spec.hosts ?? [];
  const net = networksOf(input);
  const pullSecret = secretNameOf(spec.credentials?.pullSecret, PULL_SECRET);
  const objects: K8sObject[] = [namespaceFor(input), ...pullSecretObjects(input)];
  const withStatic = hosts.some((h) => h.network !== undefined);
  for (const host of hosts) objects.push(...hostObjects(input, host));
  const infraEnvSpec: Record<string, unknown> = {
    clusterRef: { name, namespace: name },
    pullSecretRef: { name: pullSecret },
    cpuArchitecture: 'x86_64',
    agentLabels: { [AGENT_SELECTOR_LABEL]: name },
  };
  if (spec.sshPublicKey) infraEnvSpec.sshAuthorizedKey = spec.sshPublicKey;
  if (withStatic) infraEnvSpec.nmStateConfigLabelSelector = { matchLabels: { [INFRAENV_LABEL]: name } };
  const masters = hosts.filter((h) => h.role === 'master').length;
  const workers = hosts.filter((h) => h.role === 'worker').length;
  const aci: Record<string, unknown> = {
    clusterDeploymentRef: { name },
    imageSetRef: { name: imageSetOf(input) },
    networking: {
      clusterNetwork: [{ cidr: net.pod, hostPrefix: net.hostPrefix }],
      serviceNetwork: [net.service],
      machineNetwork: net.machine ? [{ cidr: net.machine }] : [],
      networkType: net.type ?? 'OVNKubernetes',
    },
    provisionRequirements: { controlPlaneAgents: masters, workerAgents: workers },
  };
  if (masters === 1 && workers === 0) {
    // Single-node OpenShift: no VIPs, no load balancer.
    aci.platformType = 'None';
  } else {
    aci.platformType = 'BareMetal';
    aci.apiVIPs = net.apiVIPs ?? [];
    aci.ingressVIPs = net.ingressVIPs ?? [];
  }
  if (spec.sshPublicKey) aci.sshPublicKey = spec.sshPublicKey;
  objects.push(
    { apiVersion: API.infraEnv, kind: 'InfraEnv', metadata: { name, namespace: name }, spec: infraEnvSpec },
    {
      apiVersion: API.clusterDeployment,
      kind: 'ClusterDeployment',
      metadata: { name, namespace: name },
      spec: {
        baseDomain: spec.baseDomain ?? '',
        clusterName: name,
        clusterInstallRef: { group: 'extensions.hive.openshift.io', kind: 'AgentClusterInstall', name, version: 'v1beta1' },
        platform: { agentBareMetal: { agentSelector: { matchLabels: { [AGENT_SELECTOR_LABEL]: name } } } },
        pullSecretRef: { name: pullSecret },
      },
    },
    { apiVersion: API.agentClusterInstall, kind: 'AgentClusterInstall', metadata: { name, namespace: name }, spec: aci },
    managedClusterFor(input),
    klusterletAddonConfigFor(input),
  );
  return { cluster: name, hub: input.hub, installer: 'agent', objects, files: [], secretGenerators: [] };
}

function hostObjects(input: ProvisionInput, host: HostSpec): K8sObject[] {
  const ns = input.name;
  const out: K8sObject[] = [];
  const ref = host.bmc.credentials ?? input.spec.credentials?.bmc ?? {};
  const es = externalSecretFor(input, bmcSecretName(host), ref, [
    { secretKey: 'username', property: 'username' },
    { secretKey: 'password', property: 'password' },
  ]);
  if (es) out.push(es);
  const bmc: Record<string, unknown> = { address: host.bmc.address, credentialsName: secretNameOf(ref, bmcSecretName(host)) };
  if (host.bmc.disableCertificateVerification !== undefined) bmc.disableCertificateVerification = host.bmc.disableCertificateVerification;
  const bmhSpec: Record<string, unknown> = { online: true, bootMACAddress: host.bootMACAddress, automatedCleaningMode: 'disabled', bmc };
  if (host.rootDeviceHints) bmhSpec.rootDeviceHints = host.rootDeviceHints;
  out.push({
    apiVersion: API.bareMetalHost,
    kind: 'BareMetalHost',
    metadata: {
      name: host.name,
      namespace: ns,
      labels: { [INFRAENV_LABEL]: ns },
      annotations: {
        'inspect.metal3.io': 'disabled',
        'bmac.agent-install.openshift.io/hostname': host.name,
        'bmac.agent-install.openshift.io/role': host.role,
      },
    },
    spec: bmhSpec,
  });
  if (host.network) {
    const n = host.network;
    const [ip, prefix] = n.address.split('/');
    const mac = n.macAddress ?? host.bootMACAddress;
    const config: Record<string, unknown> = {
      interfaces: [
        {
          name: n.interface,
          type: 'ethernet',
          state: 'up',
          'mac-address': mac,
          ipv4: { enabled: true, dhcp: false, address: [{ ip, 'prefix-length': Number(prefix) }] },
          ipv6: { enabled: false },
        },
      ],
    };
    if (n.dns?.length) config['dns-resolver'] = { config: { server: n.dns } };
    if (n.gateway) {
      config.routes = { config: [{ destination: '0.0.0.0/0', 'next-hop-address': n.gateway, 'next-hop-interface': n.interface, 'table-id': 254 }] };
    }
    out.push({
      apiVersion: API.nmStateConfig,
      kind: 'NMStateConfig',
      metadata: { name: host.name, namespace: ns, labels: { [INFRAENV_LABEL]: ns } },
      spec: { config, interfaces: [{ name: n.interface, macAddress: mac }] },
    });
  }
  return out;
}
