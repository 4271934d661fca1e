/**
 * Rendering strings and objects with generator params, in Argo CD's two modes:
 *
 * - flat (fasttemplate): `{{ key }}` is replaced when the param exists and is a string; any
 *   other tag is kept as written. Strings without `{{…}}` on one line are returned as they are.
 * - goTemplate: Go `text/template` named `base` with Argo CD's function set and
 *   `goTemplateOptions`.
 *
 * Every distinct string is compiled once (a cache per renderer), and an object template is
 * compiled once into a tree of constant and templated nodes, so rendering N param sets costs N
 * walks and no parsing.
 */
import type { ParamSet } from './types.js';
import { ApplicationSetError, atPath } from './types.js';
import { isPlainObject } from './go-value.js';

export type MissingKey = 'default' | 'zero' | 'error';

/** The Go template engine's compile function (`compileGoTemplate` of src/gotemplate). */
export type GoTemplateCompiler = (
  text: string,
  options: { name?: string; missingkey?: MissingKey; funcs?: 'argocd' | 'sprig' | 'go' },
) => { execute(data: unknown): string };

export interface RenderOptions {
  goTemplate: boolean;
  goTemplateOptions?: readonly string[];
  /** Required when `goTemplate` is true. */
  compileGoTemplate?: GoTemplateCompiler;
  /**
   * Turns a param set into the template engine's data (JSON numbers become Go float64). Called
   * once per param set, not per field.
   */
  toGoData?: (params: ParamSet) => unknown;
}

/** Prepared data for one param set: the flat map, or the Go template data. */
export type RenderData = { readonly params: ParamSet; readonly go: unknown };

export type CompiledString = (data: RenderData) => string;

const TEMPLATED_RE = /\{\{.*\}\}/;

/** Splits a fasttemplate: even indexes are text, odd indexes are tags. Throws on an unclosed `{{`. */
export function parseFastTemplate(text: string): string[] {
  const parts: string[] = [];
  let s = text;
  for (;;) {
    const start = s.indexOf('{{');
    if (start < 0) {
      parts.push(s);
      return parts;
    }
    parts.push(s.slice(0, start));
    s = s.slice(start + 2);
    const end = s.indexOf('}}');
    if (end < 0) {
      throw new ApplicationSetError(
        `invalid template: Cannot find end tag=${JSON.stringify('}}')} in the template=${JSON.stringify(text)} starting from ${JSON.stringify(s)}`,
      );
    }
    parts.push(s.slice(0, end));
    s = s.slice(end + 2);
  }
}

function missingKeyOf(options: readonly string[] | undefined): MissingKey {
  let mk: MissingKey = 'default';
  for (const opt of options ?? []) {
    const m = /^missingkey=(.*)$/.exec(opt);
    if (!m) throw new ApplicationSetError(`unrecognized goTemplateOptions option: ${JSON.stringify(opt)}`, { hint: 'the only option is missingkey=default|zero|error' });
    const v = m[1];
    if (v === 'invalid' || v === 'default') mk = 'default';
    else if (v === 'zero' || v === 'error') mk = v;
    else throw new ApplicationSetError(`unrecognized goTemplateOptions option: ${JSON.stringify(opt)}`, { hint: 'use missingkey=default|zero|error' });
  }
  return mk;
}

/** Whether a template error is a missing key (the values pre-resolution keeps such values verbatim). */
export function isMissingKeyError(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.includes('map has no entry for key') || msg.includes("can't evaluate field");
}

export class Renderer {
  readonly goTemplate: boolean;
  readonly missingkey: MissingKey;
  private readonly compileGo: GoTemplateCompiler | undefined;
  private readonly toGoData: (params: ParamSet) => unknown;
  private readonly cache = new Map<string, CompiledString>();
  private readonly strictCache = new Map<string, CompiledString>();
  private readonly fieldTemplates = new Map<string, FieldTemplate>();

  constructor(options: RenderOptions) {
    this.goTemplate = options.goTemplate;
    this.missingkey = missingKeyOf(options.goTemplateOptions);
    this.compileGo = options.compileGoTemplate;
    this.toGoData = options.toGoData ?? ((p) => p);
    if (this.goTemplate && !this.compileGo) {
      throw new ApplicationSetError('spec.goTemplate is true but no Go template engine is available');
    }
  }

  prepare(params: ParamSet): RenderData {
    return { params, go: this.goTemplate ? this.toGoData(params) : undefined };
  }

  /** Compiles one string (cached). `strict` forces missingkey=error (values pre-resolution). */
  compile(text: string, strict = false): CompiledString {
    const cache = strict ? this.strictCache : this.cache;
    let c = cache.get(text);
    if (!c) {
      c = this.goTemplate ? this.compileGoString(text, strict ? 'error' : this.missingkey) : compileFlatString(text);
      cache.set(text, c);
    }
    return c;
  }

