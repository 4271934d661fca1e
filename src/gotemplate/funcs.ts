/**
 * Template functions: how they are declared (Go parameter types drive argument checking and
 * conversion exactly as text/template's evalArg/validateType do) and Go's builtins.
 */
import { FuncError } from './errors.js';
import { formatValue, sprint, sprintf, sprintln } from './fmt.js';
import { isPrint } from './strconv.js';
import type { GoValue } from './values.js';
import {
  GO_TYPE,
  GoComplex,
  GoFuncValue,
  TypedInt,
  byteLen,
  byteSlice,
  hasOwn,
  intValue,
  isMap,
  isTrue,
  kindOf,
  mapType,
  typeName,
} from './values.js';

/**
 * Go parameter types a function can declare:
 * `value` reflect.Value (builtins: raw, nil-preserving), `any` interface{}, and concrete types.
 */
export type ParamKind =
  | 'value'
  | 'any'
  | 'string'
  | 'int'
  | 'int64'
  | 'uint32'
  | 'float64'
  | 'bool'
  | 'map'
  | 'list'
  | 'time'
  | 'semver'
  | 'certificate';

export interface FuncDef {
  params: readonly ParamKind[];
  /** Element type of a trailing `...T` parameter. */
  variadic?: ParamKind;
  /** Throws FuncError (Go's error result) or any Error (a panic); both become "error calling NAME: …". */
  fn: (...args: never[]) => GoValue;
  /** Builtin and/or: short-circuit evaluation. */
  shortCircuit?: 'and' | 'or';
}

export type FuncMap = ReadonlyMap<string, FuncDef>;

export function goTypeOfKind(k: ParamKind): string {
  switch (k) {
    case 'value':
      return 'reflect.Value';
    case 'any':
      return 'interface {}';
    case 'map':
      return 'map[string]interface {}';
    case 'time':
      return 'time.Time';
    case 'semver':
      return '*semver.Version';
    case 'list':
      return '[]interface {}';
    case 'certificate':
      return 'sprig.certificate';
    default:
      return k;
  }
}

/** Shorthand to declare a function. */
export function def(params: readonly ParamKind[], fn: (...args: never[]) => GoValue, variadic?: ParamKind): FuncDef {
  return variadic === undefined ? { params, fn } : { params, fn, variadic };
}

// ---------------------------------------------------------------------------------------------
// Builtins (text/template/funcs.go)

/** indirectInterface: a nil interface is no value. */
function ind(v: GoValue): GoValue {
  return v === null ? undefined : v;
}

const enum BK {
  Invalid,
  Bool,
  Complex,
  Int,
  Float,
  String,
  Uint,
}

function basicKind(v: GoValue): BK {
  switch (typeof v) {
    case 'boolean':
      return BK.Bool;
    case 'bigint':
      return BK.Int;
    case 'number':
      return BK.Float;
    case 'string':
      return BK.String;
    case 'object':
      if (v instanceof TypedInt) return v.unsigned ? BK.Uint : BK.Int;
      if (v instanceof GoComplex) return BK.Complex;
  }
  return BK.Invalid;
}

function num(v: GoValue): bigint {
  return intValue(v)!;
}

const errBadComparisonType = 'invalid type for comparison';
const errBadComparison = 'incompatible types for comparison';
const errNoComparison = 'missing argument for comparison';

function isNilValue(v: GoValue): boolean {
  return v === undefined || v === null;
}

export function eq(arg1: GoValue, ...arg2: GoValue[]): boolean {
  arg1 = ind(arg1);
  if (arg2.length === 0) throw new FuncError(errNoComparison);
  const k1 = basicKind(arg1);
  for (let arg of arg2) {
    arg = ind(arg);
    const k2 = basicKind(arg);
    let truth = false;
    if (k1 !== k2) {
      if (k1 === BK.Int && k2 === BK.Uint) truth = num(arg1) >= 0n && num(arg1) === num(arg);
      else if (k1 === BK.Uint && k2 === BK.Int) truth = num(arg) >= 0n && num(arg1) === num(arg);
      else if (arg1 !== undefined && arg !== undefined) throw new FuncError(errBadComparison);
    } else {
      switch (k1) {
        case BK.Bool:
        case BK.Float:
        case BK.String:
          truth = arg1 === arg;
          break;
        case BK.Int:
        case BK.Uint:
          truth = num(arg1) === num(arg);
          break;
        case BK.Complex:
          truth = (arg1 as GoComplex).re === (arg as GoComplex).re && (arg1 as GoComplex).im === (arg as GoComplex).im;
          break;
        default: {
          const ka = kindOf(arg1);
          const kb = kindOf(arg);
          if (ka !== kb && ka !== 'invalid' && kb !== 'invalid') {
            throw new FuncError(`non-comparable types ${sprintf('%s', [arg1])}: ${typeName(arg1)}, ${typeName(arg)}: ${formatValue(arg)}`);
          }
          if (isNilValue(arg1) || isNilValue(arg)) truth = isNilValue(arg1) === isNilValue(arg);
          else {
            if (Array.isArray(arg) || isMap(arg) || kb === 'func') {
              throw new FuncError(`non-comparable type ${sprintf('%s', [arg])}: ${typeName(arg)}`);
            }
            truth = arg1 === arg;
          }
        }
      }
    }
    if (truth) return true;
  }
  return false;
}

