/**
 * The three pattern languages of the git generators:
 *
 * - `goPathMatch`: Go's `path.Match` (git directories): `*` and `?` never match `/`, `[...]`
 *   classes with `^` negation and ranges, `\` escapes. A malformed pattern is an error.
 * - `gitPathspecMatch`: `git ls-files -- <pattern>` (git files, default globbing): the pattern
 *   matches a path exactly, as a leading directory, or as a wildmatch glob in which `*` (and
 *   `**`, `?`) also match `/`.
 * - `doublestarMatch`: bmatcuk/doublestar (git files with new globbing): `*` stays within a
 *   segment, a `**` segment spans zero or more directories, `{a,b}` alternatives.
 *
 * Each compiles to a RegExp once; callers match many paths against one pattern.
 */

export class BadPatternError extends Error {
  constructor(pattern: string) {
    super(`syntax error in pattern: ${JSON.stringify(pattern)}`);
  }
}

function escapeRe(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/**
 * Parses a `[...]` class starting after `[` at `i`. Returns the regex source and the index after
 * `]`. `negators` are the characters that negate the class when first; `sep` excludes `/`.
 */
function parseClass(p: string, i: number, negators: string, excludeSlash: boolean): [string, number] | undefined {
  let j = i;
  let negate = false;
  if (j < p.length && negators.includes(p[j]!)) {
    negate = true;
    j++;
  }
  const items: string[] = [];
  let first = true;
  while (j < p.length) {
    let c = p[j]!;
    if (c === ']' && !first) break;
    first = false;
    if (c === '\\') {
      j++;
      if (j >= p.length) return undefined;
      c = p[j]!;
    }
    j++;
    if (p[j] === '-' && j + 1 < p.length && p[j + 1] !== ']') {
      let hi = p[j + 1]!;
      j += 2;
      if (hi === '\\') {
        if (j >= p.length) return undefined;
        hi = p[j]!;
        j++;
      }
      if (hi < c) return undefined;
      items.push(`${escapeRe(c)}-${escapeRe(hi)}`);
    } else {
      items.push(escapeRe(c));
    }
  }
  if (j >= p.length) return undefined;
  if (items.length === 0) return undefined;
  const body = items.join('');
  const src = negate ? `[^${body}${excludeSlash ? '/' : ''}]` : excludeSlash ? `(?!/)[${body}]` : `[${body}]`;
  return [src, j + 1];
}

/** Compiles Go's `path.Match` pattern; throws BadPatternError when malformed. */
export function compileGoPathPattern(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === '*') {
      re += '[^/]*';
      i++;
    } else if (c === '?') {
      re += '[^/]';
      i++;
    } else if (c === '[') {
      const r = parseClass(pattern, i + 1, '^', true);
      if (!r) throw new BadPatternError(pattern);
      re += r[0];
      i = r[1];
    } else if (c === '\\') {
      if (i + 1 >= pattern.length) throw new BadPatternError(pattern);
      re += escapeRe(pattern[i + 1]!);
      i += 2;
    } else {
      re += escapeRe(c);
      i++;
    }
  }
  return new RegExp(`^${re}$`, 's');
}

export function goPathMatch(pattern: string, name: string): boolean {
  return compileGoPathPattern(pattern).test(name);
}

const WILDCARD_RE = /[*?[\\]/;

/** A compiled `git ls-files` pathspec: `(path) => matches`. */
export function compileGitPathspec(rawPattern: string): (path: string) => boolean {
  // git resolves pathspecs relative to the top of the work tree: a leading `./` is dropped.
  const pattern = rawPattern.replace(/^(\.\/)+/, '');
  const literal = pattern.replace(/\/+$/, '');
  const dirOnly = pattern.endsWith('/');
  const literalMatch = (path: string): boolean =>
    pattern === '' || pattern === '.' || (!dirOnly && path === literal) || path.startsWith(`${literal}/`);
  if (!WILDCARD_RE.test(pattern)) return literalMatch;
  // wildmatch without WM_PATHNAME: every wildcard also matches '/'.
  let re = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === '*') {
      while (pattern[i] === '*') i++;
      re += '.*';
    } else if (c === '?') {
      re += '.';
      i++;
    } else if (c === '[') {
      const r = parseClass(pattern, i + 1, '!^', false);
      if (!r) {
        re += '\\[';
        i++;
      } else {
        re += r[0];
        i = r[1];
      }
    } else if (c === '\\' && i + 1 < pattern.length) {
      re += escapeRe(pattern[i + 1]!);
      i += 2;
    } else {
      re += escapeRe(c);
      i++;
    }
  }
  const glob = new RegExp(`^${re}$`, 's');
  return (path) => literalMatch(path) || glob.test(path);
}

/** A compiled bmatcuk/doublestar pattern: `(path) => matches`. Throws BadPatternError when malformed. */
export function compileDoublestar(pattern: string): (path: string) => boolean {
  const re = new RegExp(`^${doublestarSource(pattern, pattern)}$`, 's');
  return (path) => re.test(path);
}

function doublestarSource(p: string, whole: string): string {
  let re = '';
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    const atSegStart = i === 0 || p[i - 1] === '/';
    if (c === '*' && p[i + 1] === '*' && atSegStart && (i + 2 === p.length || p[i + 2] === '/')) {
      if (i + 2 === p.length) {
        re += '.*';
        i += 2;
      } else {
        // `**/` matches zero or more leading directories.
        re += '(?:.*/)?';
        i += 3;
      }
    } else if (c === '*') {
      while (p[i] === '*') i++;
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
      i++;
    } else if (c === '[') {
      const r = parseClass(p, i + 1, '!^', true);
      if (!r) throw new BadPatternError(whole);
      re += r[0];
      i = r[1];
    } else if (c === '{') {
      const close = findBraceEnd(p, i);
      if (close < 0) throw new BadPatternError(whole);
      const alts = splitAlternatives(p.slice(i + 1, close));
      re += `(?:${alts.map((a) => doublestarSource(a, whole)).join('|')})`;
      i = close + 1;
    } else if (c === '\\') {
      if (i + 1 >= p.length) throw new BadPatternError(whole);
      re += escapeRe(p[i + 1]!);
      i += 2;
    } else {
      re += escapeRe(c);
      i++;
    }
  }
  return re;
}

function findBraceEnd(p: string, open: number): number {
  let depth = 0;
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function splitAlternatives(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1]!;
      i++;
      continue;
    }
    if (c === '{') depth++;
    if (c === '}') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}
