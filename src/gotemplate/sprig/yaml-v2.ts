/**
 * YAML output as sigs.k8s.io/yaml (go-yaml v2 underneath) writes it, for Argo CD's `toYaml`:
 * JSON-compatible values, map keys in yaml.v2's order, sequences not indented under their key,
 * strings quoted only when a plain scalar would read back as something else, long plain or
 * quoted lines folded at column 80, multi-line strings as literal blocks.
 */
import type { GoValue } from '../values.js';
import { formatFloat } from '../strconv.js';
import { marshalJson } from './collections.js';

const BEST_WIDTH = 80;
const INDENT = 2;

// --- yaml.v2 resolve(): what a plain scalar would read back as

const resolveMap = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF',
  'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<',
]);
const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const base60Float = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const timestampRe = /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]|[ \t]+)\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d{1,2}(?::?\d{2})?))?)?$/;

function resolvesToString(s: string): boolean {
  if (s === '') return false;
  const c = s[0]!;
  const isD = c >= '0' && c <= '9';
  const isS = c === '+' || c === '-';
  const isM = 'yYnNtTfFoO~'.includes(c);
  // Only these first characters can start a non-string (yaml.v2's resolve table; "<<" is not one).
  if (!(isD || isS || isM || c === '.')) return true;
  if (resolveMap.has(s)) return false;
  if (c === '.') return !/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(s) && !/^\.(inf|nan)$/i.test(s);
  if (isD || isS) {
    if (timestampRe.test(s)) return false;
    const plain = s.replace(/_/g, '');
    if (/^[-+]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]*|[1-9][0-9]*|0)$/.test(plain)) return false;
    if (yamlStyleFloat.test(plain)) return false;
    if (/^-?0b[01]+$/.test(plain)) return false;
  }
  return true;
}

// --- scalar analysis (yaml_emitter_analyze_scalar)

interface Analysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

/** go-yaml v2's is_printable: it checks UTF-8 bytes of at most three bytes, so NEL and characters
 * beyond the BMP are not printable (they are written as escapes in double quotes). */
function isPrintable(cp: number): boolean {
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}
const isBreakCp = (cp: number): boolean => cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;

function analyze(value: string): Analysis {
  let blockIndicators = false;
  let specialCharacters = false;
  let lineBreaks = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) blockIndicators = true;
  let precededByWhitespace = true;
  const cps = [...value].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    const c = String.fromCodePoint(cp);
    const next = cps[i + 1];
    const followedByWhitespace = next === undefined || next === 0x20 || next === 0x09 || isBreakCp(next);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      else if ((c === '?' || c === ':' || c === '-') && followedByWhitespace) blockIndicators = true;
    } else {
      if (c === ':' && followedByWhitespace) blockIndicators = true;
      if (c === '#' && precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintable(cp)) specialCharacters = true;
    if (cp === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakCp(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = cp === 0x20 || cp === 0x09 || isBreakCp(cp) || cp === 0;
  }
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks) blockPlainAllowed = false;
  if (blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

// --- writers

class Out {
  text = '';
  column = 0;
  write(s: string): void {
    this.text += s;
    const nl = s.lastIndexOf('\n');
    if (nl >= 0) this.column = [...s.slice(nl + 1)].length;
    else this.column += [...s].length;
  }
  newline(indent: number): void {
    this.text += '\n' + ' '.repeat(indent);
    this.column = indent;
  }
}

function writePlain(o: Out, value: string, indent: number, allowBreaks: boolean): void {
  const chars = [...value];
  let spaces = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === ' ') {
      if (allowBreaks && !spaces && o.column > BEST_WIDTH && chars[i + 1] !== ' ') o.newline(indent);
      else o.write(c);
      spaces = true;
    } else {
      o.write(c);
      spaces = false;
    }
  }
}