export function lt(arg1: GoValue, arg2: GoValue): boolean {
  arg1 = ind(arg1);
  const k1 = basicKind(arg1);
  if (k1 === BK.Invalid) throw new FuncError(errBadComparisonType);
  arg2 = ind(arg2);
  const k2 = basicKind(arg2);
  if (k2 === BK.Invalid) throw new FuncError(errBadComparisonType);
  if (k1 !== k2) {
    if (k1 === BK.Int && k2 === BK.Uint) return num(arg1) < 0n || num(arg1) < num(arg2);
    if (k1 === BK.Uint && k2 === BK.Int) return num(arg2) >= 0n && num(arg1) < num(arg2);
    throw new FuncError(errBadComparison);
  }
  switch (k1) {
    case BK.Bool:
    case BK.Complex:
      throw new FuncError(errBadComparisonType);
    case BK.Float:
      return (arg1 as number) < (arg2 as number);
    case BK.Int:
    case BK.Uint:
      return num(arg1) < num(arg2);
    case BK.String:
      return Buffer.compare(Buffer.from(arg1 as string), Buffer.from(arg2 as string)) < 0;
  }
  return false;
}

function le(a: GoValue, b: GoValue): boolean {
  return lt(a, b) || eq(a, b);
}

function indexArg(index: GoValue, cap: number): number {
  let x: bigint;
  const k = kindOf(index);
  if (k === 'int' || k === 'uint') x = num(index);
  else if (index === undefined || index === null) throw new FuncError('cannot index slice/array with nil');
  else throw new FuncError(`cannot index slice/array with type ${typeName(index)}`);
  if (x < 0n || x > BigInt(cap)) throw new FuncError(`index out of range: ${x}`);
  return Number(x);
}

function index(item: GoValue, ...indexes: GoValue[]): GoValue {
  item = ind(item);
  if (item === undefined) throw new FuncError('index of untyped nil');
  for (let ix of indexes) {
    ix = ind(ix);
    if (item === null || item === undefined) throw new FuncError('index of nil pointer');
    if (typeof item === 'string') {
      const len = byteLen(item);
      const x = indexArg(ix, len);
      if (x === len) throw new FuncError(`index out of range: ${x}`);
      item = new TypedInt('uint8', BigInt(Buffer.from(item, 'utf8')[x]!));
    } else if (Array.isArray(item)) {
      const x = indexArg(ix, item.length);
      if (x === item.length) throw new FuncError(`index out of range: ${x}`);
      item = item[x];
    } else if (isMap(item)) {
      if (ix === undefined) throw new FuncError('value is nil; should be of type string');
      if (typeof ix !== 'string') throw new FuncError(`value has type ${typeName(ix)}; should be string`);
      if (hasOwn(item, ix)) item = item[ix];
      else item = mapType(item) === 'map[string]string' ? '' : null;
    } else {
      throw new FuncError(`can't index item of type ${typeName(item)}`);
    }
  }
  return item;
}

