/** The commits of the fleet repository, as promotion asks about them (adapter: src/adapters/git.ts). */
export interface RevisionSource {
  /** The full 40-hex SHA of a branch, tag, SHA or short SHA; undefined when the repository has no such commit. */
  resolve(revision: string): Promise<string | undefined>;
  /** Whether `ancestor` is `descendant` or one of its ancestors (both full SHAs). */
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
}