function writeSingleQuoted(o: Out, value: string, indent: number, allowBreaks: boolean): void {
  o.write("'");
  const chars = [...value];
  let spaces = false;
  let breaks = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === ' ') {
      if (allowBreaks && !spaces && o.column > BEST_WIDTH && i !== 0 && i !== chars.length - 1 && chars[i + 1] !== ' ') o.newline(indent);
      else o.write(c);
      spaces = true;
    } else if (isBreakCp(c.codePointAt(0)!)) {
      // A line break is written as it is (a LF doubled); the next line starts at the indentation.
      if (!breaks && c === '\n') o.text += '\n';
      o.text += c;
      o.column = 0;
      breaks = true;
    } else {
      if (breaks) o.write(' '.repeat(indent));
      o.write(c === "'" ? "''" : c);
      spaces = false;
      breaks = false;
    }
  }
  o.write("'");
}

function writeDoubleQuoted(o: Out, value: string, indent: number, allowBreaks: boolean): void {
  o.write('"');
  const chars = [...value];
  let spaces = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const cp = c.codePointAt(0)!;
    if (!isPrintable(cp) || cp === 0xfeff || isBreakCp(cp) || c === '"' || c === '\\') {
      let esc: string;
      switch (cp) {
        case 0x00:
          esc = '0';
          break;
        case 0x07:
          esc = 'a';
          break;
        case 0x08:
          esc = 'b';
          break;
        case 0x09:
          esc = 't';
          break;
        case 0x0a:
          esc = 'n';
          break;
        case 0x0b:
          esc = 'v';
          break;
        case 0x0c:
          esc = 'f';
          break;
        case 0x0d:
          esc = 'r';
          break;
        case 0x1b:
          esc = 'e';
          break;
        case 0x22:
          esc = '"';
          break;
        case 0x5c:
          esc = '\\';
          break;
        case 0x85:
          esc = 'N';
          break;
        case 0xa0:
          esc = '_';
          break;
        case 0x2028:
          esc = 'L';
          break;
        case 0x2029:
          esc = 'P';
          break;
        default:
          if (cp <= 0xff) esc = 'x' + cp.toString(16).toUpperCase().padStart(2, '0');
          else if (cp <= 0xffff) esc = 'u' + cp.toString(16).toUpperCase().padStart(4, '0');
          else esc = 'U' + cp.toString(16).toUpperCase().padStart(8, '0');
      }
      o.write('\\' + esc);
      spaces = false;
    } else if (c === ' ') {
      if (allowBreaks && !spaces && o.column > BEST_WIDTH && i !== 0 && i !== chars.length - 1) {
        o.newline(indent);
        if (chars[i + 1] === ' ') o.write('\\');
      } else o.write(c);
      spaces = true;
    } else {
      o.write(c);
      spaces = false;
    }
  }
  o.write('"');
}

function writeLiteral(o: Out, value: string, indent: number): void {
  let hints = '';
  if (value.startsWith(' ') || value.startsWith('\n')) hints += String(INDENT);
  if (!value.endsWith('\n')) hints += '-';
  else if (value.length === 1 || value.endsWith('\n\n')) hints += '+';
  o.write('|' + hints);
  // As go-yaml's literal writer: breaks are written as they are, text starts at the indentation.
  let out = '\n';
  let breaks = true;
  for (const c of value) {
    if (isBreakCp(c.codePointAt(0)!)) {
      out += c;
      breaks = true;
    } else {
      if (breaks) out += ' '.repeat(indent);
      out += c;
      breaks = false;
    }
  }
  // The line break after the scalar is written by whatever comes next.
  if (out.endsWith('\n')) out = out.slice(0, -1);
  o.write(out);
}

