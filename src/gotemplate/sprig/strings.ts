/** sprig's string functions (strings.go, and the goutils/xstrings helpers it calls). */
import { randomInt } from 'node:crypto';
import { FuncError } from '../errors.js';
import { TEMPLATE_LIMITS } from '../limits.js';
import { sprintf } from '../fmt.js';
import type { FuncDef } from '../funcs.js';
import { def } from '../funcs.js';
import type { GoValue } from '../values.js';
import { byteLen, byteSlice, goRuneLower, goRuneTitle, goRuneUpper, goToLower, goToUpper, isGoSpace, newMap, typedMap, typedSlice } from '../values.js';
import { strval } from './util.js';
import { camelCaseToLowerCase, toCamelCase } from './xstrings.js';

const isUpper = (c: string): boolean => /^\p{Lu}$/u.test(c);
const isLower = (c: string): boolean => /^\p{Ll}$/u.test(c);
const isSpaceRune = isGoSpace;

/** strings.Fields */
export function fields(s: string): string[] {
  return s.split(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u).filter((x) => x !== '');
}

/** strings.Title (deprecated in Go, used by sprig). */
function title(s: string): string {
  let prev = ' ';
  let out = '';
  for (const c of s) {
    out += isSeparator(prev) ? goRuneTitle(c) : c;
    prev = c;
  }
  return out;
}


function isSeparator(c: string): boolean {
  const code = c.codePointAt(0)!;
  if (code <= 0x7f) {
    if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95) return false;
    return true;
  }
  if (/^[\p{L}\p{Nd}]$/u.test(c)) return false;
  return isSpaceRune(c);
}

/** goutils.Uncapitalize on every whitespace-delimited word. */
function untitle(s: string): string {
  let out = '';
  let startWord = true;
  for (const c of s) {
    if (isSpaceRune(c)) {
      out += c;
      startWord = true;
    } else if (startWord) {
      out += goToLower(c);
      startWord = false;
    } else out += c;
  }
  return out;
}

/** goutils.SwapCase: upper and title case become lower; lower becomes upper, or title at the start and after a space. */
function swapcase(s: string): string {
  let out = '';
  let whitespace = true;
  for (const c of s) {
    if (isUpper(c) || /^\p{Lt}$/u.test(c)) {
      out += goRuneLower(c);
      whitespace = false;
    } else if (isLower(c)) {
      out += whitespace ? goRuneTitle(c) : goRuneUpper(c);
      whitespace = false;
    } else {
      out += c;
      whitespace = isSpaceRune(c);
    }
  }
  return out;
}

function initials(s: string): string {
  let out = '';
  let lastWasGap = true;
  for (const c of s) {
    if (isSpaceRune(c)) lastWasGap = true;
    else if (lastWasGap) {
      out += c;
      lastWasGap = false;
    }
  }
  return out;
}

/** goutils.AbbreviateFull */
function abbreviateFull(str: string, offset: number, maxWidth: number): string {
  if (str === '') return '';
  if (maxWidth < 4) throw new FuncError('stringutils illegal argument: Minimum abbreviation width is 4');
  const len = byteLen(str);
  if (len <= maxWidth) return str;
  if (offset > len) offset = len;
  if (len - offset < maxWidth - 3) offset = len - (maxWidth - 3);
  const marker = '...';
  if (offset <= 4) return byteSlice(str, 0, maxWidth - 3) + marker;
  if (maxWidth < 7) throw new FuncError('stringutils illegal argument: Minimum abbreviation width with offset is 7');
  if (offset + maxWidth - 3 < len) return marker + abbreviateFull(byteSlice(str, offset), 0, maxWidth - 3);
  return marker + byteSlice(str, len - (maxWidth - 3));
}

/** goutils.WrapCustom */
function wrapCustom(str: string, wrapLength: number, newLineStr: string, wrapLongWords: boolean): string {
  if (str === '') return '';
  if (newLineStr === '') newLineStr = '\n';
  if (wrapLength < 1) wrapLength = 1;
  const inputLineLength = str.length;
  let offset = 0;
  let out = '';
  while (inputLineLength - offset > wrapLength) {
    if (str[offset] === ' ') {
      offset++;
      continue;
    }
    const end = wrapLength + offset + 1;
    const spaceToWrapAt = str.slice(offset, end).lastIndexOf(' ') + offset;
    if (spaceToWrapAt >= offset) {
      out += str.slice(offset, spaceToWrapAt) + newLineStr;
      offset = spaceToWrapAt + 1;
    } else if (wrapLongWords) {
      out += str.slice(offset, wrapLength + offset) + newLineStr;
      offset += wrapLength;
    } else {
      const e = wrapLength + offset;
      const index = str.slice(e).indexOf(' ');
      if (index === -1) {
        out += str.slice(offset);
        offset = inputLineLength;
      } else {
        const at = index + e;
        out += str.slice(offset, at) + newLineStr;
        offset = at + 1;
      }
    }
  }
  return out + str.slice(offset);
}

