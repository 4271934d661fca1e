/**
 * `planRepository`: the plan of a resolved fleet, whatever its delivery. Under `delivery:
 * applicationset` each cluster's Applications are what its root ApplicationSet generates,
 * evaluated over the repository read through real git (adapters/fleet-repo.ts).
 */
import { createFleetRepoSource } from '../adapters/fleet-repo.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { Plan } from '../model/plan.js';
import { planApplicationSetFleet } from '../order/applicationset-apps.js';
import { planFleet, type PlanOptions } from '../order/plan.js';

export async function planRepository(resolved: ResolvedFleet, options: PlanOptions = {}): Promise<Plan> {
  if (resolved.fleet.delivery !== 'applicationset') return planFleet(resolved, options);
  const source = await createFleetRepoSource(resolved.fleet.root);
  try {
    return await planApplicationSetFleet(resolved, source);
  } finally {
    source.close();
  }
}
