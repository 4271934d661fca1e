/**
 * Controllers that play the cluster's part, each after a configurable delay (real timers; a
 * few milliseconds by default so suites stay fast):
 *
 * - crds:            a CRD becomes NamesAccepted + Established (its kind is then served).
 * - deployments:     Deployments and StatefulSets observe their generation, then become available.
 * - olm:             Subscription → InstallPlan (approved automatically, or waiting for approval when
 *                    installPlanApproval is Manual) → CSV + the operator's CRDs and Deployments → CSV
 *                    Succeeded once the Deployments are available (Failed/NoOperatorGroup without an
 *                    OperatorGroup in the namespace) → Subscription AtLatestKnown.
 * - argocd:          an ArgoCD (argoproj.io) yields server, repo-server and redis Deployments and an
 *                    application-controller StatefulSet; phase Available once they are ready.
 * - applications:    an Application with automated sync, in a namespace with an Available ArgoCD,
 *                    syncs the manifests a test gave it wave by wave (`argocd.argoproj.io/sync-wave`):
 *                    a wave is applied only once every resource of the lower waves is healthy; an
 *                    Application is healthy when Synced and Healthy. Then Synced + Healthy itself,
 *                    with `status.sync.comparedTo.source` its current `spec.source` (a changed
 *                    source, e.g. a new repoURL, is compared and synced again). Manifests given
 *                    for one repoURL (`setManifests(..., repoURL)`) are what that repository holds.
 * - clusterDeployments: a Hive ClusterDeployment becomes installed, with an admin kubeconfig Secret.
 * - managedClusters: an accepted ManagedCluster joins and becomes available once the Hive
 *                    ClusterDeployment of the same name is installed (`local-cluster` and the
 *                    `importedClusters` option join without one).
 * - secretStores:    an External Secrets (Cluster)SecretStore becomes Ready once every Secret its
 *                    provider refers to (`{name, key[, namespace]}`) exists; else Ready=False.
 *
 * `hold(ref)` makes a controller ignore one object (readiness that never comes); `release` undoes it.
 */
import { crdsNamed, CRD_SETS } from './crds.js';
import type { ObjectStore } from './store.js';
import { timestamp, typeKey, isPlainObject, type Clock, type Obj, type ResourceType, type StoreEvent } from './types.js';

export type ControllerName = 'crds' | 'deployments' | 'olm' | 'argocd' | 'applications' | 'clusterDeployments' | 'managedClusters' | 'secretStores';

export interface OperatorPackage {
  /** The CSV an InstallPlan installs. */
  csv: string;
  /** Deployments the CSV runs, created in the Subscription's namespace. */
  deployments: string[];
  /** CRD names (test/support/kube-server/crds.ts) the operator installs. */
  crds: string[];
  /**
   * An ArgoCD the operator creates once installed (OpenShift GitOps makes `openshift-gitops`),
   * unless the Subscription sets `DISABLE_DEFAULT_ARGOCD_INSTANCE=true` in `spec.config.env`.
   */
  defaultArgoCD?: { namespace: string; name: string };
}

export interface ControllerOptions {
  /** Milliseconds each controller waits before acting on a change (default 5; `applications` per wave). */
  delays?: Partial<Record<ControllerName, number>>;
  /** Controllers switched off (default: all on). */
  disabled?: ControllerName[];
  /** Operator packages by Subscription `spec.name`; the default knows `openshift-gitops-operator` and `argocd-operator`. */
  operators?: Record<string, OperatorPackage>;
  /** Applications only sync when an ArgoCD in their namespace is Available (default true). */
  applicationsNeedArgoCD?: boolean;
  /**
   * `always` (default): a parent Application waits for child Applications to be Healthy.
   * `configured`: only when the ArgoCD in its namespace has a health check for
   * argoproj.io/Application (`spec.resourceHealthChecks`, or the older `resourceCustomizations`),
   * as with Argo CD ≥ 1.8, which assesses no Application health by default.
   */
  applicationHealthCheck?: 'always' | 'configured';
  /** ManagedClusters that join without a Hive ClusterDeployment (besides `local-cluster`). */
  importedClusters?: string[];
  /** The kubeconfig Hive writes into a ClusterDeployment's admin kubeconfig Secret. */
  spokeKubeconfig?: (clusterDeployment: Obj) => string;
}

