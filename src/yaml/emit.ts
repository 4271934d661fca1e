/**
 * A YAML emitter for plain data (maps, lists, strings, numbers, booleans, null), written for
 * render speed: block style, two-space indent, sorted keys, no anchors, no line folding, LF.
 *
 * Strings are written plain only when no YAML 1.1 or 1.2 reader could take them for anything
 * else (booleans like `yes`/`on`, numbers, dates, nulls, indicators); otherwise double-quoted
 * with JSON escapes, which YAML reads back identically. Multi-line strings become literal blocks.
 * Shared subtrees (the same object reached from many Applications, such as the fleet defaults'
 * syncPolicy) are emitted once per indent and reused.
 */

// Large subtrees seen once are remembered; from their second appearance their text is reused.
// Small ones are not: the bookkeeping (a weak-set entry, and an identity hash, per object) cost
// more than emitting them again, and made rendering 5,000 clusters twice as slow as needed.
const seen = new WeakSet<object>();
const memo = new WeakMap<object, Map<number, string>>();
/** Texts at least this long are worth remembering. */
const MEMO_MIN_LENGTH = 512;

/** Indentation strings by width, made once (not one `repeat` per block). */
const PADS: string[] = [];
const padOf = (n: number): string => (PADS[n] ??= ' '.repeat(n));

/** One YAML document for `v`, ending in one newline. */
export function emitYaml(v: unknown): string {
  if (isMap(v)) return Object.keys(v).length === 0 ? '{}\n' : block(v, 0, false);
  if (Array.isArray(v)) return v.length === 0 ? '[]\n' : block(v, 0, false);
  return scalar(v, 0) + '\n';
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A non-empty map or list at `indent`, as full lines. `inline`: without the first line's
 * indentation, for a list item whose first line follows its dash (`- key: value`); the text is
 * built that way rather than cut from the full text (a cut copies the whole block).
 */
function block(v: Record<string, unknown> | unknown[], indent: number, inline: boolean): string {
  // A lookup is cheap for an object never remembered (it has no identity hash yet).
  const perIndent = memo.get(v);
  const cached = perIndent?.get(indent);
  if (cached !== undefined) return inline ? cached.slice(indent) : cached;
  const pad = padOf(indent);
  let s = '';
  let lead = inline ? '' : pad;
  if (Array.isArray(v)) {
    for (const item of v) {
      s += lead + '-' + inlineAfterDash(item, indent + 2);
      lead = pad;
    }
  } else {
    const keys = Object.keys(v);
    if (keys.length > 1) keys.sort();
    for (const k of keys) {
      const x = v[k];
      if (x === undefined || typeof x === 'function') continue;
      s += lead + key(k) + ':' + afterKey(x, indent);
      lead = pad;
    }
  }
  if (indent > 0 && s.length + (inline && s !== '' ? indent : 0) >= MEMO_MIN_LENGTH) {
    // Remembered as the full lines (an inline text with its first indentation put back).
    const full = inline && s !== '' ? pad + s : s;
    if (perIndent) perIndent.set(indent, full);
    else if (seen.has(v)) memo.set(v, new Map([[indent, full]]));
    else seen.add(v);
  }
  return s;
}

/** What follows `key:` — a space and a scalar, or a newline and a nested block. */
function afterKey(x: unknown, indent: number): string {
  if (typeof x === 'object' && x !== null) {
    if (Array.isArray(x)) return x.length === 0 ? ' []\n' : '\n' + block(x, indent + 2, false);
    return Object.keys(x).length === 0 ? ' {}\n' : '\n' + block(x as Record<string, unknown>, indent + 2, false);
  }
  return ' ' + scalar(x, indent + 2) + '\n';
}

/** What follows `-` for a list item whose contents sit at `indent`. */
function inlineAfterDash(item: unknown, indent: number): string {
  if (typeof item === 'object' && item !== null) {
    if (Array.isArray(item)) return item.length === 0 ? ' []\n' : ' ' + block(item, indent, true);
    // The first line of the nested block goes on the dash's line.
    return Object.keys(item).length === 0 ? ' {}\n' : ' ' + block(item as Record<string, unknown>, indent, true);
  }
  return ' ' + scalar(item, indent) + '\n';
}

function scalar(v: unknown, indent: number): string {
  if (typeof v === 'string') {
    // A plain-safe string has no line break; only one that is not plain can need a literal block.
    if (plainSafe(v)) return v;
    return v.includes('\n') ? literal(v, indent) : JSON.stringify(v);
  }
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return '.nan';
    if (!Number.isFinite(v)) return v > 0 ? '.inf' : '-.inf';
    return Object.is(v, -0) ? '-0' : String(v);
  }
  if (typeof v === 'bigint') return v.toString();
  const s = String(v);
  if (s.includes('\n')) return literal(s, indent);
  return plainSafe(s) ? s : JSON.stringify(s);
}

