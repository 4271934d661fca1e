/**
 * A custom resource and the HelmRelease that installs its CRD in one Flux Kustomization
 * (docs/adr/0321-flux-crd-from-helmrelease-in-one-kustomization.md).
 *
 * kustomize-controller applies a Kustomization's objects in stages (fluxcd/pkg ssa
 * `ApplyAllStaged`): CustomResourceDefinitions, ClusterRoles and Namespaces first, awaited; then
 * class definitions; then everything else in one `ApplyAll`, which dry-runs every object before it
 * applies any. A CRD that a HelmRelease installs does not exist until helm-controller has installed
 * the chart, which needs the HelmRelease to be applied — in that same last stage. On a new cluster
 * the dry run of the custom resource fails ("no matches for kind"), so nothing of the stage is
 * applied, the HelmRelease included: the Kustomization never becomes ready.
 *
 * No finding when the same Kustomization also holds the CRD as a plain object (stage one), or when
 * another provider is ordered before it (a Kustomization it depends on, a helmfile bootstrap phase);
 * crd-order judges custom resources whose CRD comes from another app.
 */
import type { Finding } from '../../model/finding.js';
import type { RuleDefinition } from '../engine.js';
import type { RuleContext } from '../context.js';
import type { ResolvedApp } from '../../model/resolved.js';
import { at } from '../context.js';
import type { ManifestObject } from '../../load/manifests.js';
import { isObj } from '../../load/manifests.js';
import { apiKey, chartName, helmCharts, isPlatformApi } from '../../model/catalog/operators.js';
import { needsClosure, orderedBefore, providersOn } from './crd-order.js';
import { fluxSpecOf } from '../shared-objects.js';

export const FLUX_CRD_FROM_HELMRELEASE = 'flux-crd-from-helmrelease';

/** The APIs each HelmRelease (or the OCIRepository a chartRef names) of `objects` installs. */
function releaseApis(objects: readonly ManifestObject[]): Map<string, ManifestObject> {
  const out = new Map<string, ManifestObject>();
  const add = (apis: readonly string[] | undefined, o: ManifestObject) => {
    for (const a of apis ?? []) if (!out.has(a)) out.set(a, o);
  };
  const oci = new Map(objects.filter((o) => o.kind === 'OCIRepository' && o.group === 'source.toolkit.fluxcd.io').map((o) => [`${o.namespace ?? ''}/${o.name ?? ''}`, o]));
  for (const o of objects) {
    if (o.kind !== 'HelmRelease' || o.group !== 'helm.toolkit.fluxcd.io') continue;
    const spec = isObj(o.body.spec) ? o.body.spec : {};
    const install = isObj(spec.install) ? spec.install : {};
    // crds: Skip — helm-controller installs none of the chart's CRDs.
    if (install.crds === 'Skip') continue;
    const chart = isObj(spec.chart) && isObj(spec.chart.spec) ? spec.chart.spec.chart : undefined;
    if (typeof chart === 'string') add(helmCharts[chartName(chart)], o);
    if (isObj(spec.chartRef) && spec.chartRef.kind === 'OCIRepository') {
      const src = oci.get(`${typeof spec.chartRef.namespace === 'string' ? spec.chartRef.namespace : (o.namespace ?? '')}/${String(spec.chartRef.name)}`);
      const url = src && isObj(src.body.spec) ? src.body.spec.url : undefined;
      if (typeof url === 'string') add(helmCharts[chartName(url)], o);
    }
  }
  return out;
}

/** The APIs of the plain CustomResourceDefinitions in `objects` (applied in kustomize-controller's first stage). */
function plainCrdApis(objects: readonly ManifestObject[]): Set<string> {
  const out = new Set<string>();
  for (const o of objects) {
    if (o.kind !== 'CustomResourceDefinition' || o.group !== 'apiextensions.k8s.io') continue;
    const spec = isObj(o.body.spec) ? o.body.spec : {};
    const names = isObj(spec.names) ? spec.names : {};
    if (typeof spec.group !== 'string') continue;
    out.add(spec.group);
    if (typeof names.kind === 'string') out.add(`${spec.group}/${names.kind}`);
  }
  return out;
}

/** True when the app's directory names remote resources, whose objects the static reading does not have. */
function unreadRemote(ctx: RuleContext, app: ResolvedApp): boolean {
  const path = ctx.localPath(app);
  return path !== undefined && (ctx.manifests.directory(path).unresolved ?? []).some((u) => u.remote);
}

