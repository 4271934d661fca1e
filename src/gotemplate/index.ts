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
 * - Options: `missingkey` as Go's `Option("missingkey=…")` (`parseGoTemplateOptions` reads an
 *   ApplicationSet's `goTemplateOptions`); `name` is the template name in messages (default
 *   `base`; Argo CD uses "").
 * - Compiled templates are cached by text and options and are safe to execute concurrently
 *   (each execution has its own state).
 */
import { TemplateSet } from './exec.js';
import type { MissingKey } from './exec.js';
import type { FuncMap } from './funcs.js';
import { builtins } from './funcs.js';
import { parseTemplates } from './parse.js';
import { argocdFuncs, sprigFuncs } from './sprig/index.js';
import type { GoValue } from './values.js';
import { GoTemplateError } from './errors.js';

export { GoTemplateError };
export type { GoValue, GoMap, JsonToGoOptions } from './values.js';
export { goValueFromJson, goValueFromJsonArgoCD, goValueFromJsonIntegralAsInt, TypedInt, GoComplex } from './values.js';
/** Argo CD's SanitizeName (the `normalize` function; the cluster generator's `nameNormalized`) and SlugifyName. */
export { sanitizeName, slugifyName } from './sprig/argocd.js';

export type FuncSet = 'argocd' | 'sprig' | 'go';
export type { MissingKey };

export interface GoTemplateOptions {
  /**
   * Template name used in error messages (default `base`). Argo CD's ApplicationSet controller
   * names its templates "" (`template: :1:3: executing "" at <…>`).
   */
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

/**
 * Go's Template.Option for an ApplicationSet's `goTemplateOptions` (e.g. `["missingkey=error"]`).
 * Later options win, as in Go. An option Go does not know is Go's panic text, thrown as a
 * GoTemplateError.
 */
export function parseGoTemplateOptions(options: readonly string[]): { missingkey: MissingKey } {
  let missingkey: MissingKey = 'default';
  for (const opt of options) {
    if (opt === '') throw new GoTemplateError('empty option string', 'parse');
    const eq = opt.indexOf('=');
    const key = eq < 0 ? '' : opt.slice(0, eq);
    const value = eq < 0 ? '' : opt.slice(eq + 1);
    if (key === 'missingkey' && (value === 'invalid' || value === 'default')) missingkey = 'default';
    else if (key === 'missingkey' && (value === 'zero' || value === 'error')) missingkey = value;
    else throw new GoTemplateError(`unrecognized option: ${opt}`, 'parse');
  }
  return { missingkey };
}

/** Compiled templates are immutable: the same text and options give the same template. */
const cache = new Map<string, GoTemplate>();
const CACHE_LIMIT = 4096;

/**
 * Parses and compiles a template. Throws GoTemplateError (Go's parse error text) when it does not
 * parse. Templates are cached by text and options, so callers may compile the same string many
 * times (once per generated Application) at the cost of a map lookup.
 */
export function compileGoTemplate(text: string, options: GoTemplateOptions = {}): GoTemplate {
  const name = options.name ?? 'base';
  const missingkey = options.missingkey ?? 'default';
  const set = options.funcs ?? 'argocd';
  const key = `${set}\u0000${missingkey}\u0000${name}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const funcs = funcMap(set);
  const trees = parseTemplates(text, { name, hasFunction: (f) => funcs.has(f) });
  const templates = new TemplateSet(trees, { missingkey, funcs });
  // Compile the main template now so that executions only run closures.
  templates.lookup(name);
  const compiled: GoTemplate = {
    name,
    execute(data: unknown): string {
      return templates.execute(name, data as GoValue);
    },
  };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, compiled);
  return compiled;
}
