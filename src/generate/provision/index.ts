/**
 * Stage 3, generate (provisioning): the hub-side objects that create a fleet's spokes.
 *
 * Input: a Fleet and a hub. Output: one ProvisionBundle per app the hub gets for provisioning —
 * one per spoke whose cluster.yaml has `provision:` (named after the spoke) and one with the
 * hub-wide ACM–GitOps wiring (GITOPS_WIRING_APP) — each rendered as a kustomize directory at
 * `<renderedPath>/<hub>/provision/<app>` (src/render/provision.ts). Pure.
 */
import { bootstrapFor } from '../argocd.js';
import { bootstrapRunnerObjects } from '../bootstrap-runner.js';
import type { ClusterDef, Fleet } from '../../model/fleet.js';
import type { ResolvedCluster } from '../../model/resolved.js';
import { provisionedSpokes } from '../../layering/provision-apps.js';
import { resolveCluster } from '../../layering/resolve.js';
import { defaultGitopsNamespace } from '../../layering/resolve.js';
import { gitopsWiringBundle, rootPolicyObjects } from './acm-gitops.js';
import type { WiringSet } from './acm-gitops.js';
import { agentBundle } from './agent.js';
import type { ProvisionBundle } from './bundle.js';
import { capiEksBundle } from './capi-eks.js';
import type { ProvisionInput } from './common.js';
import { channelOf, clusterSetOf } from './common.js';
import { hiveAwsBundle } from './hive-aws.js';

export type { ProvisionBundle } from './bundle.js';
export type { ProvisionInput } from './common.js';
export { imageSetOf } from './common.js';
export { GITOPS_WIRING_APP, POLICY_NAMESPACE, DEFAULT_PROVISION_WAVE, provisionPath } from '../../model/constants.js';

export { provisionedSpokes };

/** A spoke's provision section with its variables substituted, and what the generators need with it. */
export function provisionInput(fleet: Fleet, spoke: ResolvedCluster): ProvisionInput {
  const spec = spoke.provision!;
  return { name: spoke.name, hub: spoke.hub ?? '', spec, region: spec.region ?? spoke.region, fleetName: fleet.name };
}

/** The installer's objects for one spoke (without the GitOps hand-off). */
export function installerBundle(input: ProvisionInput): ProvisionBundle {
  switch (input.spec.installer) {
    case 'hive-aws':
      return hiveAwsBundle(input);
    case 'capi-eks':
      return capiEksBundle(input);
    case 'agent':
      return agentBundle(input);
  }
}

/** EKS spokes never run OpenShift, whatever the fleet's default platform says. */
function runsArgoOnOpenShift(fleet: Fleet, def: ClusterDef): boolean {
  if (def.spec.provision?.installer === 'capi-eks') return false;
  return (def.spec.platform ?? fleet.platform) === 'openshift' && fleet.engine === 'argocd';
}

/** A resolved cluster by name: ResolvedFleet.cluster, or a fresh resolution. */
export type ClusterLookup = (name: string) => ResolvedCluster;

const resolveNow = (fleet: Fleet): ClusterLookup => (name) => resolveCluster(fleet, name).cluster;

/** Everything the spoke's provisioning app holds: the installer's objects and its root-application policy. */
export function provisionBundle(fleet: Fleet, spoke: string, lookup: ClusterLookup = resolveNow(fleet)): ProvisionBundle {
  const def = fleet.clusters.find((c) => c.name === spoke);
  if (!def?.spec.provision) throw new Error(`cluster ${spoke} has no provision section`);
  const resolved = lookup(spoke);
  const input = provisionInput(fleet, resolved);
  const bundle = installerBundle(input);
  if (fleet.bootstrapRunner) {
    // The runner bootstraps the spoke from the hub (ADR 0239), instead of the root policy: two
    // owners of the spoke's day-0 objects would fight over them.
    bundle.objects.push(...bootstrapRunnerObjects({ fleet, spoke: resolved, hive: input.spec.installer !== 'capi-eks' }));
  } else if (runsArgoOnOpenShift(fleet, def)) {
    const bootstrap = bootstrapFor(fleet, resolved).flatMap((f) => f.objects);
    bundle.objects.push(...rootPolicyObjects(resolved, clusterSetOf(input), bootstrap, channelOf(input.spec)));
  }
  return bundle;
}

/** The bundles of every provisioning app of a hub: spokes by name, then the wiring. [] when it provisions none. */
export function provisionBundlesFor(fleet: Fleet, hub: string, lookup: ClusterLookup = resolveNow(fleet)): ProvisionBundle[] {
  const spokes = provisionedSpokes(fleet, hub);
  if (spokes.length === 0) return [];
  const bundles = spokes.map((s) => provisionBundle(fleet, s.name, lookup));
  const hubDef = fleet.clusters.find((c) => c.name === hub);
  const gitopsNamespace = fleet.gitopsNamespace ?? defaultGitopsNamespace(hubDef?.spec.platform ?? fleet.platform);
  const sets = new Map<string, WiringSet>();
  for (const s of spokes) {
    const name = clusterSetOf(provisionInput(fleet, lookup(s.name)));
    const e = sets.get(name) ?? { name, openshift: false };
    // With a bootstrap runner, fleetplan bootstrap installs the operator: no OperatorPolicy as a second owner (ADR 0239).
    e.openshift ||= !fleet.bootstrapRunner && runsArgoOnOpenShift(fleet, s);
    sets.set(name, e);
  }
  bundles.push(gitopsWiringBundle(fleet, hub, gitopsNamespace, [...sets.values()].sort((a, b) => (a.name < b.name ? -1 : 1))));
  return bundles;
}
