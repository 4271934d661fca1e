/**
 * A simulated OpenShift cluster for bootstrap tests: the Kubernetes API test server with OLM's
 * CRDs, the `openshift-operators` namespace and its global OperatorGroup (as on every OpenShift
 * cluster), and Argo CD's part played by the controllers: the root Application syncs the
 * cluster's rendered Applications and AppProjects (what Git would hold), each child Application
 * then becomes Synced and Healthy.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFleet } from '../../src/index.js';
import { renderFleet } from '../../src/render/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { ROOT_APPLICATION } from '../../src/model/constants.js';
import { CRD_SETS, startKubeServer, type ControllerOptions, type KubeServer, type Obj } from './kube-server/index.js';
import { removeTree } from './fleet-fixture.js';

export const LAB = 'examples/lab';

export interface SimulatedCluster {
  server: KubeServer;
  kubeconfig: string;
  dir: string;
  close(): Promise<void>;
}

/** Delays (ms) like a small real cluster, scaled down: used by the benchmark. */
export const REALISTIC_DELAYS: ControllerOptions['delays'] = {
  crds: 150, deployments: 400, olm: 300, argocd: 200, applications: 250, clusterDeployments: 500, managedClusters: 300,
};

export async function simulatedCluster(opts: { repo?: string; cluster?: string; controllers?: ControllerOptions; extraCrds?: string[] } = {}): Promise<SimulatedCluster> {
  const server = await startKubeServer({
    crds: [...CRD_SETS.olm, ...(opts.extraCrds ?? [])],
    namespaces: ['openshift-operators', 'openshift-marketplace'],
    controllers: opts.controllers ?? {},
  });
  server.seed([{ apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: 'global-operators', namespace: 'openshift-operators' }, spec: {} }], 'cluster-version-operator');
  const cluster = opts.cluster ?? 'hub';
  setGitContent(server, opts.repo ?? LAB, cluster);
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-bootstrap-'));
  const kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig'));
  return {
    server,
    kubeconfig,
    dir,
    async close() {
      await server.close();
      removeTree(dir);
    },
  };
}

/** The root Application of `cluster` syncs its rendered apps and projects; child apps sync nothing. */
export function setGitContent(server: KubeServer, repo: string, cluster: string, namespace = 'openshift-gitops'): Obj[] {
  const { fleet } = loadFleet(repo);
  const rendered = renderFleet(resolveFleet(fleet, { clusters: [cluster] }));
  // What the root Application reads: <cluster>/apps/*.yaml and <cluster>/projects/*.yaml.
  const objects = rendered.files.filter((f) => /^[^/]+\/(apps|projects)\/[^/]+\.yaml$/.test(f.path)).flatMap((f) => f.objects) as Obj[];
  server.controllers.setManifests(namespace, ROOT_APPLICATION, objects);
  return objects;
}

/** Every object in the store as `Kind/ns/name` → resourceVersion and uid. */
export function storeIndex(server: KubeServer): Map<string, { uid: string; rv: string }> {
  const out = new Map<string, { uid: string; rv: string }>();
  for (const rt of server.store.allTypes()) {
    for (const o of server.store.list(rt, undefined, () => true).items) {
      const ref = o.metadata.namespace ? `${rt.kind}/${o.metadata.namespace}/${o.metadata.name}` : `${rt.kind}/${o.metadata.name}`;
      out.set(ref, { uid: String(o.metadata.uid), rv: String(o.metadata.resourceVersion) });
    }
  }
  return out;
}