export const DEFAULT_OPERATORS: Record<string, OperatorPackage> = {
  'openshift-gitops-operator': {
    csv: 'openshift-gitops-operator.v1.14.0',
    deployments: ['openshift-gitops-operator-controller-manager'],
    crds: [...CRD_SETS.argocd],
    defaultArgoCD: { namespace: 'openshift-gitops', name: 'openshift-gitops' },
  },
  'argocd-operator': {
    csv: 'argocd-operator.v0.12.0',
    deployments: ['argocd-operator-controller-manager'],
    crds: [...CRD_SETS.argocd],
  },
};

export interface ObjectRef {
  kind: string;
  name: string;
  namespace?: string;
}

const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
/** Per-Application override of the wave delay, for tests that want some waves slower. */
export const SYNC_DELAY_ANNOTATION = 'fleetplan.test/sync-delay-ms';

export class Controllers {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly held = new Set<string>();
  private readonly manifests = new Map<string, Obj[]>();
  private unsubscribe: (() => void) | undefined;
  private running = false;

  constructor(private readonly store: ObjectStore, private readonly opts: ControllerOptions, private readonly clock: Clock) {}

  start(): void {
    this.running = true;
    this.unsubscribe = this.store.subscribe((ev) => this.onEvent(ev));
    for (const rt of this.store.allTypes()) {
      for (const o of this.store.list(rt, undefined, () => true).items) this.onEvent({ rv: 0, type: 'ADDED', typeKey: typeKey(rt), object: o });
    }
  }

