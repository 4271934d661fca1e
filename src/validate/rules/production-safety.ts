/**
 * Production safety: a protected sector (production, unless it says otherwise) must track a
 * pinned commit, not a branch; and an object applied by several apps of one cluster is judged by
 * what the tools do with it (../shared-objects.ts): different content fights, the same content
 * only makes the ownership marks flap.
 */
import type { Finding } from '../../model/finding.js';
import type { SectorSpec } from '../../model/spec.js';
import type { RuleDefinition } from '../engine.js';
import { fieldOrigin, place } from '../context.js';
import { sharedObjectFindings } from '../shared-objects.js';
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
      summary: 'apps of one cluster apply one object with different content',
      help: 'Several apps (Argo CD Applications, Flux Kustomizations) apply the same object with different content, with content fleetplan cannot compute, or with Argo CD\'s FailOnSharedResource=true: the object holds whichever applied last (or the sync fails). Keep the object in one app and let the others depend on it.',
    },
    'shared-object-identical': {
      severity: 'warning',
      summary: 'apps of one cluster apply one object with the same content',
      help: 'Several apps apply the same object with the same content: nothing fails, but the ownership marks flap (Flux owner labels, Argo CD tracking and SharedResourceWarning) and the app that stops listing it deletes it if it applied last. Keep the object in one app and let the others depend on it.',
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
    }
    out.push(...sharedObjectFindings(ctx));
    return out;
  },
};