  /**
   * The field chains of a compiled Go template of text and `{{ .a.b }}` actions only (see
   * `fieldsOnly`), or undefined; `compile(text)` first.
   */
  fieldTemplate(text: string): FieldTemplate | undefined {
    return this.fieldTemplates.get(text);
  }

  /** Renders one string with one param set. */
  render(text: string, params: ParamSet): string {
    return this.compile(text)(this.prepare(params));
  }

  private compileGoString(text: string, missingkey: MissingKey): CompiledString {
    let tmpl: { execute(data: unknown): string };
    try {
      tmpl = this.compileGo!(text, { name: 'base', missingkey, funcs: 'argocd' });
    } catch (e) {
      const err = new ApplicationSetError(`failed to parse template ${text}: ${(e as Error).message}`, { cause: e });
      return () => {
        throw err;
      };
    }
    const execute: CompiledString = (data) => {
      try {
        return tmpl.execute(data.go);
      } catch (e) {
        throw new ApplicationSetError(`failed to execute go template ${text}: ${(e as Error).message}`, { cause: e });
      }
    };
    const fields = fieldsOnly(text, execute);
    if (fields === undefined) return execute;
    if (missingkey === this.missingkey) this.fieldTemplates.set(text, fields.template);
    return fields.compiled;
  }
}

/**
 * A Go template of text and field chains: `join(strings the chains reach)`, or with `join`
 * undefined, the one chain's string itself. When a chain reaches anything but a string, the
 * template's compiled function (the engine) gives the text.
 */
export interface FieldTemplate {
  readonly chains: readonly (readonly string[])[];
  readonly join: ((slots: readonly string[]) => string) | undefined;
}

/** `{{ .a.b }}` (spaces optional): an action that only prints a field chain. */
const FIELD_ACTION = /\{\{ *((?:\.[A-Za-z_][A-Za-z0-9_]*)+) *\}\}/y;

/**
 * A Go template that is text and `{{ .a.b }}` actions only (the common ApplicationSet template)
 * prints, when every chain reaches a string through JSON maps, the text with those strings in
 * place: that is what text/template does (a map index, then fmt.Fprint of a string). Such a
 * template is evaluated here without the engine; any other value (a missing key, a number, a
 * list, a non-map on the way) is handed to the engine, which gives its exact text or error.
 * Undefined when the template has any other action.
 */
function fieldsOnly(text: string, execute: CompiledString): { compiled: CompiledString; template: FieldTemplate } | undefined {
  const texts: string[] = [];
  const chains: string[][] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('{{', at);
    if (open < 0) break;
    FIELD_ACTION.lastIndex = open;
    const m = FIELD_ACTION.exec(text);
    if (!m) return undefined;
    const chain = m[1]!.slice(1).split('.');
    if (chain.includes('__proto__')) return undefined;
    texts.push(text.slice(at, open));
    chains.push(chain);
    at = open + m[0].length;
  }
  texts.push(text.slice(at));
  if (chains.length === 0) return undefined;
  const n = chains.length;
  // `{{ .a.b }}` alone prints the string it reaches: that very string, nothing to join.
  if (n === 1 && texts[0] === '' && texts[1] === '') {
    const chain = chains[0]!;
    const compiled: CompiledString = (data) => {
      const v = fieldString(data.go, chain);
      return v === undefined ? execute(data) : v;
    };
    return { compiled, template: { chains, join: undefined } };
  }
  const join = slotJoiner(texts);
  const slots = new Array<string>(n);
  const compiled: CompiledString = (data) => {
    for (let i = 0; i < n; i++) {
      const v = fieldString(data.go, chains[i]!);
      if (v === undefined) return execute(data);
      slots[i] = v;
    }
    return join(slots);
  };
  return { compiled, template: { chains, join } };
}

/**
 * `fieldString(mergeFirstWins(a, b), chain)` without making the merged map (the two halves of a
 * goTemplate matrix pair, generators/matrix.ts): a key of `a` wins, and where both halves hold a
 * map under a key the walk goes on in both. Undefined for anything else, as fieldString; also
 * for a key neither half owns (the merged map's inherited members are never strings or maps).
 */
