/**
 * A simulated Flux kustomize-controller for the test server: a Flux Kustomization
 * (kustomize.toolkit.fluxcd.io) whose `dependsOn` are all Ready applies the objects a test gave it
 * (`setManifests(ns, name, objects)`, its "Git content": child Kustomizations, Deployments, …)
 * and becomes Ready=True (ReconciliationSucceeded). Until then it is Ready=False with Flux's own
 * reason (DependencyNotReady). `hold(ns, name, message)` keeps one Ready=False
 * (HealthCheckFailed, with the message) to test timeouts; `release` lets it go on.
 *
 *   const flux = startFluxController(server);
 *   flux.setManifests('flux-system', 'cluster-apps', [childKustomization]);
 *   flux.hold('apps', 'podinfo', 'timeout waiting for: [Deployment/apps/podinfo status: InProgress]');
 */
import type { KubeServer } from './server.js';
import type { Obj, ResourceType } from './types.js';

const GROUP = 'kustomize.toolkit.fluxcd.io';
const MANAGER = 'kustomize-controller';

export interface FluxController {
  setManifests(namespace: string, name: string, objects: Obj[]): void;
  hold(namespace: string, name: string, message: string): void;
  release(namespace: string, name: string): void;
  stop(): void;
}

export function startFluxController(server: KubeServer, opts: { delayMs?: number } = {}): FluxController {
  const store = server.store;
  const manifests = new Map<string, Obj[]>();
  const held = new Map<string, string>();
  const timers = new Map<string, NodeJS.Timeout>();
  let running = true;
  const delay = opts.delayMs ?? 5;
  const type = (group: string, kind: string): ResourceType | undefined => store.allTypes().find((t) => t.group === group && t.kind === kind);
  const ready = (k: Obj | undefined) => Array.isArray(k?.status?.conditions) && (k!.status.conditions as Obj[]).some((c) => c.type === 'Ready' && c.status === 'True');

  const setReady = (rt: ResourceType, k: Obj, status: 'True' | 'False', reason: string, message: string) => {
    const prev = Array.isArray(k.status?.conditions) ? (k.status.conditions as Obj[]).find((c) => c.type === 'Ready') : undefined;
    if (prev && prev.status === status && prev.reason === reason && prev.message === message) return;
    const st = { observedGeneration: k.metadata.generation ?? 1, conditions: [{ type: 'Ready', status, reason, message, lastTransitionTime: new Date().toISOString() }] };
    const ns = k.metadata.namespace;
    const name = String(k.metadata.name);
    if (rt.statusSubresource) store.update(rt, ns, name, { ...k, status: st }, { fieldManager: MANAGER, subresource: 'status' });
    else store.patch(rt, ns, name, 'json', [{ op: 'add', path: '/status', value: st }], { fieldManager: MANAGER });
  };

  const reconcile = (ns: string, name: string) => {
    const rt = type(GROUP, 'Kustomization');
    if (!rt) return;
    const k = store.find(rt, ns, name);
    if (!k || k.metadata.deletionTimestamp) return;
    const key = `${ns}/${name}`;
    for (const d of (k.spec?.dependsOn ?? []) as Obj[]) {
      const dep = store.find(rt, (d.namespace as string | undefined) ?? ns, String(d.name));
      if (!ready(dep)) return setReady(rt, k, 'False', 'DependencyNotReady', `dependency '${String(d.namespace ?? ns)}/${String(d.name)}' is not ready`);
    }
    const hold = held.get(key);
    // Reconciled at this generation already: as kustomize-controller between intervals, nothing is reapplied.
    if (hold === undefined && ready(k) && k.status?.observedGeneration === (k.metadata.generation ?? 1)) return;
    if (hold !== undefined) return setReady(rt, k, 'False', 'HealthCheckFailed', hold);
    for (const o of manifests.get(key) ?? []) {
      const [group, version] = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/') : ['', String(o.apiVersion)];
      const ot = store.allTypes().find((t) => t.group === group && t.kind === o.kind && t.versions.includes(version!));
      if (!ot) return setReady(rt, k, 'False', 'ReconciliationFailed', `no matches for kind "${String(o.kind)}" in version "${String(o.apiVersion)}"`);
      const ons = ot.namespaced ? (o.metadata.namespace ?? k.spec?.targetNamespace ?? ns) : undefined;
      store.apply(ot, ons, String(o.metadata.name), { ...o, metadata: { ...o.metadata, ...(ons ? { namespace: ons } : {}) } }, { fieldManager: MANAGER, force: true });
    }
    setReady(rt, k, 'True', 'ReconciliationSucceeded', `Applied revision: main@sha1:0123456789abcdef`);
  };

  const schedule = (ns: string, name: string) => {
    const key = `${ns}/${name}`;
    if (!running || timers.has(key)) return;
    timers.set(key, setTimeout(() => {
      timers.delete(key);
      if (running) reconcile(ns, name);
    }, delay));
  };
  const kickAll = () => {
    const rt = type(GROUP, 'Kustomization');
    if (!rt) return;
    for (const k of store.list(rt, undefined, () => true).items) schedule(String(k.metadata.namespace), String(k.metadata.name));
  };
  const unsubscribe = store.subscribe((ev) => {
    if (ev.type === 'DELETED') return;
    const o = ev.object;
    if (String(o.apiVersion).startsWith(`${GROUP}/`) && o.kind === 'Kustomization') {
      // A change of one (its Ready) may unblock those that depend on it.
      kickAll();
    }
  });
  kickAll();
  return {
    setManifests(namespace, name, objects) {
      manifests.set(`${namespace}/${name}`, JSON.parse(JSON.stringify(objects)) as Obj[]);
      schedule(namespace, name);
    },
    hold(namespace, name, message) {
      held.set(`${namespace}/${name}`, message);
      schedule(namespace, name);
    },
    release(namespace, name) {
      held.delete(`${namespace}/${name}`);
      kickAll();
    },
    stop() {
      running = false;
      unsubscribe();
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}
