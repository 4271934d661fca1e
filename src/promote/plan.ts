/**
 * planPromotion: which commit a sector moves to, from which one, and which clusters move with it.
 *
 * Input: a loaded native fleet, the request (`to`, optional `revision`, `allowRollback`) and a
 * RevisionSource over the fleet's git repository. Output: a Promotion; nothing is written.
 * Sectors are promoted in the order fleet.yaml lists them: without a revision, a sector takes the
 * commit the sector before it tracks now (its pin, or the commit its branch points at). The
 * target always becomes a full 40-hex SHA. A commit that is not a descendant of the sector's
 * current pin is a rollback and is refused unless `allowRollback` (docs/adr/0142-promotion.md).
 */
import { InputError, UsageError } from '../errors/index.js';
import type { Fleet } from '../model/fleet.js';
import type { SectorSpec } from '../model/spec.js';
import type { RevisionSource } from '../ports/revisions.js';
import type { SourceLocation } from '../errors/index.js';
import type { YamlPath } from '../model/source.js';
import { formatPath } from '../model/source.js';

export const FULL_SHA = /^[0-9a-f]{40}$/;

export interface PromotionRequest {
  /** The sector to move. */
  to: string;
  /** Branch, tag, SHA or short SHA to pin; default: what the previous sector tracks. */
  revision?: string;
  /** Accept a commit that is not a descendant of the current pin. */
  allowRollback?: boolean;
}

export interface Promotion {
  sector: string;
  /** Index in spec.sectors. */
  index: number;
  /** What the sector tracks now, as written (its revision, else the fleet revision). */
  from: string;
  /** True when `from` is the fleet revision (the sector has no revision of its own). */
  fromFleet: boolean;
  /** The full SHA the sector will pin. */
  to: string;
  /** Where `to` came from: `--revision REV`, or the sector before and what it tracks. */
  source: { revision: string } | { sector: string; revision: string };
  /** Clusters whose sector is this one, sorted. */
  clusters: string[];
  /** False when the sector already pins `to`. */
  changed: boolean;
  /** True when `to` is not a descendant of the current pin (allowed only with allowRollback). */
  rollback: boolean;
}

export async function planPromotion(fleet: Fleet, request: PromotionRequest, revisions: RevisionSource): Promise<Promotion> {
  if (!fleet.capabilities.promote) {
    throw new InputError(`promote needs fleet.yaml sectors; this repository has the ${fleet.layout} layout`, {
      code: 'promote-needs-sectors',
      hint: 'promotion edits spec.sectors[].revision in a native fleet.yaml; pin commits in this layout its own way',
    });
  }
  const names = fleet.sectors.map((s) => s.name);
  if (names.length === 0) {
    throw new InputError(`promote needs fleet.yaml sectors; ${fleet.file} declares none`, {
      code: 'promote-needs-sectors',
      location: where(fleet, ['spec']),
      hint: 'list the sectors in rollout order under spec.sectors, e.g. integration, staging, production',
    });
  }
  const index = names.indexOf(request.to);
  if (index < 0) {
    throw new InputError(`unknown sector "${request.to}"`, {
      code: 'unknown-sector',
      location: where(fleet, ['spec', 'sectors']),
      hint: `declared sectors, in rollout order: ${names.join(', ')}`,
    });
  }
  const sector = fleet.sectors[index]!;
  const from = tracked(fleet, sector);

  let source: Promotion['source'];
  let to: string;
  if (request.revision !== undefined) {
    source = { revision: request.revision };
    to = await mustResolve(revisions, request.revision, fleet, () => ({
      message: `revision "${request.revision}" is not a commit of the repository`,
      hint: 'give a branch, tag or (short) SHA of the fleet repository; git fetch first if it is on a remote',
    }));
  } else {
    const prev = fleet.sectors[index - 1];
    if (!prev) {
      throw new UsageError(`"${sector.name}" is the first sector: there is no sector before it to promote from`, {
        hint: `pass --revision REV to pin a commit, or promote a later sector (${names.slice(1).join(', ') || 'none'})`,
      });
    }
    const prevRev = tracked(fleet, prev);
    source = { sector: prev.name, revision: prevRev };
    to = await mustResolve(revisions, prevRev, fleet, () => ({
      message: `sector "${prev.name}" tracks "${prevRev}"${prev.revision === undefined ? ' (the fleet revision)' : ''}, which is not a commit of the repository`,
      hint: 'git fetch the repository, fix that sector, or pass --revision REV',
      path: prev.revision !== undefined ? ['spec', 'sectors', index - 1, 'revision'] : ['spec', 'revision'],
    }));
  }

  let rollback = false;
  const changed = from !== to;
  if (changed && FULL_SHA.test(from)) {
    const current = await revisions.resolve(from);
    if (current === undefined) {
      if (!request.allowRollback) {
        throw new InputError(`sector "${sector.name}" pins ${from}, which is not a commit of the repository, so the promotion cannot be checked for a rollback`, {
          code: 'unknown-revision',
          location: where(fleet, ['spec', 'sectors', index, 'revision']),
          hint: 'git fetch the repository, or pass --allow-rollback to replace the pin without the check',
        });
      }
      rollback = true;
    } else if (!(await revisions.isAncestor(current, to))) {
      if (!request.allowRollback) {
        throw new InputError(`${to} is not a descendant of ${from}, the commit sector "${sector.name}" pins now: this would roll it back`, {
          code: 'promote-rollback',
          location: where(fleet, ['spec', 'sectors', index, 'revision']),
          hint: 'pass --allow-rollback to roll the sector back on purpose',
        });
      }
      rollback = true;
    }
  }

  const clusters = fleet.clusters.filter((c) => c.spec.sector === sector.name).map((c) => c.name).sort();
  return { sector: sector.name, index, from, fromFleet: sector.revision === undefined, to, source, clusters, changed, rollback };
}

/** file:line:column and path of a value of fleet.yaml, for messages. */
function where(fleet: Fleet, path: YamlPath): SourceLocation {
  const pos = fleet.sources.get(fleet.file)?.locate(path);
  return { file: fleet.file, ...(pos ? { line: pos.line, column: pos.column } : {}), path: formatPath(path) };
}

function tracked(fleet: Fleet, s: SectorSpec): string {
  return s.revision ?? fleet.revision;
}

async function mustResolve(revisions: RevisionSource, revision: string, fleet: Fleet, fail: () => { message: string; hint: string; path?: YamlPath }): Promise<string> {
  const sha = await revisions.resolve(revision);
  if (sha !== undefined) return sha;
  const f = fail();
  throw new InputError(f.message, { code: 'unknown-revision', hint: f.hint, ...(f.path ? { location: where(fleet, f.path) } : {}) });
}

/** The promotion as text: what changes and which clusters move. */
export function formatPromotion(p: Promotion): string {
  const from = p.fromFleet ? `${p.from} (fleet revision)` : p.from;
  const source = 'sector' in p.source ? `sector ${p.source.sector} (${p.source.revision})` : `--revision ${p.source.revision}`;
  const lines = [
    p.changed ? `${p.sector}: ${from} → ${p.to}` : `${p.sector}: already at ${p.to}`,
    `  from: ${source}`,
    `  clusters: ${p.clusters.length ? p.clusters.join(', ') : 'none'}`,
  ];
  if (p.rollback) lines.push('  rollback: the new commit is not a descendant of the current pin');
  return lines.join('\n') + '\n';
}
