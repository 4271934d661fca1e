/**
 * The one order fleetplan applies things in, documented once and used everywhere (layering sorts
 * a cluster's apps with it, order/ its ApplicationSet-generated apps and the bootstrap stages):
 *
 *   phase → wave → kind → namespace/name
 *
 * as gitops-engine's pkg/sync orders sync tasks. Phase: a cluster's day-0 bootstrap steps (by
 * their rank, BOOTSTRAP_STEP_RANK) come before everything Argo CD syncs. Wave: the effective sync
 * wave (layering/waves.ts computes it, in one place). Kind: the order gitops-engine takes from
 * Helm's kind sorter — Namespaces first, CustomResourceDefinitions before roles and workloads —
 * with every other kind (custom resources, Applications) after the listed ones. Names compare as
 * byte strings, as Go's `<` does.
 */
import { BOOTSTRAP_STEP_RANK } from './bootstrap.js';
import { SYNC_WAVE_ANNOTATION } from './constants.js';
import type { BootstrapStepId } from './bootstrap.js';

/** gitops-engine's kind order (pkg/sync/sync_tasks.go, from Helm's kind_sorter.go). */
export const KIND_ORDER: readonly string[] = [
  'Namespace', 'NetworkPolicy', 'ResourceQuota', 'LimitRange', 'PodSecurityPolicy', 'PodDisruptionBudget',
  'ServiceAccount', 'Secret', 'SecretList', 'ConfigMap', 'StorageClass', 'PersistentVolume',
  'PersistentVolumeClaim', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleList', 'ClusterRoleBinding',
  'ClusterRoleBindingList', 'Role', 'RoleList', 'RoleBinding', 'RoleBindingList', 'Service', 'DaemonSet', 'Pod',
  'ReplicationController', 'ReplicaSet', 'Deployment', 'HorizontalPodAutoscaler', 'StatefulSet', 'Job', 'CronJob',
  'Ingress', 'APIService',
];

const kindRanks = new Map(KIND_ORDER.map((k, i) => [k, i - KIND_ORDER.length]));

/** A kind's rank: negative for the listed kinds in list order, 0 (last) for every other kind. */
export function kindRank(kind: string | undefined): number {
  return kind === undefined ? 0 : (kindRanks.get(kind) ?? 0);
}

/** Something to order: a bootstrap step, or an object or app Argo CD syncs at a wave. */
export interface SyncItem {
  /** Set for day-0 bootstrap steps, which come before every synced item. */
  step?: BootstrapStepId;
  wave?: number;
  kind?: string;
  namespace?: string;
  name: string;
}

function bytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The comparator: phase (bootstrap step rank, then sync) → wave → kind → namespace → name. */
export function compareSyncOrder(a: SyncItem, b: SyncItem): number {
  const phaseA = a.step === undefined ? Number.POSITIVE_INFINITY : BOOTSTRAP_STEP_RANK[a.step];
  const phaseB = b.step === undefined ? Number.POSITIVE_INFINITY : BOOTSTRAP_STEP_RANK[b.step];
  if (phaseA !== phaseB) return phaseA < phaseB ? -1 : 1;
  return (
    (a.wave ?? 0) - (b.wave ?? 0) ||
    kindRank(a.kind) - kindRank(b.kind) ||
    bytes(a.namespace ?? '', b.namespace ?? '') ||
    bytes(a.name, b.name)
  );
}

/** A sync-wave annotation as gitops-engine reads it (strconv.Atoi: digits with an optional sign, no spaces); undefined when it fails. */
export function parseSyncWave(text: string | undefined): number | undefined {
  return text !== undefined && /^[-+]?\d+$/.test(text) ? Number.parseInt(text, 10) : undefined;
}

/** The sync wave of an object: its annotation, or 0 (gitops-engine's default, also when the annotation is not an integer). */
export function syncWaveOf(o: Record<string, unknown>): number {
  const md = typeof o.metadata === 'object' && o.metadata !== null ? (o.metadata as Record<string, unknown>) : {};
  const annotations = typeof md.annotations === 'object' && md.annotations !== null ? (md.annotations as Record<string, unknown>) : {};
  const text = annotations[SYNC_WAVE_ANNOTATION];
  return parseSyncWave(typeof text === 'string' ? text : undefined) ?? 0;
}
