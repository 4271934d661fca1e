/**
 * sprig's regex functions over Go's RE2 syntax, translated to JavaScript regular expressions
 * (named groups `(?P<n>…)`, `\A`, `\z`, POSIX classes, flag groups), with Go's `$1`/`${name}`
 * expansion in replacements.
 */
import { FuncError } from '../errors.js';
import type { FuncDef } from '../funcs.js';
import { def } from '../funcs.js';
import { typedSlice } from '../values.js';

const posix: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, RegExp>();

/** Compiles a Go regular expression; `global` adds the g flag. */
export function goRegExp(src: string, global = false): RegExp {
  const key = (global ? 'g' : '-') + src;
  const hit = cache.get(key);
  if (hit) {
    hit.lastIndex = 0;
    return hit;
  }
  let flags = 'u' + (global ? 'g' : '');
  let s = src;
  // Leading flag group (?ims)
  const lead = /^\(\?([imsU]+)\)/.exec(s);
  if (lead) {
    for (const f of lead[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
    s = s.slice(lead[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      const n = s[i + 1];
      i++;
      if (n === undefined) throw new FuncError('error parsing regexp: trailing backslash at end of expression: ``');
      if (!inClass && n === 'A') out += '^';
      else if (!inClass && n === 'z') out += '$(?![\\s\\S])';
      else if (n === 'Q') {
        const end = s.indexOf('\\E', i + 1);
        const lit = end < 0 ? s.slice(i + 1) : s.slice(i + 1, end);
        out += lit.replace(/[.*+?^${}()|[\]\\\-/]/g, '\\$&');
        i = end < 0 ? s.length : end + 1;
      } else if (n === 'p' || n === 'P') {
        if (s[i + 1] === '{') {
          const end = s.indexOf('}', i);
          out += '\\' + n + s.slice(i + 1, end + 1);
          i = end;
        } else {
          out += '\\' + n + '{' + s[i + 1] + '}';
          i++;
        }
      } else if (/[1-9]/.test(n)) {
        // RE2 has no backreferences.
        throw new FuncError(`error parsing regexp: invalid escape sequence: \`\\${n}\``);
      } else if (/[a-zA-Z0-9]/.test(n) && !'dDwWsSbBntrfvx0'.includes(n)) {
        throw new FuncError(`error parsing regexp: invalid escape sequence: \`\\${n}\``);
      } else if (/[^a-zA-Z0-9]/.test(n)) {
        out += /[\^$\\.*+?()[\]{}|/-]/.test(n) ? '\\' + n : n;
      } else out += '\\' + n;
      continue;
    }
    if (inClass) {
      if (c === '[' && s[i + 1] === ':') {
        const end = s.indexOf(':]', i + 2);
        if (end > 0) {
          let name = s.slice(i + 2, end);
          const neg = name.startsWith('^');
          if (neg) name = name.slice(1);
          const cls = posix[name];
          if (cls !== undefined && !neg) {
            out += cls;
            i = end + 1;
            continue;
          }
        }
      }
      if (c === ']') inClass = false;
      if (c === '[') {
        out += '\\[';
        continue;
      }
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (s[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (s[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && s[i + 1] === '?') {
      const look = /^\(\?(=|!|<=|<!)/.exec(s.slice(i));
      if (look) throw new FuncError(`error parsing regexp: invalid or unsupported Perl syntax: \`${look[0]}\``);
      if (s[i + 2] === 'P' && s[i + 3] === '<') {
        out += '(?<';
        i += 3;
        continue;
      }
      const fg = /^\(\?([imsU-]+)(:|\))/.exec(s.slice(i));
      if (fg) {
        // Inline flags inside the expression: JavaScript lacks them; apply case-insensitivity globally.
        if (fg[1]!.includes('i') && !flags.includes('i')) flags += 'i';
        if (fg[1]!.includes('s') && !flags.includes('s')) flags += 's';
        out += fg[2] === ':' ? '(?:' : '';
        i += fg[0].length - 1;
        continue;
      }
    }
    out += c;
  }
  let re: RegExp;
  try {
    re = new RegExp(out, flags);
  } catch (e) {
    throw new FuncError(`error parsing regexp: ${(e as Error).message}`);
  }
  if (cache.size > 500) cache.clear();
  cache.set(key, re);
  return re;
}

/** regexp.Expand: $1, ${1}, $name, ${name}, $$. A name is the longest run of letters, digits and _. */
function expand(template: string, m: RegExpExecArray): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '$' || i + 1 >= template.length) {
      out += c;
      continue;
    }
    if (template[i + 1] === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string;
    let end: number;
    if (template[i + 1] === '{') {
      const close = template.indexOf('}', i + 2);
      const n = close < 0 ? '' : template.slice(i + 2, close);
      if (close < 0 || !/^[A-Za-z0-9_]+$/.test(n)) {
        out += c;
        continue;
      }
      name = n;
      end = close;
    } else {
      const mm = /^[A-Za-z0-9_]+/.exec(template.slice(i + 1));
      if (!mm) {
        out += c;
        continue;
      }
      name = mm[0];
      end = i + name.length;
    }
    if (/^\d+$/.test(name)) {
      const n = Number(name);
      out += n < m.length ? (m[n] ?? '') : '';
    } else out += m.groups?.[name] ?? '';
    i = end;
  }
  return out;
}

function replaceAll(regex: string, s: string, repl: string, literal: boolean): string {
  const re = goRegExp(regex, true);
  let out = '';
  let last = 0;
  let m: RegExpExecArray | null;
  let lastMatchEnd = -1;
  while ((m = re.exec(s)) !== null) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[0].length === 0) {
      // Go skips an empty match right after a previous match.
      if (start === lastMatchEnd) {
        re.lastIndex = start + (s.codePointAt(start)! > 0xffff ? 2 : 1);
        if (start >= s.length) break;
        continue;
      }
    }
    out += s.slice(last, start) + (literal ? repl : expand(repl, m));
    last = end;
    lastMatchEnd = end;
    if (m[0].length === 0) {
      if (start >= s.length) break;
      re.lastIndex = start + (s.codePointAt(start)! > 0xffff ? 2 : 1);
    }
  }
  return out + s.slice(last);
}

function findAll(regex: string, s: string, n: number): string[] {
  if (n === 0) return [];
  const re = goRegExp(regex, true);
  const out: string[] = [];
  let m: RegExpExecArray | null;
  let lastEnd = -1;
  while ((m = re.exec(s)) !== null) {
    if (m[0].length === 0) {
      if (m.index === lastEnd) {
        re.lastIndex = m.index + 1;
        if (m.index >= s.length) break;
        continue;
      }
      re.lastIndex = m.index + 1;
    }
    out.push(m[0]);
    lastEnd = m.index + m[0].length;
    if (n > 0 && out.length >= n) break;
    if (m.index >= s.length) break;
  }
  return out;
}

/** regexp.Split */
function split(regex: string, s: string, n: number): string[] {
  if (n === 0) return [];
  if (regex.length > 0 && s.length === 0) return [''];
  const re = goRegExp(regex, true);
  const matches: [number, number][] = [];
  let m: RegExpExecArray | null;
  let lastEnd = -1;
  while ((m = re.exec(s)) !== null) {
    if (m[0].length === 0) {
      if (m.index === lastEnd || m.index >= s.length) {
        re.lastIndex = m.index + 1;
        if (m.index >= s.length) break;
        continue;
      }
      re.lastIndex = m.index + 1;
    }
    matches.push([m.index, m.index + m[0].length]);
    lastEnd = m.index + m[0].length;
    if (n > 0 && matches.length >= n) break;
  }
  const strings: string[] = [];
  let beg = 0;
  let end = 0;
  for (const [a, b] of matches) {
    if (n > 0 && strings.length === n - 1) break;
    end = a;
    if (b !== 0) strings.push(s.slice(beg, end));
    beg = b;
  }
  if (end !== s.length) strings.push(s.slice(beg));
  return strings;
}

function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** regexp.MustCompile's panic text around a compile error (the non-must sprig functions). */
function mustCompile<A extends unknown[], R>(f: (r: string, ...a: A) => R): (r: string, ...a: A) => R {
  return (r, ...a) => {
    try {
      return f(r, ...a);
    } catch (e) {
      if (e instanceof FuncError && e.message.startsWith('error parsing regexp:')) throw new FuncError(`regexp: Compile(\`${r}\`): ${e.message}`);
      throw e;
    }
  };
}

export function regexFuncs(): [string, FuncDef][] {
  const mustMatch = (r: string, s: string): boolean => goRegExp(r).test(s);
  // regexMatch ignores a bad expression (false); mustRegexMatch reports it.
  const match = (r: string, s: string): boolean => {
    try {
      return mustMatch(r, s);
    } catch {
      return false;
    }
  };
  const findAllFn = (r: string, s: string, n: bigint): string[] => typedSlice(findAll(r, s, Number(n)), '[]string');
  const find = (r: string, s: string): string => goRegExp(r).exec(s)?.[0] ?? '';
  const splitFn = (r: string, s: string, n: bigint): string[] => typedSlice(split(r, s, Number(n)), '[]string');
  return [
    ['regexMatch', def(['string', 'string'], match as never)],
    ['mustRegexMatch', def(['string', 'string'], mustMatch as never)],
    ['regexFindAll', def(['string', 'string', 'int'], mustCompile(findAllFn) as never)],
    ['mustRegexFindAll', def(['string', 'string', 'int'], findAllFn as never)],
    ['regexFind', def(['string', 'string'], mustCompile(find) as never)],
    ['mustRegexFind', def(['string', 'string'], find as never)],
    ['regexReplaceAll', def(['string', 'string', 'string'], mustCompile((r: string, s: string, repl: string) => replaceAll(r, s, repl, false)) as never)],
    ['mustRegexReplaceAll', def(['string', 'string', 'string'], ((r: string, s: string, repl: string) => replaceAll(r, s, repl, false)) as never)],
    ['regexReplaceAllLiteral', def(['string', 'string', 'string'], mustCompile((r: string, s: string, repl: string) => replaceAll(r, s, repl, true)) as never)],
    [
      'mustRegexReplaceAllLiteral',
      def(['string', 'string', 'string'], ((r: string, s: string, repl: string) => replaceAll(r, s, repl, true)) as never),
    ],
    ['regexSplit', def(['string', 'string', 'int'], mustCompile(splitFn) as never)],
    ['mustRegexSplit', def(['string', 'string', 'int'], splitFn as never)],
    ['regexQuoteMeta', def(['string'], quoteMeta as never)],
  ];
}
