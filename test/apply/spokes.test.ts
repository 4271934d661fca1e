/**
 * Spokes (seed 001 phases 3-5): `fleetplan bootstrap --cluster etl4` against the hub waits for
 * the spoke's ClusterDeployment and ManagedCluster, then bootstraps the spoke through the admin
 * kubeconfig Hive wrote; `--all` does the hub, then both spokes in parallel. Each cluster is its
 * own test server.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from '../support/fleet-fixture.js';
import { LAB, simulatedCluster, type SimulatedCluster } from '../support/bootstrap-cluster.js';
import { CRD_SETS, type Obj } from '../support/kube-server/index.js';

function provisioningObjects(name: string): Obj[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
    {
      apiVersion: 'hive.openshift.io/v1', kind: 'ClusterDeployment', metadata: { name, namespace: name },
      spec: { clusterName: name, baseDomain: 'qe.lab.example.com', platform: { agentBareMetal: {} }, pullSecretRef: { name: 'pull-secret' } },
    },
    { apiVersion: 'cluster.open-cluster-management.io/v1', kind: 'ManagedCluster', metadata: { name }, spec: { hubAcceptsClient: true } },
  ];
}

describe('bootstrapping spokes through their hub', () => {
  const clusters: SimulatedCluster[] = [];
  afterEach(async () => {
    for (const c of clusters.splice(0)) await c.close();
  });

  async function fleetOfServers(): Promise<{ hub: SimulatedCluster; spokes: Record<string, SimulatedCluster> }> {
    const spokes: Record<string, SimulatedCluster> = {};
    for (const name of ['etl4', 'etl6']) clusters.push((spokes[name] = await simulatedCluster({ cluster: name })));
    const hub = await simulatedCluster({
      cluster: 'hub',
      extraCrds: [...CRD_SETS.hive, ...CRD_SETS.ocm],
      controllers: { spokeKubeconfig: (cd) => spokes[String(cd.metadata.name)]!.server.kubeconfig() },
    });
    clusters.push(hub);
    return { hub, spokes };
  }

  test('--cluster etl4 waits for the ClusterDeployment and ManagedCluster on the hub, then bootstraps the spoke with the Hive kubeconfig', async () => {
    const { hub, spokes } = await fleetOfServers();
    // Provisioning starts only once fleetplan watches for it, so the run really waits.
    void hub.server.waitForRequest({ verb: 'watch', resource: 'clusterdeployments' }).then(() => hub.server.seed(provisioningObjects('etl4'), 'argocd-controller'));
    const r = await cli(['bootstrap', '--repo', LAB, '--cluster', 'etl4', '--timeout', '60s'], process.cwd(), { KUBECONFIG: hub.kubeconfig, HOME: hub.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /ready {6}ClusterDeployment\/etl4\/etl4: installed/);
    assert.match(r.stderr, /ready {6}ManagedCluster\/etl4: available/);
    assert.match(r.stdout, /^etl4: converged in /m);
    const spoke = spokes.etl4!.server;
    assert.ok(spoke.object('argoproj.io/v1beta1', 'ArgoCD', 'openshift-gitops', 'openshift-gitops'), 'Argo CD on the spoke');
    assert.equal(spoke.object('v1', 'Secret', 'cluster-etl4', 'openshift-gitops')?.metadata.labels.role, 'spoke');
    assert.equal(spoke.object('argoproj.io/v1alpha1', 'Application', 'root-applications', 'openshift-gitops')?.status.health.status, 'Healthy');
    // Nothing of the spoke's bootstrap went to the hub.
    assert.equal(hub.server.object('v1', 'Secret', 'cluster-etl4', 'openshift-gitops'), undefined);
    assert.equal(hub.server.object('argoproj.io/v1beta1', 'ArgoCD', 'openshift-gitops', 'openshift-gitops'), undefined);
  });

  test('a GitOps operator the ACM policy installed is confirmed and left to the policy', async () => {
    const { hub, spokes } = await fleetOfServers();
    hub.server.seed(provisioningObjects('etl4'), 'argocd-controller');
    spokes.etl4!.server.seed([{
      apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name: 'openshift-gitops-operator', namespace: 'openshift-operators' },
      spec: { name: 'openshift-gitops-operator', channel: 'gitops-1.14', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace', installPlanApproval: 'Automatic' },
    }], 'config-policy-controller');
    const r = await cli(['bootstrap', '--repo', LAB, '--cluster', 'etl4', '--timeout', '60s'], process.cwd(), { KUBECONFIG: hub.kubeconfig, HOME: hub.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {2}skipped +Subscription\/openshift-operators\/openshift-gitops-operator +\(present, installed by config-policy-controller; left as is\)$/m);
    assert.equal(spokes.etl4!.server.object('operators.coreos.com/v1alpha1', 'Subscription', 'openshift-gitops-operator', 'openshift-operators')?.spec.channel, 'gitops-1.14');
  });

  test('--all bootstraps the hub, whose Argo CD provisions the spokes, then both spokes in parallel, reporting each', async () => {
    const { hub, spokes } = await fleetOfServers();
    for (const name of ['etl4', 'etl6']) hub.server.controllers.setManifests('openshift-gitops', name, provisioningObjects(name));
    const r = await cli(['bootstrap', '--repo', LAB, '--all', '--timeout', '90s', '-o', 'json'], process.cwd(), { KUBECONFIG: hub.kubeconfig, HOME: hub.dir });
    assert.equal(r.code, 0, r.stderr + r.stdout.slice(-2000));
    const done = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; cluster: string; result?: { outcome: string } }).filter((e) => e.type === 'done');
    assert.deepEqual(done.map((e) => e.cluster).sort(), ['etl4', 'etl6', 'hub']);
    assert.equal(done[0]?.cluster, 'hub');
    assert.ok(done.every((e) => e.result?.outcome === 'converged'));
    for (const s of Object.values(spokes)) assert.ok(s.server.object('argoproj.io/v1alpha1', 'Application', 'root-applications', 'openshift-gitops'));
  });

  test('--all reports a failing spoke without hiding the other', async () => {
    const { hub, spokes } = await fleetOfServers();
    for (const name of ['etl4', 'etl6']) hub.server.controllers.setManifests('openshift-gitops', name, provisioningObjects(name));
    spokes.etl6!.server.controllers.hold({ kind: 'ArgoCD', namespace: 'openshift-gitops', name: 'openshift-gitops' });
    const r = await cli(['bootstrap', '--repo', LAB, '--all', '--timeout', '8s'], process.cwd(), { KUBECONFIG: hub.kubeconfig, HOME: hub.dir });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^hub: converged/m);
    assert.match(r.stdout, /^etl4: converged/m);
    assert.match(r.stdout, /^etl6: failed$/m);
    assert.match(r.stderr, /fleetplan bootstrap: etl6: timed out after 8\.0s in stage "argocd"/);
  });
});
