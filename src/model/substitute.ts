/**
 * Strict variable substitution, the one implementation used for app fields, leaf manifests and
 * the config-management plugin.
 *
 *   ${NAME}            the value of NAME; an error if NAME has no value
 *   ${NAME:-default}   the value of NAME, or `default` when NAME is unset or empty
 *   $${NAME}           the literal text `${NAME}` (also `$${NAME:-x}` → `${NAME:-x}`)
 *   $NAME, ${not a name}, $(cmd)   left alone — unlike GNU envsubst, only the braced form is a variable
 *
 * NAME is `[A-Za-z_][A-Za-z0-9_]*`. The default runs to the first `}` and is not itself substituted.
 * Values come only from the lookup function given: the process environment is never read.
 */

export interface MissingVariable {
  name: string;
  /** 1-based line and column of the `$` in the input. */
  line: number;
  column: number;
}

export interface SubstituteResult {
  text: string;
  missing: MissingVariable[];
}

export type VariableLookup = (name: string) => string | undefined;

const pattern = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Fast check used to skip strings that cannot contain a variable. */
export function mayContainVariable(text: string): boolean {
  return text.includes('${');
}

export function substitute(text: string, lookup: VariableLookup): SubstituteResult {
  if (!mayContainVariable(text)) return { text, missing: [] };
  const missing: MissingVariable[] = [];
  const out = text.replace(pattern, (match: string, escape: string, name: string, def: string | undefined, offset: number) => {
    if (escape) return match.slice(1);
    const value = lookup(name);
    if (value !== undefined && !(def !== undefined && value === '')) return value;
    if (def !== undefined) return def;
    missing.push({ name, ...lineColumn(text, offset) });
    return match;
  });
  return { text: out, missing };
}

/** The names a text refers to (excluding escaped `$${...}`), with whether each has a default. */
export function referencedVariables(text: string): { name: string; hasDefault: boolean; line: number; column: number }[] {
  if (!mayContainVariable(text)) return [];
  const refs: { name: string; hasDefault: boolean; line: number; column: number }[] = [];
  for (const m of text.matchAll(pattern)) {
    if (m[1]) continue;
    refs.push({ name: m[2]!, hasDefault: m[3] !== undefined, ...lineColumn(text, m.index ?? 0) });
  }
  return refs;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
