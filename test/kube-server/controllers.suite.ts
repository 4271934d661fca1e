import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CRD_SETS, crdsNamed, isWorkloadReady, type Obj } from '../support/kube-server/index.js';
import { deployment, harness, statusOf, until, type Harness } from './helpers.js';

const cond = (o: Obj | undefined, type: string) => (o?.status?.conditions ?? []).find((c: Obj) => c.type === type)?.status;

describe('kube-server controllers', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  test('a created CRD becomes Established, and only then is its kind served', async () => {
    h = await harness();
    const [crd] = crdsNamed(['clustersecretstores.external-secrets.io']);
    const crdRef = { kind: 'CustomResourceDefinition', name: 'clustersecretstores.external-secrets.io' };
    h.server.controllers.hold(crdRef);
    await h.api.create(crd as any);
    const store = { apiVersion: 'external-secrets.io/v1', kind: 'ClusterSecretStore', metadata: { name: 'vault' }, spec: {} };
    // Not Established: discovery does not list the kind, so the client cannot even build the URL.
    await assert.rejects(h.api.create(store as any), /HTTP-Code: 404|Unrecognized API version and kind/);
    h.server.controllers.release(crdRef);
    await until(h.server, () => cond(h!.server.object('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'clustersecretstores.external-secrets.io'), 'Established') === 'True');
    const created = await h.api.create(store as any);
    assert.equal(created.metadata?.name, 'vault');
    const crdNow = h.server.object('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'clustersecretstores.external-secrets.io');
    assert.equal(cond(crdNow, 'NamesAccepted'), 'True');
    assert.deepEqual(crdNow?.status.acceptedNames.kind, 'ClusterSecretStore');
  });

  test('a Deployment is first observed, then available', async () => {
    h = await harness();
    const seen: string[] = [];
    h.server.store.subscribe((ev) => {
      if (ev.object.kind === 'Deployment') seen.push(String(cond(ev.object, 'Available') ?? '-'));
    });
    await h.api.create(deployment('app', 2));
    await until(h.server, () => isWorkloadReady(h!.server.object('apps/v1', 'Deployment', 'app', 'default')!));
    const d = h.server.object('apps/v1', 'Deployment', 'app', 'default')!;
    assert.equal(d.status.availableReplicas, 2);
    assert.equal(d.status.observedGeneration, 1);
    assert.deepEqual(seen, ['-', 'False', 'True']);
  });

  const olmCases = [
    { name: 'an automatic Subscription installs the operator: InstallPlan Complete, CSV Succeeded, Deployment available, default ArgoCD', approval: 'Automatic', disableDefault: false },
    { name: 'a manual Subscription waits for the InstallPlan to be approved, then installs (no default ArgoCD when disabled)', approval: 'Manual', disableDefault: true },
  ];
  for (const c of olmCases) {
    test(c.name, async () => {
      h = await harness({ crds: CRD_SETS.olm, namespaces: ['openshift-gitops-operator'] });
      const ns = 'openshift-gitops-operator';
      await h.api.apply({ apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: 'og', namespace: ns }, spec: {} }, { fieldManager: 'fleetplan' });
      await h.api.apply({
        apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name: 'openshift-gitops-operator', namespace: ns },
        spec: {
          name: 'openshift-gitops-operator', channel: 'latest', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace', installPlanApproval: c.approval,
          ...(c.disableDefault ? { config: { env: [{ name: 'DISABLE_DEFAULT_ARGOCD_INSTANCE', value: 'true' }] } } : {}),
        },
      }, { fieldManager: 'fleetplan' });
      const sub = () => h!.server.object('operators.coreos.com/v1alpha1', 'Subscription', 'openshift-gitops-operator', ns);
      const ip = () => {
        const name = sub()?.status?.installPlanRef?.name;
        return name ? h!.server.object('operators.coreos.com/v1alpha1', 'InstallPlan', name, ns) : undefined;
      };
      if (c.approval === 'Manual') {
        await until(h.server, () => ip()?.status?.phase === 'RequiresApproval');
        assert.equal(ip()?.spec.approved, false);
        assert.equal(h.server.object('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', 'openshift-gitops-operator.v1.14.0', ns), undefined);
        await h.api.patch({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'InstallPlan', metadata: { name: ip()!.metadata.name, namespace: ns }, spec: { approved: true } } as any, undefined, undefined, 'fleetplan', undefined, 'application/merge-patch+json');
      }
      await until(h.server, () => sub()?.status?.state === 'AtLatestKnown');
      assert.equal(ip()?.status.phase, 'Complete');
      const csv = h.server.object('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', 'openshift-gitops-operator.v1.14.0', ns);
      assert.equal(csv?.status.phase, 'Succeeded');
      assert.ok(isWorkloadReady(h.server.object('apps/v1', 'Deployment', 'openshift-gitops-operator-controller-manager', ns)!));
      assert.equal(sub()?.status.installedCSV, 'openshift-gitops-operator.v1.14.0');
      assert.ok(h.server.typeFor('argoproj.io/v1beta1', 'ArgoCD'), 'the operator installed its CRDs');
      const defaultInstance = h.server.object('argoproj.io/v1beta1', 'ArgoCD', 'openshift-gitops', 'openshift-gitops');
      assert.equal(defaultInstance !== undefined, !c.disableDefault);
    });
  }

  test('without an OperatorGroup the CSV fails with NoOperatorGroup', async () => {
    h = await harness({ crds: CRD_SETS.olm, namespaces: ['ops'] });
    await h.api.apply({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name: 's', namespace: 'ops' }, spec: { name: 'argocd-operator' } }, { fieldManager: 'fleetplan' });
    await until(h.server, () => h!.server.object('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', 'argocd-operator.v0.12.0', 'ops')?.status?.reason === 'NoOperatorGroup');
    assert.equal(h.server.object('operators.coreos.com/v1alpha1', 'ClusterServiceVersion', 'argocd-operator.v0.12.0', 'ops')?.status.phase, 'Failed');
  });

  test('an ArgoCD yields server, repo-server, redis and application-controller, then phase Available', async () => {
    h = await harness({ crds: CRD_SETS.argocd, namespaces: ['openshift-gitops'] });
    await h.api.apply({ apiVersion: 'argoproj.io/v1beta1', kind: 'ArgoCD', metadata: { name: 'argocd', namespace: 'openshift-gitops' }, spec: {} }, { fieldManager: 'fleetplan' });
    await until(h.server, () => h!.server.object('argoproj.io/v1beta1', 'ArgoCD', 'argocd', 'openshift-gitops')?.status?.phase === 'Available');
    for (const [kind, name] of [['Deployment', 'argocd-server'], ['Deployment', 'argocd-repo-server'], ['Deployment', 'argocd-redis'], ['StatefulSet', 'argocd-application-controller']] as const) {
      assert.ok(isWorkloadReady(h.server.object('apps/v1', kind, name, 'openshift-gitops')!), name);
    }
    const st = h.server.object('argoproj.io/v1beta1', 'ArgoCD', 'argocd', 'openshift-gitops')!.status;
    assert.deepEqual([st.server, st.repo, st.applicationController], ['Running', 'Running', 'Running']);
  });

  test('Applications become Synced and Healthy wave by wave: no wave starts before the lower waves are Healthy', async () => {
    h = await harness({ crds: CRD_SETS.argocd, namespaces: ['openshift-gitops', 'metallb'] });
    const ns = 'openshift-gitops';
    const app = (name: string, wave: number | undefined): Obj => ({
      apiVersion: 'argoproj.io/v1alpha1', kind: 'Application',
      metadata: { name, namespace: ns, ...(wave === undefined ? {} : { annotations: { 'argocd.argoproj.io/sync-wave': String(wave) } }) },
      spec: { project: 'default', source: { repoURL: 'https://git.example/fleet', path: name, targetRevision: 'main' }, destination: { server: 'https://kubernetes.default.svc', namespace: name }, syncPolicy: { automated: {} } },
    });
    h.server.controllers.setManifests(ns, 'root', [app('late', 2), app('first', -1), app('second', 1), app('also-first', -1)]);
    h.server.controllers.setManifests(ns, 'second', [{ ...deployment('speaker', 1, 'metallb') }]);
    const order: string[] = [];
    h.server.store.subscribe((ev) => {
      if (ev.object.kind === 'Application' && ev.type === 'ADDED') order.push(`added ${ev.object.metadata.name}`);
      if (ev.object.kind === 'Application' && ev.object.status?.health?.status === 'Healthy' && ev.old?.status?.health?.status !== 'Healthy') order.push(`healthy ${ev.object.metadata.name}`);
    });
    await h.api.apply({ apiVersion: 'argoproj.io/v1beta1', kind: 'ArgoCD', metadata: { name: 'argocd', namespace: ns }, spec: {} }, { fieldManager: 'fleetplan' });
    await h.api.apply(app('root', undefined) as any, { fieldManager: 'fleetplan' });
    const root = () => h!.server.object('argoproj.io/v1alpha1', 'Application', 'root', ns);
    await until(h.server, () => root()?.status?.health?.status === 'Healthy');
    assert.equal(root()?.status.sync.status, 'Synced');
    const pos = (s: string) => order.indexOf(s);
    for (const low of ['first', 'also-first']) assert.ok(pos(`healthy ${low}`) < pos('added second'), `${low} is healthy before wave 1 starts: ${order.join(', ')}`);
    assert.ok(pos('healthy second') < pos('added late'), order.join(', '));
    assert.ok(pos('healthy late') < pos('healthy root'), order.join(', '));
    assert.ok(isWorkloadReady(h.server.object('apps/v1', 'Deployment', 'speaker', 'metallb')!), 'a child app synced its own manifests');
  });

  test('with applicationHealthCheck=configured, child Applications gate waves only when the ArgoCD has the health check', async () => {
    const run = async (withCheck: boolean) => {
      const x = await harness({ crds: CRD_SETS.argocd, namespaces: ['gitops'], controllers: { applicationHealthCheck: 'configured' } });
      try {
        const child = (name: string, wave: number): Obj => ({
          apiVersion: 'argoproj.io/v1alpha1', kind: 'Application',
          metadata: { name, namespace: 'gitops', annotations: { 'argocd.argoproj.io/sync-wave': String(wave) } },
          spec: { destination: { namespace: name }, source: {}, syncPolicy: { automated: {} } },
        });
        x.server.controllers.hold({ kind: 'Application', namespace: 'gitops', name: 'never' });
        x.server.controllers.setManifests('gitops', 'root', [child('never', 0), child('later', 1)]);
        const check = { group: 'argoproj.io', kind: 'Application', check: 'hs = {}\nhs.status = "Progressing"\nreturn hs' };
        await x.api.apply({ apiVersion: 'argoproj.io/v1beta1', kind: 'ArgoCD', metadata: { name: 'argocd', namespace: 'gitops' }, spec: withCheck ? { resourceHealthChecks: [check] } : {} }, { fieldManager: 'fleetplan' });
        await x.api.apply({ ...child('root', 0), metadata: { name: 'root', namespace: 'gitops' } } as any, { fieldManager: 'fleetplan' });
        await until(x.server, () => x.server.object('argoproj.io/v1alpha1', 'Application', 'root', 'gitops')?.status?.health !== undefined && x.server.object('argoproj.io/v1alpha1', 'Application', 'never', 'gitops') !== undefined);
        const later = () => x.server.object('argoproj.io/v1alpha1', 'Application', 'later', 'gitops');
        if (!withCheck) await until(x.server, () => later() !== undefined);
        return { later: later() !== undefined, root: x.server.object('argoproj.io/v1alpha1', 'Application', 'root', 'gitops')!.status.health.status };
      } finally {
        await x.close();
      }
    };
    assert.deepEqual(await run(false), { later: true, root: 'Healthy' }, 'without the check, an unhealthy child does not hold back the next wave');
    assert.deepEqual(await run(true), { later: false, root: 'Progressing' }, 'with the check, wave 1 waits for the stuck wave-0 child');
  });

  test('the openshift preset has OLM and a global OperatorGroup', async () => {
    h = await harness({ openshift: true });
    assert.ok(h.server.object('operators.coreos.com/v1', 'OperatorGroup', 'global-operators', 'openshift-operators'));
    assert.ok(h.server.typeFor('operators.coreos.com/v1alpha1', 'Subscription'));
  });

  test('an Application without automated sync stays OutOfSync', async () => {
    h = await harness({ crds: CRD_SETS.argocd, namespaces: ['gitops'], controllers: { applicationsNeedArgoCD: false } });
    await h.api.apply({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'manual', namespace: 'gitops' }, spec: { destination: {}, source: {} } }, { fieldManager: 'fleetplan' });
    await until(h.server, () => h!.server.object('argoproj.io/v1alpha1', 'Application', 'manual', 'gitops')?.status?.sync?.status === 'OutOfSync');
    assert.equal(h.server.object('argoproj.io/v1alpha1', 'Application', 'manual', 'gitops')?.status.health.status, 'Missing');
  });

  test('a ClusterDeployment gets installed with an admin kubeconfig; its ManagedCluster then becomes available', async () => {
    h = await harness({ crds: [...CRD_SETS.hive, ...CRD_SETS.ocm], namespaces: ['etl4'], controllers: { spokeKubeconfig: (cd) => `# kubeconfig for ${String(cd.metadata.name)}\n` } });
    await h.api.apply({ apiVersion: 'cluster.open-cluster-management.io/v1', kind: 'ManagedCluster', metadata: { name: 'etl4' }, spec: { hubAcceptsClient: true } }, { fieldManager: 'fleetplan' });
    await h.api.apply({ apiVersion: 'hive.openshift.io/v1', kind: 'ClusterDeployment', metadata: { name: 'etl4', namespace: 'etl4' }, spec: { clusterName: 'etl4', baseDomain: 'lab.example' } }, { fieldManager: 'fleetplan' });
    const mc = () => h!.server.object('cluster.open-cluster-management.io/v1', 'ManagedCluster', 'etl4');
    await until(h.server, () => cond(mc(), 'ManagedClusterConditionAvailable') === 'True');
    const cd = h.server.object('hive.openshift.io/v1', 'ClusterDeployment', 'etl4', 'etl4')!;
    assert.equal(cd.spec.installed, true);
    const secret = h.server.object('v1', 'Secret', cd.spec.clusterMetadata.adminKubeconfigSecretRef.name, 'etl4')!;
    assert.equal(Buffer.from(secret.data.kubeconfig, 'base64').toString(), '# kubeconfig for etl4\n');
    assert.equal(cond(cd, 'Provisioned'), 'True');
  });

  test('a ClusterSecretStore is Ready only once the Secret its provider refers to exists', async () => {
    h = await harness({ crds: CRD_SETS.externalSecrets, namespaces: ['vault'] });
    await h.api.apply({
      apiVersion: 'external-secrets.io/v1', kind: 'ClusterSecretStore', metadata: { name: 'vault' },
      spec: { provider: { vault: { server: 'https://vault.example', auth: { tokenSecretRef: { name: 'vault-token', namespace: 'vault', key: 'token' } } } } },
    }, { fieldManager: 'fleetplan' });
    const store = () => h!.server.object('external-secrets.io/v1', 'ClusterSecretStore', 'vault');
    await until(h.server, () => cond(store(), 'Ready') === 'False');
    assert.match(store()!.status.conditions[0].message, /could not get secret vault\/vault-token/);
    await h.api.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'vault-token', namespace: 'vault' }, stringData: { token: 's3cr3t' } } as any, { fieldManager: 'fleetplan' });
    await until(h.server, () => cond(store(), 'Ready') === 'True');
  });

  test('a held object never becomes ready, until released', async () => {
    h = await harness();
    h.server.controllers.hold({ kind: 'Deployment', namespace: 'default', name: 'stuck' });
    await h.api.create(deployment('stuck'));
    await h.api.create(deployment('fine'));
    await until(h.server, () => isWorkloadReady(h!.server.object('apps/v1', 'Deployment', 'fine', 'default')!));
    assert.equal(h.server.object('apps/v1', 'Deployment', 'stuck', 'default')?.status, undefined);
    h.server.controllers.release({ kind: 'Deployment', namespace: 'default', name: 'stuck' });
    await until(h.server, () => isWorkloadReady(h!.server.object('apps/v1', 'Deployment', 'stuck', 'default')!));
  });

  test('a custom kind is not served before its CRD exists', async () => {
    h = await harness();
    const res = await statusOf(fetch(`${h.server.url}/apis/argoproj.io/v1alpha1/namespaces/default/applications`).then(async (r) => {
      if (!r.ok) throw Object.assign(new Error('http'), { code: r.status, body: await r.json() });
      return r;
    }));
    assert.equal(res.code, 404);
  });
});
