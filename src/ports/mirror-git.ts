/**
 * The MirrorGit port: what phase 2 (src/apply/mirror.ts) needs from git — the fleet repository's
 * local clone and a remote it pushes to with credentials. `src/adapters/git-push.ts` implements
 * it with the real git binary (docs/adr/0237-push-credentials.md).
 */

/** Push credentials, read from a Secret on the cluster; never written to Git, argv or environment. */
export interface GitCredentials {
  username: string;
  password: string;
}

/** A file as the phase-2 tree should hold it (path from the repository root). */
export interface ExpectedFile {
  path: string;
  content: string;
}

export interface TreeDifference {
  /** Expected, absent from the commit. */
  missing: string[];
  /** Present with other content. */
  differ: string[];
}

export interface MirrorGit {
  /** The commit a revision (branch, tag, commit, HEAD) names in the local repository. */
  resolve(revision: string): Promise<string>;
  /** Whether the local repository has this commit. */
  hasCommit(commit: string): Promise<boolean>;
  /** How the files at `commit` differ from `expected`. */
  compareTree(commit: string, expected: readonly ExpectedFile[]): Promise<TreeDifference>;
  /** The commit a branch of the remote points at; undefined when the branch does not exist. */
  remoteBranch(url: string, branch: string, credentials: GitCredentials): Promise<string | undefined>;
  /** Pushes `commit` to `refs/heads/<branch>` of the remote; `force` replaces a branch that is not its ancestor. */
  push(url: string, commit: string, branch: string, credentials: GitCredentials, options: { force: boolean }): Promise<void>;
}
