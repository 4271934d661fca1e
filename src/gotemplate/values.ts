/**
 * The Go value model the engine executes on.
 *
 * Go's text/template works on `reflect.Value`s; this module models the subset that JSON/YAML data,
 * template literals and the sprig/Argo CD functions produce:
 *
 * | Go                          | JavaScript                                                      |
 * |-----------------------------|-----------------------------------------------------------------|
 * | invalid reflect.Value       | `undefined` (a missing map key, nil data: prints `<no value>`)  |
 * | nil interface               | `null`                                                          |
 * | string, bool                | `string`, `boolean`                                             |
 * | float64                     | `number` (every JSON/YAML number in Argo CD is float64)         |
 * | int                         | `bigint`                                                        |
 * | int64, uint8, … (other ints)| `TypedInt` (`goType` names the Go type)                         |
 * | complex128                  | `GoComplex`                                                     |
 * | []interface{} / []string …  | `Array` (an optional `GO_TYPE` symbol property names the type)  |
 * | map[string]interface{} …    | plain object (own enumerable keys; optional `GO_TYPE`)          |
 * | structs/pointers w/ methods | `GoObject` subclasses (semver versions, times)                  |
 *
 * Maps are plain objects so that JSON-decoded data (numbers = float64) is a Go value as it is.
 */

/** Names the Go type of an array or map that is not `[]interface {}` / `map[string]interface {}`. */
export const GO_TYPE: unique symbol = Symbol('goType');

export type GoValue =
  | undefined
  | null
  | string
  | boolean
  | number
  | bigint
  | GoBox
  | GoValue[]
  | GoMap;

export interface GoMap {
  [key: string]: GoValue;
}

/** Base of every class-backed Go value, so one `instanceof` tells them from maps. */
export abstract class GoBox {
  abstract readonly goType: string;
}

export type IntType = 'int8' | 'int16' | 'int32' | 'int64' | 'uint' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'uintptr';

/** An integer of a Go type other than `int` (which is a plain bigint). */
export class TypedInt extends GoBox {
  constructor(
    readonly goType: IntType,
    readonly v: bigint,
  ) {
    super();
  }
  get unsigned(): boolean {
    return this.goType.startsWith('u');
  }
}

export class GoComplex extends GoBox {
  readonly goType = 'complex128';
  constructor(
    readonly re: number,
    readonly im: number,
  ) {
    super();
  }
}

/** A Go function value (method values, funcs handed to `call`). */
export class GoFuncValue extends GoBox {
  constructor(
    readonly goType: string,
    readonly fn: (args: GoValue[]) => GoValue,
    readonly arity: number,
  ) {
    super();
  }
}

/**
 * A struct or pointer with methods (semver.Version, time.Time). `field` returns NOT_FOUND for a
 * name that is neither a field nor a method; methods are called with their arguments.
 */
export abstract class GoObject extends GoBox {
  abstract field(name: string): GoValue | typeof NOT_FOUND;
  method(_name: string): { arity: number; variadic?: boolean; call: (args: GoValue[]) => GoValue } | undefined {
    return undefined;
  }
  /** fmt.Stringer, if the type implements it. */
  goString(): string | undefined {
    return undefined;
  }
  /** The `%v` rendering when there is no String method. */
  abstract plain(): string;
}

export const NOT_FOUND: unique symbol = Symbol('notFound');

export function int64(v: bigint): TypedInt {
  return new TypedInt('int64', BigInt.asIntN(64, v));
}

export function isMap(v: unknown): v is GoMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoBox);
}

export function hasOwn(m: GoMap, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, k);
}

export function typedSlice<T extends GoValue>(arr: T[], goType: string): T[] {
  (arr as unknown as Record<symbol, string>)[GO_TYPE] = goType;
  return arr;
}

export function typedMap(m: GoMap, goType: string): GoMap {
  (m as unknown as Record<symbol, string>)[GO_TYPE] = goType;
  return m;
}

export function newMap(): GoMap {
  return Object.create(null) as GoMap;
}

export function sliceType(arr: GoValue[]): string {
  return (arr as unknown as Record<symbol, string | undefined>)[GO_TYPE] ?? '[]interface {}';
}

export function mapType(m: GoMap): string {
  return (m as unknown as Record<symbol, string | undefined>)[GO_TYPE] ?? 'map[string]interface {}';
}

/** The Go type name, as `%T` prints it. */
export function typeName(v: GoValue): string {
  switch (typeof v) {
    case 'undefined':
      return '<nil>';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float64';
    case 'bigint':
      return 'int';
    case 'object':
      if (v === null) return '<nil>';
      if (Array.isArray(v)) return sliceType(v);
      if (v instanceof GoBox) return v.goType;
      return mapType(v);
  }
  return '<nil>';
}

