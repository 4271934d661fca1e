/**
 * What installs which API: OLM packages and Helm charts → the API groups (or `group/Kind` where a
 * group is shared with the platform) whose CRDs they install, and the groups the platform itself
 * serves. Used by the CRD-order rule to find the app that provides a custom resource's CRD.
 * Decisions (shared groups, instance-created CRDs): docs/adr/0100-crd-provider-catalog.md.
 */
import type { Platform } from '../spec.js';

/** OLM package name (Subscription `spec.name`, OperatorPolicy `spec.subscription.name`) → APIs. */
export const operatorPackages: Readonly<Record<string, readonly string[]>> = {
  // Red Hat Advanced Cluster Management; the MultiClusterHub brings the multicluster engine's APIs.
  'advanced-cluster-management': [
    'operator.open-cluster-management.io',
    'action.open-cluster-management.io',
    'addon.open-cluster-management.io',
    'agent.open-cluster-management.io',
    'app.k8s.io',
    'apps.open-cluster-management.io',
    'cluster.open-cluster-management.io',
    'config.open-cluster-management.io',
    'discovery.open-cluster-management.io',
    'imageregistry.open-cluster-management.io',
    'internal.open-cluster-management.io',
    'observability.open-cluster-management.io',
    'policy.open-cluster-management.io',
    'proxy.open-cluster-management.io',
    'search.open-cluster-management.io',
    'submarineraddon.open-cluster-management.io',
    'view.open-cluster-management.io',
    'work.open-cluster-management.io',
    'multicluster.openshift.io',
    'agent-install.openshift.io',
    'capi-provider.agent-install.openshift.io',
    'extensions.hive.openshift.io',
    'hive.openshift.io',
    'hiveinternal.openshift.io',
    'hypershift.openshift.io',
  ],
  'multicluster-engine': [
    'multicluster.openshift.io',
    'addon.open-cluster-management.io',
    'agent-install.openshift.io',
    'capi-provider.agent-install.openshift.io',
    'cluster.open-cluster-management.io',
    'config.open-cluster-management.io',
    'discovery.open-cluster-management.io',
    'extensions.hive.openshift.io',
    'hive.openshift.io',
    'hiveinternal.openshift.io',
    'hypershift.openshift.io',
    'imageregistry.open-cluster-management.io',
    'internal.open-cluster-management.io',
    'proxy.open-cluster-management.io',
    'view.open-cluster-management.io',
    'work.open-cluster-management.io',
  ],
  // OpenShift Virtualization: the HyperConverged operator bundle owns every component's CRDs.
  'kubevirt-hyperconverged': [
    'hco.kubevirt.io',
    'kubevirt.io',
    'cdi.kubevirt.io',
    'clone.kubevirt.io',
    'export.kubevirt.io',
    'instancetype.kubevirt.io',
    'migrations.kubevirt.io',
    'networkaddonsoperator.network.kubevirt.io',
    'pool.kubevirt.io',
    'snapshot.kubevirt.io',
    'ssp.kubevirt.io',
    'aaq.kubevirt.io',
  ],
  'mtv-operator': ['forklift.konveyor.io'],
  'forklift-operator': ['forklift.konveyor.io'],
  'metallb-operator': ['metallb.io'],
  'kubernetes-nmstate-operator': ['nmstate.io'],
  'openshift-cert-manager-operator': ['cert-manager.io', 'acme.cert-manager.io', 'operator.openshift.io/CertManager', 'operator.openshift.io/IstioCSR'],
  'cert-manager': ['cert-manager.io', 'acme.cert-manager.io'],
  'external-dns-operator': ['externaldns.olm.openshift.io'],
  'ansible-automation-platform-operator': [
    'aap.ansible.com',
    'automationcontroller.ansible.com',
    'automationhub.ansible.com',
    'eda.ansible.com',
    'tower.ansible.com',
  ],
  'cluster-kube-descheduler-operator': ['operator.openshift.io/KubeDescheduler'],
  // Node Health Check installs Self Node Remediation as its default remediator.
  'node-healthcheck-operator': ['remediation.medik8s.io', 'self-node-remediation.medik8s.io'],
  'self-node-remediation': ['self-node-remediation.medik8s.io'],
  'fence-agents-remediation': ['fence-agents-remediation.medik8s.io'],
  'machine-deletion-remediation': ['machine-deletion-remediation.medik8s.io'],
  'node-maintenance-operator': ['nodemaintenance.medik8s.io'],
  // The Web Terminal depends on (and so installs) the DevWorkspace operator.
  'web-terminal': ['web.devfile.io', 'workspace.devfile.io', 'controller.devfile.io'],
  'devworkspace-operator': ['workspace.devfile.io', 'controller.devfile.io'],
  'openshift-gitops-operator': ['argoproj.io', 'pipelines.openshift.io'],
  'argocd-operator': ['argoproj.io'],
  'openshift-pipelines-operator-rh': ['operator.tekton.dev', 'tekton.dev', 'triggers.tekton.dev', 'pipelinesascode.tekton.dev', 'resolution.tekton.dev', 'results.tekton.dev'],
  'tektoncd-operator': ['operator.tekton.dev', 'tekton.dev', 'triggers.tekton.dev', 'resolution.tekton.dev'],
  'external-secrets-operator': ['external-secrets.io', 'generators.external-secrets.io', 'operator.external-secrets.io'],
  'openshift-external-secrets-operator': ['external-secrets.io', 'generators.external-secrets.io'],
  'vault-config-operator': ['redhatcop.redhat.io'],
  'vault-secrets-operator': ['secrets.hashicorp.com'],
  'gitea-operator': ['pfe.rhpds.com'],
  'lvms-operator': ['lvm.topolvm.io'],
  'odf-operator': ['ocs.openshift.io', 'odf.openshift.io', 'ceph.rook.io', 'noobaa.io', 'objectbucket.io'],
};

