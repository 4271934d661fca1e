/**
 * `fleetplan appset --clusters fleet`: the cluster identity Secrets of every cluster of the
 * fleet in the repository (`clusterSecretFor` over the resolved clusters).
 */
import { fleetIdentitySecrets } from '../../entry/appset.js';
import { resolveFleet } from '../../entry/fleet.js';
import type { ClusterSecret } from '../../entry/appset.js';
import type { CommandContext } from '../command.js';
import { checkSelector } from '../common.js';
import { load, selectedClusters } from '../fleet-read.js';

/** With --cluster / -l, only the chosen clusters' Secrets (each cluster's own Argo CD sees only its own). */
export async function clusterSecretsFromFleet(ctx: CommandContext): Promise<ClusterSecret[]> {
  checkSelector(ctx);
  // `--clusters fleet` here means the fleet's own clusters, not a file of Secrets.
  const { fleet } = await load(ctx, { clusterSecrets: false });
  return fleetIdentitySecrets(resolveFleet(fleet, { clusters: selectedClusters(ctx, fleet) }));
}
