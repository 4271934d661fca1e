/**
 * `fleetplan appset --clusters fleet`: the cluster identity Secrets of a resolved fleet. Apart
 * from ./appset.ts so that an ApplicationSet run without the fleet loads none of its stages.
 */
import type { ClusterSecret } from '../appset/types.js';
import { InputError } from '../errors/index.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import { hasErrors } from '../model/finding.js';
import { fleetClusterSecrets } from '../order/applicationset-apps.js';
import { findingLine } from '../render/plan-format.js';

/** The cluster identity Secret of every cluster of a resolved fleet; an InputError when the fleet has errors. */
export function fleetIdentitySecrets(resolved: ResolvedFleet): ClusterSecret[] {
  if (hasErrors(resolved.findings)) {
    const errors = resolved.findings.filter((f) => f.severity === 'error');
    throw new InputError(`--clusters fleet: the fleet has ${errors.length} error(s):\n${errors.map((f) => findingLine(f)).join('\n')}`, {
      code: 'fleet-errors',
      hint: 'fix them (fleetplan validate) or give the cluster Secrets with --clusters FILE',
    });
  }
  const secrets = fleetClusterSecrets(resolved.fleet, resolved.clusters);
  // The cluster generator keys Secrets by cluster name: two with one name would replace each other.
  const byName = new Map<string, string[]>();
  resolved.clusters.forEach((c, i) => {
    const name = secrets[i]!.data['name'] ?? '';
    byName.set(name, [...(byName.get(name) ?? []), c.name]);
  });
  const shared = [...byName.entries()].filter(([, cs]) => cs.length > 1);
  if (shared.length > 0) {
    const [name, cs] = shared[0]!;
    throw new InputError(`--clusters fleet: the identity Secrets of ${cs.join(', ')} all name the cluster "${name}": each of these clusters runs its own Argo CD, which sees only its own Secret, and offline they would replace each other`, {
      code: 'identity-name-shared',
      hint: `choose one cluster with --cluster C or -l SELECTOR (e.g. --cluster ${cs[0]}); fleetplan plan shows every cluster's Applications`,
    });
  }
  return secrets;
}
