/**
 * A finding is one problem (or note) about the repository, found by loading, resolving or a
 * validation rule. Findings are collected, never thrown: the CLI alone turns them into an exit code.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  severity: Severity;
  /** Stable kebab-case code, e.g. `needs-cycle`, `schema`, `undefined-variable`. */
  code: string;
  message: string;
  /** Repository-relative file, when the finding has a place. */
  file?: string;
  line?: number;
  column?: number;
  /** Dotted YAML path inside the file. */
  path?: string;
  /** How to fix it. */
  hint?: string;
  cluster?: string;
  app?: string;
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Deterministic order: file, line, column, severity, code, message. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    cmp(a.file ?? '', b.file ?? '') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    severityRank[a.severity] - severityRank[b.severity] ||
    cmp(a.code, b.code) ||
    cmp(a.message, b.message)
  );
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