  stop(): void {
    this.running = false;
    this.unsubscribe?.();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** The objects an Application syncs (its "Git content"), by Application namespace/name. */
  setManifests(appNamespace: string, appName: string, objects: Obj[], repoURL?: string): void {
    this.manifests.set(`${appNamespace}/${appName}${repoURL !== undefined ? `@${repoURL}` : ''}`, JSON.parse(JSON.stringify(objects)) as Obj[]);
    this.schedule(`applications:${appNamespace}/${appName}`, 'applications', () => this.reconcileApplication(appNamespace, appName));
  }

  /** The controller in charge ignores this object from now on. */
  hold(ref: ObjectRef): void {
    this.held.add(refKey(ref.kind, ref.namespace, ref.name));
  }

  /** Undo `hold` and reconcile everything again. */
  release(ref: ObjectRef): void {
    this.held.delete(refKey(ref.kind, ref.namespace, ref.name));
    this.resync();
  }

  /** Reconcile every object again (after a change of options or holds). */
  resync(): void {
    for (const rt of this.store.allTypes()) {
      for (const o of this.store.list(rt, undefined, () => true).items) this.onEvent({ rv: 0, type: 'MODIFIED', typeKey: typeKey(rt), object: o });
    }
  }

  private enabled(name: ControllerName): boolean {
    return this.running && !(this.opts.disabled ?? []).includes(name);
  }

  private isHeld(o: Obj): boolean {
    return this.held.has(refKey(String(o.kind), o.metadata?.namespace, String(o.metadata?.name)));
  }

  private schedule(key: string, controller: ControllerName, fn: () => void, delayMs?: number): void {
    if (!this.enabled(controller) || this.timers.has(key)) return;
    const delay = delayMs ?? this.opts.delays?.[controller] ?? 5;
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      if (this.running) fn();
    }, delay));
  }

  private onEvent(ev: StoreEvent): void {
    if (ev.type === 'DELETED') return;
    const o = ev.object;
    const ns: string | undefined = o.metadata?.namespace;
    const name = String(o.metadata?.name);
    const apiVersion = String(o.apiVersion);
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    switch (`${group}/${String(o.kind)}`) {
      case 'apiextensions.k8s.io/CustomResourceDefinition':
        this.schedule(`crds:${name}`, 'crds', () => this.reconcileCrd(name));
        break;
      case 'apps/Deployment':
      case 'apps/StatefulSet':
        this.schedule(`deployments:${String(o.kind)}:${ns}/${name}`, 'deployments', () => this.reconcileWorkload(String(o.kind), ns!, name));
        this.schedule(`olm:${ns}`, 'olm', () => this.reconcileOlm(ns!));
        this.schedule(`argocd:${ns}`, 'argocd', () => this.reconcileArgoCDs(ns!));
        break;
      case 'operators.coreos.com/Subscription':
      case 'operators.coreos.com/InstallPlan':
      case 'operators.coreos.com/ClusterServiceVersion':
      case 'operators.coreos.com/OperatorGroup':
        this.schedule(`olm:${ns}`, 'olm', () => this.reconcileOlm(ns!));
        break;
      case 'argoproj.io/ArgoCD':
        this.schedule(`argocd:${ns}`, 'argocd', () => this.reconcileArgoCDs(ns!));
        break;
      case 'hive.openshift.io/ClusterDeployment':
        this.schedule(`clusterDeployments:${ns}/${name}`, 'clusterDeployments', () => this.reconcileClusterDeployment(ns!, name));
        this.schedule(`managedClusters:${name}`, 'managedClusters', () => this.reconcileManagedCluster(name));
        break;
      case 'external-secrets.io/ClusterSecretStore':
      case 'external-secrets.io/SecretStore':
        this.schedule(`secretStores:${String(o.kind)}:${ns ?? ''}/${name}`, 'secretStores', () => this.reconcileSecretStore(String(o.kind), ns, name));
        break;
      case '/Secret':
        this.kickSecretStores();
        break;
      case 'cluster.open-cluster-management.io/ManagedCluster':
        this.schedule(`managedClusters:${name}`, 'managedClusters', () => this.reconcileManagedCluster(name));
        break;
      default:
        break;
    }
    if (['Application', 'Deployment', 'StatefulSet', 'CustomResourceDefinition', 'ArgoCD'].includes(String(o.kind))) this.kickApplications();
  }

  private kickApplications(): void {
    const rt = this.type('argoproj.io', 'Application');
    if (!rt) return;
    for (const app of this.store.list(rt, undefined, () => true).items) {
      if (appDone(app)) continue;
      const ns = String(app.metadata.namespace);
      const name = String(app.metadata.name);
      const delay = Number(app.metadata.annotations?.[SYNC_DELAY_ANNOTATION] ?? NaN);
      this.schedule(`applications:${ns}/${name}`, 'applications', () => this.reconcileApplication(ns, name), Number.isFinite(delay) ? delay : undefined);
    }
  }

  // ---- helpers --------------------------------------------------------------------------------

  private type(group: string, kind: string): ResourceType | undefined {
    return this.store.allTypes().find((t) => t.group === group && t.kind === kind);
  }

  private now(): string {
    return timestamp(this.clock);
  }

  /** Replace `.status` (through /status when the kind has it, else a JSON patch) as `manager`. */
  private writeStatus(rt: ResourceType, o: Obj, status: Obj, manager: string): void {
    const ns = o.metadata.namespace;
    const name = String(o.metadata.name);
    if (rt.statusSubresource) {
      const cur = this.store.find(rt, ns, name);
      if (!cur) return;
      this.store.update(rt, ns, name, { ...cur, status }, { fieldManager: manager, subresource: 'status' });
    } else {
      this.store.patch(rt, ns, name, 'json', [{ op: 'add', path: '/status', value: status }], { fieldManager: manager });
    }
  }

  private condition(existing: unknown, type: string, status: 'True' | 'False', reason: string, message: string): Obj {
    const prev = Array.isArray(existing) ? (existing as Obj[]).find((c) => c?.type === type) : undefined;
    const same = prev && prev.status === status;
    return { type, status, reason, message, lastTransitionTime: same ? prev.lastTransitionTime : this.now() };
  }

  private ensure(rt: ResourceType | undefined, obj: Obj, manager: string): Obj | undefined {
    if (!rt) return undefined;
    const existing = this.store.find(rt, obj.metadata.namespace, String(obj.metadata.name));
    if (existing) return existing;
    return this.store.apply(rt, obj.metadata.namespace, String(obj.metadata.name), obj, { fieldManager: manager, force: true });
  }

  // ---- crds -----------------------------------------------------------------------------------

  private reconcileCrd(name: string): void {
    const rt = this.type('apiextensions.k8s.io', 'CustomResourceDefinition')!;
    const crd = this.store.find(rt, undefined, name);
    if (!crd || this.isHeld(crd) || crd.metadata.deletionTimestamp) return;
    const versions = (crd.spec?.versions ?? []) as Obj[];
    const storage = versions.find((v) => v.storage)?.name ?? versions[0]?.name;
    const c = crd.status?.conditions;
    this.writeStatus(rt, crd, {
      acceptedNames: crd.spec?.names ?? {},
      conditions: [
        this.condition(c, 'NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'),
        this.condition(c, 'Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ],
      storedVersions: storage ? [storage] : [],
    }, 'kube-apiserver');
  }

  // ---- deployments ----------------------------------------------------------------------------

  private reconcileWorkload(kind: string, ns: string, name: string): void {
    const rt = this.type('apps', kind)!;
    const o = this.store.find(rt, ns, name);
    if (!o || this.isHeld(o) || o.metadata.deletionTimestamp) return;
    const replicas = Number(o.spec?.replicas ?? 1);
    const gen = Number(o.metadata.generation ?? 1);
    const c = o.status?.conditions;
    if (o.status?.observedGeneration !== gen) {
      // First the rollout is observed but not yet available; the next pass makes it available.
      this.writeStatus(rt, o, {
        observedGeneration: gen, replicas, updatedReplicas: 0, unavailableReplicas: replicas,
        ...(kind === 'Deployment' ? {
          conditions: [
            this.condition(c, 'Available', replicas === 0 ? 'True' : 'False', replicas === 0 ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable', replicas === 0 ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.'),
            this.condition(c, 'Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}-5d8f7c9b6" is progressing.`),
          ],
        } : { currentReplicas: 0, readyReplicas: 0, availableReplicas: 0 }),
      }, 'kube-controller-manager');
      return;
    }
    if (isWorkloadReady(o)) return;
    this.writeStatus(rt, o, {
      observedGeneration: gen, replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas,
      ...(kind === 'Deployment' ? {
        conditions: [
          this.condition(c, 'Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'),
          this.condition(c, 'Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${name}-5d8f7c9b6" has successfully progressed.`),
        ],
      } : { currentReplicas: replicas, currentRevision: `${name}-5d8f7c9b6`, updateRevision: `${name}-5d8f7c9b6` }),
    }, 'kube-controller-manager');
  }

  // ---- olm ------------------------------------------------------------------------------------

  private reconcileOlm(ns: string): void {
    const subRt = this.type('operators.coreos.com', 'Subscription');
    const ipRt = this.type('operators.coreos.com', 'InstallPlan');
    const csvRt = this.type('operators.coreos.com', 'ClusterServiceVersion');
    const ogRt = this.type('operators.coreos.com', 'OperatorGroup');
    if (!subRt || !ipRt || !csvRt || !ogRt) return;
    const inNs = (rt: ResourceType) => this.store.list(rt, ns, () => true).items;
    const packages = { ...DEFAULT_OPERATORS, ...(this.opts.operators ?? {}) };
    const depRt = this.type('apps', 'Deployment')!;

    for (const sub of inNs(subRt)) {
      if (this.isHeld(sub) || sub.status?.installPlanRef) continue;
      const pkg = String(sub.spec?.name ?? '');
      const csvName = String(sub.spec?.startingCSV ?? packages[pkg]?.csv ?? `${pkg}.v0.0.1`);
      const approval = sub.spec?.installPlanApproval === 'Manual' ? 'Manual' : 'Automatic';
      const ip = this.store.create(ipRt, ns, {
        apiVersion: 'operators.coreos.com/v1alpha1', kind: 'InstallPlan',
        metadata: {
          generateName: 'install-', namespace: ns,
          ownerReferences: [{ apiVersion: sub.apiVersion, kind: 'Subscription', name: sub.metadata.name, uid: sub.metadata.uid }],
        },
        spec: { approval, approved: approval === 'Automatic', clusterServiceVersionNames: [csvName], generation: 1 },
      }, { fieldManager: 'catalog' });
      this.writeStatus(ipRt, ip, { phase: approval === 'Manual' ? 'RequiresApproval' : 'Installing', catalogSources: [String(sub.spec?.source ?? '')] }, 'catalog');
      this.writeStatus(subRt, sub, {
        ...(sub.status ?? {}),
        state: 'UpgradePending', currentCSV: csvName, installPlanGeneration: 1, lastUpdated: this.now(),
        installPlanRef: { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'InstallPlan', name: ip.metadata.name, namespace: ns, uid: ip.metadata.uid },
        installplan: { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'InstallPlan', name: ip.metadata.name, uuid: ip.metadata.uid },
        conditions: [this.condition(undefined, 'InstallPlanPending', 'True', approval === 'Manual' ? 'RequiresApproval' : 'Installing', '')],
      }, 'catalog');
    }

    for (const ip of inNs(ipRt)) {
      if (this.isHeld(ip)) continue;
      if (ip.spec?.approved !== true) {
        if (ip.status?.phase !== 'RequiresApproval') this.writeStatus(ipRt, ip, { ...(ip.status ?? {}), phase: 'RequiresApproval' }, 'catalog');
        continue;
      }
      if (ip.status?.phase === 'Complete') continue;
      const sub = inNs(subRt).find((s) => s.status?.installPlanRef?.name === ip.metadata.name);
      const pkg = packages[String(sub?.spec?.name ?? '')];
      for (const csvName of (ip.spec?.clusterServiceVersionNames ?? []) as string[]) {
        const crdRt = this.type('apiextensions.k8s.io', 'CustomResourceDefinition');
        for (const crd of crdsNamed(pkg?.crds ?? [])) this.ensure(crdRt, crd, 'catalog');
        const deployments = pkg?.deployments ?? [];
        this.ensure(csvRt, {
          apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion',
          metadata: { name: csvName, namespace: ns },
          spec: {
            displayName: csvName,
            install: { strategy: 'deployment', spec: { deployments: deployments.map((d) => ({ name: d, spec: deploymentSpec(d) })) } },
          },
        }, 'catalog');
        for (const d of deployments) {
          this.ensure(depRt, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: d, namespace: ns, labels: { 'olm.owner': csvName } }, spec: deploymentSpec(d) }, 'olm');
        }
      }
      this.writeStatus(ipRt, ip, { ...(ip.status ?? {}), phase: 'Complete' }, 'catalog');
    }

    const hasGroup = inNs(ogRt).length > 0;
    for (const csv of inNs(csvRt)) {
      if (this.isHeld(csv)) continue;
      let phase: string;
      let reason: string;
      let message: string;
      if (!hasGroup) {
        [phase, reason, message] = ['Failed', 'NoOperatorGroup', 'csv in namespace with no operatorgroups'];
      } else {
        const names = ((csv.spec?.install?.spec?.deployments ?? []) as Obj[]).map((d) => String(d.name));
        const ready = names.every((n) => {
          const d = this.store.find(depRt, ns, n);
          return d !== undefined && isWorkloadReady(d);
        });
        [phase, reason, message] = ready
          ? ['Succeeded', 'InstallSucceeded', 'install strategy completed with no errors']
          : ['Installing', 'InstallWaiting', 'installing: waiting for deployment to become ready'];
      }
      if (csv.status?.phase !== phase || csv.status?.reason !== reason) {
        this.writeStatus(csvRt, csv, { phase, reason, message, lastUpdateTime: this.now(), lastTransitionTime: this.now() }, 'olm');
      }
    }

    for (const sub of inNs(subRt)) {
      if (this.isHeld(sub) || !sub.status?.installPlanRef) continue;
      const csv = this.store.find(csvRt, ns, String(sub.status.currentCSV));
      if (csv?.status?.phase === 'Succeeded' && sub.status.state !== 'AtLatestKnown') {
        this.writeStatus(subRt, sub, {
          ...sub.status, state: 'AtLatestKnown', installedCSV: sub.status.currentCSV, lastUpdated: this.now(),
          conditions: [this.condition(sub.status.conditions, 'InstallPlanPending', 'False', 'Installed', '')],
        }, 'catalog');
        this.createDefaultArgoCD(sub, packages[String(sub.spec?.name ?? '')]);
      }
    }
  }

  /** What OpenShift GitOps does once running: a namespace and a default Argo CD instance. */
  private createDefaultArgoCD(sub: Obj, pkg: OperatorPackage | undefined): void {
    const target = pkg?.defaultArgoCD;
    if (!target) return;
    const env = (sub.spec?.config?.env ?? []) as Obj[];
    if (env.some((e) => e?.name === 'DISABLE_DEFAULT_ARGOCD_INSTANCE' && String(e?.value).toLowerCase() === 'true')) return;
    const manager = String(sub.spec?.name);
    this.ensure(this.type('', 'Namespace'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: target.namespace } }, manager);
    this.ensure(this.type('argoproj.io', 'ArgoCD'), {
      apiVersion: 'argoproj.io/v1beta1', kind: 'ArgoCD', metadata: { name: target.name, namespace: target.namespace },
      spec: {
        server: { route: { enabled: true } },
        applicationSet: {},
        rbac: { defaultPolicy: '', policy: 'g, system:cluster-admins, role:admin\ng, cluster-admins, role:admin\n', scopes: '[groups]' },
      },
    }, manager);
  }

  // ---- argocd operator ------------------------------------------------------------------------

  private reconcileArgoCDs(ns: string): void {
    const rt = this.type('argoproj.io', 'ArgoCD');
    const depRt = this.type('apps', 'Deployment')!;
    const stsRt = this.type('apps', 'StatefulSet')!;
    if (!rt) return;
    for (const cr of this.store.list(rt, ns, () => true).items) {
      if (this.isHeld(cr) || cr.metadata.deletionTimestamp) continue;
      const name = String(cr.metadata.name);
      const owner = [{ apiVersion: cr.apiVersion, kind: 'ArgoCD', name, uid: cr.metadata.uid, controller: true }];
      const parts: Array<[ResourceType, string, string]> = [
        [depRt, `${name}-server`, 'server'],
        [depRt, `${name}-repo-server`, 'repo'],
        [depRt, `${name}-redis`, 'redis'],
        [stsRt, `${name}-application-controller`, 'applicationController'],
      ];
      const status: Obj = {};
      for (const [prt, pname, field] of parts) {
        const w = this.ensure(prt, {
          apiVersion: 'apps/v1', kind: prt.kind,
          metadata: { name: pname, namespace: ns, ownerReferences: owner, labels: { 'app.kubernetes.io/name': pname, 'app.kubernetes.io/managed-by': name } },
          spec: deploymentSpec(pname),
        }, 'argocd-operator');
        status[field] = w && isWorkloadReady(w) ? 'Running' : 'Pending';
      }
      status.phase = Object.values(status).every((v) => v === 'Running') ? 'Available' : 'Pending';
      status.host = `${name}-server.${ns}.svc`;
      if (JSON.stringify(cr.status ?? {}) !== JSON.stringify(status)) this.writeStatus(rt, cr, status, 'argocd-operator');
    }
  }

  // ---- applications ---------------------------------------------------------------------------

  private reconcileApplication(ns: string, name: string): void {
    const rt = this.type('argoproj.io', 'Application');
    if (!rt) return;
    const app = this.store.find(rt, ns, name);
    if (!app || this.isHeld(app) || app.metadata.deletionTimestamp || appDone(app)) return;
    const argoRt = this.type('argoproj.io', 'ArgoCD');
    if (this.opts.applicationsNeedArgoCD !== false) {
      const instances = argoRt ? this.store.list(argoRt, ns, () => true).items : [];
      if (!instances.some((a) => a.status?.phase === 'Available')) return;
    }
    const revision = String(app.spec?.source?.targetRevision ?? 'HEAD');
    if (!app.spec?.syncPolicy?.automated) {
      this.setAppStatus(rt, app, 'OutOfSync', 'Missing', undefined, revision, []);
      return;
    }
    const repoURL = app.spec?.source?.repoURL as string | undefined;
    const resources = (repoURL !== undefined ? this.manifests.get(`${ns}/${name}@${repoURL}`) : undefined) ?? this.manifests.get(`${ns}/${name}`) ?? [];
    const waves = [...new Set(resources.map(waveOf))].sort((a, b) => a - b);
    const destNs = app.spec?.destination?.namespace as string | undefined;
    let pendingWave: number | undefined;
    const assessApps = this.opts.applicationHealthCheck !== 'configured' || this.hasApplicationHealthCheck(ns);
    const healthy = (r: Obj) => this.resourceHealthy(r, destNs, assessApps);
    for (const w of waves) {
      const inWave = resources.filter((r) => waveOf(r) === w);
      for (const r of inWave) this.syncResource(r, destNs);
      if (!inWave.every(healthy)) {
        pendingWave = w;
        break;
      }
    }
    const listed = resources.map((r) => ({
      group: String(r.apiVersion).includes('/') ? String(r.apiVersion).split('/')[0] : '',
      version: String(r.apiVersion).split('/').pop(), kind: r.kind, name: r.metadata?.name,
      ...(r.metadata?.namespace ?? destNs ? { namespace: r.metadata?.namespace ?? destNs } : {}),
      status: this.resourceExists(r, destNs) ? 'Synced' : 'OutOfSync',
      health: { status: healthy(r) ? 'Healthy' : 'Progressing' },
    }));
    if (pendingWave !== undefined) {
      this.setAppStatus(rt, app, 'OutOfSync', 'Progressing', 'Running', revision, listed, `waiting for healthy state of wave ${pendingWave}`);
    } else {
      this.setAppStatus(rt, app, 'Synced', 'Healthy', 'Succeeded', revision, listed, 'successfully synced (all tasks run)');
    }
  }

  private setAppStatus(rt: ResourceType, app: Obj, sync: string, health: string, phase: string | undefined, revision: string, resources: Obj[], message?: string): void {
    const status: Obj = {
      sync: { status: sync, revision, comparedTo: { source: app.spec?.source ?? {}, destination: app.spec?.destination ?? {} } },
      health: { status: health },
      resources,
      ...(phase ? { operationState: { phase, message: message ?? '', syncResult: { revision } } } : {}),
    };
    const cur = app.status ?? {};
    if (JSON.stringify(cur) === JSON.stringify(status)) return;
    this.writeStatus(rt, app, status, 'argocd-application-controller');
  }

  private resolveResource(r: Obj, destNs: string | undefined): { rt: ResourceType; ns: string | undefined } | undefined {
    const rt = this.store.typeForKind(String(r.apiVersion), String(r.kind));
    if (!rt) return undefined;
    return { rt, ns: rt.namespaced ? (r.metadata?.namespace ?? destNs) : undefined };
  }

  private syncResource(r: Obj, destNs: string | undefined): void {
    const target = this.resolveResource(r, destNs);
    if (!target) return;
    const body = { ...r, metadata: { ...(r.metadata ?? {}), ...(target.ns ? { namespace: target.ns } : {}) } };
    try {
      this.store.apply(target.rt, target.ns, String(r.metadata?.name), body, { fieldManager: 'argocd-controller', force: true });
    } catch {
      // A resource the cluster refuses stays OutOfSync, as Argo CD would show it.
    }
  }

  private resourceExists(r: Obj, destNs: string | undefined): boolean {
    const t = this.resolveResource(r, destNs);
    return t !== undefined && this.store.find(t.rt, t.ns, String(r.metadata?.name)) !== undefined;
  }

  private hasApplicationHealthCheck(ns: string): boolean {
    const rt = this.type('argoproj.io', 'ArgoCD');
    return (rt ? this.store.list(rt, ns, () => true).items : []).some((a) => {
      const checks = (a.spec?.resourceHealthChecks ?? []) as Obj[];
      if (checks.some((c) => c?.group === 'argoproj.io' && c?.kind === 'Application' && c?.check)) return true;
      const legacy: unknown = a.spec?.resourceCustomizations;
      return typeof legacy === 'string' && legacy.includes('argoproj.io/Application') && legacy.includes('health.lua');
    });
  }

  private resourceHealthy(r: Obj, destNs: string | undefined, assessApps = true): boolean {
    const t = this.resolveResource(r, destNs);
    if (!t) return false;
    const live = this.store.find(t.rt, t.ns, String(r.metadata?.name));
    if (!live) return false;
    switch (live.kind) {
      case 'Application': return !assessApps || appDone(live);
      case 'Deployment':
      case 'StatefulSet': return isWorkloadReady(live);
      case 'CustomResourceDefinition': return (live.status?.conditions ?? []).some((c: Obj) => c.type === 'Established' && c.status === 'True');
      case 'ArgoCD': return live.status?.phase === 'Available';
      default: return true;
    }
  }

  // ---- external secrets -------------------------------------------------------------------------

  private kickSecretStores(): void {
    for (const kind of ['ClusterSecretStore', 'SecretStore']) {
      const rt = this.type('external-secrets.io', kind);
      if (!rt) continue;
      for (const st of this.store.list(rt, undefined, () => true).items) {
        if ((st.status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True')) continue;
        const ns: string | undefined = st.metadata.namespace;
        const name = String(st.metadata.name);
        this.schedule(`secretStores:${kind}:${ns ?? ''}/${name}`, 'secretStores', () => this.reconcileSecretStore(kind, ns, name));
      }
    }
  }

  private reconcileSecretStore(kind: string, ns: string | undefined, name: string): void {
    const rt = this.type('external-secrets.io', kind);
    if (!rt) return;
    const st = this.store.find(rt, ns, name);
    if (!st || this.isHeld(st) || st.metadata.deletionTimestamp) return;
    const secretRt = this.type('', 'Secret')!;
    const refs: Array<{ name: string; namespace: string | undefined }> = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (isPlainObject(v)) {
        if (typeof v.name === 'string' && typeof v.key === 'string') refs.push({ name: v.name, namespace: typeof v.namespace === 'string' ? v.namespace : ns });
        Object.values(v).forEach(walk);
      }
    };
    walk(st.spec?.provider);
    const missing = refs.find((r) => !r.namespace || !this.store.find(secretRt, r.namespace, r.name));
    const c = st.status?.conditions;
    const ready = missing === undefined
      ? this.condition(c, 'Ready', 'True', 'Valid', 'store validated')
      : this.condition(c, 'Ready', 'False', 'InvalidProviderConfig', `could not get secret ${missing.namespace ?? '<namespace missing>'}/${missing.name}: secrets "${missing.name}" not found`);
    const status = { conditions: [ready], capabilities: 'ReadWrite' };
    if (JSON.stringify(st.status ?? {}) !== JSON.stringify(status)) this.writeStatus(rt, st, status, 'external-secrets');
  }

  // ---- hive / ocm -----------------------------------------------------------------------------

  private reconcileClusterDeployment(ns: string, name: string): void {
    const rt = this.type('hive.openshift.io', 'ClusterDeployment');
    if (!rt) return;
    const cd = this.store.find(rt, ns, name);
    if (!cd || this.isHeld(cd) || cd.metadata.deletionTimestamp || cd.spec?.installed === true) return;
    const secretRt = this.type('', 'Secret')!;
    const secretName = `${name}-admin-kubeconfig`;
    const kubeconfig = this.opts.spokeKubeconfig?.(cd) ?? `apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n`;
    this.ensure(secretRt, {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: secretName, namespace: ns }, type: 'Opaque',
      data: { kubeconfig: Buffer.from(kubeconfig).toString('base64'), raw_kubeconfig: Buffer.from(kubeconfig).toString('base64') },
    }, 'hive');
    this.store.patch(rt, ns, name, 'merge', {
      spec: {
        installed: true,
        clusterMetadata: {
          clusterID: `${name}-cluster-id`, infraID: `${name}-infra`,
          adminKubeconfigSecretRef: { name: secretName }, adminPasswordSecretRef: { name: `${name}-admin-password` },
        },
      },
    }, { fieldManager: 'hive' });
    const cur = this.store.find(rt, ns, name)!;
    const base = String(cd.spec?.baseDomain ?? 'example.com');
    this.writeStatus(rt, cur, {
      apiURL: `https://api.${name}.${base}:6443`, webConsoleURL: `https://console-openshift-console.apps.${name}.${base}`,
      installedTimestamp: this.now(), powerState: 'Running',
      conditions: [this.condition(cur.status?.conditions, 'Provisioned', 'True', 'ProvisionSucceeded', 'Provisioning succeeded')],
    }, 'hive');
  }

  private reconcileManagedCluster(name: string): void {
    const rt = this.type('cluster.open-cluster-management.io', 'ManagedCluster');
    if (!rt) return;
    const mc = this.store.find(rt, undefined, name);
    if (!mc || this.isHeld(mc) || mc.metadata.deletionTimestamp || mc.spec?.hubAcceptsClient !== true) return;
    if (name !== 'local-cluster' && !(this.opts.importedClusters ?? []).includes(name)) {
      // A spoke's klusterlet can only join once Hive has installed the cluster.
      const cdRt = this.type('hive.openshift.io', 'ClusterDeployment');
      const cd = cdRt ? this.store.list(cdRt, undefined, (o) => o.metadata?.name === name).items[0] : undefined;
      if (cd?.spec?.installed !== true) return;
    }
    const c = mc.status?.conditions;
    const status = {
      conditions: [
        this.condition(c, 'HubAcceptedManagedCluster', 'True', 'HubClusterAdminAccepted', 'Accepted by hub cluster admin'),
        this.condition(c, 'ManagedClusterJoined', 'True', 'ManagedClusterJoined', 'Managed cluster joined'),
        this.condition(c, 'ManagedClusterConditionAvailable', 'True', 'ManagedClusterAvailable', 'Managed cluster is available'),
      ],
      version: { kubernetes: 'v1.31.0' },
    };
    if (JSON.stringify(mc.status ?? {}) !== JSON.stringify(status)) this.writeStatus(rt, mc, status, 'registration-controller');
  }
}

