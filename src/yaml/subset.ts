/**
 * One position-free reader for the small YAML that most fleet files and cluster Secrets are
 * written in (ADR 0349, which replaced the two readers of ADRs 0326 and 0328). It exists for
 * speed: thousands of tiny cluster files (`plan` of 5,000 clusters) and 1,000 cluster Secrets
 * (`appset`) read in milliseconds, where a general parser spends most of its time on generality.
 *
 * One line scanner, one grammar: block mappings and block sequences indented with spaces (a
 * sequence may sit at its key's indentation; `- key: v` items), plain scalars, 'single-quoted'
 * (with `''`) and "double-quoted" scalars without escapes, `{}`, one-line flow lists of plain
 * words (`[all, region-0]`), comment and blank lines and ` # comments` after a value. Anything
 * else is "not mine" (`undefined`), and the caller parses the text with a general parser, which
 * gives the same value or the error at its line: tabs, CR, other control characters, NEL,
 * U+2028/2029, a BOM, lone surrogates; directives, `...`; anchors, aliases, tags, block scalars,
 * multi-line scalars, escapes, flow mappings, a bare `-` item; keys that are not simple words,
 * `__proto__`, keys the core schema reads as null or a boolean, keys over 1,000 characters;
 * duplicate keys; nesting deeper than MAX_DEPTH. It never throws and reads each character a
 * bounded number of times (no backtracking regular expression, no scan past its line).
 *
 * Two contracts, as options:
 * - `documents`: `'one'` — one document, no `---` (the value, as `jsYaml.load` gives it; an empty
 *   text is "not mine"); `'stream'` — documents separated by `---` lines, null documents left
 *   out (as the general readers' document lists are read by their callers).
 * - `scalars`: `'core'` — plain scalars resolved by js-yaml's own core-schema types (null, bool,
 *   int, float, in js-yaml's order): the value is exactly js-yaml's CORE_SCHEMA value;
 *   `'strings'` — every scalar must be a string that both YAML 1.2 core readers (js-yaml's
 *   CORE_SCHEMA and the `yaml` package) give as that same string, so anything either could read
 *   as a number, a boolean or null (including an empty value) is "not mine".
 * test/yaml/subset.test.ts checks each contract against the parsers on tables and generated text.
 */
import jsYaml from 'js-yaml';

export interface SubsetOptions {
  documents: 'one' | 'stream';
  scalars: 'core' | 'strings';
}

/** Fleet files (src/yaml/source.ts): one document, js-yaml core-schema values. */
export const ONE_CORE_DOCUMENT = { documents: 'one', scalars: 'core' } as const satisfies SubsetOptions;
/** Cluster Secrets (src/appset/load.ts): a stream whose scalars are strings both core readers agree on. */
export const STRING_STREAM = { documents: 'stream', scalars: 'strings' } as const satisfies SubsetOptions;

/** Characters refused anywhere: tab, CR and the other controls, DEL, C1 (NEL), the Unicode line and paragraph separators, BOM, U+FFFE/FFFF. */
// eslint-disable-next-line no-control-regex
const REFUSED_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
/** Plain scalars the core schema reads as null or a boolean (both readers: the same words). */
const NOT_STRING = new Set(['null', 'Null', 'NULL', '~', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** The `yaml` package refuses an implicit key longer than 1024 characters; stay well inside. */
const MAX_KEY = 1000;
/** Nesting deeper than this is left to the general parser (the reader recurses once per level). */
const MAX_DEPTH = 500;

const SPACE = 32;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const SQUOTE = 39;
const DQUOTE = 34;
const BACKSLASH = 92;
const LBRACKET = 91;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;
const COMMA = 44;
const DOT = 46;
const PERCENT = 37;

/** Thrown inside the reader to give up; never leaves this module. */
const OUTSIDE = Symbol('outside the subset');

/** js-yaml's own resolvers of the core schema's implicit types (its typings do not declare `types`). */
interface ImplicitType {
  resolve(data: string): boolean;
  construct(data: string): unknown;
}
const { types } = jsYaml as unknown as { types: Record<'null' | 'bool' | 'int' | 'float', ImplicitType> };
const CORE_IMPLICIT = [types.null, types.bool, types.int, types.float];

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A letter that cannot start a null or boolean word (`n N t T f F`). */
function isStringLetter(c: number): boolean {
  return ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) && c !== 110 && c !== 78 && c !== 116 && c !== 84 && c !== 102 && c !== 70;
}

/** May a key start with this character: a letter, `_`, `$` or `/`. */
function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 47;
}

