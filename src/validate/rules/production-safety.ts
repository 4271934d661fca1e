/**
 * Production safety: a protected sector (production, unless it says otherwise) must track a
 * pinned commit, not a branch; and no two apps on one cluster may write the same object — the
 * second Application fights the first (or fails with FailOnSharedResource).
 */
import type { Finding } from '../../model/finding.js';
import type { SectorSpec } from '../../model/spec.js';
import { substitute } from '../../model/substitute.js';
import type { RuleDefinition } from '../engine.js';
import { at, fieldOrigin, place } from '../context.js';
import { CLUSTER_SCOPED } from '../../load/manifests.js';
import { PHASE_LABEL } from '../../model/constants.js';
import { sameRepository } from '../../model/git-url.js';

const SHA = /^[0-9a-f]{40}$/;

export function isProtected(s: SectorSpec): boolean {
  return s.protected ?? s.name === 'production';
}

export const productionSafetyRule: RuleDefinition = {
  name: 'production-safety',
  codes: {
    'unpinned-protected-sector': {
      severity: 'error',
      summary: 'protected sector tracks a branch instead of a pinned commit',
      help: 'A protected sector (production by default) must pin a 40-hex commit so that what runs there changes only by promotion. Set the sector revision to a commit (fleetplan promote does it).',
    },
    'shared-object': {
      severity: 'error',
      summary: 'two apps write the same object on one cluster',
      help: 'Two Applications managing one object overwrite each other on every sync (or the second fails with FailOnSharedResource); two Flux Kustomizations overwrite each other\'s owner labels and may prune it. Keep the object in one app.',
    },
  },
  run(ctx) {
    const { fleet } = ctx;
    const out: Finding[] = [];
    const usedSectors = new Set(ctx.clusters.map((c) => c.sector).filter((s): s is string => s !== undefined));
    fleet.sectors.forEach((s, i) => {
      if (!isProtected(s) || !usedSectors.has(s.name)) return;
      const rev = s.revision ?? fleet.revision;
      if (SHA.test(rev)) return;
      out.push(place(fleet, { file: fleet.file, path: s.revision !== undefined ? ['spec', 'sectors', i, 'revision'] : ['spec', 'sectors', i] }, {
        severity: 'error',
        code: 'unpinned-protected-sector',
        message: `protected sector "${s.name}" tracks "${rev}"${s.revision === undefined ? ' (the fleet revision)' : ''}, not a pinned commit`,
        hint: 'set its revision to a 40-hex commit, e.g. with `fleetplan promote --to ' + s.name + '`, or set protected: false',
      }));
    });
    const protectedNames = new Set(fleet.sectors.filter(isProtected).map((s) => s.name));
    for (const c of ctx.clusters) {
      // Apps of the fleet repository that override the revision on a protected cluster.
      if (c.sector !== undefined && protectedNames.has(c.sector)) {
        for (const app of c.apps) {
          if (!sameRepository(app.source.repoURL, fleet.repoURL) || app.source.chart !== undefined) continue;
          const rev = app.source.targetRevision;
          if (rev === c.revision || SHA.test(rev)) continue;
          out.push(place(fleet, fieldOrigin(fleet, app, ['targetRevision']), {
            severity: 'error',
            code: 'unpinned-protected-sector',
            message: `app "${app.name}" on cluster ${c.name} (protected sector ${c.sector}) tracks "${rev}", not a pinned commit`,
            hint: 'drop targetRevision so the app follows the sector pin, or pin a commit',
            cluster: c.name,
            app: app.name,
          }));
        }
      }
      const lookup = (n: string) => c.vars[n];
      const byName = new Map(c.apps.map((a) => [a.name, a]));
      const owners = new Map<string, { app: string; file: string; line: number }>();
      for (const app of c.apps) {
        for (const o of ctx.objectsOf(c, app) ?? []) {
          if (!o.name || o.renamed) continue;
          const name = o.name.includes('$') ? substitute(o.name, lookup).text : o.name;
          const ns = CLUSTER_SCOPED.has(o.kind) ? '' : (o.namespace ?? app.destination.namespace ?? '');
          const nsText = ns.includes('$') ? substitute(ns, lookup).text : ns;
          // Flux's post-build variables are each Kustomization's own (leafVariables: false): `${APP}-env` built by two
          // Kustomizations is two objects once Flux substitutes them, so a name still holding `${` is not compared.
          if (fleet.engine === 'flux' && app.name.startsWith('flux:') && (name.includes('${') || nsText.includes('${'))) continue;
          const key = `${o.group}/${o.kind}/${nsText}/${name}`;
          const prev = owners.get(key);
          if (!prev) {
            owners.set(key, { app: app.name, file: o.file, line: o.line });
            continue;
          }
          if (prev.app === app.name) continue;
          // A bootstrap phase applies objects that GitOps then takes over (seed 003's hand-off).
          if (byName.get(prev.app)?.labels[PHASE_LABEL] !== undefined || app.labels[PHASE_LABEL] !== undefined) continue;
          const flux = fleet.engine === 'flux' && app.name.startsWith('flux:') && prev.app.startsWith('flux:');
          const what = flux ? 'Kustomization' : 'app';
          out.push(at(o.file, o.line, {
            severity: 'error',
            code: 'shared-object',
            message: `${o.kind} ${nsText ? nsText + '/' : ''}${name} is written by ${what} "${app.name}" and by ${what} "${prev.app}" (${prev.file}:${prev.line}) on cluster ${c.name}`,
            hint: flux
              // kustomize-controller applies every Kustomization with one field manager: no conflict is raised (fluxcd/kustomize-controller#1724).
              ? 'kustomize-controller applies both with the same field manager, so each reconcile silently overwrites the other\'s owner labels (kustomize.toolkit.fluxcd.io/name and /namespace), and when one of them stops applying the object its pruning can delete it while the other still applies it; keep the object in one Kustomization and give the other a dependsOn on it'
              : 'keep the object in one app; the other can depend on it with needs',
            cluster: c.name,
            app: app.name,
          }));
        }
      }
    }
    return out;
  },
};