const alphaNum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alpha = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const numeric = '0123456789';
const ascii = Array.from({ length: 95 }, (_, k) => String.fromCharCode(32 + k)).join('');

function randomFrom(chars: string, count: bigint): string {
  let out = '';
  for (let k = 0n; k < count; k++) out += chars[randomInt(chars.length)];
  return out;
}

function shuffle(s: string): string {
  const runes = [...s];
  for (let i = runes.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [runes[i], runes[j]] = [runes[j]!, runes[i]!];
  }
  return runes.join('');
}

function trunc(c: bigint, s: string): string {
  const n = Number(c);
  const len = byteLen(s);
  if (n < 0 && len + n > 0) return byteSlice(s, len + n);
  if (n >= 0 && len > n) return byteSlice(s, 0, n);
  return s;
}

/** Go's s[a:b] with its bounds checks (a panic becomes the function's error). */
function goSlice(s: string, a: number | undefined, b: number | undefined): string {
  const len = byteLen(s);
  if (b !== undefined && (b < 0 || b > len)) {
    throw new FuncError(`runtime error: slice bounds out of range [:${b}] with length ${len}`);
  }
  const hi = b ?? len;
  if (a !== undefined && (a < 0 || a > hi)) {
    throw new FuncError(b === undefined ? `runtime error: slice bounds out of range [${a}:${len}]` : `runtime error: slice bounds out of range [${a}:${b}]`);
  }
  return byteSlice(s, a ?? 0, hi);
}

function substr(start: bigint, end: bigint, s: string): string {
  const a = Number(start);
  const b = Number(end);
  const len = byteLen(s);
  if (a < 0) return goSlice(s, undefined, b);
  if (b < 0 || b > len) return goSlice(s, a, undefined);
  return goSlice(s, a, b);
}

function quoteAll(q: 'q' | 's', args: GoValue[]): string {
  const out: string[] = [];
  for (const s of args) {
    if (s === null || s === undefined) continue;
    out.push(q === 'q' ? sprintf('%q', [strval(s)]) : `'${strval(s)}'`);
  }
  return out.join(' ');
}

function indent(spaces: bigint, v: string): string {
  if (spaces > BigInt(TEMPLATE_LIMITS.maxOutput)) throw new FuncError(`an indent of ${spaces} exceeds fleetplan's limit of ${TEMPLATE_LIMITS.maxOutput} characters`);
  const pad = ' '.repeat(Number(spaces));
  return pad + v.split('\n').join('\n' + pad);
}

function splitMap(parts: string[]): GoValue {
  const m = newMap();
  parts.forEach((p, i) => {
    m['_' + i] = p;
  });
  return typedMap(m, 'map[string]string');
}

/** strings.SplitN semantics. */
export function splitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const runes = [...s];
    if (n < 0 || n >= runes.length) return runes;
    return [...runes.slice(0, n - 1), runes.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function trimSet(s: string, cutset: string, left: boolean, right: boolean): string {
  const set = new Set([...cutset]);
  const runes = [...s];
  let a = 0;
  let b = runes.length;
  if (left) while (a < b && set.has(runes[a]!)) a++;
  if (right) while (b > a && set.has(runes[b - 1]!)) b--;
  return runes.slice(a, b).join('');
}


function plural(one: string, many: string, count: bigint): string {
  return count === 1n ? one : many;
}

function toStrings(v: GoValue): GoValue {
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const x of v) if (x !== null && x !== undefined) out.push(strval(x));
    return typedSlice(out, '[]string');
  }
  if (v === null || v === undefined) return typedSlice([], '[]string');
  return typedSlice([strval(v)], '[]string');
}

function join(sep: string, v: GoValue): string {
  return (toStrings(v) as string[]).join(sep);
}

function cat(...v: GoValue[]): string {
  const parts: string[] = [];
  for (const x of v) if (x !== null && x !== undefined) parts.push(strval(x));
  return parts.join(' ');
}

const goTrimSpace = (s: string): string => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');