/** May a key go on with this character: a key start, a digit, `.` or `-`. */
function isKeyChar(c: number): boolean {
  return isKeyStart(c) || isDigit(c) || c === DOT || c === DASH;
}

/** A word of a one-line flow list: letters, digits, `_ . /`, and `-` after the first character. */
function isWordChar(c: number, first: boolean): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95 || c === DOT || c === 47 || (!first && c === DASH);
}

/** Characters that start something other than a plain scalar: `? : , [ ] { } # & * ! | > ' " % @` and a backquote. */
function refusedStart(c: number): boolean {
  return (
    c === 63 || c === COLON || c === COMMA || c === LBRACKET || c === RBRACKET || c === LBRACE || c === RBRACE || c === HASH || c === 38 || c === 42 || c === 33 || c === 124 || c === 62 || c === SQUOTE || c === DQUOTE || c === PERCENT || c === 64 || c === 96
  );
}

/** A scalar either core schema may read as a number (a superset of both: `+.5`, `0x1F`, `1_000`, `.inf`, `1e3`). */
function numberLike(s: string): boolean {
  let i = 0;
  let c = s.charCodeAt(0);
  if (c === 43 || c === DASH) c = s.charCodeAt(++i);
  if (isDigit(c)) return true;
  if (c !== DOT) return false;
  if (isDigit(s.charCodeAt(i + 1))) return true;
  const rest = i === 0 ? s : s.slice(i);
  return rest === '.inf' || rest === '.Inf' || rest === '.INF' || (i === 0 && (s === '.nan' || s === '.NaN' || s === '.NAN'));
}

/** The value js-yaml's core schema gives `s` written as a plain scalar. */
function coreValue(s: string): unknown {
  const c = s.charCodeAt(0);
  if (isStringLetter(c) || c === 95 || c === 36 || c === 47) return s;
  for (const t of CORE_IMPLICIT) if (t.resolve(s)) return t.construct(s);
  return s;
}

/** Where the scanner stands: on a content line, on a `---` line, or past the end. */
const LINE = 0;
const MARKER = 1;
const END = 2;

