/**
 * Upstream CustomResourceDefinitions for preloading: `test/fixtures/kube-server/crds.yaml` holds
 * the CRDs of the projects a fleet bootstrap meets (Argo CD, the Argo CD operator, OLM, Hive,
 * OCM, External Secrets, …) with their schemas stripped; `scripts/strip-crds.mjs` regenerates it.
 */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import type { Obj } from './types.js';

export const CRD_FIXTURE = 'test/fixtures/kube-server/crds.yaml';

let cache: Obj[] | undefined;

/** Every CRD in the fixture (cwd = repository root, as tests run). */
export function fixtureCrds(): Obj[] {
  cache ??= (yaml.loadAll(readFileSync(CRD_FIXTURE, 'utf8')) as Obj[]).filter((d) => d?.kind === 'CustomResourceDefinition');
  return JSON.parse(JSON.stringify(cache)) as Obj[];
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

/** CRDs by name (`applications.argoproj.io`); throws for a name the fixture lacks. */
export function crdsNamed(names: readonly string[]): Obj[] {
  const all = fixtureCrds();
  return names.map((n) => {
    const c = all.find((x) => x.metadata?.name === n);
    if (!c) throw new Error(`no CRD named ${n} in ${CRD_FIXTURE}`);
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
