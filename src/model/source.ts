/**
 * A file fleetplan read, as data plus the means to point at any value in it: every finding names
 * file, line and column through a SourceFile.
 */

/** A path into a YAML document: map keys and sequence indexes. */
export type YamlPath = readonly (string | number)[];

export interface SourceFile {
  /** Repository-relative path. */
  file: string;
  /** The document as plain data (maps → objects, sequences → arrays). */
  value: unknown;
  /** Line/column of the value at `path`, or of its deepest existing ancestor. */
  locate(path: YamlPath): { line: number; column: number };
  /**
   * For sources whose `value` is a model-shaped view of a file in another format (layout readers):
   * the path in the file that a model path stands for, used when printing findings.
   */
  displayPath?(path: YamlPath): YamlPath;
  /**
   * For views that gather values from several files (layout readers): the file that holds the
   * value at a model path, when it is not `file` itself. `locate` and `displayPath` then answer
   * in that file.
   */
  fileOf?(path: YamlPath): string | undefined;
}

/** `spec.apps.metallb.wave`; numeric segments print as `[0]`. */
export function formatPath(path: YamlPath): string {
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else s += s === '' ? seg : `.${seg}`;
  }
  return s;
}