/** Writes a string scalar; `simpleKey`: it is a mapping key. `indent` is the scalar's indentation. */
function writeString(o: Out, s: string, indent: number, simpleKey: boolean): void {
  const canUsePlain = resolvesToString(s) && !base60Float.test(s);
  let style: 'plain' | 'single' | 'double' | 'literal';
  if (s.includes('\n')) style = 'literal';
  else if (canUsePlain) style = 'plain';
  else style = 'double';
  const a = analyze(s);
  if (style === 'plain') {
    if (!a.blockPlainAllowed) style = 'single';
    if (s.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  const allowBreaks = !simpleKey;
  switch (style) {
    case 'plain':
      writePlain(o, s, indent, allowBreaks);
      return;
    case 'single':
      writeSingleQuoted(o, s, indent, allowBreaks);
      return;
    case 'double':
      writeDoubleQuoted(o, s, indent, allowBreaks);
      return;
    case 'literal':
      writeLiteral(o, s, indent);
  }
}

// --- yaml.v2 key order (sorter.go)

function isLetterCp(c: string): boolean {
  return /^\p{L}$/u.test(c);
}
function isDigitCp(c: string): boolean {
  return /^\p{Nd}$/u.test(c);
}

export function yamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetterCp(ar[i]!);
    const bl = isLetterCp(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigitCp(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigitCp(ar[ai]!); ai++) an = an * 10n + BigInt(ar[ai]!.charCodeAt(0) - 48);
    let bi = i;
    for (; bi < br.length && isDigitCp(br[bi]!); bi++) bn = bn * 10n + BigInt(br[bi]!.charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

// --- values

/**
 * JSON round trip: what json.Marshal + yaml.Unmarshal leave of a Go value. JSON leaves NEL
 * (U+0085) unescaped, and YAML folds that line break in a double-quoted scalar into a space.
 */
function jsonNormalize(v: GoValue): unknown {
  return JSON.parse(marshalJson(v, false, ''), (_k, x: unknown) =>
    typeof x === 'string' && x.includes('\u0085')
      ? x.replace(/[ \t]*((?:\u0085[ \t]*)+)/g, (_m, run: string) => {
          const n = (run.match(/\u0085/g) ?? []).length;
          return n === 1 ? ' ' : '\n'.repeat(n - 1);
        })
      : x,
  );
}

function scalarText(v: unknown): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) return BigInt(v).toString();
    // yaml.v2 formats floats with strconv 'g', -1.
    return formatG(v);
  }
  return undefined;
}

function formatG(f: number): string {
  if (f === Infinity) return '.inf';
  if (f === -Infinity) return '-.inf';
  if (Number.isNaN(f)) return '.nan';
  return formatFloat(f, 'g', -1);
}

function emitNode(o: Out, v: unknown, indent: number): void {
  // `indent` is the indentation of the collection being written; scalars fold at indent + 2.
  const s = scalarText(v);
  if (s !== undefined) {
    o.write(s);
    return;
  }
  if (typeof v === 'string') {
    writeString(o, v, indent + INDENT, false);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) {
      o.write('[]');
      return;
    }
    let first = true;
    for (const item of v) {
      if (!first) o.newline(indent);
      first = false;
      o.write('- ');
      emitSeqItem(o, item, indent);
    }
    return;
  }
  const m = v as Record<string, unknown>;
  const keys = Object.keys(m).sort((x, y) => (yamlKeyLess(x, y) ? -1 : yamlKeyLess(y, x) ? 1 : 0));
  if (keys.length === 0) {
    o.write('{}');
    return;
  }
  let first = true;
  for (const k of keys) {
    if (!first) o.newline(indent);
    first = false;
    writeString(o, k, indent + INDENT, true);
    o.write(':');
    emitMapValue(o, m[k], indent);
  }
}

function isCollection(v: unknown): boolean {
  return (Array.isArray(v) && v.length > 0) || (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0);
}

function emitMapValue(o: Out, v: unknown, indent: number): void {
  if (Array.isArray(v) && v.length > 0) {
    // Sequences are not indented under their key.
    o.newline(indent);
    emitNode(o, v, indent);
    return;
  }
  if (isCollection(v)) {
    o.newline(indent + INDENT);
    emitNode(o, v, indent + INDENT);
    return;
  }
  o.write(' ');
  emitNode(o, v, indent);
}

function emitSeqItem(o: Out, v: unknown, indent: number): void {
  if (isCollection(v)) {
    // The first entry goes on the dash's line.
    emitNode(o, v, indent + INDENT);
    return;
  }
  emitNode(o, v, indent);
}

/** sigs.k8s.io/yaml.Marshal(v) as text (with its trailing newline). */
export function marshalYamlV2(v: GoValue): string {
  const data = jsonNormalize(v);
  const o = new Out();
  if (data !== null && typeof data === 'object' && isCollection(data)) emitNode(o, data, 0);
  else if (typeof data === 'string') writeString(o, data, INDENT, false);
  else emitNode(o, data, 0);
  return o.text + '\n';
}