export type Kind =
  | 'invalid'
  | 'bool'
  | 'int'
  | 'uint'
  | 'float'
  | 'complex'
  | 'string'
  | 'slice'
  | 'map'
  | 'struct'
  | 'ptr'
  | 'func';

/** reflect.Kind of the dynamic value (`null` and `undefined` are both invalid after unwrapping). */
export function kindOf(v: GoValue): Kind {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float';
    case 'bigint':
      return 'int';
    case 'object':
      if (v === null) return 'invalid';
      if (Array.isArray(v)) return 'slice';
      if (v instanceof TypedInt) return v.unsigned ? 'uint' : 'int';
      if (v instanceof GoComplex) return 'complex';
      if (v instanceof GoFuncValue) return 'func';
      if (v instanceof GoObject) return v.goType.startsWith('*') ? 'ptr' : 'struct';
      return 'map';
  }
  return 'invalid';
}

/** Integer value of an int or uint kind. */
export function intValue(v: GoValue): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof TypedInt) return v.v;
  return undefined;
}

/** Go's template truth: false, 0, nil, empty string/slice/map are false. `ok` is false for values with no truth. */
export function isTrue(v: GoValue): boolean {
  switch (typeof v) {
    case 'undefined':
      return false;
    case 'string':
      return v.length > 0;
    case 'boolean':
      return v;
    case 'number':
      return v !== 0;
    case 'bigint':
      return v !== 0n;
    case 'object':
      if (v === null) return false;
      if (Array.isArray(v)) return v.length > 0;
      if (v instanceof TypedInt) return v.v !== 0n;
      if (v instanceof GoComplex) return v.re !== 0 || v.im !== 0;
      if (v instanceof GoBox) return true;
      for (const k in v) if (hasOwn(v, k)) return true;
      return false;
  }
  return false;
}

/** Keys of a map in Go's fmtsort order (strings by bytes, which is code-point order). */
export function sortedKeys(m: GoMap): string[] {
  const keys = Object.keys(m);
  if (keys.length > 1) keys.sort(compareStrings);
  return keys;
}

/** Compares strings as Go does (UTF-8 bytes = code points), not as UTF-16 code units. */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      if ((ca >= 0xd800 && ca <= 0xdfff) || (cb >= 0xd800 && cb <= 0xdfff)) {
        const pa = a.codePointAt(i) ?? 0;
        const pb = b.codePointAt(i) ?? 0;
        return pa < pb ? -1 : pa > pb ? 1 : 0;
      }
      return ca < cb ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/** Byte length of a string in UTF-8 (Go's `len`). */
export function byteLen(s: string): number {
  // Fast path: ASCII.
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  return ascii ? s.length : Buffer.byteLength(s, 'utf8');
}

/**
 * Go's case mappings are Unicode's simple ones (UnicodeData.txt), one rune to one rune, from the
 * Unicode version of Go's tables: 15.0.0 from Go 1.21 on (Argo CD, Helm, Flux builds). JavaScript's
 * toUpperCase/toLowerCase are the full ones (SpecialCasing: ß → SS, ᾳ → ΑΙ) from the newer Unicode
 * of node's ICU. One rune's mapping here is JavaScript's where that is one rune, with what differs
 * (ADR 0414):
 * - a full mapping to several runes whose simple mapping exists: the Greek letters with
 *   ypogegrammeni, ᾀ–ᾇ, ᾐ–ᾗ, ᾠ–ᾧ → ᾈ–ᾏ, ᾘ–ᾟ, ᾨ–ᾯ (+8), ᾳ ῃ ῳ → ᾼ ῌ ῼ (+9); the others keep their rune;
 * - İ's lowercase is i (JavaScript: i + combining dot);
 * - titlecase (unicode.ToTitle) is the uppercase but for the digraphs Ǆ ǅ ǆ → ǅ (and Ǉ, Ǌ, Ǳ alike)
 *   and Georgian Mkhedruli, whose titlecase is itself (its uppercase is Mtavruli);
 * - letters whose case pairs came after Unicode 15.0 (ƛ, ɤ, Garay, …) have none in Go.
 */
const AFTER_GO_UNICODE: readonly (readonly [number, number])[] = [
  [0x019b, 0x019b], [0x0264, 0x0264], [0x1c89, 0x1c8a], [0xa7cb, 0xa7cf], [0xa7d2, 0xa7d5], [0xa7da, 0xa7dc],
  [0x10d50, 0x10d65], [0x10d70, 0x10d85], [0x16ea0, 0x16edf],
];

const oneRune = (s: string): boolean => s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff);

