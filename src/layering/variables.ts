/**
 * A cluster's variables: fleet `vars`, then the cluster's `vars`, then the built-ins, each later
 * source winning (built-ins are facts and cannot be overridden). A variable's value may refer to
 * other variables; a reference cycle or an undefined name is an error at the variable's definition.
 */
import type { Origin } from '../model/fleet.js';
import { substitute } from '../model/substitute.js';

export const BUILTIN_VARIABLES = ['CLUSTER_NAME', 'CLUSTER_ROLE', 'CLUSTER_REGION', 'CLUSTER_SECTOR', 'HUB_NAME', 'GITOPS_REPO'] as const;

export interface VariableSource {
  vars: Record<string, string>;
  /** Where `vars` is, e.g. fleet.yaml spec.vars. */
  origin: Origin;
}

export type VariableProblem =
  | { kind: 'undefined'; variable: string; name: string; origin: Origin }
  | { kind: 'cycle'; cycle: string[]; origin: Origin }
  | { kind: 'shadowed'; variable: string; origin: Origin };

export function resolveVariables(
  sources: readonly VariableSource[],
  builtins: Record<string, string | undefined>,
): { vars: Record<string, string>; problems: VariableProblem[] } {
  const problems: VariableProblem[] = [];
  const definedBuiltins: Record<string, string> = {};
  for (const [k, v] of Object.entries(builtins)) if (v !== undefined) definedBuiltins[k] = v;
  // Later sources win.
  const raw = new Map<string, { value: string; origin: Origin }>();
  for (const src of sources) {
    for (const [k, v] of Object.entries(src.vars)) {
      const origin = { file: src.origin.file, path: [...src.origin.path, k] };
      if (k in builtins) {
        problems.push({ kind: 'shadowed', variable: k, origin });
        continue;
      }
      raw.set(k, { value: v, origin });
    }
  }
  const resolved = new Map<string, string>();
  const visiting: string[] = [];
  const lookup = (name: string): string | undefined => {
    if (name in definedBuiltins) return definedBuiltins[name];
    const done = resolved.get(name);
    if (done !== undefined) return done;
    const def = raw.get(name);
    if (!def) return undefined;
    if (visiting.includes(name)) {
      const cycle = [...visiting.slice(visiting.indexOf(name)), name];
      if (!problems.some((p) => p.kind === 'cycle' && p.cycle[0] === cycle[0] && p.cycle.length === cycle.length)) {
        problems.push({ kind: 'cycle', cycle, origin: def.origin });
      }
      return def.value;
    }
    visiting.push(name);
    const r = substitute(def.value, lookup);
    visiting.pop();
    for (const m of r.missing) problems.push({ kind: 'undefined', variable: name, name: m.name, origin: def.origin });
    resolved.set(name, r.text);
    return r.text;
  };
  const vars: Record<string, string> = {};
  for (const name of [...raw.keys()].sort()) vars[name] = lookup(name)!;
  for (const [k, v] of Object.entries(definedBuiltins)) vars[k] = v;
  return { vars: sortKeys(vars), problems };
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k]!;
  return out;
}