export const fluxCrdFromHelmReleaseRule: RuleDefinition = {
  name: FLUX_CRD_FROM_HELMRELEASE,
  codes: {
    [FLUX_CRD_FROM_HELMRELEASE]: {
      severity: 'error',
      summary: 'custom resource in the same Flux Kustomization as the HelmRelease that installs its CRD',
      help: 'kustomize-controller dry-runs all of a Kustomization\'s objects (after its CRDs and Namespaces) before applying any; a CRD that a HelmRelease installs is not there yet, so the HelmRelease itself is never applied on a new cluster. Move the custom resources into a Kustomization that dependsOn this one (with wait: true).',
    },
  },
  run(ctx) {
    const out: Finding[] = [];
    if (ctx.fleet.engine !== 'flux') return out;
    for (const c of ctx.clusters) {
      const providers = providersOn(ctx, c);
      const closure = needsClosure(c);
      for (const app of c.apps) {
        const objs = ctx.objectsOf(c, app);
        if (!objs) continue;
        const fromRelease = releaseApis(objs);
        if (fromRelease.size === 0) continue;
        // A Kustomization applied before this one whose remote resources are not read may install the
        // CRD (crds/ with cert-manager.crds.yaml by URL): not known, and flux-build-remote says so.
        if (c.apps.some((p) => p !== app && unreadRemote(ctx, p) && orderedBefore(ctx, c, p, app, closure))) continue;
        const plain = plainCrdApis(objs);
        // One finding per HelmRelease and API group, at the first custom resource (in file order).
        const groups = new Map<string, { release: ManifestObject; objects: ManifestObject[] }>();
        for (const o of objs) {
          if (o.group === '' || o.kind === 'CustomResourceDefinition') continue;
          const key = apiKey(o.group, o.kind);
          if (isPlatformApi(c.platform, key) || /^([a-z.]+\.)?(toolkit\.fluxcd\.io|fluxcd\.controlplane\.io)\b/.test(key)) continue;
          const release = fromRelease.get(key) ?? fromRelease.get(o.group);
          if (!release || plain.has(key) || plain.has(o.group)) continue;
          const others = [...(providers.get(key) ?? []), ...(providers.get(o.group) ?? [])].filter((p) => p.app !== app);
          if (others.some((p) => orderedBefore(ctx, c, p.app, app, closure))) continue;
          const g = `${release.file}:${release.line}\u0000${o.group}`;
          let entry = groups.get(g);
          if (!entry) groups.set(g, (entry = { release, objects: [] }));
          if (!entry.objects.some((x) => x.file === o.file && x.line === o.line)) entry.objects.push(o);
        }
        for (const { release, objects } of groups.values()) {
          const o = objects[0]!;
          // kustomize-controller sets the Kustomization's targetNamespace on every namespaced object it applies.
          const target = fluxSpecOf(ctx, app)?.targetNamespace;
          const hr = `${typeof target === 'string' && target !== '' ? target : release.namespace ?? '?'}/${release.name ?? '?'}`;
          const kinds = [...new Set(objects.map((x) => x.kind))].sort();
          const more = objects.length > 1 ? ` and ${objects.length - 1} more ${o.group} object${objects.length === 2 ? '' : 's'} (${kinds.join(', ')}; ${objects.slice(1, 4).map((x) => `${x.file}:${x.line}`).join(', ')}${objects.length > 4 ? ', …' : ''})` : '';
          out.push(at(o.file, o.line, {
            severity: 'error',
            code: FLUX_CRD_FROM_HELMRELEASE,
            message: `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name ?? '?'} (${o.group})${more} ${objects.length > 1 ? 'are' : 'is'} applied by Kustomization "${app.name}" together with HelmRelease ${hr} (${release.file}:${release.line}), which installs the CRD${objects.length > 1 ? 's' : ''}; kustomize-controller dry-runs the whole apply before helm-controller can install the chart, so on a new cluster the dry run fails ("no matches for kind ${o.kind}") and the HelmRelease is never applied (cluster ${c.name})`,
            hint: `move the ${kinds.join(', ')} objects into a Kustomization with dependsOn: [${app.name.replace(/^flux:[^/]*\//, '')}] and wait: true (or a healthCheck on HelmRelease ${hr}), or commit the chart's CRDs as plain objects of this Kustomization`,
            cluster: c.name,
            app: app.name,
          }));
        }
      }
    }
    return out;
  },
};