/** Helm chart name (last segment of the chart reference) → APIs whose CRDs the chart ships. */
export const helmCharts: Readonly<Record<string, readonly string[]>> = {
  cilium: ['cilium.io'],
  'cert-manager': ['cert-manager.io', 'acme.cert-manager.io'],
  'external-secrets': ['external-secrets.io', 'generators.external-secrets.io'],
  'flux-operator': ['fluxcd.controlplane.io'],
  'flux2': ['source.toolkit.fluxcd.io', 'kustomize.toolkit.fluxcd.io', 'helm.toolkit.fluxcd.io', 'notification.toolkit.fluxcd.io', 'image.toolkit.fluxcd.io'],
  'flux-instance': ['source.toolkit.fluxcd.io', 'kustomize.toolkit.fluxcd.io', 'helm.toolkit.fluxcd.io', 'notification.toolkit.fluxcd.io', 'image.toolkit.fluxcd.io'],
  'gateway-helm': ['gateway.envoyproxy.io', 'gateway.networking.k8s.io'],
  'envoy-gateway': ['gateway.envoyproxy.io', 'gateway.networking.k8s.io'],
  'grafana-operator': ['grafana.integreatly.org'],
  'kube-prometheus-stack': ['monitoring.coreos.com'],
  'prometheus-operator-crds': ['monitoring.coreos.com'],
  'snapshot-controller': ['snapshot.storage.k8s.io', 'groupsnapshot.storage.k8s.io'],
  'metallb': ['metallb.io'],
  'argo-cd': ['argoproj.io'],
  'rook-ceph': ['ceph.rook.io', 'objectbucket.io'],
  'openebs': ['openebs.io'],
  'kyverno': ['kyverno.io', 'wgpolicyk8s.io', 'reports.kyverno.io'],
  'volsync': ['volsync.backube'],
};

const kubernetesGroups = [
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'metrics.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
  // Not an API group: kustomize's own files when read as plain YAML.
  'kustomize.config.k8s.io',
];

const openshiftGroups = [
  'apps.openshift.io',
  'apiserver.openshift.io',
  'authorization.openshift.io',
  'autoscaling.openshift.io',
  'build.openshift.io',
  'cloudcredential.openshift.io',
  'config.openshift.io',
  'console.openshift.io',
  'controlplane.operator.openshift.io',
  'gateway.networking.k8s.io',
  'helm.openshift.io',
  'image.openshift.io',
  'imageregistry.operator.openshift.io',
  'ingress.operator.openshift.io',
  'insights.openshift.io',
  'k8s.cni.cncf.io',
  'k8s.ovn.org',
  'machine.openshift.io',
  'machineconfiguration.openshift.io',
  'metal3.io',
  'migration.k8s.io',
  'monitoring.coreos.com',
  'monitoring.openshift.io',
  'network.openshift.io',
  'network.operator.openshift.io',
  'oauth.openshift.io',
  'operator.openshift.io',
  'operators.coreos.com',
  'packages.operators.coreos.com',
  'performance.openshift.io',
  'policy.networking.k8s.io',
  'project.openshift.io',
  'quota.openshift.io',
  'route.openshift.io',
  'samples.operator.openshift.io',
  'security.internal.openshift.io',
  'security.openshift.io',
  'sharedresource.openshift.io',
  'snapshot.storage.k8s.io',
  'template.openshift.io',
  'tuned.openshift.io',
  'user.openshift.io',
  'whereabouts.cni.cncf.io',
];

const kubernetesSet = new Set(kubernetesGroups);
const openshiftSet = new Set([...kubernetesGroups, ...openshiftGroups]);

/**
 * `group/Kind` entries in the catalogs: kinds an operator serves inside a group the platform
 * also serves (KubeDescheduler in operator.openshift.io). Those kinds are looked up by kind.
 */
const kindScoped = new Set<string>(
  [...Object.values(operatorPackages), ...Object.values(helmCharts)].flat().filter((a) => a.includes('/')),
);

export function apiGroup(apiVersion: string): string {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The key an object's API is provided under: `group/Kind` for kind-scoped entries, else the group. */
export function apiKey(group: string, kind: string): string {
  const k = `${group}/${kind}`;
  return kindScoped.has(k) ? k : group;
}

/** True when the platform serves this API with no app installing it. */
export function isPlatformApi(platform: Platform, key: string): boolean {
  if (key.includes('/')) return false;
  return (platform === 'openshift' ? openshiftSet : kubernetesSet).has(key);
}

/** The chart name of a reference: `oci://ghcr.io/x/charts/cilium` → `cilium`. */
export function chartName(ref: string): string {
  const noTag = ref.replace(/[:@][^/]*$/, '');
  const parts = noTag.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? ref;
}
