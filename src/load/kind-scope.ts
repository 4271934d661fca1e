/**
 * Whether a kind is stored in a namespace, as far as fleetplan knows without a cluster: the
 * cluster-scoped kinds of ./manifests.ts, the namespaced built-in kinds below, and the
 * CustomResourceDefinitions of the same build (their spec.scope). Argo CD's sync gives a namespaced
 * object without a namespace the Application's destination namespace, and leaves cluster-scoped
 * ones alone (ADR 0412).
 */
import { CLUSTER_SCOPED } from './manifests.js';

/** Namespaced kinds of Kubernetes and of Argo CD, as `Kind.group` (core group: `Kind.`). */
const NAMESPACED = new Set([
  'ConfigMap.', 'Secret.', 'Service.', 'ServiceAccount.', 'Pod.', 'PodTemplate.', 'PersistentVolumeClaim.',
  'Endpoints.', 'LimitRange.', 'ResourceQuota.', 'ReplicationController.', 'Event.',
  'Deployment.apps', 'StatefulSet.apps', 'DaemonSet.apps', 'ReplicaSet.apps', 'ControllerRevision.apps',
  'Job.batch', 'CronJob.batch',
  'Role.rbac.authorization.k8s.io', 'RoleBinding.rbac.authorization.k8s.io',
  'Ingress.networking.k8s.io', 'NetworkPolicy.networking.k8s.io',
  'HorizontalPodAutoscaler.autoscaling', 'PodDisruptionBudget.policy',
  'Lease.coordination.k8s.io', 'EndpointSlice.discovery.k8s.io', 'Event.events.k8s.io',
  'CSIStorageCapacity.storage.k8s.io',
  'Application.argoproj.io', 'ApplicationSet.argoproj.io', 'AppProject.argoproj.io',
]);

export type KindScope = 'Namespaced' | 'Cluster';

function groupOf(apiVersion: unknown): string {
  return typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** The scopes the CustomResourceDefinitions among `docs` declare, by `Kind.group`. */
export function crdScopes(docs: readonly Record<string, unknown>[]): Map<string, KindScope> {
  const out = new Map<string, KindScope>();
  for (const d of docs) {
    if (d.kind !== 'CustomResourceDefinition' || typeof d.spec !== 'object' || d.spec === null) continue;
    const spec = d.spec as { group?: unknown; scope?: unknown; names?: { kind?: unknown } };
    if (typeof spec.group !== 'string' || typeof spec.names?.kind !== 'string') continue;
    if (spec.scope === 'Cluster' || spec.scope === 'Namespaced') out.set(`${spec.names.kind}.${spec.group}`, spec.scope);
  }
  return out;
}

/** The scope of an object's kind; undefined when fleetplan does not know it. */
export function kindScope(kind: string, apiVersion: unknown, crds: ReadonlyMap<string, KindScope>): KindScope | undefined {
  const group = groupOf(apiVersion);
  const key = `${kind}.${group}`;
  const declared = crds.get(key);
  if (declared) return declared;
  if (CLUSTER_SCOPED.has(key) || (CLUSTER_SCOPED.has(kind) && !NAMESPACED.has(key))) return 'Cluster';
  return NAMESPACED.has(key) ? 'Namespaced' : undefined;
}

/**
 * The objects as an Argo CD sync to `namespace` lands them: a namespaced object without a
 * namespace gets it; so does one whose kind's scope is not known (most custom kinds are namespaced;
 * `unknown` names them as `Kind (group)` for a note); `given` counts the objects given it. Objects
 * are copied, never changed in place.
 */
export function inDestinationNamespace(docs: readonly Record<string, unknown>[], namespace: string): { docs: Record<string, unknown>[]; given: number; unknown: string[] } {
  const crds = crdScopes(docs);
  const unknown = new Set<string>();
  let given = 0;
  const out = docs.map((d) => {
    const md = (typeof d.metadata === 'object' && d.metadata !== null ? d.metadata : {}) as Record<string, unknown>;
    if (md.namespace !== undefined && md.namespace !== null && md.namespace !== '') return d;
    const scope = kindScope(String(d.kind), d.apiVersion, crds);
    if (scope === 'Cluster') return d;
    if (scope === undefined) unknown.add(`${String(d.kind)} (${groupOf(d.apiVersion) || 'core'})`);
    given++;
    return { ...d, metadata: { ...md, namespace } };
  });
  return { docs: out, given, unknown: [...unknown].sort() };
}

/** The words of a note about `inDestinationNamespace`'s result. */
export function destinationNamespaceWords(namespace: string, whose: string, unknown: readonly string[]): string {
  return `namespaced objects without a namespace land in ${namespace}, ${whose} destination namespace${unknown.length ? `; the scope of ${unknown.join(', ')} is not known to fleetplan (no CustomResourceDefinition in the build): read as namespaced` : ''}`;
}
