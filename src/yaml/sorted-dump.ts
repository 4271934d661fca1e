/**
 * js-yaml's `dump(v, { sortKeys: true, lineWidth: -1, noRefs: true })`, byte for byte, for the
 * plain data of generated Applications, without js-yaml's per-scalar work: printing 100,000
 * Applications spent most of its time choosing the style of the same few thousand strings.
 *
 * The layout (block mappings with sorted keys, block sequences, `{}`/`[]` when empty, two-space
 * indent, compact `- key: value` items, undefined values left out of mappings and written as null
 * in sequences) is js-yaml's writeNode/writeBlockMapping/writeBlockSequence for `indent: 2`,
 * `flowLevel: -1`, no tags and no references. A scalar's text is js-yaml's own (`dump` of the
 * scalar alone), remembered per string: with `lineWidth: -1` a single-line string prints the same
 * at any depth, and a literal block only gains indentation on its non-empty lines. Strings that
 * are certainly plain (a letter, then letters, digits, `_./-`, and no reserved word) skip even
 * that. Anything else (a key with a line break or longer than 1024 characters, a value that is
 * not a string, number, boolean, null, plain object or array) is printed by js-yaml itself, for
 * the whole document. test/appset/yaml-dump.test.ts compares both on a table of cases.
 */
import { dump } from 'js-yaml';

const OPTIONS = { sortKeys: true, lineWidth: -1, noRefs: true } as const;

/** Thrown inside the fast path when the document needs js-yaml itself. */
const FALLBACK = Symbol('fallback');

/** Words js-yaml quotes although they are letters only (DEFAULT_SCHEMA's null/bool and YAML 1.1 booleans). */
const RESERVED = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF']);
const CERTAINLY_PLAIN = /^[A-Za-z][A-Za-z0-9_./-]*$/;

// js-yaml's text of a string at the top level (level 0, indent 2), without the final newline.
const scalars = new Map<string, string>();
const CACHE_LIMIT = 50_000;

function topLevel(s: string): string {
  let t = scalars.get(s);
  if (t === undefined) {
    t = dump(s, OPTIONS).slice(0, -1);
    if (scalars.size >= CACHE_LIMIT) scalars.clear();
    scalars.set(s, t);
  }
  return t;
}

/** A string value at `level` (js-yaml indents a block scalar's lines by 2 × max(1, level)). */
export function stringAt(s: string, level: number): string {
  if (CERTAINLY_PLAIN.test(s) && !RESERVED.has(s)) return s;
  const t = topLevel(s);
  if (level <= 1 || (t.charCodeAt(0) !== 0x7c /* | */ && t.charCodeAt(0) !== 0x3e) /* > */) return t;
  const nl = t.indexOf('\n');
  if (nl < 0) return t;
  const extra = ' '.repeat(2 * level - 2);
  return t.slice(0, nl + 1) + t.slice(nl + 1).split('\n').map((line) => (line === '' ? line : extra + line)).join('\n');
}

function keyText(k: string): string {
  // js-yaml writes a multi-line key double-quoted and a long one as an explicit `? ` pair.
  if (k.length > 1024 || k.includes('\n')) throw FALLBACK;
  if (CERTAINLY_PLAIN.test(k) && !RESERVED.has(k)) return k;
  const t = topLevel(k);
  if (t.length > 1024) throw FALLBACK;
  return t;
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

// '\n' and the indentation of `level`, made once per level.
const lines: string[] = [];
const nextLine = (level: number) => (lines[level] ??= '\n' + ' '.repeat(2 * level));

// The text before a mapping value, per level: [same line?][block?] → key → text.
const keyLines: Map<string, string>[][] = [];
const KEY_LINE_LIMIT = 10_000;

function keyLine(level: number, newLine: boolean, k: string, block: boolean): string {
  const perLevel = (keyLines[level] ??= [new Map(), new Map(), new Map(), new Map()]);
  const m = perLevel[(newLine ? 2 : 0) + (block ? 1 : 0)]!;
  let t = m.get(k);
  if (t === undefined) {
    t = (newLine ? nextLine(level) : '') + keyText(k) + (block ? ':' : ': ');
    if (m.size >= KEY_LINE_LIMIT) m.clear();
    m.set(k, t);
  }
  return t;
}

/** True when js-yaml writes `v` as a block (its text then starts on a new line after `key:`). */
function isBlock(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.length > 0;
  for (const k in v) if (Object.hasOwn(v, k) && (v as Record<string, unknown>)[k] !== undefined) return true;
  return false;
}

/**
 * The text being written. Appending to one string is cheapest in V8 (a rope, flattened once when
 * written out); an array of pieces joined at the end was several times slower for 100,000 apps.
 */
let text = '';

/** Appends js-yaml's writeNode text of `v` at `level` to `text`. `v` is not undefined. */
function node(v: unknown, level: number, compact: boolean): void {
  if (v === null) {
    text += 'null';
    return;
  }
  switch (typeof v) {
    case 'string':
      text += stringAt(v, level);
      return;
    case 'boolean':
      text += v ? 'true' : 'false';
      return;
    case 'number':
      // Not remembered: a Map cannot tell 0 from -0, which js-yaml prints differently.
      text += dump(v, OPTIONS).slice(0, -1);
      return;
    case 'object':
      break;
    default:
      throw FALLBACK;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) {
      text += '[]';
      return;
    }
    let first = true;
    for (const item of v) {
      if (!compact || !first) text += nextLine(level);
      first = false;
      // An undefined item is written as null; a nested block sequence or mapping is compact.
      text += '- ';
      node(item === undefined ? null : item, level + 1, true);
    }
    return;
  }
  if (!isPlainObject(v)) throw FALLBACK;
  const keys = Object.keys(v);
  keys.sort();
  let first = true;
  for (const k of keys) {
    const x = v[k];
    if (x === undefined) continue;
    // One remembered piece for the line break, indentation, key and colon: fewer pieces to join.
    text += keyLine(level, !compact || !first, k, isBlock(x));
    first = false;
    node(x, level + 1, false);
  }
  if (first) text += '{}';
}

/** The bytes of js-yaml's `dump(v, { sortKeys: true, lineWidth: -1, noRefs: true })`. */
export function dumpSorted(v: unknown): string {
  if (v !== undefined) {
    text = '';
    try {
      node(v, 0, true);
      return text + '\n';
    } catch (e) {
      if (e !== FALLBACK) throw e;
    } finally {
      text = '';
    }
  }
  return dump(v, OPTIONS);
}
