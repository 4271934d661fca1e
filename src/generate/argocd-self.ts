/**
 * Stage 3, generate (Argo CD manages itself, ADR 0240): the Application through which, after the
 * hand-off, Argo CD owns the configuration bootstrap installed — the GitOps operator's
 * Subscription (OpenShift), the controllers' RBAC, the plugin's ConfigMaps and the ArgoCD instance
 * (OpenShift) or argocd-cm (upstream).
 *
 * It reads the very files bootstrap applies (`<renderedPath>/<cluster>/bootstrap/NN-<step>.yaml`,
 * written by `render --out` and committed), so the self-managed objects and the bootstrap's are
 * the same objects, field for field: there is one definition, not two that can drift. Syncs
 * server-side (Argo CD's field manager co-owns what fleetplan applied, so a later bootstrap from
 * the same revision changes nothing and takes nothing), never prunes (a file dropped from the
 * list must not uninstall Argo CD) and has no resources finalizer (deleting the Application leaves
 * Argo CD running). Pure.
 */
import type { Fleet } from '../model/fleet.js';
import type { K8sObject } from '../model/k8s.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { BootstrapFile, BootstrapStepId } from '../model/bootstrap.js';
import { IN_CLUSTER, SYNC_WAVE_ANNOTATION } from '../model/constants.js';
import { bootstrapFor, projectWave, renderedClusterPath } from './argocd.js';

import { SELF_APPLICATION, selfManaged } from '../model/constants.js';

export { SELF_APPLICATION, selfManaged };

/** The bootstrap steps that are Argo CD's own configuration (not the namespace, identity or root). */
export const SELF_MANAGED_STEPS: readonly BootstrapStepId[] = ['gitops-operator', 'rbac', 'plugin', 'argocd', 'argocd-cm'];

/** The bootstrap files the self-managing Application reads, in apply order. */
export function selfManagedFiles(fleet: Fleet, cluster: ResolvedCluster): BootstrapFile[] {
  // A spoke the hub's root policy bootstraps gets its operator from an ACM OperatorPolicy, which
  // owns the Subscription: Argo CD must not become its second owner.
  const operatorByPolicy = cluster.provision !== undefined && cluster.provision.installer !== 'capi-eks' && cluster.platform === 'openshift' && !fleet.bootstrapRunner;
  return bootstrapFor(fleet, cluster).filter((f) => SELF_MANAGED_STEPS.includes(f.step) && !(operatorByPolicy && f.step === 'gitops-operator'));
}

export function selfManagedApplication(fleet: Fleet, cluster: ResolvedCluster): K8sObject {
  const files = selfManagedFiles(fleet, cluster).map((f) => f.name);
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name: SELF_APPLICATION,
      namespace: cluster.gitopsNamespace,
      // First, with the AppProjects: the configuration every later wave runs under.
      annotations: { [SYNC_WAVE_ANNOTATION]: String(projectWave(cluster)) },
    },
    spec: {
      project: 'default',
      source: {
        repoURL: fleet.repoURL,
        targetRevision: cluster.revision,
        path: `${renderedClusterPath(fleet, cluster.name)}/bootstrap`,
        directory: { include: files.length === 1 ? files[0]! : `{${files.join(',')}}` },
      },
      destination: { server: IN_CLUSTER, namespace: cluster.gitopsNamespace },
      syncPolicy: {
        automated: { prune: false, selfHeal: true },
        syncOptions: ['ServerSideApply=true'],
        retry: { limit: -1, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
      },
    },
  };
}
