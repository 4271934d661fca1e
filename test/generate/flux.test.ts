/** Flux generation (gitops.engine: flux): Kustomizations per app, dependsOn, HelmReleases, sources, bootstrap. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsYaml from 'js-yaml';
import { loadFleet } from '../../src/index.js';
import { resolveCluster } from '../../src/layering/resolve.js';
import type { K8sObject } from '../../src/model/k8s.js';
import { dependsOnFor, fluxBootstrapFor, gitRef, helmReleaseFor, kustomizationFor } from '../../src/generate/flux.js';
import type { AppSpec } from '../../src/model/spec.js';
import type { Fleet } from '../../src/model/fleet.js';
import type { ResolvedCluster } from '../../src/model/resolved.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

interface FleetOptions {
  revision?: string;
  fleetVars?: Record<string, string>;
  clusterVars?: Record<string, string>;
  plugin?: boolean;
}

function withFluxCluster(apps: Record<string, AppSpec>, opts: FleetOptions, run: (f: Fleet, c: ResolvedCluster) => void): void {
  const gitops: Record<string, unknown> = { engine: 'flux' };
  if (opts.plugin) gitops.plugin = { image: 'registry.example.com/plugin:1' };
  const fleetSpec: Record<string, unknown> = { repoURL: 'https://git.example.com/fleet.git', revision: opts.revision ?? 'main', platform: 'kubernetes', gitops };
  if (opts.fleetVars) fleetSpec.vars = opts.fleetVars;
  const clusterSpec: Record<string, unknown> = { role: 'standalone', apps };
  if (opts.clusterVars) clusterSpec.vars = opts.clusterVars;
  const dir = writeTree({
    'fleet.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Fleet', metadata: { name: 't' }, spec: fleetSpec }),
    'clusters/one/cluster.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name: 'one' }, spec: clusterSpec }),
  });
  try {
    const { fleet, findings } = loadFleet(dir);
    assert.deepEqual(findings, []);
    const { cluster, findings: resolveFindings } = resolveCluster(fleet, 'one');
    assert.deepEqual(resolveFindings.filter((f) => f.severity === 'error'), []);
    run(fleet, cluster);
  } finally {
    removeTree(dir);
  }
}

const app = (c: ResolvedCluster, name: string) => c.apps.find((a) => a.name === name)!;
const only = (objs: K8sObject[], kind: string) => {
  const found = objs.filter((o) => o.kind === kind);
  assert.equal(found.length, 1, `one ${kind} in ${objs.map((o) => o.kind).join(', ')}`);
  return found[0]!;
};
const specOf = (o: K8sObject) => o.spec as Record<string, unknown>;

test('a path app becomes one Flux Kustomization in flux-system reading ./<path> from the fleet GitRepository', () => {
  withFluxCluster({ web: { path: 'apps/web', namespace: 'web' } }, {}, (fleet, c) => {
    assert.equal(c.gitopsNamespace, 'flux-system');
    const objs = kustomizationFor(fleet, c, app(c, 'web'));
    assert.deepEqual(objs, [
      {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 'web', namespace: 'flux-system' },
        spec: {
          interval: '10m',
          path: './apps/web',
          prune: true,
          sourceRef: { kind: 'GitRepository', name: 'flux-system' },
          wait: true,
          timeout: '5m',
          targetNamespace: 'web',
        },
      },
    ]);
    assert.deepEqual(helmReleaseFor(fleet, c, app(c, 'web')), []);
  });
});

const pruneCases: { name: string; syncPolicy: Record<string, unknown> | undefined; prune: boolean }[] = [
  { name: 'no syncPolicy prunes', syncPolicy: undefined, prune: true },
  { name: 'automated without prune prunes', syncPolicy: { automated: { selfHeal: true } }, prune: true },
  { name: 'automated.prune false does not prune', syncPolicy: { automated: { prune: false } }, prune: false },
  { name: 'automated.prune true prunes', syncPolicy: { automated: { prune: true } }, prune: true },
];
for (const tc of pruneCases) {
  test(`prune: ${tc.name}`, () => {
    const spec: AppSpec = { path: 'apps/web', namespace: 'web' };
    if (tc.syncPolicy) spec.syncPolicy = tc.syncPolicy;
    withFluxCluster({ web: spec }, {}, (fleet, c) => {
      assert.equal(specOf(only(kustomizationFor(fleet, c, app(c, 'web')), 'Kustomization')).prune, tc.prune);
    });
  });
}

const dependsCases: { name: string; apps: Record<string, AppSpec>; want: Record<string, string[]> }[] = [
  {
    name: 'an app depends on every app of the wave before its own, not on earlier waves',
    apps: { a: { path: 'a', wave: 0 }, b: { path: 'b', wave: 0 }, c: { path: 'c', wave: 1 }, d: { path: 'd', wave: 3 } },
    want: { a: [], b: [], c: ['a', 'b'], d: ['c'] },
  },
  {
    name: 'needs are kept alongside the previous wave, each once and sorted',
    apps: { base: { path: 'base', wave: 0 }, crds: { path: 'crds', wave: 1 }, app: { path: 'app', wave: 2, needs: ['base', 'crds'] } },
    want: { base: [], crds: ['base'], app: ['base', 'crds'] },
  },
  {
    name: 'apps of one wave do not depend on each other',
    apps: { x: { path: 'x', wave: 4 }, y: { path: 'y', wave: 4 } },
    want: { x: [], y: [] },
  },
];
for (const tc of dependsCases) {
  test(`dependsOn: ${tc.name}`, () => {
    withFluxCluster(tc.apps, {}, (fleet, c) => {
      for (const [name, want] of Object.entries(tc.want)) {
        assert.deepEqual(dependsOnFor(c, app(c, name)), want, name);
        const ks = only(kustomizationFor(fleet, c, app(c, name)), 'Kustomization');
        assert.deepEqual(specOf(ks).dependsOn, want.length ? want.map((n) => ({ name: n })) : undefined, name);
        assert.equal(specOf(ks).wait, true);
      }
    });
  });
}

test('the computed Argo CD sync-wave annotation is left off; other annotations stay', () => {
  withFluxCluster({ web: { path: 'web', wave: 3, annotations: { team: 'a' } } }, {}, (fleet, c) => {
    assert.deepEqual(only(kustomizationFor(fleet, c, app(c, 'web')), 'Kustomization').metadata.annotations, { team: 'a' });
  });
});

const chartCases: { name: string; spec: AppSpec; sourceKind: string; check: (release: Record<string, unknown>, source: K8sObject) => void }[] = [
  {
    name: 'a chart from an https Helm repository → HelmRepository + HelmRelease with chart.spec',
    spec: { chart: 'cert-manager', repoURL: 'https://charts.jetstack.io', targetRevision: 'v1.15.0', namespace: 'cert-manager', syncOptions: ['CreateNamespace=true'], helm: { values: { crds: { enabled: true } } } },
    sourceKind: 'HelmRepository',
    check: (r, src) => {
      assert.deepEqual(r.chart, { spec: { chart: 'cert-manager', version: 'v1.15.0', sourceRef: { kind: 'HelmRepository', name: 'certs' } } });
      assert.deepEqual(r.install, { createNamespace: true });
      assert.deepEqual(r.values, { crds: { enabled: true } });
      assert.equal(r.targetNamespace, 'cert-manager');
      assert.equal(r.releaseName, 'certs');
      assert.equal(specOf(src).url, 'https://charts.jetstack.io');
    },
  },
  {
    name: 'a chart from an oci:// registry → OCIRepository (tag = version) + HelmRelease with chartRef',
    spec: { chart: 'podinfo', repoURL: 'oci://ghcr.io/stefanprodan/charts', targetRevision: '6.7.0', namespace: 'podinfo', helm: { releaseName: 'pod' } },
    sourceKind: 'OCIRepository',
    check: (r, src) => {
      assert.deepEqual(r.chartRef, { kind: 'OCIRepository', name: 'certs' });
      assert.equal(r.chart, undefined);
      assert.equal(r.releaseName, 'pod');
      assert.equal(specOf(src).url, 'oci://ghcr.io/stefanprodan/charts/podinfo');
      assert.deepEqual(specOf(src).ref, { tag: '6.7.0' });
    },
  },
];
for (const tc of chartCases) {
  test(`chart: ${tc.name}; the app's Kustomization reads its chart directory and waits for the HelmRelease`, () => {
    withFluxCluster({ base: { path: 'base', wave: 0 }, certs: { ...tc.spec, wave: 1 } }, {}, (fleet, c) => {
      const objs = helmReleaseFor(fleet, c, app(c, 'certs'));
      assert.deepEqual(objs.map((o) => o.kind), [tc.sourceKind, 'HelmRelease']);
      const release = only(objs, 'HelmRelease');
      assert.equal(release.apiVersion, 'helm.toolkit.fluxcd.io/v2');
      assert.deepEqual(release.metadata, { name: 'certs', namespace: 'flux-system' });
      tc.check(specOf(release), objs[0]!);
      const ks = only(kustomizationFor(fleet, c, app(c, 'certs')), 'Kustomization');
      assert.equal(specOf(ks).path, './rendered/one/charts/certs');
      assert.deepEqual(specOf(ks).dependsOn, [{ name: 'base' }]);
      assert.equal(specOf(ks).targetNamespace, undefined, 'the HelmRelease stays in flux-system');
      assert.equal(specOf(ks).wait, true);
    });
  });
}

test('chart: a Helm chart directory in the fleet repository → HelmRelease from the fleet GitRepository, value files under the chart', () => {
  withFluxCluster({ local: { path: 'charts/local', helm: { valueFiles: ['values-prod.yaml'] }, namespace: 'local' } }, {}, (fleet, c) => {
    const objs = helmReleaseFor(fleet, c, app(c, 'local'));
    assert.deepEqual(objs.map((o) => o.kind), ['HelmRelease']);
    assert.deepEqual(specOf(objs[0]!).chart, { spec: { chart: './charts/local', sourceRef: { kind: 'GitRepository', name: 'flux-system' }, valuesFiles: ['./charts/local/values-prod.yaml'] } });
  });
});

const revisionCases: { name: string; revision: string; ref: Record<string, string> }[] = [
  { name: 'a branch', revision: 'main', ref: { branch: 'main' } },
  { name: 'a pinned commit', revision: '0123456789abcdef0123456789abcdef01234567', ref: { commit: '0123456789abcdef0123456789abcdef01234567' } },
  { name: 'a full reference', revision: 'refs/tags/v1.2.0', ref: { name: 'refs/tags/v1.2.0' } },
];
for (const tc of revisionCases) {
  test(`revision: ${tc.name} → GitRepository ref ${Object.keys(tc.ref)[0]!}`, () => {
    assert.deepEqual(gitRef(tc.revision), tc.ref);
    withFluxCluster({ web: { path: 'web' } }, { revision: tc.revision }, (fleet, c) => {
      const repo = fluxBootstrapFor(fleet, c).flatMap((b) => b.objects).find((o) => o.kind === 'GitRepository')!;
      assert.deepEqual(specOf(repo).ref, tc.ref);
      assert.equal(specOf(repo).url, 'https://git.example.com/fleet.git');
      // The app follows the cluster's revision: it reads the bootstrap GitRepository.
      assert.deepEqual(kustomizationFor(fleet, c, app(c, 'web')).map((o) => o.kind), ['Kustomization']);
    });
  });
}

test('an app from another Git repository gets a GitRepository of its own, at its own revision', () => {
  withFluxCluster({ ext: { path: 'deploy', repoURL: 'https://git.example.com/other.git', targetRevision: 'release-1' } }, {}, (fleet, c) => {
    const objs = kustomizationFor(fleet, c, app(c, 'ext'));
    assert.deepEqual(objs.map((o) => `${o.kind}/${o.metadata.name}`), ['GitRepository/ext', 'Kustomization/ext']);
    assert.deepEqual(specOf(objs[0]!).ref, { branch: 'release-1' });
    assert.deepEqual(specOf(objs[1]!).sourceRef, { kind: 'GitRepository', name: 'ext' });
  });
});

const variableCases: { name: string; opts: FleetOptions; substitute: Record<string, string> | undefined }[] = [
  { name: 'no variables of its own: no substitution', opts: {}, substitute: undefined },
  {
    name: 'fleet vars: every variable of the cluster, built-ins included',
    opts: { fleetVars: { DOMAIN: 'example.com' } },
    substitute: { CLUSTER_NAME: 'one', CLUSTER_ROLE: 'standalone', DOMAIN: 'example.com', GITOPS_REPO: 'https://git.example.com/fleet.git' },
  },
  {
    name: 'cluster vars override fleet vars',
    opts: { fleetVars: { DOMAIN: 'example.com' }, clusterVars: { DOMAIN: 'one.example.com' } },
    substitute: { CLUSTER_NAME: 'one', CLUSTER_ROLE: 'standalone', DOMAIN: 'one.example.com', GITOPS_REPO: 'https://git.example.com/fleet.git' },
  },
  { name: 'a plugin alone turns substitution on', opts: { plugin: true }, substitute: { CLUSTER_NAME: 'one', CLUSTER_ROLE: 'standalone', GITOPS_REPO: 'https://git.example.com/fleet.git' } },
];
for (const tc of variableCases) {
  test(`variables: ${tc.name}`, () => {
    withFluxCluster({ web: { path: 'web' }, chart: { chart: 'c', repoURL: 'https://charts.example.com', targetRevision: '1.0.0' } }, tc.opts, (fleet, c) => {
      const ks = only(kustomizationFor(fleet, c, app(c, 'web')), 'Kustomization');
      assert.deepEqual(specOf(ks).postBuild, tc.substitute === undefined ? undefined : { substitute: tc.substitute });
      // A chart app's directory holds fleetplan's own HelmRelease, already substituted: no Flux substitution.
      assert.equal(specOf(only(kustomizationFor(fleet, c, app(c, 'chart')), 'Kustomization')).postBuild, undefined);
    });
  });
}

test('bootstrap: Flux namespace, the fleet GitRepository, the root Kustomization reading the cluster apps/', () => {
  withFluxCluster({ web: { path: 'web' } }, {}, (fleet, c) => {
    const files = fluxBootstrapFor(fleet, c);
    assert.deepEqual(files.map((f) => [f.name, f.objects.map((o) => `${o.kind}/${o.metadata.name}`)]), [
      ['00-namespace.yaml', ['Namespace/flux-system']],
      ['10-gitrepository.yaml', ['GitRepository/flux-system']],
      ['90-root-kustomization.yaml', ['Kustomization/flux-system']],
    ]);
    const root = files[2]!.objects[0]!;
    assert.deepEqual(specOf(root), { interval: '10m', path: './rendered/one/apps', prune: true, sourceRef: { kind: 'GitRepository', name: 'flux-system' }, timeout: '5m' });
  });
});

test('an app that carries its original manifest gets it as it is', () => {
  const manifest = { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'kept', namespace: 'apps' }, spec: { interval: '1h', path: './x', prune: false, sourceRef: { kind: 'GitRepository', name: 'repo' } } };
  withFluxCluster({ kept: { path: 'x' } }, {}, (fleet, c) => {
    const a = { ...app(c, 'kept'), manifest };
    assert.deepEqual(kustomizationFor(fleet, c, a), [manifest]);
    assert.deepEqual(helmReleaseFor(fleet, c, a), []);
  });
});
