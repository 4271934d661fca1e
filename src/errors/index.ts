/**
 * The few error classes of fleetplan. Every error that comes from user input carries
 * where it happened (file, line, column, YAML path) and how to fix it (hint).
 * Only the CLI turns errors into exit codes: UsageError and InputError → 2, others → 1.
 */

export interface SourceLocation {
  /** Path relative to the repository root, with forward slashes. */
  file: string;
  line?: number;
  column?: number;
  /** Dotted YAML path, e.g. `spec.apps.metallb.wave`. */
  path?: string;
}

export interface ErrorDetails {
  code?: string;
  location?: SourceLocation;
  hint?: string;
  cause?: unknown;
}

export class FleetplanError extends Error {
  readonly code: string;
  readonly location: SourceLocation | undefined;
  readonly hint: string | undefined;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.code = details.code ?? 'error';
    this.location = details.location;
    this.hint = details.hint;
  }

  /** `file:line:col path: message (hint)` — the one format every error is printed in. */
  format(): string {
    return formatMessage(this.message, this.location, this.hint);
  }
}

/** Wrong command-line usage: unknown flag, missing argument. Exit code 2. */
export class UsageError extends FleetplanError {}

/** Input that cannot be read: missing repository, unparseable file, unsafe path. Exit code 2. */
export class InputError extends FleetplanError {}

/** An external tool (git, kustomize, helm) failed or is missing. Exit code 1. */
export class ToolError extends FleetplanError {}

/** A failed operation against a cluster or the network. Exit code 1. */
export class OperationError extends FleetplanError {}

export function formatLocation(loc: SourceLocation | undefined): string {
  if (!loc) return '';
  let s = loc.file;
  if (loc.line !== undefined) {
    s += `:${loc.line}`;
    if (loc.column !== undefined) s += `:${loc.column}`;
  }
  if (loc.path) s += ` ${loc.path}`;
  return s;
}

export function formatMessage(message: string, loc?: SourceLocation, hint?: string): string {
  const where = formatLocation(loc);
  let s = where ? `${where}: ${message}` : message;
  if (hint) s += ` (${hint})`;
  return s;
}

/** `Kind/namespace/name`, or `Kind/name` for cluster-scoped objects. */
export function formatRef(obj: { kind?: string; metadata?: { name?: string; namespace?: string } }): string {
  const kind = obj.kind ?? '?';
  const name = obj.metadata?.name ?? '?';
  const ns = obj.metadata?.namespace;
  return ns ? `${kind}/${ns}/${name}` : `${kind}/${name}`;
}
