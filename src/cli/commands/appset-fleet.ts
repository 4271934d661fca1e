/**
 * `fleetplan appset --clusters fleet`: the cluster identity Secrets of every cluster of the
 * fleet in the repository (`clusterSecretFor` over the resolved clusters).
 */
import { InputError, fleetClusterSecrets, resolveFleet, hasErrors, findingLine } from '../../index.js';
import type { ClusterSecret } from '../../index.js';
import type { CommandContext } from '../command.js';
import { load } from '../common.js';

export async function clusterSecretsFromFleet(ctx: CommandContext): Promise<ClusterSecret[]> {
  const { fleet } = await load(ctx);
  const { clusters, findings } = resolveFleet(fleet);
  if (hasErrors(findings)) {
    const errors = findings.filter((f) => f.severity === 'error');
    throw new InputError(`--clusters fleet: the fleet has ${errors.length} error(s):\n${errors.map((f) => findingLine(f)).join('\n')}`, {
      code: 'fleet-errors',
      hint: 'fix them (fleetplan validate) or give the cluster Secrets with --clusters FILE',
    });
  }
  return fleetClusterSecrets(fleet, clusters);
}