export function pairFieldString(a: object, b: object | undefined, chain: readonly string[]): string | undefined {
  let x: unknown = a;
  let y: object | undefined = b;
  for (let i = 0; i < chain.length; i++) {
    const k = chain[i]!;
    if (y === undefined) {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) return undefined;
      x = (x as Record<string, unknown>)[k];
      continue;
    }
    // x and y are maps: the merged map's value under k.
    const xo = x as Record<string, unknown>;
    if (Object.hasOwn(xo, k)) {
      const xv = xo[k];
      const yv = Object.hasOwn(y, k) ? (y as Record<string, unknown>)[k] : undefined;
      x = xv;
      y = isPlainObject(xv) && isPlainObject(yv) ? yv : undefined;
    } else if (Object.hasOwn(y, k)) {
      x = (y as Record<string, unknown>)[k];
      y = undefined;
    } else return undefined;
  }
  return typeof x === 'string' ? x : undefined;
}

/**
 * The string a field chain reaches through JSON maps, or undefined for anything else. Param sets
 * are JSON data: a map is a plain object. What an object inherits is never a string or a map
 * (`toString`, `constructor` are functions), so such a chain is undefined too.
 */
function fieldString(go: unknown, chain: readonly string[]): string | undefined {
  let v = go;
  for (let i = 0; i < chain.length; i++) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[chain[i]!];
  }
  return typeof v === 'string' ? v : undefined;
}

/** Entries a slotJoiner remembers at most, and the calls after which it judges its hit rate. */
const JOIN_MEMO_MAX = 1 << 16;
const JOIN_MEMO_TRIAL = 1024;

/**
 * `texts[0] + slots[0] + texts[1] + … + texts[n]`, remembered by the slots' values (a Map per
 * slot, so a hit allocates nothing). The templates of a matrix mostly repeat a few values (an
 * environment, a repository URL): a hit returns the very string of the first time, so printing
 * compares it with its neighbour's by identity and the text exists once, not 100,000 times. A
 * template whose result differs nearly every time (an Application name) stops remembering after
 * JOIN_MEMO_TRIAL calls, and every template after JOIN_MEMO_MAX entries. The result is the same
 * text either way.
 */
export function slotJoiner(texts: readonly string[], limits: { max?: number; trial?: number } = {}): (slots: readonly string[]) => string {
  const max = limits.max ?? JOIN_MEMO_MAX;
  const trial = limits.trial ?? JOIN_MEMO_TRIAL;
  const n = texts.length - 1;
  if (n === 0) return () => texts[0]!;
  // Joined, not appended: `join` makes one flat string, where `+` makes a rope that every later
  // comparison (sorting by name), hash (the duplicate-name check) and write would walk or flatten.
  const parts = new Array<string>(2 * n + 1);
  for (let i = 0; i <= n; i++) parts[2 * i] = texts[i]!;
  const concat = (slots: readonly string[]): string => {
    for (let i = 0; i < n; i++) parts[2 * i + 1] = slots[i]!;
    return parts.join('');
  };
  let root: Map<string, unknown> | undefined = new Map();
  let calls = 0;
  let misses = 0;
  let size = 0;
  return (slots) => {
    if (root === undefined) return concat(slots);
    calls++;
    let node = root;
    for (let i = 0; i < n - 1; i++) {
      let next = node.get(slots[i]!) as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        node.set(slots[i]!, next);
      }
      node = next;
    }
    const hit = node.get(slots[n - 1]!) as string | undefined;
    if (hit !== undefined) return hit;
    const s = concat(slots);
    misses++;
    size++;
    node.set(slots[n - 1]!, s);
    if (size >= max || (calls >= trial && misses * 2 > calls)) root = undefined;
    return s;
  };
}

function compileFlatString(text: string): CompiledString {
  if (!TEMPLATED_RE.test(text)) return () => text;
  let parts: string[];
  try {
    parts = parseFastTemplate(text);
  } catch (e) {
    return () => {
      throw e;
    };
  }
  const n = parts.length;
  const keys = parts.map((p, i) => (i % 2 === 1 ? p.trim() : ''));
  const verbatim = parts.map((p, i) => (i % 2 === 1 ? `{{${p}}}` : p));
  const texts = parts.filter((_, i) => i % 2 === 0);
  const join = slotJoiner(texts);
  const slots = new Array<string>((n - 1) / 2);
  return (data) => {
    const params = data.params;
    for (let i = 1; i < n; i += 2) {
      const key = keys[i]!;
      // Only own string params are substituted; inherited members (toString…) are never strings.
      const v = key.length > 0 ? params[key] : undefined;
      slots[(i - 1) / 2] = typeof v === 'string' ? v : verbatim[i]!;
    }
    return join(slots);
  };
}

/** The literal text of a string that has no template action in either mode, else undefined. */
function constantText(text: string, goTemplate: boolean): string | undefined {
  if (goTemplate) return text.includes('{{') ? undefined : text;
  return TEMPLATED_RE.test(text) ? undefined : text;
}

