/**
 * The rule engine: each rule is a small function `(context) → Finding[]` with metadata for every
 * code it emits (default severity, a one-line summary, help text). Settings from fleet.yaml
 * `spec.validation.rules` (code → off | error | warning | info) are applied here, once, to every
 * finding — rules never read them.
 */
import type { Finding, Severity } from '../model/finding.js';
import type { RuleLevel } from '../model/spec.js';
import type { RuleContext } from './context.js';

export interface CodeInfo {
  severity: Severity;
  summary: string;
  help: string;
}

export interface RuleDefinition {
  /** The concept the rule checks, e.g. `crd-order`. */
  name: string;
  codes: Record<string, CodeInfo>;
  run(ctx: RuleContext): Finding[];
}

/** A rule as a plain function, for rules written before the engine had metadata. */
export type Rule = (ctx: RuleContext) => Finding[];

/** Wraps a plain rule function with the metadata of the codes it emits. */
export function defineRule(name: string, codes: Record<string, CodeInfo>, run: Rule): RuleDefinition {
  return { name, codes, run };
}

/** Applies rule levels: `off` drops the finding, any other level replaces its severity. */
export function applyLevels(findings: readonly Finding[], levels: Readonly<Record<string, RuleLevel>>): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const level = levels[f.code];
    if (level === 'off') continue;
    out.push(level ? { ...f, severity: level } : f);
  }
  return out;
}
