/** The fleet repository as `delivery: applicationset` planning reads it (adapter: src/adapters/fleet-repo.ts). */
import type { GitTree } from './git-repo.js';

/** `found`: a commit, branch or tag of the repository; `missing`: none; `no-repository`: not a git repository. */
export type RevisionStatus = 'found' | 'missing' | 'no-repository';

export interface FleetRepoSource {
  /** The repository; revision `''` is the working tree. */
  tree: GitTree;
  revisionStatus(revision: string): Promise<RevisionStatus>;
}
