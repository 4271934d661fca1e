/**
 * The helmfile + Flux layout in a repository whose Flux folder is not named kubernetes/ (`k8s/`,
 * the sync path of the flux-instance the helmfile installs): its ks.yaml files are read as under
 * kubernetes/. fleetplan listed only the helmfile releases and said nothing of the Kustomizations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxKustomization } from '../support/flux-fixture.js';

const helmfile = `releases:
  - name: cilium
    namespace: kube-system
    chart: oci://quay.io/cilium/charts/cilium
    version: 1.0.0
`;

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: b\n`;

function repo(root: string): Record<string, string> {
  return {
    'bootstrap/helmfile.yaml': helmfile,
    [`${root}/flux/cluster/ks.yaml`]: fluxKustomization('cluster-apps', `${root}/apps`, '', 'flux-system'),
    [`${root}/apps/media/kustomization.yaml`]: 'namespace: media\nresources:\n  - ./sonarr/ks.yaml\n',
    [`${root}/apps/media/sonarr/ks.yaml`]: fluxKustomization('sonarr', `${root}/apps/media/sonarr/app`, '  targetNamespace: media\n'),
    [`${root}/apps/media/sonarr/app/kustomization.yaml`]: 'resources:\n  - ./cm.yaml\n',
    [`${root}/apps/media/sonarr/app/cm.yaml`]: cm('sonarr'),
  };
}

async function planApps(root: string): Promise<{ apps: string[]; findings: { code: string }[] }> {
  const dir = writeTree(repo(root));
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const p = JSON.parse(r.stdout) as { layout?: string; clusters: { apps: { name: string }[] }[]; findings: { code: string }[] };
    return { apps: p.clusters.flatMap((c) => c.apps.map((a) => a.name)).sort(), findings: p.findings };
  } finally {
    removeTree(dir);
  }
}

test('helmfile-flux: ks.yaml files under k8s/ are read as under kubernetes/', async () => {
  const k8s = await planApps('k8s');
  const kubernetes = await planApps('kubernetes');
  assert.ok(kubernetes.apps.includes('flux:media/sonarr'), kubernetes.apps.join(', '));
  assert.deepEqual(k8s.apps, kubernetes.apps);
  assert.deepEqual(k8s.findings.map((f) => f.code), kubernetes.findings.map((f) => f.code));
});
