/**
 * Stage 7c, bootstrap several clusters: a hub first, then its spokes in parallel, each through
 * its hub (wait until provisioned, then reach the spoke with its admin kubeconfig). Every
 * cluster's outcome is reported; one failing spoke does not hide the others.
 */
import { OperationError } from '../errors/index.js';
import type { BootstrapPlan } from '../model/bootstrap.js';
import type { BootstrapResult } from './change-set.js';
import type { ObjectKey } from '../model/k8s.js';
import type { KubeClient } from '../ports/kube.js';
import { executeBootstrap, type ExecuteOptions } from './executor.js';
import type { MirrorResult } from './mirror.js';

export interface ClusterRun {
  plan: BootstrapPlan;
  /** The hub this spoke is provisioned by (its plan starts with `spoke-provisioning`). */
  hub?: string;
}

export interface ClusterOutcome {
  cluster: string;
  ok: boolean;
  result?: BootstrapResult;
  /** Phase 2 (gitops.mirror), when `then` ran it. */
  phaseTwo?: MirrorResult;
  error?: Error;
}

/**
 * What runs on a cluster once its bootstrap succeeded, with the client that reached it (the
 * spoke's own for a spoke; undefined when none was opened: a dry run of a spoke through its hub).
 * Its failure is the cluster's (reported with the others'); undefined means nothing ran.
 */
export type AfterBootstrap = (run: ClusterRun, client: KubeClient | undefined, result: BootstrapResult) => Promise<MirrorResult | undefined>;

export interface FleetPorts {
  /** The client of the context given (the hub's, or the single cluster's). */
  client: KubeClient;
  /** A client for a spoke from its kubeconfig text (the Hive admin kubeconfig Secret). */
  connectKubeconfig(text: string, cluster: string): Promise<KubeClient>;
  /** A client from `--spoke-kubeconfig`, when given. */
  spokeKubeconfig?: (cluster: string) => Promise<KubeClient>;
}

/** The admin kubeconfig of a provisioned spoke, from the Secret its ClusterDeployment names. */
export async function spokeKubeconfigText(hub: KubeClient, clusterDeployment: ObjectKey): Promise<string> {
  const cd = await hub.get(clusterDeployment);
  const where = `ClusterDeployment ${clusterDeployment.namespace ?? ''}/${clusterDeployment.name}`;
  if (!cd) throw new OperationError(`${where} does not exist on the hub`, { code: 'spoke-no-clusterdeployment' });
  const ref = (cd.spec as { clusterMetadata?: { adminKubeconfigSecretRef?: { name?: string } } } | undefined)?.clusterMetadata?.adminKubeconfigSecretRef?.name;
  if (!ref) {
    throw new OperationError(`${where} names no admin kubeconfig Secret (spec.clusterMetadata.adminKubeconfigSecretRef)`, {
      code: 'spoke-no-kubeconfig', hint: 'pass --spoke-kubeconfig FILE',
    });
  }
  const secret = await hub.get({ apiVersion: 'v1', kind: 'Secret', namespace: clusterDeployment.namespace!, name: ref });
  const data = (secret?.data ?? {}) as Record<string, string>;
  const b64 = data.kubeconfig ?? data.raw_kubeconfig;
  if (!b64) {
    throw new OperationError(`Secret ${clusterDeployment.namespace ?? ''}/${ref} has no kubeconfig key`, { code: 'spoke-no-kubeconfig', hint: 'pass --spoke-kubeconfig FILE' });
  }
  return Buffer.from(b64, 'base64').toString('utf8');
}

function spokeClientFor(run: ClusterRun, ports: FleetPorts): (() => Promise<KubeClient>) | undefined {
  if (run.hub === undefined) return undefined;
  const cluster = run.plan.cluster;
  return async () => {
    if (ports.spokeKubeconfig) return ports.spokeKubeconfig(cluster);
    const stage = run.plan.stages.find((s) => s.kind === 'spoke-provisioning');
    const cd = stage?.waits.find((w) => w.condition === 'cluster-installed')?.object;
    if (!cd) throw new OperationError(`no ClusterDeployment known for spoke ${cluster}`, { code: 'spoke-no-clusterdeployment', hint: 'pass --spoke-kubeconfig FILE' });
    return ports.connectKubeconfig(await spokeKubeconfigText(ports.client, cd), cluster);
  };
}

export async function bootstrapOne(run: ClusterRun, ports: FleetPorts, options: ExecuteOptions, then?: AfterBootstrap): Promise<ClusterOutcome> {
  const spokeClient = spokeClientFor(run, ports);
  const opened: KubeClient[] = [];
  let result: BootstrapResult | undefined;
  try {
    result = await executeBootstrap(ports.client, run.plan, {
      ...options,
      ...(spokeClient ? { spokeClient: async () => { const c = await spokeClient(); opened.push(c); return c; } } : {}),
    });
    const phaseTwo = then ? await then(run, run.hub === undefined ? ports.client : opened[0], result) : undefined;
    return { cluster: run.plan.cluster, ok: true, result, ...(phaseTwo ? { phaseTwo } : {}) };
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    options.reporter.event({ type: 'failed', cluster: run.plan.cluster, message: error.message });
    return { cluster: run.plan.cluster, ok: false, ...(result ? { result } : {}), error };
  } finally {
    for (const c of opened) c.close();
  }
}

/** Hubs (clusters without a hub among the runs) in order, then the rest in parallel. */
export async function bootstrapFleet(runs: ClusterRun[], ports: FleetPorts, options: ExecuteOptions, then?: AfterBootstrap): Promise<ClusterOutcome[]> {
  const outcomes: ClusterOutcome[] = [];
  const hubs = runs.filter((r) => r.hub === undefined);
  const spokes = runs.filter((r) => r.hub !== undefined);
  for (const h of hubs) outcomes.push(await bootstrapOne(h, ports, options, then));
  // A hub whose phase 1 converged serves its spokes, whatever became of its phase 2.
  const failedHubs = new Set(outcomes.filter((o) => !o.ok && !o.result).map((o) => o.cluster));
  const spokeOutcomes = await Promise.all(spokes.map((s) => {
    if (failedHubs.has(s.hub!)) {
      return Promise.resolve<ClusterOutcome>({ cluster: s.plan.cluster, ok: false, error: new OperationError(`not started: hub ${s.hub!} failed`, { code: 'hub-failed' }) });
    }
    return bootstrapOne(s, ports, options, then);
  }));
  return [...outcomes, ...spokeOutcomes];
}
