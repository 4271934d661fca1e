/**
 * Argo CD's sync (gitops-engine) gives a namespaced object without a namespace the Application's
 * destination namespace; a cluster-scoped one keeps none. render --leaves wrote the repo-server's
 * output as it is, so an Argo CD leaf showed objects without the namespace the cluster gives them,
 * unlike a Flux leaf (targetNamespace applied). Leaves now show what the cluster gets (ADR 0420),
 * with the scope read from fleetplan's kind lists and the build's own CustomResourceDefinitions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: { kind: Gadget, plural: gadgets }
  scope: Cluster
  versions: [{ name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object } } }]
`;

test('an Argo CD leaf gives namespaced objects without a namespace the destination namespace, and leaves the others as built', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': argoPathApplication({ name: 'root', path: 'roots', namespace: 'argocd', repoURL: 'https://github.com/acme/platform.git' }),
    'roots/web.yaml': argoPathApplication({ name: 'web', path: 'apps/web', namespace: 'web-prod', repoURL: 'https://github.com/acme/platform.git' }),
    'apps/web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: b\n',
    'apps/web/other.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  namespace: shared\ndata:\n  a: b\n',
    'apps/web/role.yaml': 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules: []\n',
    'apps/web/crd.yaml': CRD,
    'apps/web/gadget.yaml': 'apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\n',
    'apps/web/widget.yaml': 'apiVersion: example.org/v1\nkind: Widget\nmetadata:\n  name: w1\n',
    // A destination namespace with a variable fleetplan does not resolve: objects as built, with a note.
    'roots/api.yaml': argoPathApplication({ name: 'api', path: 'apps/api', namespace: '${TEAM}-api', repoURL: 'https://github.com/acme/platform.git' }),
    'apps/api/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  const out = join(dir, 'out');
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const leaf = join(out, 'in-cluster/manifests/web');
    const files = readdirSync(leaf).sort();
    const byName = (part: string) => readFileSync(join(leaf, files.find((f) => f.includes(part))!), 'utf8');
    assert.ok(files.some((f) => /^\d+-configmap-web-prod-settings\.yaml$/.test(f)), files.join(', '));
    assert.match(byName('settings'), /\n {2}namespace: web-prod\n/);
    assert.match(byName('shared'), /\n {2}namespace: shared\n/);
    assert.doesNotMatch(byName('clusterrole'), /namespace:/);
    assert.doesNotMatch(byName('gadget'), /namespace:/);
    // A kind of unknown scope is read as namespaced, and the note says so.
    assert.match(byName('widget'), /\n {2}namespace: web-prod\n/);
    assert.match(r.stderr, /app web: namespaced objects without a namespace land in web-prod, the Application's destination namespace; the scope of Widget \(example\.org\) is not known to fleetplan/);
    assert.deepEqual(readdirSync(join(out, 'in-cluster/manifests/api')), ['01-configmap-api.yaml']);
    assert.match(r.stderr, /app api: the destination namespace \$\{TEAM\}-api is not known to fleetplan: namespaced objects without a namespace are written as built/);
  } finally {
    removeTree(dir);
  }
});
