// The emitter as it was before the single-pass plainSafe (ADR 0312): the oracle the fast one is compared with.
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
const plainCache = new Map<string, boolean>();
/** Texts at least this long are worth remembering. */
const MEMO_MIN_LENGTH = 512;

/** One YAML document for `v`, ending in one newline. */
export function referenceEmitYaml(v: unknown): string {
  if (isMap(v)) return Object.keys(v).length === 0 ? '{}\n' : block(v, 0);
  if (Array.isArray(v)) return v.length === 0 ? '[]\n' : block(v, 0);
  return scalar(v, 0) + '\n';
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-empty map or list at `indent`, as full lines. */
function block(v: Record<string, unknown> | unknown[], indent: number): string {
  // A lookup is cheap for an object never remembered (it has no identity hash yet).
  const perIndent = memo.get(v);
  const cached = perIndent?.get(indent);
  if (cached !== undefined) return cached;
  const pad = ' '.repeat(indent);
  let s = '';
  if (Array.isArray(v)) {
    for (const item of v) s += pad + '-' + inlineAfterDash(item, indent + 2);
  } else {
    for (const k of Object.keys(v).sort()) {
      const x = v[k];
      if (x === undefined || typeof x === 'function') continue;
      s += pad + key(k) + ':' + afterKey(x, indent);
    }
  }
  if (indent > 0 && s.length >= MEMO_MIN_LENGTH) {
    if (perIndent) perIndent.set(indent, s);
    else if (seen.has(v)) memo.set(v, new Map([[indent, s]]));
    else seen.add(v);
  }
  return s;
}

/** What follows `key:` — a space and a scalar, or a newline and a nested block. */
function afterKey(x: unknown, indent: number): string {
  if (isMap(x)) return Object.keys(x).length === 0 ? ' {}\n' : '\n' + block(x, indent + 2);
  if (Array.isArray(x)) return x.length === 0 ? ' []\n' : '\n' + block(x, indent + 2);
  return ' ' + scalar(x, indent + 2) + '\n';
}

/** What follows `-` for a list item whose contents sit at `indent`. */
function inlineAfterDash(item: unknown, indent: number): string {
  if (isMap(item)) {
    if (Object.keys(item).length === 0) return ' {}\n';
    // The first line of the nested block goes on the dash's line.
    return ' ' + block(item, indent).slice(indent);
  }
  if (Array.isArray(item)) {
    if (item.length === 0) return ' []\n';
    return ' ' + block(item, indent).slice(indent);
  }
  return ' ' + scalar(item, indent) + '\n';
}

function scalar(v: unknown, indent: number): string {
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
  return referencePlainSafe(s) ? s : JSON.stringify(s);
}

function key(k: string): string {
  let safe = plainCache.get(k);
  if (safe === undefined) {
    safe = referencePlainSafe(k);
    if (plainCache.size < 100_000) plainCache.set(k, safe);
  }
  return safe ? k : JSON.stringify(k);
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

const reserved = /^(?:true|false|yes|no|on|off|y|n|null|~|=|<<)$/i;
const numberLike = /^[-+]?(?:\.?[0-9]|\.(?:inf|nan)$)/i;
const plainChars = /^[A-Za-z0-9_./\\$(){}<>=+^%@,;:!?'"*&#|`~[\]-][\w ./\\$(){}<>=+^%@,;:!?'"*&#|`~[\]-]*$/;

/** True when `s` can be written without quotes and reads back as the same string everywhere. */
export function referencePlainSafe(s: string): boolean {
  if (s === '' || reserved.test(s) || numberLike.test(s)) return false;
  if (!plainChars.test(s)) return false;
  const first = s[0]!;
  if ('-?:,[]{}#&*!|>\'"%@`~'.includes(first)) return false;
  if (s.endsWith(' ') || s.endsWith(':')) return false;
  if (s.includes(': ') || s.includes(' #')) return false;
  // Flow indicators anywhere could confuse a reader of flow context; keep them quoted.
  if (/[[\]{},]/.test(s)) return false;
  return true;
}
