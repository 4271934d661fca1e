/**
 * Flux hub and spokes (issue #12 part 3, ADR 0369): a hub's Kustomization with
 * `spec.kubeConfig.secretRef` applies its objects to another cluster, and a HelmRelease with it
 * installs its chart there. Each spoke is a cluster of the plan, named from the kubeconfig Secret
 * reference (`<name>-kubeconfig` → `<name>`, else the Secret's namespace), with the Kustomizations
 * whose objects land on it; the hub keeps what it applies to itself, and the Kustomization objects
 * themselves (they live on the hub), whose objects are not read on the hub.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync, helmReleaseOf, localChart } from '../support/flux-fixture.js';

const ks = (name: string, namespace: string, path: string, extra = '') => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  interval: 1h
  path: ${path}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
${extra}`;

const kubeConfig = (secret: string) => `  kubeConfig:\n    secretRef:\n      name: ${secret}\n`;

const helmRelease = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: web
spec:
  interval: 1h
  kubeConfig:
    secretRef:
      name: edge-1-kubeconfig
  chart:
    spec:
      chart: podinfo
      version: 6.7.0
      sourceRef:
        kind: HelmRepository
        name: podinfo
`;

function repo(): Record<string, string> {
  return {
    'clusters/hub/flux-system/gotk-sync.yaml': gotkSync('hub'),
    'clusters/hub/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/hub/hub-infra.yaml': ks('hub-infra', 'flux-system', './hub-infra'),
    'clusters/hub/edge.yaml': [
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: edge\n',
      ks('base', 'edge', './spoke/base', kubeConfig('edge-1-kubeconfig')),
      ks('addons', 'edge', './spoke/addons', `  dependsOn:\n    - name: base\n  targetNamespace: edge\n`),
      ks('config', 'edge', './spoke/config', `  dependsOn:\n    - name: base\n${kubeConfig('edge-1-kubeconfig')}`),
    ].join('---\n'),
    'hub-infra/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'hub-infra/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hub-only\n  namespace: flux-system\n',
    'spoke/base/kustomization.yaml': 'resources:\n  - ns.yaml\n',
    'spoke/base/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: spoke-apps\n',
    'spoke/config/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'spoke/config/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: spoke-config\n  namespace: spoke-apps\n',
    'spoke/addons/kustomization.yaml': 'resources:\n  - release.yaml\n',
    'spoke/addons/release.yaml': helmRelease,
  };
}

type Plan = { clusters: { name: string; role: string; hub: string | null; notes: string[]; apps: { name: string; needs: string[] }[] }[] };

test('flux hub and spokes: a Kustomization with kubeConfig.secretRef puts its objects on a spoke cluster named from the Secret', async () => {
  const dir = writeTree(repo());
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout) as Plan;
    assert.deepEqual(plan.clusters.map((c) => `${c.name} ${c.role} ${c.hub ?? '-'}`), ['hub hub -', 'edge-1 spoke hub']);
    const hub = plan.clusters[0]!;
    const spoke = plan.clusters[1]!;
    // The hub holds every Kustomization object (it reconciles them), the spoke the ones whose objects land there.
    assert.deepEqual(spoke.apps.map((a) => a.name).sort(), ['flux:edge/base', 'flux:edge/config']);
    assert.deepEqual(spoke.apps.find((a) => a.name === 'flux:edge/config')!.needs, ['flux:edge/base']);
    assert.ok(hub.apps.some((a) => a.name === 'flux:edge/addons'));
    assert.ok(spoke.notes.some((n) => /kubeConfig Secret edge\/edge-1-kubeconfig/.test(n) && /hub/.test(n)), spoke.notes.join('\n'));
    assert.ok(spoke.notes.some((n) => /HelmRelease edge\/web/.test(n) && /installs its chart on this cluster/.test(n)), spoke.notes.join('\n'));
    assert.ok(!hub.notes.some((n) => /^not read: flux:edge\/base/.test(n)), hub.notes.join('\n'));
  } finally {
    removeTree(dir);
  }
});

test('flux hub and spokes: render --leaves builds a spoke\'s Kustomizations under the spoke, never under the hub', async () => {
  const dir = writeTree(repo());
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const files = listFiles(out);
    assert.deepEqual(files.filter((f) => /configmap-spoke-apps-spoke-config/.test(f)).map((f) => f.split('/')[0]), ['edge-1']);
    assert.deepEqual(files.filter((f) => /namespace-spoke-apps/.test(f)).map((f) => f.split('/')[0]), ['edge-1']);
    assert.deepEqual(files.filter((f) => /configmap-flux-system-hub-only/.test(f)).map((f) => f.split('/')[0]), ['hub']);
    // The Kustomization objects are the hub's: render writes them under the hub only.
    assert.ok(files.includes('hub/apps/flux_edge_base.yaml'), files.join('\n'));
    assert.deepEqual(files.filter((f) => f.startsWith('edge-1/apps/')), []);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

/** A hub whose own Kustomization holds two HelmReleases of a chart in the repository: one installed on the hub, one (spec.kubeConfig) on a spoke. */
function chartRepo(): Record<string, string> {
  const release = (name: string, extra: string) => helmReleaseOf(name, 'apps', `${extra}${localChart('./charts/hello')}  values:\n    greeting: ${name}\n`);
  return {
    'clusters/hub/flux-system/gotk-sync.yaml': gotkSync('hub'),
    'clusters/hub/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/hub/releases.yaml': ks('releases', 'flux-system', './releases'),
    'releases/kustomization.yaml': 'resources:\n  - local.yaml\n  - remote.yaml\n',
    'releases/local.yaml': release('local', ''),
    'releases/remote.yaml': release('remote', kubeConfig('edge-1-kubeconfig')),
    'charts/hello/Chart.yaml': 'apiVersion: v2\nname: hello\nversion: 0.1.0\n',
    'charts/hello/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-greeting\ndata:\n  greeting: {{ .Values.greeting }}\n',
  };
}

test('flux hub and spokes: render --leaves renders a HelmRelease with kubeConfig under the spoke it installs to, not under the hub', async () => {
  const dir = writeTree(chartRepo());
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const files = listFiles(out);
    const greetings = files.filter((f) => /configmap-.*-greeting\.yaml$/.test(f));
    // helm-controller of the hub installs `remote` on edge-1 (spec.kubeConfig) and `local` on the hub.
    assert.deepEqual(greetings, [
      'edge-1/manifests/flux_flux-system_releases/helm_apps_remote-01-configmap-remote-greeting.yaml',
      'hub/manifests/flux_flux-system_releases/helm_apps_local-01-configmap-local-greeting.yaml',
    ], files.join('\n'));
    // The HelmRelease objects stay the hub's: the hub's Kustomization applies them there.
    assert.ok(files.some((f) => f.startsWith('hub/manifests/flux_flux-system_releases/') && /helmrelease-apps-remote/.test(f)), files.join('\n'));
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

function listFiles(root: string, dir = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(root, rel));
    else out.push(rel);
  }
  return out.sort();
}
