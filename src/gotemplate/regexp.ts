/**
 * Go's `regexp` package over re2js (ADR 0215): RE2's syntax, RE2's error texts, and matching in
 * time linear in the input, so a template or a selector cannot stall the tool with a pattern
 * such as `^(a+)+$` (a backtracking engine takes exponential time on it; RE2 never does).
 *
 * Contract:
 * - `compileGoRegexp(expr)` accepts exactly what Go's `regexp.Compile` accepts and throws
 *   FuncError with Go's message (`error parsing regexp: missing closing ): \`(abc\``) otherwise.
 * - `find(s, pos)` is Go's `doExecute` at `pos`: the leftmost-first match starting at or after
 *   `pos`, with the text before `pos` still seen by `^`, `\b` and the like; indices are UTF-16
 *   offsets of `s` (Go's are bytes; on valid text the matched strings are the same).
 * - `allMatches`, `replaceAll` and `split` follow regexp.go's loops (an empty match right after a
 *   previous match is skipped; the search then advances one code point).
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { FuncError } from './errors.js';

/**
 * re2js (263 KB in one file), required on the first regexp a run compiles (ADR 0376): most runs
 * load the Go-template engine and never call a regexp function. Its CommonJS build (the package's
 * `require` export) is the same code as its ES module build, and loads synchronously.
 */
let loaded: typeof RE2JS | undefined;
function re2js(): typeof RE2JS {
  return (loaded ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS);
}

/** Submatch offsets as Go's `FindStringSubmatchIndex`: pairs, -1 for a group that did not take part. */
export type Submatches = number[];

export class GoRegexp {
  private constructor(
    readonly expr: string,
    private readonly re: RE2JS,
    /** Group name → index, for `${name}` in replacements. */
    readonly names: ReadonlyMap<string, number>,
  ) {}

  static compile(expr: string): GoRegexp {
    let re: RE2JS;
    try {
      re = re2js().compile(expr);
    } catch (e) {
      throw new FuncError(goSyntaxMessage((e as Error).message));
    }
    return new GoRegexp(expr, re, new Map(Object.entries(re.namedGroups())));
  }

  get numSubexp(): number {
    return this.re.groupCount();
  }

  /** `MatchString`. */
  test(s: string): boolean {
    return this.re.test(s);
  }

  /** The first match at or after `pos`, as submatch offsets; undefined when there is none. */
  find(s: string, pos = 0): Submatches | undefined {
    const m = this.re.matcher(s);
    if (!m.find(pos)) return undefined;
    const out: number[] = [];
    for (let g = 0; g <= this.numSubexp; g++) out.push(m.start(g), m.end(g));
    return out;
  }

  /** regexp.allMatches: at most `n` matches (all when `n` < 0). */
  allMatches(s: string, n: number): Submatches[] {
    const out: Submatches[] = [];
    const limit = n < 0 ? s.length + 1 : n;
    for (let pos = 0, prevMatchEnd = -1; out.length < limit && pos <= s.length; ) {
      const m = this.find(s, pos);
      if (!m) break;
      let accept = true;
      if (m[1] === pos) {
        // An empty match right after a previous match is not allowed.
        if (m[0] === prevMatchEnd) accept = false;
        pos += runeWidth(s, pos);
      } else {
        pos = m[1]!;
      }
      prevMatchEnd = m[1]!;
      if (accept) out.push(m);
    }
    return out;
  }

  /** regexp.ReplaceAllString / ReplaceAllLiteralString. */
  replaceAll(s: string, repl: string, literal: boolean): string {
    let out = '';
    let lastMatchEnd = 0;
    let searchPos = 0;
    while (searchPos <= s.length) {
      const a = this.find(s, searchPos);
      if (!a) break;
      const [start, end] = a as [number, number];
      out += s.slice(lastMatchEnd, start);
      // Go inserts the replacement unless the match is empty and right after the previous one.
      if (end > lastMatchEnd || start === 0) out += literal ? repl : this.expand(repl, s, a);
      lastMatchEnd = end;
      const width = runeWidth(s, searchPos);
      if (searchPos + width > end) searchPos += width;
      else if (searchPos + 1 > end) searchPos++;
      else searchPos = end;
    }
    return out + s.slice(lastMatchEnd);
  }

  /** regexp.Split. */
  split(s: string, n: number): string[] {
    if (n === 0) return [];
    if (this.expr.length > 0 && s.length === 0) return [''];
    const matches = this.allMatches(s, n);
    const strings: string[] = [];
    let beg = 0;
    let end = 0;
    for (const m of matches) {
      if (n > 0 && strings.length === n - 1) break;
      end = m[0]!;
      if (m[1] !== 0) strings.push(s.slice(beg, end));
      beg = m[1]!;
    }
    if (end !== s.length) strings.push(s.slice(beg));
    return strings;
  }

  /** regexp.Expand: `$1`, `${1}`, `$name`, `${name}`, `$$`; a name is the longest run of letters, digits and `_`. */
  expand(template: string, s: string, m: Submatches): string {
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
      let g: number | undefined;
      if (/^\d+$/.test(name)) {
        // Go reads the number with strconv.Atoi; one too large for an int names no group.
        const n = Number(name);
        g = Number.isSafeInteger(n) ? n : undefined;
      } else g = this.names.get(name);
      if (g !== undefined && 2 * g + 1 < m.length && m[2 * g]! >= 0) out += s.slice(m[2 * g], m[2 * g + 1]);
      i = end;
    }
    return out;
  }
}

/** The UTF-16 width of the code point at `pos` (1 past the end, so loops terminate). */
function runeWidth(s: string, pos: number): number {
  const cp = s.codePointAt(pos);
  return cp !== undefined && cp > 0xffff ? 2 : 1;
}

/**
 * re2js's messages are RE2J's, which are Go's except that Go always ends with the offending
 * text in backquotes (`trailing backslash at end of expression: \`\``).
 */
function goSyntaxMessage(message: string): string {
  const m = message.startsWith('error parsing regexp: ') ? message : `error parsing regexp: ${message}`;
  return m.endsWith('`') ? m : `${m}: \`\``;
}

const cache = new Map<string, GoRegexp>();
const CACHE_LIMIT = 512;

/** Compiles (and caches) a Go regular expression; throws FuncError with Go's text when it does not compile. */
export function compileGoRegexp(expr: string): GoRegexp {
  const hit = cache.get(expr);
  if (hit) return hit;
  const re = GoRegexp.compile(expr);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(expr, re);
  return re;
}