class Reader {
  private readonly n: number;
  /** What the current line is (LINE, MARKER, END). */
  private kind = LINE;
  /** The current line's start, the indentation of its content (-1 on MARKER and END), its content's start and its end. */
  private start = 0;
  private ind = 0;
  private cs = 0;
  private eol = -1;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly strings: boolean,
    private readonly stream: boolean,
  ) {
    this.n = text.length;
  }

  /** Moves to the next line that is not blank and not a comment. */
  nextLine(): void {
    const text = this.text;
    const n = this.n;
    let pos = this.eol + 1;
    while (pos < n) {
      let eol = text.indexOf('\n', pos);
      if (eol < 0) eol = n;
      let i = pos;
      while (i < eol && text.charCodeAt(i) === SPACE) i++;
      if (i === eol || text.charCodeAt(i) === HASH) {
        pos = eol + 1;
        continue;
      }
      this.start = pos;
      this.cs = i;
      this.eol = eol;
      if (i === pos) {
        const c = text.charCodeAt(i);
        if (c === DASH && text.startsWith('---', i)) {
          // `--- x`, `---x`, `--- # c` and any marker in a one-document text: the general parser.
          if (!this.stream || eol !== i + 3) throw OUTSIDE;
          this.kind = MARKER;
          this.ind = -1;
          return;
        }
        if ((c === DOT && text.startsWith('...', i)) || c === PERCENT) throw OUTSIDE; // document end, directives
      }
      this.kind = LINE;
      this.ind = i - pos;
      return;
    }
    this.kind = END;
    this.ind = -1;
    this.eol = n;
  }

  /** The documents of the text (stream), or its one document. */
  read(): unknown {
    this.nextLine();
    if (!this.stream) {
      if (this.kind !== LINE || this.ind !== 0) throw OUTSIDE;
      const value = this.node();
      if (!this.atEnd()) throw OUTSIDE; // a line the document's node did not take
      return value;
    }
    const docs: unknown[] = [];
    while (this.kind !== END) {
      if (this.kind === MARKER) {
        this.nextLine();
        continue;
      }
      if (this.ind !== 0) throw OUTSIDE;
      docs.push(this.node());
      if (!this.atEnd() && this.kind !== MARKER) throw OUTSIDE; // a line the document's node did not take
    }
    return docs;
  }

  private atEnd(): boolean {
    return this.kind === END;
  }

  private isDash(): boolean {
    const cs = this.cs;
    return this.text.charCodeAt(cs) === DASH && (cs + 1 === this.eol || this.text.charCodeAt(cs + 1) === SPACE);
  }

  /** The block node starting on the current line. */
  private node(): unknown {
    if (++this.depth > MAX_DEPTH) throw OUTSIDE;
    const value = this.isDash() ? this.sequence(this.ind) : this.mapping(this.ind);
    this.depth--;
    return value;
  }

  /** Where the key of a `key: value` / `key:` line starting at `p` ends (its colon), or -1. */
  private keyEnd(p: number): number {
    const text = this.text;
    if (!isKeyStart(text.charCodeAt(p))) return -1;
    const eol = this.eol;
    let k = p + 1;
    while (k < eol && isKeyChar(text.charCodeAt(k))) k++;
    if (k >= eol || text.charCodeAt(k) !== COLON || k - p > MAX_KEY) return -1;
    if (k + 1 < eol && text.charCodeAt(k + 1) !== SPACE) return -1; // `a:b` is a plain scalar, not a pair
    return k;
  }

  /** A block mapping whose keys sit at column `indent`; the current line is its first. */
  private mapping(indent: number): Record<string, unknown> {
    const text = this.text;
    const out: Record<string, unknown> = {};
    while (this.ind >= indent) {
      if (this.ind > indent) throw OUTSIDE;
      const colon = this.keyEnd(this.cs);
      if (colon < 0) {
        if (this.isDash()) break; // a sequence at this indentation belongs to an enclosing key
        throw OUTSIDE;
      }
      const key = text.slice(this.cs, colon);
      if (key === '__proto__' || (!isStringLetter(key.charCodeAt(0)) && NOT_STRING.has(key))) throw OUTSIDE;
      if (Object.prototype.hasOwnProperty.call(out, key)) throw OUTSIDE;
      let j = colon + 1;
      const eol = this.eol;
      while (j < eol && text.charCodeAt(j) === SPACE) j++;
      if (j === eol || text.charCodeAt(j) === HASH) {
        // No value on the line: a nested node below it, a sequence at this indentation, or null.
        this.nextLine();
        if (this.ind > indent) out[key] = this.node();
        else if (this.ind === indent && this.isDash()) out[key] = this.sequence(indent);
        else out[key] = this.empty();
      } else {
        out[key] = this.inline(j);
        this.noContinuation(indent);
      }
    }
    return out;
  }

  /** A block sequence whose dashes sit at column `indent`; the current line is its first. */
  private sequence(indent: number): unknown[] {
    const text = this.text;
    const out: unknown[] = [];
    while (this.ind >= indent) {
      if (this.ind > indent) throw OUTSIDE;
      if (!this.isDash()) break;
      const eol = this.eol;
      let j = this.cs + 1;
      while (j < eol && text.charCodeAt(j) === SPACE) j++;
      // A bare `-` (an empty or nested item): js-yaml reads the lines after it by rules of its own.
      if (j === eol || text.charCodeAt(j) === HASH) throw OUTSIDE;
      if (text.charCodeAt(j) === DASH && (j + 1 === eol || text.charCodeAt(j + 1) === SPACE)) throw OUTSIDE; // `- - x`
      if (this.keyEnd(j) >= 0) {
        // `- key: value`: a mapping whose first key sits on the item's line, at its column.
        this.ind = j - this.start;
        this.cs = j;
        if (++this.depth > MAX_DEPTH) throw OUTSIDE;
        out.push(this.mapping(this.ind));
        this.depth--;
        continue;
      }
      out.push(this.inline(j));
      this.noContinuation(indent);
    }
    return out;
  }

  /** After a one-line value, a deeper line would continue it (a multi-line scalar): not in the subset. */
  private noContinuation(indent: number): void {
    this.nextLine();
    if (this.ind > indent) throw OUTSIDE;
  }

  /** A key with no value: null, which strings-only readers refuse. */
  private empty(): null {
    if (this.strings) throw OUTSIDE;
    return null;
  }

  /** The value of a plain scalar, by the contract's rule. */
  private plain(s: string): unknown {
    if (!this.strings) return coreValue(s);
    if (NOT_STRING.has(s) || numberLike(s)) throw OUTSIDE;
    return s;
  }

  /** After a quoted scalar or a flow collection ending before `after`: spaces, then the end of the line or a comment after a space. */
  private rest(after: number): void {
    const text = this.text;
    const eol = this.eol;
    let k = after;
    while (k < eol && text.charCodeAt(k) === SPACE) k++;
    if (k < eol && !(text.charCodeAt(k) === HASH && k > after)) throw OUTSIDE;
  }

  /** A scalar, `{}` or a flow list written on the current line from `j` to its end. */
  private inline(j: number): unknown {
    const text = this.text;
    const eol = this.eol;
    const c = text.charCodeAt(j);
    if (c === SQUOTE) {
      let out = '';
      let from = j + 1;
      let k = from;
      for (;;) {
        if (k >= eol) throw OUTSIDE; // multi-line or unterminated
        if (text.charCodeAt(k) === SQUOTE) {
          if (k + 1 < eol && text.charCodeAt(k + 1) === SQUOTE) {
            out += text.slice(from, k + 1);
            k += 2;
            from = k;
            continue;
          }
          break;
        }
        k++;
      }
      this.rest(k + 1);
      return out + text.slice(from, k);
    }
    if (c === DQUOTE) {
      let k = j + 1;
      for (;;) {
        if (k >= eol) throw OUTSIDE;
        const d = text.charCodeAt(k);
        if (d === BACKSLASH) throw OUTSIDE; // escapes: the general parser
        if (d === DQUOTE) break;
        k++;
      }
      this.rest(k + 1);
      return text.slice(j + 1, k);
    }
    if (c === LBRACKET) return this.flowList(j);
    if (c === LBRACE) {
      if (text.charCodeAt(j + 1) !== RBRACE || j + 1 >= eol) throw OUTSIDE; // flow mappings: the general parser
      this.rest(j + 2);
      return {};
    }
    if (refusedStart(c) || (c === DASH && !isDigit(text.charCodeAt(j + 1)))) throw OUTSIDE;
    // A plain scalar ends at ` #` (a comment) or the end of the line; trailing spaces are not part of it.
    let end = eol;
    for (let k = j + 1; k < eol; k++) {
      const d = text.charCodeAt(k);
      if (d === HASH && text.charCodeAt(k - 1) === SPACE) {
        end = k;
        break;
      }
      if (d === COLON && (k + 1 === eol || text.charCodeAt(k + 1) === SPACE)) throw OUTSIDE; // `a: b: c`, `a: b:`
    }
    while (end > j && text.charCodeAt(end - 1) === SPACE) end--;
    return this.plain(text.slice(j, end));
  }

  /** `[a, b-1, c/d]`: plain words only, on one line. */
  private flowList(j: number): unknown[] {
    const text = this.text;
    const eol = this.eol;
    const out: unknown[] = [];
    let k = j + 1;
    while (k < eol && text.charCodeAt(k) === SPACE) k++;
    if (k < eol && text.charCodeAt(k) === RBRACKET) {
      this.rest(k + 1);
      return out;
    }
    for (;;) {
      const w = k;
      if (k >= eol || !isWordChar(text.charCodeAt(k), true)) throw OUTSIDE;
      k++;
      while (k < eol && isWordChar(text.charCodeAt(k), false)) k++;
      out.push(this.plain(text.slice(w, k)));
      while (k < eol && text.charCodeAt(k) === SPACE) k++;
      const d = k < eol ? text.charCodeAt(k) : -1;
      k++;
      if (d === COMMA) {
        while (k < eol && text.charCodeAt(k) === SPACE) k++;
        continue;
      }
      if (d === RBRACKET) break;
      throw OUTSIDE;
    }
    this.rest(k);
    return out;
  }
}

/**
 * The documents (`documents: 'stream'`) or the one document's value (`'one'`) of a text inside
 * the subset, or `undefined` when it is outside it (then the caller parses it the general way).
 */
export function readYamlSubset(text: string, options: SubsetOptions & { documents: 'stream' }): unknown[] | undefined;
export function readYamlSubset(text: string, options: SubsetOptions): unknown;
export function readYamlSubset(text: string, options: SubsetOptions): unknown {
  if (REFUSED_CHARS.test(text) || !(text as unknown as { isWellFormed(): boolean }).isWellFormed()) return undefined;
  try {
    return new Reader(text, options.scalars === 'strings', options.documents === 'stream').read();
  } catch {
    // OUTSIDE, and whatever else might be thrown (there is nothing else on purpose): "not mine".
    return undefined;
  }
}
