/**
 * Go's text/template in TypeScript, with the sprig function set and Argo CD's additions.
 *
 * Contract:
 * - `compileGoTemplate(text, options)` parses once (Go's parse errors are thrown as
 *   GoTemplateError at compile time) and returns a template whose `execute(data)` runs the
 *   compiled closures; execution errors are GoTemplateError with Go's message text.
 * - `data` is a Go value (see values.ts). JSON-decoded data is one as it is, with every number a
 *   float64, which is how Argo CD decodes JSON and YAML; `goValueFromJsonIntegralAsInt` gives the
 *   other reading (integral numbers are Go ints).
 * - Function sets: `go` = text/template builtins; `sprig` = builtins + sprig v3 TxtFuncMap without
 *   `env`, `expandenv` and `getHostByName` (the engine never reads the environment or the
 *   network); `argocd` (default) = `sprig` + `normalize`, `slugify`, `toYaml`, `fromYaml`,
 *   `fromYamlArray`, exactly Argo CD's ApplicationSet func map.
 * - Options: `missingkey` as Go's `Option("missingkey=…")`; `name` is the template name in
 *   messages (default `base`).
 */
import { TemplateSet } from './exec.js';
import type { MissingKey } from './exec.js';
import type { FuncMap } from './funcs.js';
import { builtins } from './funcs.js';
import { parseTemplates } from './parse.js';
import { argocdFuncs, sprigFuncs } from './sprig/index.js';
import type { GoValue } from './values.js';

export { GoTemplateError } from './errors.js';
export type { GoValue, GoMap, JsonToGoOptions } from './values.js';
export { goValueFromJson, goValueFromJsonArgoCD, goValueFromJsonIntegralAsInt, TypedInt, GoComplex } from './values.js';

export type FuncSet = 'argocd' | 'sprig' | 'go';

export interface GoTemplateOptions {
  /** Template name used in error messages (default `base`). */
  name?: string;
  /** What a missing map key gives: `default` (no value), `zero`, or `error`. Default `default`. */
  missingkey?: MissingKey;
  /** Function set (default `argocd`). */
  funcs?: FuncSet;
}

export interface GoTemplate {
  readonly name: string;
  /** Executes the template on a Go value; throws GoTemplateError on a template error. */
  execute(data: unknown): string;
}

let sprigMap: FuncMap | undefined;
let argoMap: FuncMap | undefined;

/** The function map of a function set (built once). */
export function funcMap(set: FuncSet): FuncMap {
  switch (set) {
    case 'go':
      return builtins;
    case 'sprig':
      return (sprigMap ??= new Map([...builtins, ...sprigFuncs()]));
    case 'argocd':
      return (argoMap ??= new Map([...builtins, ...sprigFuncs(), ...argocdFuncs()]));
  }
}

/** Parses and compiles a template. Throws GoTemplateError (Go's parse error text) when it does not parse. */
export function compileGoTemplate(text: string, options: GoTemplateOptions = {}): GoTemplate {
  const name = options.name ?? 'base';
  const funcs = funcMap(options.funcs ?? 'argocd');
  const trees = parseTemplates(text, { name, hasFunction: (f) => funcs.has(f) });
  const set = new TemplateSet(trees, { missingkey: options.missingkey ?? 'default', funcs });
  // Compile the main template now so that executions only run closures.
  set.lookup(name);
  return {
    name,
    execute(data: unknown): string {
      return set.execute(name, data as GoValue);
    },
  };
}