export function stringFuncs(): [string, FuncDef][] {
  const s1 = (f: (s: string) => GoValue): FuncDef => def(['string'], f as never);
  const s2 = (f: (a: string, b: string) => GoValue): FuncDef => def(['string', 'string'], f as never);
  return [
    ['abbrev', def(['int', 'string'], ((w: bigint, s: string) => (w < 4n ? s : abbreviateFull(s, 0, Number(w)))) as never)],
    [
      'abbrevboth',
      def(['int', 'int', 'string'], ((l: bigint, r: bigint, s: string) => (r < 4n || (l > 0n && r < 7n) ? s : abbreviateFull(s, Number(l), Number(r)))) as never),
    ],
    ['trunc', def(['int', 'string'], trunc as never)],
    ['trim', s1(goTrimSpace)],
    ['upper', s1(goToUpper)],
    ['lower', s1(goToLower)],
    ['title', s1(title)],
    ['untitle', s1(untitle)],
    ['substr', def(['int', 'int', 'string'], substr as never)],
    [
      'repeat',
      def(['int', 'string'], ((c: bigint, s: string) => {
        if (c < 0n) throw new FuncError('strings: negative Repeat count');
        if (BigInt(s.length) * c > BigInt(TEMPLATE_LIMITS.maxOutput)) {
          throw new FuncError(`a string of ${BigInt(s.length) * c} characters exceeds fleetplan's limit of ${TEMPLATE_LIMITS.maxOutput}`);
        }
        return s.repeat(Number(c));
      }) as never),
    ],
    ['trimall', s2((a, b) => trimSet(b, a, true, true))],
    ['trimAll', s2((a, b) => trimSet(b, a, true, true))],
    ['trimSuffix', s2((a, b) => (b.endsWith(a) ? b.slice(0, b.length - a.length) : b))],
    ['trimPrefix', s2((a, b) => (b.startsWith(a) ? b.slice(a.length) : b))],
    ['nospace', s1((s) => [...s].filter((c) => !isSpaceRune(c)).join(''))],
    ['initials', s1(initials)],
    ['randAlphaNum', def(['int'], ((c: bigint) => randomFrom(alphaNum, c)) as never)],
    ['randAlpha', def(['int'], ((c: bigint) => randomFrom(alpha, c)) as never)],
    ['randAscii', def(['int'], ((c: bigint) => randomFrom(ascii, c)) as never)],
    ['randNumeric', def(['int'], ((c: bigint) => randomFrom(numeric, c)) as never)],
    ['swapcase', s1(swapcase)],
    ['shuffle', s1(shuffle)],
    ['snakecase', s1((s) => camelCaseToLowerCase(s, '_'))],
    ['camelcase', s1(toCamelCase)],
    ['kebabcase', s1((s) => camelCaseToLowerCase(s, '-'))],
    ['wrap', def(['int', 'string'], ((l: bigint, s: string) => wrapCustom(s, Number(l), '', false)) as never)],
    ['wrapWith', def(['int', 'string', 'string'], ((l: bigint, sep: string, s: string) => wrapCustom(s, Number(l), sep, true)) as never)],
    ['contains', s2((sub, s) => s.includes(sub))],
    ['hasPrefix', s2((sub, s) => s.startsWith(sub))],
    ['hasSuffix', s2((sub, s) => s.endsWith(sub))],
    ['quote', def([], ((...a: GoValue[]) => quoteAll('q', a)) as never, 'any')],
    ['squote', def([], ((...a: GoValue[]) => quoteAll('s', a)) as never, 'any')],
    ['cat', def([], cat as never, 'any')],
    ['indent', def(['int', 'string'], indent as never)],
    ['nindent', def(['int', 'string'], ((n: bigint, v: string) => '\n' + indent(n, v)) as never)],
    ['replace', def(['string', 'string', 'string'], ((o: string, n: string, src: string) => src.split(o).join(n)) as never)],
    ['plural', def(['string', 'string', 'int'], plural as never)],
    ['toString', def(['any'], strval as never)],
    ['split', s2((sep, orig) => splitMap(orig.split(sep)))],
    ['splitList', s2((sep, orig) => typedSlice(sep === '' ? [...orig] : orig.split(sep), '[]string'))],
    ['splitn', def(['string', 'int', 'string'], ((sep: string, n: bigint, orig: string) => splitMap(splitN(orig, sep, Number(n)))) as never)],
    ['toStrings', def(['any'], toStrings as never)],
    ['join', def(['string', 'any'], join as never)],
    [
      'sortAlpha',
      def(['any'], ((v: GoValue) => {
        if (Array.isArray(v)) {
          const a = toStrings(v) as string[];
          return typedSlice([...a].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)), '[]string');
        }
        return typedSlice([strval(v)], '[]string');
      }) as never),
    ],
  ];
}

