/** A RevisionSource over a local git repository (real git), for promotion. */
import { FleetplanError } from '../errors/index.js';
import type { RevisionSource } from '../ports/revisions.js';
import { createLocalGitTree, isAncestor } from './git.js';

export function gitRevisions(dir: string): RevisionSource & { close(): void } {
  const tree = createLocalGitTree(dir);
  return {
    async resolve(revision) {
      try {
        return await tree.resolve(revision);
      } catch (e) {
        if (e instanceof FleetplanError && e.code === 'unknown-revision') return undefined;
        throw e;
      }
    },
    isAncestor: (ancestor, descendant) => isAncestor(dir, ancestor, descendant),
    close: () => tree.close(),
  };
}
