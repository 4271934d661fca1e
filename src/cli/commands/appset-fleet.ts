/**
 * `fleetplan appset --clusters fleet`: the cluster identity Secrets of every cluster of the
 * fleet in the repository (`clusterSecretFor` over the resolved clusters).
 */
import { fleetIdentitySecrets, resolveFleet } from '../../index.js';
import type { ClusterSecret } from '../../index.js';
import type { CommandContext } from '../command.js';
import { load } from '../common.js';

export async function clusterSecretsFromFleet(ctx: CommandContext): Promise<ClusterSecret[]> {
  const { fleet } = await load(ctx);
  return fleetIdentitySecrets(resolveFleet(fleet));
}
