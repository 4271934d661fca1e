/**
 * An app-of-apps' objects besides its Applications land as Argo CD's sync lands them: a namespaced
 * object without a namespace in the app's destination namespace; a cluster-scoped one, by
 * fleetplan's list or by a CustomResourceDefinition in the same build, without one. A kind whose
 * scope fleetplan does not know is read as namespaced, and the note says so (ADR 0412).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, customResourceDefinition, removeTree, writeTree } from '../support/fleet-fixture.js';

const CRD = customResourceDefinition('Gadget', 'example.com', 'Cluster');

test('argocd: an app-of-apps\' objects take the scope of their kind from the build\'s CRDs, and an unknown scope is named', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': argoPathApplication({ name: 'root', path: 'apps', namespace: 'platform' }),
    'apps/web.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web' }),
    'apps/crd.yaml': CRD,
    'apps/objects.yaml': 'apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n',
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: w\n',
  });
  try {
    const j = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(j.code, 0, j.stderr);
    const cluster = (JSON.parse(j.stdout) as { clusters: { notes: string[]; objects?: { kind: string; name: string; namespace?: string }[] }[] }).clusters[0]!;
    assert.deepEqual(cluster.objects?.map((o) => `${o.kind}/${o.namespace ?? ''}/${o.name}`).sort(), [
      'CustomResourceDefinition//gadgets.example.com',
      'Gadget//g',
      'Secret/platform/s',
      'Widget/platform/w',
    ]);
    assert.ok(cluster.notes.some((n) => n.includes('namespaced objects without a namespace land in platform, the app\'s destination namespace; the scope of Widget (example.com) is not known to fleetplan')), JSON.stringify(cluster.notes, null, 1));
  } finally {
    removeTree(dir);
  }
});
