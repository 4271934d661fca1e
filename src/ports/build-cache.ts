/**
 * Storage for leaf rendering: the content-addressed build cache and the manifest output tree.
 */

/** Raw build output (before substitution) by content key. */
export interface BuildCache {
  get(key: string): string | undefined;
  /** Stores atomically: a reader never sees half an entry. */
  put(key: string, text: string): void;
}

export interface OutputFile {
  /** File name inside the directory (no slashes). */
  name: string;
  content: string;
}

/** Writes rendered manifests under the output directory. */
export interface ManifestWriter {
  /**
   * Makes `relDir` (relative to the output directory, forward slashes) hold exactly `files`:
   * writes each atomically (skipping unchanged ones) and removes other `.yaml` files there. In a
   * directory that did not exist, files are written in place (there is no old file to keep whole).
   */
  replaceDirectory(relDir: string, files: readonly OutputFile[]): void;
}