function slice(item: GoValue, ...indexes: GoValue[]): GoValue {
  item = ind(item);
  if (item === undefined) throw new FuncError('slice of untyped nil');
  if (indexes.length > 3) throw new FuncError(`too many slice indexes: ${indexes.length}`);
  let cap: number;
  let len: number;
  if (typeof item === 'string') {
    if (indexes.length === 3) throw new FuncError('cannot 3-index slice a string');
    cap = len = byteLen(item);
  } else if (Array.isArray(item)) {
    cap = len = item.length;
  } else throw new FuncError(`can't slice item of type ${typeName(item)}`);
  const idx = [0, len, 0];
  indexes.forEach((ix, i) => {
    idx[i] = indexArg(ind(ix), cap);
  });
  if (idx[0]! > idx[1]!) throw new FuncError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1]! > idx[2]!) throw new FuncError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (typeof item === 'string') return byteSlice(item, idx[0]!, idx[1]!);
  const out = item.slice(idx[0], idx[1]);
  const t = (item as unknown as Record<symbol, unknown>)[GO_TYPE];
  if (t !== undefined) (out as unknown as Record<symbol, unknown>)[GO_TYPE] = t;
  return out;
}

function length(item: GoValue): GoValue {
  if (item === null) throw new FuncError('len of nil pointer');
  if (item === undefined) throw new FuncError('reflect: call of reflect.Value.Type on zero Value');
  if (typeof item === 'string') return BigInt(byteLen(item));
  if (Array.isArray(item)) return BigInt(item.length);
  if (isMap(item)) return BigInt(Object.keys(item).length);
  throw new FuncError(`len of type ${typeName(item)}`);
}

function call(fn: GoValue, ...args: GoValue[]): GoValue {
  fn = ind(fn);
  if (fn === undefined) throw new FuncError('call of nil');
  if (!(fn instanceof GoFuncValue)) throw new FuncError(`non-function of type ${typeName(fn)}`);
  if (args.length !== fn.arity) throw new FuncError(`wrong number of args: got ${args.length} want ${fn.arity}`);
  return fn.fn(args.map((a) => (a === undefined ? null : a)));
}

/** evalArgs of html/js/urlquery: one string as is, otherwise fmt.Sprint with `<no value>` for nil. */
function evalArgs(args: GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === undefined || a === null ? '<no value>' : a)));
}

export function htmlEscape(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    let rep: string;
    switch (s.charCodeAt(i)) {
      case 0:
        rep = '\uFFFD';
        break;
      case 34:
        rep = '&#34;';
        break;
      case 39:
        rep = '&#39;';
        break;
      case 38:
        rep = '&amp;';
        break;
      case 60:
        rep = '&lt;';
        break;
      case 62:
        rep = '&gt;';
        break;
      default:
        continue;
    }
    out += s.slice(last, i) + rep;
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}

export function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (c < 0x20) out += '\\u00' + c.toString(16).toUpperCase().padStart(2, '0');
    else if (c < 0x80 || isPrint(c)) out += ch;
    else out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

/** url.QueryEscape. */
export function queryEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2e || b === 0x5f || b === 0x7e) {
      out += String.fromCharCode(b);
    } else if (b === 0x20) out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

export const builtins: FuncMap = new Map<string, FuncDef>([
  ['and', { params: ['value'], variadic: 'value', fn: () => undefined, shortCircuit: 'and' }],
  ['or', { params: ['value'], variadic: 'value', fn: () => undefined, shortCircuit: 'or' }],
  ['not', def(['value'], ((v: GoValue) => !isTrue(ind(v))) as never)],
  ['call', def(['value'], call as never, 'value')],
  ['html', def([], ((...a: GoValue[]) => htmlEscape(evalArgs(a))) as never, 'any')],
  ['js', def([], ((...a: GoValue[]) => jsEscape(evalArgs(a))) as never, 'any')],
  ['urlquery', def([], ((...a: GoValue[]) => queryEscape(evalArgs(a))) as never, 'any')],
  ['index', def(['value'], index as never, 'value')],
  ['slice', def(['value'], slice as never, 'value')],
  ['len', def(['value'], length as never)],
  ['print', def([], ((...a: GoValue[]) => sprint(a)) as never, 'any')],
  ['printf', def(['string'], ((f: string, ...a: GoValue[]) => sprintf(f, a)) as never, 'any')],
  ['println', def([], ((...a: GoValue[]) => sprintln(a)) as never, 'any')],
  ['eq', def(['value'], eq as never, 'value')],
  ['ne', def(['value', 'value'], ((a: GoValue, b: GoValue) => !eq(a, b)) as never)],
  ['lt', def(['value', 'value'], lt as never)],
  ['le', def(['value', 'value'], le as never)],
  ['gt', def(['value', 'value'], ((a: GoValue, b: GoValue) => !le(a, b)) as never)],
  ['ge', def(['value', 'value'], ((a: GoValue, b: GoValue) => !lt(a, b)) as never)],
]);

