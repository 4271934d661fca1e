/**
 * Read-only access to the source tree for computing what a build reads. Paths are absolute.
 * Implementations may memoize (one instance lives for one render run).
 */
export interface SourceReader {
  /** `file`, `dir`, or undefined when nothing is there. Symlinks are followed. */
  kind(abs: string): 'file' | 'dir' | undefined;
  /** The file's text (UTF-8). */
  readText(abs: string): string;
  /** A content hash of the file (hex). */
  hash(abs: string): string;
  /** Every regular file under `absDir`, recursively, as absolute paths in sorted order. */
  listFiles(absDir: string): string[];
}
