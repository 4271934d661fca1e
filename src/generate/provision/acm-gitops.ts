/**
 * The ACM–GitOps hand-off on the hub.
 *
 *   hub-wide (one app, GITOPS_WIRING_APP): per ManagedClusterSet of the provisioned spokes, the set
 *   (ACM's own `default` and `global` sets are not created), its bindings in the policy and Argo CD
 *   namespaces, a Placement of the set's spokes, a GitOpsCluster that registers them with the hub's
 *   Argo CD, and the policy that installs the GitOps operator on every OpenShift spoke of the set.
 *
 *   per spoke (in the spoke's provisioning app): a policy that creates the spoke's Argo CD instance,
 *   its RBAC and its root Application once the operator policy is compliant, placed on that spoke.
 */
import type { K8sObject } from '../../model/k8s.js';
import type { Fleet } from '../../model/fleet.js';
import type { ResolvedCluster } from '../../model/resolved.js';
import type { ProvisionBundle } from './bundle.js';
import { API } from './common.js';
import { POLICY_NAMESPACE } from '../../model/constants.js';

/** ManagedClusterSets ACM creates itself. */
export const BUILTIN_CLUSTER_SETS = ['default', 'global'];

const NOT_LOCAL = { key: 'name', operator: 'NotIn', values: ['local-cluster'] };

export function operatorPolicyName(set: string): string {
  return `gitops-operator-${set}`;
}

export interface WiringSet {
  name: string;
  /** True when some spoke of the set runs OpenShift (the GitOps operator comes from OLM). */
  openshift: boolean;
}

export function gitopsWiringBundle(fleet: Fleet, hub: string, gitopsNamespace: string, sets: readonly WiringSet[]): ProvisionBundle {
  const objects: K8sObject[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: POLICY_NAMESPACE } }];
  const op = fleet.operator;
  for (const set of sets) {
    const s = set.name;
    if (!BUILTIN_CLUSTER_SETS.includes(s)) {
      objects.push({ apiVersion: API.managedClusterSet, kind: 'ManagedClusterSet', metadata: { name: s }, spec: { clusterSelector: { selectorType: 'ExclusiveClusterSetLabel' } } });
    }
    for (const ns of [...new Set([POLICY_NAMESPACE, gitopsNamespace])]) {
      objects.push({ apiVersion: API.managedClusterSetBinding, kind: 'ManagedClusterSetBinding', metadata: { name: s, namespace: ns }, spec: { clusterSet: s } });
    }
    objects.push(
      {
        apiVersion: API.placement,
        kind: 'Placement',
        metadata: { name: s, namespace: gitopsNamespace },
        spec: { clusterSets: [s], predicates: [{ requiredClusterSelector: { labelSelector: { matchExpressions: [NOT_LOCAL] } } }] },
      },
      {
        apiVersion: API.gitOpsCluster,
        kind: 'GitOpsCluster',
        metadata: { name: s, namespace: gitopsNamespace },
        spec: {
          argoServer: { argoNamespace: gitopsNamespace, cluster: 'local-cluster' },
          placementRef: { apiVersion: API.placement, kind: 'Placement', name: s },
        },
      },
    );
    if (!set.openshift) continue;
    const policy = operatorPolicyName(s);
    objects.push(
      {
        apiVersion: API.placement,
        kind: 'Placement',
        metadata: { name: `${s}-openshift`, namespace: POLICY_NAMESPACE },
        spec: {
          clusterSets: [s],
          predicates: [{ requiredClusterSelector: { labelSelector: { matchLabels: { vendor: 'OpenShift' }, matchExpressions: [NOT_LOCAL] } } }],
        },
      },
      {
        apiVersion: API.policy,
        kind: 'Policy',
        metadata: {
          name: policy,
          namespace: POLICY_NAMESPACE,
          annotations: {
            'policy.open-cluster-management.io/standards': 'NIST SP 800-53',
            'policy.open-cluster-management.io/categories': 'CM Configuration Management',
            'policy.open-cluster-management.io/controls': 'CM-2 Baseline Configuration',
          },
        },
        spec: {
          disabled: false,
          remediationAction: 'enforce',
          'policy-templates': [
            {
              objectDefinition: {
                apiVersion: API.operatorPolicy,
                kind: 'OperatorPolicy',
                metadata: { name: 'openshift-gitops-operator' },
                spec: {
                  remediationAction: 'enforce',
                  severity: 'high',
                  complianceType: 'musthave',
                  upgradeApproval: op.installPlanApproval ?? 'Automatic',
                  subscription: {
                    name: 'openshift-gitops-operator',
                    namespace: 'openshift-operators',
                    channel: op.channel ?? 'latest',
                    source: op.source ?? 'redhat-operators',
                    sourceNamespace: op.sourceNamespace ?? 'openshift-marketplace',
                  },
                },
              },
            },
          ],
        },
      },
      placementBinding(policy, `${s}-openshift`),
    );
  }
  return { cluster: hub, hub, installer: 'acm-gitops', objects, files: [], secretGenerators: [] };
}

function placementBinding(policy: string, placement: string): K8sObject {
  return {
    apiVersion: API.placementBinding,
    kind: 'PlacementBinding',
    metadata: { name: policy, namespace: POLICY_NAMESPACE },
    placementRef: { apiGroup: 'cluster.open-cluster-management.io', kind: 'Placement', name: placement },
    subjects: [{ apiGroup: 'policy.open-cluster-management.io', kind: 'Policy', name: policy }],
  };
}

export function rootPolicyName(spoke: string): string {
  return `${spoke}-gitops-root`;
}

/**
 * The spoke's day-0 GitOps objects (everything bootstrapFor gives except the operator
 * Subscription, which the set's OperatorPolicy owns) and the update channel, enforced on that
 * spoke alone once the operator policy is compliant.
 */
export function rootPolicyObjects(spoke: ResolvedCluster, set: string, bootstrap: readonly K8sObject[], channel?: string): K8sObject[] {
  const name = rootPolicyName(spoke.name);
  const day0: K8sObject[] = bootstrap.filter((o) => o.kind !== 'Subscription');
  // The update channel is the spoke's ClusterVersion's (the installers take no channel).
  if (channel) day0.unshift({ apiVersion: 'config.openshift.io/v1', kind: 'ClusterVersion', metadata: { name: 'version' }, spec: { channel } });
  const objectTemplates = day0.map((o) => ({ complianceType: 'musthave', objectDefinition: o }));
  return [
    {
      apiVersion: API.placement,
      kind: 'Placement',
      metadata: { name: spoke.name, namespace: POLICY_NAMESPACE },
      spec: { clusterSets: [set], predicates: [{ requiredClusterSelector: { labelSelector: { matchLabels: { name: spoke.name } } } }] },
    },
    {
      apiVersion: API.policy,
      kind: 'Policy',
      metadata: { name, namespace: POLICY_NAMESPACE },
      spec: {
        disabled: false,
        remediationAction: 'enforce',
        dependencies: [{ apiVersion: API.policy, kind: 'Policy', name: operatorPolicyName(set), namespace: POLICY_NAMESPACE, compliance: 'Compliant' }],
        'policy-templates': [
          {
            objectDefinition: {
              apiVersion: API.configurationPolicy,
              kind: 'ConfigurationPolicy',
              metadata: { name },
              spec: { remediationAction: 'enforce', severity: 'high', 'object-templates': objectTemplates },
            },
          },
        ],
      },
    },
    placementBinding(name, spoke.name),
  ];
}
