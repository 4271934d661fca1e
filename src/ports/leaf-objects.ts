/**
 * Leaf objects per app, from a leaf rendering (kustomize/Helm builds): the port through which
 * rules see what an app really applies. Return undefined for an app that was not rendered; the
 * rules then read its directory statically.
 */
export interface LeafObjects {
  /**
   * True when the objects come from a whole `render --leaves` run (a directory it wrote): an app it
   * builds but that has no objects here then failed to build, which validate reports
   * (`leaf-not-built`) instead of reading the app statically.
   */
  readonly complete?: boolean;
  objects(cluster: string, app: string): readonly Record<string, unknown>[] | undefined;
  /**
   * Why the app's build failed in that run, as render printed it (ADR 0260): the error's code,
   * message, place and hint. Undefined: no failure recorded (the build did not run, or the
   * directory is from a render that recorded none).
   */
  failure?(cluster: string, app: string): LeafFailure | undefined;
}

/** A failed leaf build as `render --leaves --out DIR` recorded it in DIR. */
export interface LeafFailure {
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  path?: string;
  hint?: string;
}