/** A compiled object template: call it with prepared data to get a fresh rendered copy. */
export type CompiledObject = (data: RenderData) => unknown;

/**
 * Compiles every string of a JSON value, map keys included. Numbers, booleans and null are
 * never templated.
 */
export interface CompileObjectOptions {
  /** Literal subtrees at this depth or deeper are shared by every rendered copy. */
  shareConstantsBelowDepth?: number;
  /** Spec path of the value: render errors then name the field (`spec.template.metadata.name`). */
  path?: string;
}

export function compileObject(value: unknown, renderer: Renderer, options: CompileObjectOptions = {}): CompiledObject {
  return compileNode(value, renderer, 0, options.shareConstantsBelowDepth ?? Infinity, options.path);
}

function withPath(f: CompiledString, path: string): CompiledString {
  return (data) => {
    try {
      return f(data);
    } catch (e) {
      if (e instanceof ApplicationSetError && !e.location) throw new ApplicationSetError(e.message, { ...atPath(path), cause: e.cause ?? e });
      throw e;
    }
  };
}

/** Whether a JSON value contains no template action (every string and key is literal). */
function isConstantTree(value: unknown, goTemplate: boolean): boolean {
  if (typeof value === 'string') return constantText(value, goTemplate) !== undefined;
  if (Array.isArray(value)) return value.every((v) => isConstantTree(v, goTemplate));
  if (isPlainObject(value)) return Object.keys(value).every((k) => constantText(k, goTemplate) !== undefined && isConstantTree(value[k], goTemplate));
  return true;
}

/**
 * The compiled form of one string of an object template at `path`, as compileObject renders it
 * (same errors, same field in them); undefined when the string has no template action.
 */
export function compileTemplatedString(text: string, renderer: Renderer, path: string | undefined): CompiledString | undefined {
  if (constantText(text, renderer.goTemplate) !== undefined) return undefined;
  return path === undefined ? renderer.compile(text) : withPath(renderer.compile(text), path);
}

/** Whether a string (a value or a map key) has a template action in the renderer's mode. */
export function isTemplated(text: string, renderer: Renderer): boolean {
  return constantText(text, renderer.goTemplate) === undefined;
}

function compileNode(value: unknown, renderer: Renderer, depth: number, shareDepth: number, path: string | undefined): CompiledObject {
  if (depth >= shareDepth && (Array.isArray(value) || isPlainObject(value)) && isConstantTree(value, renderer.goTemplate)) {
    // A literal subtree is shared by every rendered copy (callers treat results as immutable).
    return () => value;
  }
  if (typeof value === 'string') {
    const c = constantText(value, renderer.goTemplate);
    if (c !== undefined) return () => c;
    return path === undefined ? renderer.compile(value) : withPath(renderer.compile(value), path);
  }
  if (Array.isArray(value)) {
    const items = value.map((v, i) => compileNode(v, renderer, depth + 1, shareDepth, path === undefined ? undefined : `${path}[${i}]`));
    const n = items.length;
    return (data) => {
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = items[i]!(data);
      return out;
    };
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    const constKeys = keys.map((k) => constantText(k, renderer.goTemplate));
    const keyFns = keys.map((k, i) => (constKeys[i] === undefined ? (path === undefined ? renderer.compile(k) : withPath(renderer.compile(k), `${path}.${k}`)) : undefined));
    const valFns = keys.map((k) => compileNode(value[k], renderer, depth + 1, shareDepth, path === undefined ? undefined : path === '' ? k : `${path}.${k}`));
    const n = keys.length;
    return (data) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) out[constKeys[i] ?? keyFns[i]!(data)] = valFns[i]!(data);
      return out;
    };
  }
  return () => value;
}

/** Renders every string of a JSON value (map keys included) with one param set. */
export function renderObject(value: unknown, params: ParamSet, renderer: Renderer): unknown {
  return compileObject(value, renderer)(renderer.prepare(params));
}

/** Go's zero-value test as mergo sees JSON values. */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

/**
 * `mergo.Merge(dst, src)` without override: zero fields of `dst` are filled from `src`, maps are
 * merged key by key (`dst` wins), non-empty lists of `dst` are kept. Returns a new value.
 */
export function fillMissing(dst: unknown, src: unknown): unknown {
  if (isZero(dst) && !isPlainObject(dst)) return src === undefined ? dst : structuredClone(src);
  if (isPlainObject(dst) && isPlainObject(src)) {
    const out: Record<string, unknown> = { ...dst };
    for (const [k, v] of Object.entries(src)) out[k] = fillMissing(out[k], v);
    return out;
  }
  return dst;
}
