/**
 * Applications that a cluster's Argo CD creates with the API server of a cluster the fleet itself
 * provisions as their destination (the region-specs layout's ApplicationSets: list elements with
 * `destination: https://api.<cluster>.<domain>:6443`). That server is known to Argo CD only once
 * the cluster is installed and registered (a cluster Secret); until then the Applications fail
 * with an unknown destination, and nothing syncs them again in their wave order.
 *
 * Read: the Applications written in the repository (./argo-objects.ts) and the apps fleetplan
 * generates on a cluster with an explicit `server:`. Not reported: a cluster's Applications that
 * point at its own API URL (fleetplan delivers a spoke's apps through the spoke's own Argo CD),
 * destinations given by name (`destination.name`, which names a registered cluster), and
 * ApplicationSets with a `clusters` generator (they generate Applications for registered clusters
 * only).
 */
import type { Finding } from '../../model/finding.js';
import type { ClusterDef } from '../../model/fleet.js';
import type { RuleDefinition } from '../engine.js';
import type { RuleContext } from '../context.js';
import { at, fieldOrigin, normalizeRepoPath, place } from '../context.js';
import type { ArgoApplication } from '../argo-objects.js';
import { ArgoLocator, argoApplications } from '../argo-objects.js';
import { staticKustomize } from './kustomize-patches.js';
import { formatPath } from '../../model/source.js';

/** Kinds whose object, named after the cluster, creates or registers it. */
const PROVISIONING_KINDS = new Set(['ClusterDeployment', 'Cluster', 'HostedCluster', 'ManagedCluster', 'ClusterInstance']);

const trimSlash = (s: string) => s.replace(/\/+$/, '');

interface Provisioned {
  def: ClusterDef;
  /** The API server URL when the fleet knows it before the cluster exists. */
  server: string | undefined;
}

/** How a destination server names a provisioned cluster: its URL, an api.<name>. URL, or the bare name. */
function matchServer(server: string, clusters: readonly Provisioned[]): { cluster: Provisioned; how: 'url' | 'name' } | undefined {
  const s = trimSlash(server);
  for (const c of clusters) {
    if (c.server !== undefined && trimSlash(c.server) === s) return { cluster: c, how: 'url' };
    if (s === c.def.name) return { cluster: c, how: 'name' };
    if (s.startsWith(`https://api.${c.def.name}.`)) return { cluster: c, how: 'url' };
  }
  return undefined;
}

/** The Application (of the same Argo CD) whose objects create the cluster, read statically. */
function provisionerOf(ctx: RuleContext, apps: readonly ArgoApplication[], cluster: string): ArgoApplication | undefined {
  const reader = staticKustomize(ctx);
  for (const a of apps) {
    const dir = a.path === undefined ? undefined : normalizeRepoPath(a.path);
    if (dir === undefined || !ctx.fs.isDirectory(dir)) continue;
    const built = reader.build(dir);
    if (built.objects.some((o) => PROVISIONING_KINDS.has(String(o.body.kind)) && (o.body.metadata as Record<string, unknown> | undefined)?.name === cluster)) return a;
  }
  return undefined;
}

export const destinationRegistrationRule: RuleDefinition = {
  name: 'destination-registration',
  codes: {
    'destination-before-registration': {
      severity: 'warning',
      summary: 'Application targets the API server of a cluster the fleet has yet to provision',
      help: 'Argo CD knows a destination server only once the cluster is registered (a cluster Secret). Applications created before the cluster is installed and registered fail with an unknown destination, and nothing syncs them again in wave order. Target the cluster by name once it is registered (ACM GitOpsCluster registration, or a `clusters` generator that selects registered clusters, so the Applications appear only after registration), or deliver from the spoke\'s own Argo CD.',
    },
  },
  run(ctx) {
    const { fleet, clusters } = ctx;
    const provisioned: Provisioned[] = fleet.clusters
      .filter((c) => c.spec.provision !== undefined)
      .map((c) => ({ def: c, server: c.spec.server }));
    if (provisioned.length === 0) return [];
    const out: Finding[] = [];
    const locator = new ArgoLocator(ctx.fs);
    const written = argoApplications(ctx);
    for (const a of written) {
      if (a.server === undefined) continue;
      const m = matchServer(a.server, provisioned);
      if (!m || m.cluster.def.name === a.cluster) continue;
      const target = m.cluster.def;
      const peers = written.filter((p) => p.cluster === a.cluster && p.file === a.file && p.docName === a.docName);
      const provisioner = provisionerOf(ctx, peers, target.name) ?? provisionerOf(ctx, written.filter((p) => p.cluster === a.cluster), target.name);
      const by = provisioner
        ? `Application "${provisioner.name}" (${provisioner.path ?? '?'}) creates it`
        : `app "${target.name}" on ${target.spec.hub ?? a.cluster} creates it`;
      const generated = a.appSet ? `Application "${a.name}" of ApplicationSet "${a.appSet}"` : `Application "${a.name}"`;
      const message =
        m.how === 'url'
          ? `${generated} is created in the Argo CD of ${a.cluster} with destination ${a.server}, the API server of ${target.name}, which the fleet provisions (${by}): Argo CD knows that server only after ${target.name} is installed and registered, so until then the Application fails with an unknown destination and nothing syncs it again in wave order`
          : `${generated} is created in the Argo CD of ${a.cluster} with destination server "${a.server}", the name of ${target.name}, which the fleet provisions (${by}): destination.server takes the API URL, so Argo CD finds no such cluster, and none exists before ${target.name} is installed and registered`;
      const pos = locator.locate(a, a.serverAt);
      out.push({ ...at(a.file, pos.line, {
        severity: 'warning',
        code: 'destination-before-registration',
        message,
        hint: `target ${target.name} by name once it is registered (destination.name, e.g. through ACM GitOpsCluster registration, or a clusters generator that selects registered clusters so the Applications appear only after registration), or deliver these apps from ${target.name}'s own Argo CD`,
        cluster: a.cluster,
      }, pos.column), path: formatPath(a.serverAt) });
    }
    // Apps fleetplan generates on one cluster with another, provisioned, cluster's server.
    for (const c of clusters) {
      for (const app of c.apps) {
        const m = matchServer(app.destination.server, provisioned);
        if (!m || m.cluster.def.name === c.name) continue;
        const target = m.cluster.def;
        out.push(place(fleet, fieldOrigin(fleet, app, ['server']), {
          severity: 'warning',
          code: 'destination-before-registration',
          message: `app "${app.name}" is created in the Argo CD of ${c.name} with destination ${app.destination.server}, the API server of ${target.name}, which the fleet provisions (app "${target.name}" on ${target.spec.hub ?? c.name} creates it): Argo CD knows that server only after ${target.name} is installed and registered, so until then the Application fails with an unknown destination`,
          hint: `put the app on ${target.name} itself (its own Argo CD), where it needs no server`,
          cluster: c.name,
          app: app.name,
        }));
      }
    }
    return out;
  },
};