function refKey(kind: string, ns: string | undefined, name: string): string {
  return `${kind}|${ns ?? ''}|${name}`;
}

function waveOf(r: Obj): number {
  const w = Number(r.metadata?.annotations?.[SYNC_WAVE] ?? 0);
  return Number.isFinite(w) ? w : 0;
}

function appDone(app: Obj): boolean {
  return app.status?.sync?.status === 'Synced' && app.status?.health?.status === 'Healthy' && sortedJson(app.status?.sync?.comparedTo?.source ?? {}) === sortedJson(app.spec?.source ?? {});
}

function sortedJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (isPlainObject(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
}

export function isWorkloadReady(o: Obj): boolean {
  const replicas = Number(o.spec?.replicas ?? 1);
  const s: unknown = o.status;
  if (!isPlainObject(s) || s.observedGeneration !== o.metadata?.generation) return false;
  if (o.kind === 'Deployment') {
    return Number(s.availableReplicas ?? 0) >= replicas && (s.conditions as Obj[] | undefined ?? []).some((c) => c.type === 'Available' && c.status === 'True');
  }
  return Number(s.readyReplicas ?? 0) >= replicas;
}

function deploymentSpec(name: string): Obj {
  return {
    replicas: 1,
    selector: { matchLabels: { 'app.kubernetes.io/name': name } },
    template: { metadata: { labels: { 'app.kubernetes.io/name': name } }, spec: { containers: [{ name, image: `example.invalid/${name}:latest` }] } },
  };
}
