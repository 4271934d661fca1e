/**
 * `fleetplan appset --clusters fleet`: the cluster identity Secrets of every cluster of the
 * fleet in the repository. This is the hook the fleet model fills in.
 */
import { UsageError } from '../../errors/index.js';
import type { ClusterSecret } from '../../appset/types.js';

export function clusterSecretsFromFleet(_repoDir: string): Promise<ClusterSecret[]> {
  return Promise.reject(
    new UsageError('--clusters fleet is not available yet: the fleet model does not produce cluster identity Secrets', {
      hint: 'give the cluster Secrets with --clusters FILE',
    }),
  );
}
