import type { CommandSpec } from '../command.js';

export const promoteCommand: CommandSpec = {
  name: 'promote',
  summary: 'pin a sector to a commit: the one the sector before it tracks, or --revision',
  usage: `Usage: fleetplan promote --to SECTOR [--revision REV] [--allow-rollback] [--dry-run] [--repo DIR]

Sets spec.sectors[SECTOR].revision in fleet.yaml to a full commit SHA, editing only that value
(comments and formatting stay). Sectors promote in the order fleet.yaml lists them, e.g.
integration → staging → production:
  without --revision   the commit the sector before SECTOR tracks now (its pin, or the commit
                       its branch points at)
  --revision REV       a branch, tag, SHA or short SHA of the repository, resolved with git
  --allow-rollback     accept a commit that is not a descendant of the sector's current pin
  --dry-run            print what would change, write nothing, and the diff the promotion would
                       deploy: each of the sector's clusters as the repository holds it at the
                       revision the sector tracks now against the new commit (as fleetplan diff)
Prints the sector, its old and new revision, and the clusters that move.`,
  examples: [
    { what: 'what pinning sector lab to the current commit would change, writing nothing', run: 'fleetplan promote --repo examples/lab --to lab --revision HEAD --dry-run' },
    { what: 'pin production to the commit staging tracks now', run: 'fleetplan promote --to production', notRun: 'needs a fleet with staging and production sectors' },
  ],
  complete: { flags: { to: 'sector', revision: 'none' } },
  options: {
    to: { type: 'string' },
    revision: { type: 'string' },
    'allow-rollback': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  },
};
