/**
 * The few pieces of Helm and Go-template semantics the argocd-app-of-app chart relies on, exactly:
 * values coalescing (a values file over the chart's values.yaml), Go template truth, sprig's
 * `empty`/`default`, `merge` (deep, destination wins), `uniq (concat ...)`, and `tpl` for the one
 * form the repositories use (`{{ .Values.a.b }}`). Anything else is reported as unsupported so the
 * caller can fall back to the real tools instead of guessing.
 */
import { isPlainObject } from '../../model/merge.js';
import { parseYaml12 as parse } from '../../yaml/index.js';

export type Values = Record<string, unknown>;

/** Helm's coalesce: user values over chart defaults; maps merge deeply; a user `null` deletes the key. */
export function coalesceValues(user: unknown, chart: unknown): Values {
  const u = isPlainObject(user) ? user : {};
  const c = isPlainObject(chart) ? chart : {};
  return coalesceMap(u, c);
}

function coalesceMap(user: Values, chart: Values): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries(chart)) if (!(k in user)) out[k] = v;
  for (const [k, v] of Object.entries(user)) {
    if (v === null) continue;
    const d = chart[k];
    out[k] = isPlainObject(v) && isPlainObject(d) ? coalesceMap(v, d) : v;
  }
  return out;
}

/** Go text/template truth: false, 0, nil, and empty strings, maps and lists are false. */
export function truthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isPlainObject(v)) return Object.keys(v).length > 0;
  return true;
}

/** sprig `default`: `given` unless it is empty. */
export function orDefault(given: unknown, fallback: unknown): unknown {
  return truthy(given) ? given : fallback;
}

export function hasKey(v: unknown, key: string): boolean {
  return isPlainObject(v) && Object.prototype.hasOwnProperty.call(v, key);
}

export function get(v: unknown, ...path: string[]): unknown {
  let x = v;
  for (const k of path) x = isPlainObject(x) ? x[k] : undefined;
  return x;
}

export class Unsupported extends Error {}

/**
 * sprig `merge dst src` (mergo without override): keys of `src` missing or empty in `dst` are taken
 * from `src`; nested maps merge the same way. Whether mergo treats an "empty" destination value as
 * missing differs between versions, so an empty destination value that the source would fill is
 * reported as unsupported rather than guessed.
 */
export function sprigMerge(dst: unknown, src: unknown): Values {
  const d = isPlainObject(dst) ? dst : {};
  const s = isPlainObject(src) ? src : {};
  const out: Values = { ...d };
  for (const [k, sv] of Object.entries(s)) {
    if (!(k in d)) {
      out[k] = sv;
      continue;
    }
    const dv = d[k];
    if (isPlainObject(dv) && isPlainObject(sv)) out[k] = sprigMerge(dv, sv);
    else if (!truthy(dv) && dv !== sv) throw new Unsupported(`"${k}" is empty where the chart default has a value`);
  }
  return out;
}

/** sprig `uniq (concat a b)`: first occurrence kept. */
export function uniqConcat(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const x of [...a, ...b]) if (!out.some((y) => JSON.stringify(y) === JSON.stringify(x))) out.push(x);
  return out;
}

const VALUES_REF = /\{\{-?\s*\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*-?\}\}/g;

/**
 * Helm `tpl TEXT $` for texts whose only actions are `{{ .Values.a.b }}` references to strings.
 * Throws Unsupported for anything else (functions, pipelines, control structures).
 */
export function tpl(text: string, values: Values): string {
  if (!text.includes('{{')) return text;
  const out = text.replace(VALUES_REF, (_m, path: string) => {
    const v = get(values, ...path.slice(1).split('.'));
    if (typeof v !== 'string') throw new Unsupported(`template {{ .Values${path} }} is not a string value`);
    return v;
  });
  if (out.includes('{{') && out.replace(VALUES_REF, '').includes('{{')) throw new Unsupported(`template "${firstAction(text)}" is more than a .Values reference`);
  return out;
}

function firstAction(text: string): string {
  const m = /\{\{[\s\S]*?\}\}/.exec(text);
  return m ? m[0] : text;
}

const YAML11_SPECIAL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|[-+]?[0-9][0-9_.:eE+-]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0x[0-9a-fA-F_]+|0o?[0-7_]+|0b[01_]+)$/;

/**
 * The string a template prints unquoted (`key: {{ value }}`) after the output is read back as YAML,
 * when that is the string itself; Unsupported otherwise (a number, a bool, YAML syntax...).
 */
export function plainScalar(v: unknown, what: string): string {
  if (typeof v !== 'string') throw new Unsupported(`${what} is not a string (${JSON.stringify(v)})`);
  if (PLAIN.has(v)) return v;
  if (v === '' || v !== v.trim() || /[\n\r\t]/.test(v) || YAML11_SPECIAL.test(v)) throw new Unsupported(`${what} "${v}" does not read back as the same string`);
  let back: unknown;
  try {
    back = parse(`k: ${v}\n`);
  } catch {
    throw new Unsupported(`${what} "${v}" is not a plain YAML scalar`);
  }
  if (!isPlainObject(back) || back.k !== v || Object.keys(back).length !== 1) throw new Unsupported(`${what} "${v}" does not read back as the same string`);
  if (PLAIN.size >= PLAIN_LIMIT) PLAIN.clear();
  PLAIN.add(v);
  return v;
}

/**
 * Strings known to read back as themselves. The same few values (server, project, repoURL,
 * revision) recur in every app of every cluster, and a YAML parse per value was most of the
 * time of loading a large fleet. Bounded, so a long-lived process does not grow without end.
 */
const PLAIN = new Set<string>();
const PLAIN_LIMIT = 10_000;

/** A YAML text that the chart indents into a map (`extraFields`, `extraSourceFields`), as data. */
export function yamlMap(text: string, what: string): Values {
  let v: unknown;
  try {
    v = parse(text);
  } catch (e) {
    throw new Unsupported(`${what} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (v === null || v === undefined) return {};
  if (!isPlainObject(v)) throw new Unsupported(`${what} is not a YAML map`);
  return v;
}

/** A YAML text that the chart indents into a list (`destinations`), as data. */
export function yamlList(text: string, what: string): unknown[] {
  let v: unknown;
  try {
    v = parse(text);
  } catch (e) {
    throw new Unsupported(`${what} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!Array.isArray(v)) throw new Unsupported(`${what} is not a YAML list`);
  return v;
}
