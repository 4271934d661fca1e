/**
 * The secret-store bootstrap against the test server: the ClusterSecretStore waits for its CRD,
 * which an early wave installs (External Secrets comes through Argo CD), is applied while the
 * waves go on, and is awaited Ready; its credentials are a Secret the user created, named by
 * reference and never read into Git.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../support/fleet-fixture.js';
import { LAB, simulatedCluster, type SimulatedCluster } from '../support/bootstrap-cluster.js';
import { CRD_SETS, crdsNamed } from '../support/kube-server/index.js';

const STORE = `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault
spec:
  provider:
    vault:
      server: https://vault.example.com
      path: secret
      version: v2
      auth:
        tokenSecretRef:
          name: vault-token
          namespace: external-secrets
          key: token
`;

describe('secret-store bootstrap', () => {
  let c: SimulatedCluster | undefined;
  afterEach(async () => {
    await c?.close();
    c = undefined;
  });

  async function setup(): Promise<string> {
    c = await simulatedCluster();
    // The wave-5 app acm-operator stands in for the app that installs External Secrets.
    c.server.controllers.setManifests('openshift-gitops', 'acm-operator', crdsNamed(CRD_SETS.externalSecrets));
    // External Secrets' part: a store referencing an existing Secret becomes Ready.
    const server = c.server;
    server.store.subscribe((ev) => {
      if (ev.object.kind !== 'ClusterSecretStore' || ev.type !== 'ADDED') return;
      const rt = server.typeFor('external-secrets.io/v1', 'ClusterSecretStore')!;
      const name = String(ev.object.metadata.name);
      setTimeout(() => {
        const cur = server.store.find(rt, undefined, name);
        if (!cur || cur.status?.conditions) return;
        server.store.update(rt, undefined, name, { ...cur, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Valid', message: 'store validated' }] } }, { fieldManager: 'external-secrets', subresource: 'status' });
      }, 20);
    });
    const file = join(c.dir, 'store.yaml');
    writeFileSync(file, STORE);
    return file;
  }

  test('the store is applied once its CRD is Established, alongside the waves, and awaited Ready', async () => {
    const file = await setup();
    c!.server.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'external-secrets' } }]);
    c!.server.seed([{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'vault-token', namespace: 'external-secrets' }, stringData: { token: 's3cr3t' } }], 'kubectl-create');
    const r = await cli(['bootstrap', '--repo', LAB, '--cluster', 'hub', '--timeout', '60s', '--secret-store', file, '--secret-store-credentials', 'secret/external-secrets/vault-token'],
      process.cwd(), { KUBECONFIG: c!.kubeconfig, HOME: c!.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {2}created +ClusterSecretStore\/vault$/m);
    assert.match(r.stderr, /ready {6}ClusterSecretStore\/vault: Ready/);
    assert.match(r.stderr, /ready {6}Secret\/external-secrets\/vault-token: exists/);
    // The credentials were only referenced: fleetplan never wrote the Secret nor printed it.
    const managers = (c!.server.object('v1', 'Secret', 'vault-token', 'external-secrets')?.metadata.managedFields as Array<{ manager: string }>).map((m) => m.manager);
    assert.deepEqual(managers, ['kubectl-create']);
    assert.doesNotMatch(r.stdout + r.stderr, /s3cr3t|czNjcjN0/);
    // The store waited for the wave that installs its CRD.
    const applyAt = c!.server.requests({ verb: 'apply', resource: 'clustersecretstores' })[0]!.seq;
    const crdAt = c!.server.requests({ verb: 'watch', resource: 'applications' })[0]!.seq;
    assert.ok(applyAt > crdAt, 'applied after the waves began');
  });

  test('missing credentials: the run fails at the timeout naming the Secret the store needs, and every other object not ready', async () => {
    const file = await setup();
    c!.server.controllers.hold({ kind: 'Application', namespace: 'openshift-gitops', name: 'acm-instance' });
    const r = await cli(['bootstrap', '--repo', LAB, '--cluster', 'hub', '--timeout', '5s', '--secret-store', file, '--secret-store-credentials', 'secret/external-secrets/vault-token'],
      process.cwd(), { KUBECONFIG: c!.kubeconfig, HOME: c!.dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /in stage "(secret-store|wave 15)": 2 objects not ready:/);
    assert.match(r.stderr, /^ {2}Secret\/external-secrets\/vault-token: Secret does not exist yet$/m);
    assert.match(r.stderr, /^ {2}Application\/openshift-gitops\/acm-instance: /m);
    // No store was written pointing at credentials that are not there.
    assert.equal(c!.server.requests({ verb: 'apply', resource: 'clustersecretstores' }).length, 0);
  });
});
