/**
 * Readiness of one object, as a pure function of the objects watched so far. Each condition
 * (src/model/bootstrap.ts ReadyCondition) says which kinds it needs to see (`watchesFor`) and how
 * to judge them (`evaluate`), returning a message and the object's status conditions so that a
 * timeout can say exactly why an object is not ready.
 */
import type { ReadyCondition, WaitSpec } from '../model/bootstrap.js';
import type { ObjectKey } from '../model/k8s.js';
import { sameRepository } from '../model/git-url.js';

/** An object as read from the cluster (unstructured JSON). */
export type LiveObject = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; generation?: number; [k: string]: unknown };
  spec?: any;
  status?: any;
  [k: string]: unknown;
};

export interface Readiness {
  ready: boolean;
  message: string;
  conditions: string[];
}

/** A kind to watch, optionally in one namespace and for one name. */
export interface WatchKey {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
}

export type Lookup = (key: ObjectKey) => LiveObject | undefined;

export function watchesFor(w: WaitSpec): WatchKey[] {
  const o = w.object;
  const self: WatchKey = { apiVersion: o.apiVersion, kind: o.kind, name: o.name, ...(o.namespace ? { namespace: o.namespace } : {}) };
  if (w.condition === 'operator-installed') {
    const ns = o.namespace!;
    return [
      self,
      { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'InstallPlan', namespace: ns },
      { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', namespace: ns },
    ];
  }
  return [self];
}

function conditionsOf(o: LiveObject | undefined): string[] {
  const cs: unknown = o?.status?.conditions;
  if (!Array.isArray(cs)) return [];
  return cs.map((c: any) => `${String(c?.type)}${c?.status !== undefined ? `=${String(c.status)}` : ''}${c?.reason ? ` (${String(c.reason)})` : ''}${c?.message ? `: ${String(c.message)}` : ''}`);
}

function condition(o: LiveObject | undefined, type: string): any {
  const cs: unknown = o?.status?.conditions;
  return Array.isArray(cs) ? cs.find((c: any) => c?.type === type) : undefined;
}

function result(ready: boolean, message: string, o: LiveObject | undefined): Readiness {
  return { ready, message, conditions: conditionsOf(o) };
}

const MISSING = (k: ObjectKey): Readiness => ({ ready: false, message: `${k.kind} does not exist yet`, conditions: [] });

export function evaluate(w: WaitSpec, lookup: Lookup): Readiness {
  const o = lookup(w.object);
  if (!o) return MISSING(w.object);
  return EVALUATORS[w.condition](o, w.object, lookup, w);
}

const EVALUATORS: Record<ReadyCondition, (o: LiveObject, key: ObjectKey, lookup: Lookup, w: WaitSpec) => Readiness> = {
  exists(o) {
    if (o.kind === 'Namespace' && o.status?.phase !== undefined && o.status.phase !== 'Active') {
      return result(false, `phase ${String(o.status.phase)}`, o);
    }
    if (o.metadata?.deletionTimestamp) return result(false, 'being deleted', o);
    return result(true, 'exists', o);
  },
  established(o) {
    const c = condition(o, 'Established');
    return c?.status === 'True' ? result(true, 'Established', o) : result(false, 'not Established yet', o);
  },
  available(o) {
    const gen = o.metadata?.generation;
    const s = o.status ?? {};
    const replicas = Number(o.spec?.replicas ?? 1);
    if (gen !== undefined && s.observedGeneration !== undefined && s.observedGeneration < gen) {
      return result(false, `generation ${gen} not observed yet (observed ${String(s.observedGeneration)})`, o);
    }
    if (s.observedGeneration === undefined) return result(false, 'not observed by its controller yet', o);
    if (o.kind === 'StatefulSet') {
      const ready = Number(s.readyReplicas ?? 0);
      return ready >= replicas ? result(true, `${ready}/${replicas} ready`, o) : result(false, `${ready}/${replicas} replicas ready`, o);
    }
    const available = Number(s.availableReplicas ?? 0);
    const c = condition(o, 'Available');
    if (available >= replicas && c?.status === 'True') return result(true, `${available}/${replicas} available`, o);
    return result(false, `${available}/${replicas} replicas available`, o);
  },
  'operator-installed'(sub, key, lookup) {
    const ns = key.namespace!;
    const s = sub.status ?? {};
    const ipName: string | undefined = s.installPlanRef?.name ?? s.installplan?.name;
    if (!ipName) return result(false, 'no InstallPlan yet (OLM resolving the Subscription)', sub);
    const ip = lookup({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'InstallPlan', namespace: ns, name: ipName });
    if (ip && ip.spec?.approved !== true) {
      return result(false, `InstallPlan ${ns}/${ipName} waits for manual approval (oc -n ${ns} patch installplan ${ipName} --type merge -p '{"spec":{"approved":true}}')`, sub);
    }
    const csvName: string | undefined = s.installedCSV ?? s.currentCSV;
    if (!csvName) return result(false, `InstallPlan ${ipName} ${String(ip?.status?.phase ?? 'pending')}, no CSV yet`, sub);
    const csv = lookup({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', namespace: ns, name: csvName });
    if (!csv) return result(false, `InstallPlan ${ipName} ${String(ip?.status?.phase ?? 'pending')}, CSV ${csvName} not created yet`, sub);
    const phase = String(csv.status?.phase ?? 'Pending');
    if (phase === 'Succeeded') return result(true, `CSV ${csvName} Succeeded`, sub);
    const why = [csv.status?.reason, csv.status?.message].filter((x) => x).join(': ');
    return result(false, `CSV ${csvName} ${phase}${why ? ` (${String(why)})` : ''}`, sub);
  },
  'synced-healthy'(o) {
    const sync = String(o.status?.sync?.status ?? 'Unknown');
    const health = String(o.status?.health?.status ?? 'Unknown');
    if (sync === 'Synced' && health === 'Healthy') return result(true, 'Synced, Healthy', o);
    if (sync === 'OutOfSync' && !o.spec?.syncPolicy?.automated && !o.status?.operationState) {
      return result(false, `${sync}, ${health}: no automated sync policy, so it waits for a manual sync (argocd app sync ${String(o.metadata?.name)})`, o);
    }
    const op = o.status?.operationState;
    const detail = op?.message ? `: ${String(op.phase ?? '')} ${String(op.message)}`.replace(/: +/, ': ') : o.status?.health?.message ? `: ${String(o.status.health.message)}` : '';
    return result(false, `${sync}, ${health}${detail}`, o);
  },
  'ready-condition'(o) {
    const c = condition(o, 'Ready');
    return c?.status === 'True' ? result(true, 'Ready', o) : result(false, c ? `Ready=${String(c.status)}${c.message ? `: ${String(c.message)}` : ''}` : 'no Ready condition yet', o);
  },
  'cluster-installed'(o) {
    if (o.spec?.installed === true) return result(true, 'installed', o);
    const failed = (Array.isArray(o.status?.conditions) ? o.status.conditions : []).find((c: any) => c?.type === 'ProvisionFailed' && c?.status === 'True');
    return result(false, failed ? `provisioning failed: ${String(failed.message ?? failed.reason)}` : 'installing', o);
  },
  'cluster-available'(o) {
    const c = condition(o, 'ManagedClusterConditionAvailable');
    if (c?.status === 'True') return result(true, 'available', o);
    if (o.spec?.hubAcceptsClient !== true) return result(false, 'not accepted by the hub (spec.hubAcceptsClient)', o);
    return result(false, c ? `ManagedClusterConditionAvailable=${String(c.status)}` : 'not joined yet', o);
  },
  'synced-from'(o, _key, _lookup, w) {
    // Argo CD's status.sync.comparedTo says which source the sync status is about: Synced from the
    // old repository says nothing about the new one.
    const url = w.repoURL ?? '';
    const compared = o.status?.sync?.comparedTo;
    const repos = [compared?.source?.repoURL, ...(Array.isArray(compared?.sources) ? compared.sources : []).map((s: any) => s?.repoURL)].filter((r): r is string => typeof r === 'string');
    const sync = String(o.status?.sync?.status ?? 'Unknown');
    const from = repos.some((r) => sameRepository(r, url));
    if (sync === 'Synced' && from) return result(true, `Synced from ${url}`, o);
    return result(false, `${sync}, compared to ${repos.join(', ') || 'no source yet'}${from ? '' : ` (not ${url} yet)`}`, o);
  },
};