function key(k: string): string {
  return plainSafe(k) ? k : JSON.stringify(k);
}

/** A literal block scalar, or a quoted string when a block cannot carry the text exactly. */
function literal(s: string, indent: number): string {
  if (hasUnsafeChar(s) || s.startsWith(' ') || s.startsWith('\n')) {
    return JSON.stringify(s);
  }
  let body = s;
  let chomp: string;
  if (!body.endsWith('\n')) chomp = '-';
  else if (body.endsWith('\n\n')) chomp = '+';
  else chomp = '';
  if (chomp === '') body = body.slice(0, -1);
  else if (chomp === '+') body = body.slice(0, -1);
  const pad = ' '.repeat(indent);
  const lines = body.split('\n').map((l) => (l === '' ? '' : pad + l));
  return '|' + chomp + '\n' + lines.join('\n');
}

/** Characters a literal block cannot carry as themselves: controls (but LF), NEL, line/paragraph separators, BOM. */
function hasUnsafeChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x0a) || c === 0x7f || c === 0x85 || c === 0x2028 || c === 0x2029 || c === 0xfeff) return true;
  }
  return false;
}

/**
 * Per ASCII character: 0 never plain (a control, space-less flow indicator `[]{},`, or anything a
 * plain scalar cannot hold), 1 plain but not as the first character (an indicator or a space), 2
 * plain anywhere. Characters from 128 on are never plain.
 */
const CHAR_CLASS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./\\$()<=+^;') CHAR_CLASS[c.charCodeAt(0)] = 2;
for (const c of ' >%@:!?\'"*&#|`~-') CHAR_CLASS[c.charCodeAt(0)] = 1;
const SPACE = 0x20;
const COLON = 0x3a;
const HASH = 0x23;
const DOT = 0x2e;

/** Words every YAML 1.1 or 1.2 reader takes for a boolean, a null or a merge key (any case). */
const RESERVED = new Set(['true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n', 'null', '~', '=', '<<']);

/**
 * True when `s` can be written without quotes and reads back as the same string everywhere: not
 * empty, not a reserved word, not number-like (`[-+]?` then a digit, `.` and a digit, or `.inf` /
 * `.nan` in any case); only the characters of CHAR_CLASS, the first one of class 2; not ending in
 * a space or `:`; no `: ` or ` #`. One pass over the characters (it was four regular expressions
 * and four searches: a fifth of the emitter's time).
 */
export function plainSafe(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  const c0 = s.charCodeAt(0);
  if (c0 >= 128 || CHAR_CLASS[c0] !== 2) return false;
  let prev = c0;
  for (let i = 1; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || CHAR_CLASS[c] === 0) return false;
    if ((c === SPACE && prev === COLON) || (c === HASH && prev === SPACE)) return false;
    prev = c;
  }
  if (prev === SPACE || prev === COLON) return false;
  if (n <= 5 && RESERVED.has(s.toLowerCase())) return false;
  return !numberLike(s, c0);
}

/** `[-+]?(?:\.?[0-9]|\.(?:inf|nan)$)`, case-insensitive, at the start of `s` (first character `c0`). */
function numberLike(s: string, c0: number): boolean {
  let i = 0;
  let c = c0;
  // `-` is never a first plain character; `+` is.
  if (c === 0x2b) c = i + 1 < s.length ? s.charCodeAt(++i) : -1;
  if (c >= 0x30 && c <= 0x39) return true;
  if (c !== DOT) return false;
  const next = i + 1 < s.length ? s.charCodeAt(i + 1) : -1;
  if (next >= 0x30 && next <= 0x39) return true;
  if (s.length - (i + 1) !== 3) return false;
  const rest = s.slice(i + 1).toLowerCase();
  return rest === 'inf' || rest === 'nan';
}
