/**
 * Placement policies from fleet.yaml `spec.validation.placement`: apps matching a policy may run
 * only on the clusters it allows (`allowedOn`), and every cluster it requires (`requiredOn`) must
 * get a matching app — on the cluster itself, or on its hub (`from: hub`, for things like an ACM
 * policy that the hub pushes to its spokes).
 */
import type { Finding } from '../../model/finding.js';
import type { ResolvedCluster } from '../../model/resolved.js';
import type { ClusterSelector, PlacementPolicy } from '../../model/spec.js';
import type { RuleDefinition } from '../engine.js';
import { place } from '../context.js';

export function globMatch(glob: string, name: string): boolean {
  const re = new RegExp('^' + glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
  return re.test(name);
}

export function selects(sel: ClusterSelector, c: ResolvedCluster): boolean {
  if (sel.roles && !sel.roles.includes(c.role)) return false;
  if (sel.names && !sel.names.some((n) => globMatch(n, c.name))) return false;
  if (sel.groups && !sel.groups.some((g) => c.groups.includes(g))) return false;
  if (sel.labels && !Object.entries(sel.labels).every(([k, v]) => c.labels[k] === v)) return false;
  return true;
}

export function describeSelector(sel: ClusterSelector): string {
  const parts: string[] = [];
  if (sel.roles) parts.push(`role ${sel.roles.join(' or ')}`);
  if (sel.names) parts.push(`name ${sel.names.join(' or ')}`);
  if (sel.groups) parts.push(`group ${sel.groups.join(' or ')}`);
  if (sel.labels) parts.push(Object.entries(sel.labels).map(([k, v]) => `${k}=${v}`).join(', '));
  return parts.join(', ') || 'any cluster';
}

export const placementRule: RuleDefinition = {
  name: 'placement',
  codes: {
    'placement-not-allowed': {
      severity: 'error',
      summary: 'app runs on a cluster its placement policy does not allow',
      help: 'A placement policy in fleet.yaml spec.validation.placement restricts where matching apps may run (for example storage only on infra clusters). Move the app or change the policy.',
    },
    'placement-missing': {
      severity: 'error',
      summary: 'cluster lacks an app its placement policy requires',
      help: 'A placement policy in fleet.yaml spec.validation.placement requires every matching cluster to get one of its apps (for example the GitOps bootstrap policy for every spoke). Add the app (to a group the cluster lists) or change the policy.',
    },
  },
  run(ctx) {
    const { fleet } = ctx;
    const out: Finding[] = [];
    const policies: PlacementPolicy[] = ctx.settings.placement ?? [];
    const byName = new Map(ctx.clusters.map((c) => [c.name, c]));
    policies.forEach((p, i) => {
      const origin = { file: fleet.file, path: ['spec', 'validation', 'placement', i] };
      const matches = (name: string) => p.apps.some((g) => globMatch(g, name));
      for (const c of ctx.clusters) {
        if (p.allowedOn && !selects(p.allowedOn, c)) {
          for (const app of c.apps.filter((a) => matches(a.name))) {
            out.push(place(fleet, app.origin, {
              severity: p.severity ?? 'error',
              code: 'placement-not-allowed',
              message: `app "${app.name}" runs on cluster ${c.name} (role ${c.role}), but placement policy "${p.name}" allows it only on ${describeSelector(p.allowedOn)}`,
              hint: `remove it from ${c.name} or change the policy in ${fleet.file}`,
              cluster: c.name,
              app: app.name,
            }));
          }
        }
        if (p.requiredOn && selects(p.requiredOn, c)) {
          const from = p.from === 'hub' ? (c.hub !== undefined ? byName.get(c.hub) : undefined) : c;
          if (p.from === 'hub' && c.hub !== undefined && !byName.has(c.hub)) continue; // hub not selected
          if (!from || !from.apps.some((a) => matches(a.name))) {
            out.push(place(fleet, { file: c.file, path: ['spec'] }, {
              severity: p.severity ?? 'error',
              code: 'placement-missing',
              message: `cluster ${c.name} gets no app matching ${p.apps.join(', ')}${p.from === 'hub' ? ` from ${c.hub !== undefined ? `its hub ${c.hub}` : 'a hub (it has none)'}` : ''}, required by placement policy "${p.name}"`,
              hint: `add the app${p.from === 'hub' ? ' to the hub' : ''}, or change the policy at ${fleet.file} ${origin.path.join('.')}`,
              cluster: c.name,
            }));
          }
        }
      }
    });
    return out;
  },
};
