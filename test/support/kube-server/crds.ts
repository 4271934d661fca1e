/**
 * CustomResourceDefinitions for preloading, built in code from a small table of facts (group,
 * kind, plural, scope, served versions): the names a fleet bootstrap meets (Argo CD, OLM, Hive,
 * OCM, External Secrets). The test API server needs names, scope, versions and whether status is
 * a subresource, not the upstream schemas, so every version gets an open schema. Hand-written on
 * purpose: nothing here is copied or generated from upstream CRD files (ADR 0150). To preload
 * another kind, add a row.
 */
import type { Obj } from './types.js';

interface CrdFacts {
  group: string;
  kind: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  /** Served versions; the first is the storage version. */
  versions: readonly string[];
  /** Whether status is a subresource (Argo CD's Application and AppProject keep it in the main resource). */
  status?: false;
}

const FACTS: readonly CrdFacts[] = [
  // Argo CD (installed by the OpenShift GitOps / Argo CD operator)
  { group: 'argoproj.io', kind: 'Application', plural: 'applications', scope: 'Namespaced', versions: ['v1alpha1'], status: false },
  { group: 'argoproj.io', kind: 'ApplicationSet', plural: 'applicationsets', scope: 'Namespaced', versions: ['v1alpha1'] },
  { group: 'argoproj.io', kind: 'AppProject', plural: 'appprojects', scope: 'Namespaced', versions: ['v1alpha1'], status: false },
  { group: 'argoproj.io', kind: 'ArgoCD', plural: 'argocds', scope: 'Namespaced', versions: ['v1beta1', 'v1alpha1'] },
  // OLM (on every OpenShift cluster)
  { group: 'operators.coreos.com', kind: 'CatalogSource', plural: 'catalogsources', scope: 'Namespaced', versions: ['v1alpha1'] },
  { group: 'operators.coreos.com', kind: 'ClusterServiceVersion', plural: 'clusterserviceversions', scope: 'Namespaced', versions: ['v1alpha1'] },
  { group: 'operators.coreos.com', kind: 'InstallPlan', plural: 'installplans', scope: 'Namespaced', versions: ['v1alpha1'] },
  { group: 'operators.coreos.com', kind: 'OperatorGroup', plural: 'operatorgroups', scope: 'Namespaced', versions: ['v1', 'v1alpha2'] },
  { group: 'operators.coreos.com', kind: 'Subscription', plural: 'subscriptions', scope: 'Namespaced', versions: ['v1alpha1'] },
  // Hive
  { group: 'hive.openshift.io', kind: 'ClusterDeployment', plural: 'clusterdeployments', scope: 'Namespaced', versions: ['v1'] },
  { group: 'hive.openshift.io', kind: 'ClusterImageSet', plural: 'clusterimagesets', scope: 'Cluster', versions: ['v1'] },
  { group: 'hive.openshift.io', kind: 'ClusterPool', plural: 'clusterpools', scope: 'Namespaced', versions: ['v1'] },
  { group: 'hive.openshift.io', kind: 'MachinePool', plural: 'machinepools', scope: 'Namespaced', versions: ['v1'] },
  // Open Cluster Management
  { group: 'cluster.open-cluster-management.io', kind: 'ManagedCluster', plural: 'managedclusters', scope: 'Cluster', versions: ['v1'] },
  { group: 'cluster.open-cluster-management.io', kind: 'ManagedClusterSet', plural: 'managedclustersets', scope: 'Cluster', versions: ['v1beta2'] },
  { group: 'cluster.open-cluster-management.io', kind: 'ManagedClusterSetBinding', plural: 'managedclustersetbindings', scope: 'Namespaced', versions: ['v1beta2'] },
  { group: 'cluster.open-cluster-management.io', kind: 'Placement', plural: 'placements', scope: 'Namespaced', versions: ['v1beta1'] },
  { group: 'policy.open-cluster-management.io', kind: 'PlacementBinding', plural: 'placementbindings', scope: 'Namespaced', versions: ['v1'] },
  { group: 'policy.open-cluster-management.io', kind: 'Policy', plural: 'policies', scope: 'Namespaced', versions: ['v1'] },
  { group: 'apps.open-cluster-management.io', kind: 'GitOpsCluster', plural: 'gitopsclusters', scope: 'Namespaced', versions: ['v1beta1'] },
  { group: 'agent.open-cluster-management.io', kind: 'KlusterletAddonConfig', plural: 'klusterletaddonconfigs', scope: 'Namespaced', versions: ['v1'] },
  // External Secrets
  { group: 'external-secrets.io', kind: 'ClusterSecretStore', plural: 'clustersecretstores', scope: 'Cluster', versions: ['v1'] },
  { group: 'external-secrets.io', kind: 'ExternalSecret', plural: 'externalsecrets', scope: 'Namespaced', versions: ['v1'] },
  { group: 'external-secrets.io', kind: 'SecretStore', plural: 'secretstores', scope: 'Namespaced', versions: ['v1'] },
];

