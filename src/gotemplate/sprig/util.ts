/**
 * Conversions sprig relies on: strval, and spf13/cast's ToInt64/ToInt/ToFloat64 semantics.
 */
import { formatValue } from '../fmt.js';
import { parseGoFloat, parseGoInt } from '../strconv.js';
import type { GoValue } from '../values.js';
import { GoComplex, GoObject, TypedInt, kindOf } from '../values.js';

/** sprig's strval: strings as they are, Stringers through String(), the rest with %v. */
export function strval(v: GoValue): string {
  if (typeof v === 'string') return v;
  if (v instanceof GoObject) {
    const s = v.goString();
    if (s !== undefined) return s;
  }
  return formatValue(v);
}

function trimZeroDecimal(s: string): string {
  let foundZero = false;
  for (let i = s.length; i > 0; i--) {
    switch (s[i - 1]) {
      case '.':
        if (foundZero) return s.slice(0, i - 1);
        return s;
      case '0':
        foundZero = true;
        break;
      default:
        return s;
    }
  }
  return s;
}

/** cast.ToInt64: numbers (floats truncated), numeric strings, bools; anything else is 0. */
export function toInt64(v: GoValue): bigint {
  switch (typeof v) {
    case 'bigint':
      return v;
    case 'number':
      // Go's float-to-int conversion of an out-of-range value gives the "integer indefinite" on amd64.
      if (!Number.isFinite(v) || Math.abs(v) >= 2 ** 63) return -0x8000000000000000n;
      return BigInt(Math.trunc(v));
    case 'boolean':
      return v ? 1n : 0n;
    case 'string': {
      const n = parseGoInt(trimZeroDecimal(v));
      return n !== undefined && n >= -(1n << 63n) && n < 1n << 63n ? n : 0n;
    }
  }
  if (v instanceof TypedInt) return BigInt.asIntN(64, v.v);
  return 0n;
}

/** cast.ToFloat64. */
export function toFloat64(v: GoValue): number {
  switch (typeof v) {
    case 'number':
      return v;
    case 'bigint':
      return Number(v);
    case 'boolean':
      return v ? 1 : 0;
    case 'string': {
      const f = parseGoFloat(v);
      return f ?? 0;
    }
  }
  if (v instanceof TypedInt) return Number(v.v);
  return 0;
}

/** reflect.Kind String(), as sprig's messages and kindOf print it. */
export function kindName(v: GoValue): string {
  if (v === undefined || v === null) return 'invalid';
  if (v instanceof TypedInt) return v.goType;
  if (v instanceof GoComplex) return 'complex128';
  const k = kindOf(v);
  switch (k) {
    case 'float':
      return 'float64';
    case 'ptr':
      return 'ptr';
    default:
      return k;
  }
}