function afterGoUnicode(cp: number): boolean {
  for (const [lo, hi] of AFTER_GO_UNICODE) if (cp >= lo && cp <= hi) return true;
  return false;
}

/** unicode.ToUpper of one rune (a string of one code point). */
export function goRuneUpper(r: string): string {
  const u = r.toUpperCase();
  if (u === r) return r;
  const cp = r.codePointAt(0)!;
  if (afterGoUnicode(cp) || afterGoUnicode(u.codePointAt(0)!)) return r;
  if (oneRune(u)) return u;
  if ((cp >= 0x1f80 && cp <= 0x1f87) || (cp >= 0x1f90 && cp <= 0x1f97) || (cp >= 0x1fa0 && cp <= 0x1fa7)) return String.fromCodePoint(cp + 8);
  if (cp === 0x1fb3 || cp === 0x1fc3 || cp === 0x1ff3) return String.fromCodePoint(cp + 9);
  return r;
}

/** unicode.ToLower of one rune. */
export function goRuneLower(r: string): string {
  if (r === '\u0130') return 'i';
  const l = r.toLowerCase();
  if (l === r || !oneRune(l)) return r;
  return afterGoUnicode(r.codePointAt(0)!) || afterGoUnicode(l.codePointAt(0)!) ? r : l;
}

/** unicode.ToTitle of one rune. */
export function goRuneTitle(r: string): string {
  const cp = r.codePointAt(0)!;
  if (cp >= 0x01c4 && cp <= 0x01cc) return String.fromCharCode(0x01c5 + 3 * Math.floor((cp - 0x01c4) / 3));
  if (cp >= 0x01f1 && cp <= 0x01f3) return '\u01f2';
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return r;
  return goRuneUpper(r);
}

/** strings.ToUpper: rune by rune, never expanding one rune into several (as JavaScript does for ß). */
export function goToUpper(s: string): string {
  if (isAscii(s)) return s.toUpperCase();
  let out = '';
  for (const r of s) out += goRuneUpper(r);
  return out;
}

/** strings.ToLower, rune by rune (İ becomes i, not i + combining dot; Σ is σ wherever it stands). */
export function goToLower(s: string): string {
  if (isAscii(s)) return s.toLowerCase();
  let out = '';
  for (const r of s) out += goRuneLower(r);
  return out;
}

/** unicode.IsSpace of one rune (JavaScript's \s also has U+FEFF, which Go's has not). */
export function isGoSpace(r: string): boolean {
  return GO_SPACE.test(r);
}
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Go's s[i:j] on bytes. Non-ASCII strings are sliced on their UTF-8 bytes. */
export function byteSlice(s: string, i: number, j?: number): string {
  if (isAscii(s)) return s.slice(i, j);
  return Buffer.from(s, 'utf8').subarray(i, j).toString('utf8');
}

// ---------------------------------------------------------------------------------------------
// Conversion of JSON-decoded data

export interface JsonToGoOptions {
  /**
   * `float64`: every number is a Go float64, as Argo CD decodes JSON and YAML (the default).
   * `int-if-integral`: integral numbers are Go ints, others float64 (the conformance vectors' rule).
   */
  numbers?: 'float64' | 'int-if-integral';
}

/**
 * Converts JSON-decoded data (JSON.parse output or YAML loaded as JSON) into Go values. With the
 * Argo CD rule (all numbers float64) JSON data already is a Go value; it is returned as it is.
 */
export function goValueFromJson(data: unknown, options: JsonToGoOptions = {}): GoValue {
  if ((options.numbers ?? 'float64') === 'float64') return checkJson(data);
  return intIfIntegral(data);
}

function checkJson(data: unknown): GoValue {
  // JSON data (null, boolean, number, string, arrays, plain objects) needs no conversion.
  return data as GoValue;
}

function intIfIntegral(data: unknown): GoValue {
  if (typeof data === 'number') return Number.isInteger(data) && Math.abs(data) < 2 ** 63 ? BigInt(data) : data;
  if (Array.isArray(data)) return data.map(intIfIntegral);
  if (data !== null && typeof data === 'object') {
    const out = newMap();
    for (const [k, v] of Object.entries(data)) out[k] = intIfIntegral(v);
    return out;
  }
  return data as GoValue;
}

/** Argo CD's rule: JSON numbers are float64. */
export function goValueFromJsonArgoCD(data: unknown): GoValue {
  return goValueFromJson(data, { numbers: 'float64' });
}

/** The conformance vectors' rule: integral numbers are Go ints. */
export function goValueFromJsonIntegralAsInt(data: unknown): GoValue {
  return goValueFromJson(data, { numbers: 'int-if-integral' });
}