/** A CustomResourceDefinition with an open schema: names, scope and versions from the facts. */
function crdFrom(f: CrdFacts): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${f.plural}.${f.group}` },
    spec: {
      group: f.group,
      names: { kind: f.kind, listKind: `${f.kind}List`, plural: f.plural, singular: f.kind.toLowerCase() },
      scope: f.scope,
      versions: f.versions.map((name, i) => ({
        name,
        served: true,
        storage: i === 0,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        ...(f.status === false ? {} : { subresources: { status: {} } }),
      })),
    },
  };
}

/** Every CRD of the table, as fresh objects (callers may mutate them). */
export function fixtureCrds(): Obj[] {
  return FACTS.map(crdFrom);
}

/** Named sets of CRDs, by what installs them on a real cluster. */
export const CRD_SETS = {
  /** Installed by the Argo CD (or OpenShift GitOps) operator. */
  argocd: ['applications.argoproj.io', 'applicationsets.argoproj.io', 'appprojects.argoproj.io', 'argocds.argoproj.io'],
  /** Present on every OpenShift cluster. */
  olm: [
    'catalogsources.operators.coreos.com', 'clusterserviceversions.operators.coreos.com', 'installplans.operators.coreos.com',
    'operatorgroups.operators.coreos.com', 'subscriptions.operators.coreos.com',
  ],
  hive: ['clusterdeployments.hive.openshift.io', 'clusterimagesets.hive.openshift.io', 'clusterpools.hive.openshift.io', 'machinepools.hive.openshift.io'],
  ocm: [
    'managedclusters.cluster.open-cluster-management.io', 'managedclustersets.cluster.open-cluster-management.io',
    'managedclustersetbindings.cluster.open-cluster-management.io', 'placements.cluster.open-cluster-management.io',
    'placementbindings.policy.open-cluster-management.io', 'policies.policy.open-cluster-management.io',
    'gitopsclusters.apps.open-cluster-management.io', 'klusterletaddonconfigs.agent.open-cluster-management.io',
  ],
  externalSecrets: ['clustersecretstores.external-secrets.io', 'externalsecrets.external-secrets.io', 'secretstores.external-secrets.io'],
} as const;

/** CRDs by name (`applications.argoproj.io`); throws for a name the table lacks. */
export function crdsNamed(names: readonly string[]): Obj[] {
  const all = fixtureCrds();
  return names.map((n) => {
    const c = all.find((x) => x.metadata?.name === n);
    if (!c) throw new Error(`no CRD named ${n} in test/support/kube-server/crds.ts (add a row to FACTS)`);
    return c;
  });
}

/** A CRD as the API server stores it once Established (for preloading without waiting). */
export function establishedCrd(crd: Obj): Obj {
  const c = JSON.parse(JSON.stringify(crd)) as Obj;
  const storage = (c.spec.versions as Obj[]).find((v) => v.storage)?.name ?? c.spec.versions[0].name;
  c.status = {
    acceptedNames: c.spec.names,
    conditions: [
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: '2026-01-01T00:00:00Z' },
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: '2026-01-01T00:00:00Z' },
    ],
    storedVersions: [storage],
  };
  return c;
}
