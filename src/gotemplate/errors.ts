/**
 * The error of a template that does not parse or fails to execute. `message` is Go's text, e.g.
 * `template: base:1: unexpected "}" in operand` or
 * `template: base:1:3: executing "base" at <.a.b>: map has no entry for key "b"`.
 */
export class GoTemplateError extends Error {
  constructor(
    message: string,
    /** `parse` for errors found while compiling, `exec` for errors while executing. */
    readonly phase: 'parse' | 'exec',
  ) {
    super(message);
    this.name = 'GoTemplateError';
  }
}

/** An error returned by a template function (Go's second result); the executor adds the context. */
export class FuncError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FuncError';
  }
}
