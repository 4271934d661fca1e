/**
 * Flux's post-build substitution (kustomize-controller `spec.postBuild`), as fluxcd/pkg/envsubst
 * (a fork of drone/envsubst) parses and evaluates it: its scanner, parser and functions ported
 * rule for rule (docs/adr/0393). This is not fleetplan's strict substitution (model/substitute.ts):
 * Flux's own rules apply to what Flux applies.
 *
 *   ${VAR}                            the value; an unset VAR is the empty string, or an error with
 *                                     kustomize-controller's StrictPostBuildSubstitutions gate (`mode.strict`)
 *   ${VAR:=d} ${VAR:-d} ${VAR=d} ${VAR:?d} ${VAR:+d}
 *                                     all `d` when the value is empty (d may hold ${...}); `${VAR-d}`,
 *                                     `${VAR?d}`, `${VAR+d}` are parse errors in Flux, and here
 *   ${VAR,} ${VAR,,} ${VAR^} ${VAR^^} lower/upper case of the first letter / of all
 *   ${#VAR}                           the length of the value in bytes
 *   ${VAR:pos} ${VAR:pos:len}         a substring (bytes; a negative pos counts from the end)
 *   ${VAR/a/b} ${VAR//a/b}            replace the first / every `a` (literal text, not a pattern)
 *   ${VAR/#a/b} ${VAR/%a/b}           replace a prefix / a suffix `a`
 *   ${VAR#p} ${VAR##p} ${VAR%p} ${VAR%%p}
 *                                     strip the shortest/longest prefix/suffix matching the glob `p`
 *   $$                                a literal `$` (so `$${VAR}` is the text `${VAR}`)
 *   $VAR                              left alone: only the braced form is a variable
 *
 * A malformed `${` is an error with Flux's message ("bad substitution", "missing closing brace", …).
 * Go works on UTF-8 bytes where JavaScript works on UTF-16: the byte-based operators (substring,
 * trim) on non-ASCII text are refused rather than computed differently.
 */

export class FluxSubstituteError extends Error {
  /** True when Flux evaluates the expression and fleetplan does not (not an error in the cluster). */
  readonly notEvaluated: boolean;
  constructor(message: string, readonly offset: number, notEvaluated = false) {
    super(message);
    this.notEvaluated = notEvaluated;
    this.name = 'FluxSubstituteError';
  }
}

/** Flux refuses variable names that do not match this (kustomize_varsub.go `varsubRegex`). */
export const FLUX_VARIABLE_NAME = /^[_A-Za-z][_A-Za-z0-9]*$/;

type Node = { t: 'text'; value: string } | { t: 'func'; name: string; param: string; args: Node[]; expr?: string; at?: number } | { t: 'list'; nodes: Node[] };
type Accept = (r: string, i: number) => boolean;

// Scanner modes and escape bits (envsubst/parse/scan.go).
const SCAN_IDENT = 1;
const SCAN_LBRACK = 2;
const SCAN_RBRACK = 4;
const SCAN_ESCAPE = 8;
const ESC_DOLLAR = 1;
const ESC_BACKSLASH = 2;
const ESC_ALL = ESC_DOLLAR | ESC_BACKSLASH;

const EOF = '';
const enum Tok {
  Illegal,
  EOF,
  Ident,
  Lbrack,
  Rbrack,
}

const BAD_SUBSTITUTION = 'bad substitution';
const MISSING_CLOSING_BRACE = 'missing closing brace';
const PARSE_VARIABLE_NAME = 'unable to parse variable name';
const PARSE_FUNC_SUBSTITUTION = 'unable to parse substitution within function';
const PARSE_DEFAULT_FUNCTION = 'unable to parse default function';

const acceptRune: Accept = () => true;
const acceptIdent: Accept = (r) => /^[\p{L}\p{Nd}_]$/u.test(r);
const acceptColon: Accept = (r) => r === ':';
const acceptOneHash: Accept = (r, i) => r === '#' && i === 1;
const acceptNotClosing: Accept = (r) => r !== '}';
const acceptHashFunc: Accept = (r, i) => r === '#' && i < 3;
const acceptPercentFunc: Accept = (r, i) => r === '%' && i < 3;
const acceptDefaultFunc: Accept = (r, i) => (i === 1 && r === ':') || (i === 2 && (r === '=' || r === '-' || r === '?' || r === '+'));
const acceptReplaceFunc: Accept = (r, i) => (i === 1 && r === '/') || (i === 2 && (r === '/' || r === '#' || r === '%'));
const acceptOneEqual: Accept = (r, i) => i === 1 && r === '=';
const acceptOneColon: Accept = (r, i) => i === 1 && r === ':';
const rejectColonClose: Accept = (r) => r !== ':' && r !== '}';
const acceptSlash: Accept = (r) => r === '/';
const acceptNotSlash: Accept = (r) => r !== '/';
const acceptCasingFunc: Accept = (r, i) => (r === ',' || r === '^') && i < 3;

/** envsubst/parse: a rune scanner whose escapes delete characters from its buffer, and the parser over it. */
class Parser {
  private pos = 0;
  private start = 0;
  private width = 0;
  private mode = 0;
  private escapeChars = 0;
  private accept: Accept = acceptRune;
  /** Where the `${` being parsed starts, for error messages. */
  private funcStart = 0;
  constructor(private buf: string) {}

  private fail(message: string): never {
    const end = this.buf.indexOf('}', this.funcStart);
    const expr = this.buf.slice(this.funcStart, end < 0 ? Math.min(this.buf.length, this.funcStart + 40) : end + 1);
    throw new FluxSubstituteError(`${message} at "${expr}"`, this.funcStart);
  }

  private read(): string {
    if (this.pos >= this.buf.length) {
      this.width = 0;
      return EOF;
    }
    const cp = this.buf.codePointAt(this.pos)!;
    const r = String.fromCodePoint(cp);
    this.width = r.length;
    this.pos += this.width;
    return r;
  }
  private unread(): void {
    this.pos -= this.width;
  }
  private skip(): void {
    this.buf = this.buf.slice(0, this.pos - 1) + this.buf.slice(this.pos);
  }
  private peek(): string {
    const r = this.read();
    this.unread();
    return r;
  }
  private string(): string {
    return this.buf.slice(this.start, this.pos);
  }

  private scan(): Tok {
    this.start = this.pos;
    const r = this.read();
    if (r === EOF) return Tok.EOF;
    if (this.scanLbrack(r)) return Tok.Lbrack;
    if (this.scanRbrack(r)) return Tok.Rbrack;
    if (this.scanIdent(r)) return Tok.Ident;
    return Tok.Illegal;
  }
  private scanIdent(r: string): boolean {
    if ((this.mode & SCAN_IDENT) === 0) return false;
    if (this.scanEscaped(r)) this.skip();
    else if (!this.accept(r, this.pos - this.start)) return false;
    for (;;) {
      const c = this.read();
      if (c === EOF) {
        this.unread();
        break;
      }
      if (this.scanLbrack(c)) {
        this.unread();
        this.unread();
        break;
      }
      if (this.scanEscaped(c)) {
        this.skip();
        continue;
      }
      if (!this.accept(c, this.pos - this.start)) {
        this.unread();
        break;
      }
    }
    return true;
  }
  private scanLbrack(r: string): boolean {
    if ((this.mode & SCAN_LBRACK) === 0) return false;
    if (r === '$') {
      if (this.read() === '{') return true;
      this.unread();
    }
    return false;
  }
  private scanRbrack(r: string): boolean {
    return (this.mode & SCAN_RBRACK) !== 0 && r === '}';
  }
  private scanEscaped(r: string): boolean {
    if ((this.mode & SCAN_ESCAPE) === 0) return false;
    if (r === '$' && (this.escapeChars & ESC_DOLLAR) !== 0 && this.peek() === '$') return true;
    if (r === '\\' && (this.escapeChars & ESC_BACKSLASH) !== 0) {
      const p = this.peek();
      return p === '/' || p === '\\';
    }
    return false;
  }

  parseAny(): Node | undefined {
    const nodes: Node[] = [];
    for (;;) {
      this.accept = acceptRune;
      this.mode = SCAN_IDENT | SCAN_LBRACK | SCAN_ESCAPE;
      this.escapeChars = ESC_DOLLAR;
      const tok = this.scan();
      if (tok === Tok.Ident) nodes.push({ t: 'text', value: this.string() });
      else if (tok === Tok.EOF) break;
      else if (tok === Tok.Lbrack) {
        this.funcStart = this.start;
        const f = this.parseFunc();
        nodes.push({ ...f, expr: this.buf.slice(this.funcStart, this.pos), at: this.funcStart } as Node);
      } else this.fail(BAD_SUBSTITUTION);
    }
    return nodes.length === 0 ? undefined : nodes.length === 1 ? nodes[0] : { t: 'list', nodes };
  }

  private parseFunc(): Node {
    this.escapeChars = ESC_ALL;
    if (this.peek() === '#') return this.parseLenFunc();
    this.accept = acceptIdent;
    this.mode = SCAN_IDENT;
    if (this.scan() !== Tok.Ident) this.fail(PARSE_VARIABLE_NAME);
    const name = this.string();
    switch (this.peek()) {
      case ':':
        return this.parseDefaultOrSubstr(name);
      case '=':
        return this.parseDefaultFunc(name);
      case ',':
      case '^':
        return this.parseCasingFunc(name);
      case '/':
        return this.parseReplaceFunc(name);
      case '#':
        return this.parseRemoveFunc(name, acceptHashFunc);
      case '%':
        return this.parseRemoveFunc(name, acceptPercentFunc);
    }
    this.accept = acceptIdent;
    this.mode = SCAN_RBRACK;
    if (this.scan() !== Tok.Rbrack) this.fail(MISSING_CLOSING_BRACE);
    return { t: 'func', name: '', param: name, args: [] };
  }

  private parseParam(accept: Accept, mode: number): Node {
    this.accept = accept;
    this.mode = mode | SCAN_LBRACK;
    const tok = this.scan();
    if (tok === Tok.Lbrack) return this.parseFunc();
    if (tok === Tok.Ident || tok === Tok.Rbrack) return { t: 'text', value: this.string() };
    return this.fail(PARSE_FUNC_SUBSTITUTION);
  }

  private parseDefaultOrSubstr(name: string): Node {
    this.read();
    const r = this.peek();
    this.unread();
    return r === '=' || r === '-' || r === '?' || r === '+' ? this.parseDefaultFunc(name) : this.parseSubstrFunc(name);
  }

  private opName(accept: Accept, error = BAD_SUBSTITUTION): string {
    this.accept = accept;
    this.mode = SCAN_IDENT;
    if (this.scan() !== Tok.Ident) this.fail(error);
    return this.string();
  }

  private parseSubstrFunc(param: string): Node {
    const node = { t: 'func' as const, name: this.opName(acceptOneColon), param, args: [] as Node[] };
    node.args.push(this.parseParam(rejectColonClose, SCAN_IDENT));
    this.accept = acceptColon;
    this.mode = SCAN_IDENT | SCAN_RBRACK;
    const tok = this.scan();
    if (tok === Tok.Rbrack) return node;
    if (tok !== Tok.Ident) this.fail(BAD_SUBSTITUTION);
    node.args.push(this.parseParam(acceptNotClosing, SCAN_IDENT));
    return this.consumeRbrack(node);
  }

  private parseRemoveFunc(param: string, accept: Accept): Node {
    const node = { t: 'func' as const, name: this.opName(accept), param, args: [] as Node[] };
    node.args.push(this.parseParam(acceptNotClosing, SCAN_IDENT));
    return this.consumeRbrack(node);
  }

  private parseReplaceFunc(param: string): Node {
    const node = { t: 'func' as const, name: this.opName(acceptReplaceFunc), param, args: [] as Node[] };
    node.args.push(this.parseParam(acceptNotSlash, SCAN_IDENT | SCAN_ESCAPE));
    this.opName(acceptSlash);
    if (this.peek() === '}') return this.consumeRbrack(node);
    node.args.push(this.parseParam(acceptNotClosing, SCAN_IDENT | SCAN_ESCAPE));
    return this.consumeRbrack(node);
  }

  private parseDefaultFunc(param: string): Node {
    const node = { t: 'func' as const, name: this.opName(this.peek() === '=' ? acceptOneEqual : acceptDefaultFunc, PARSE_DEFAULT_FUNCTION), param, args: [] as Node[] };
    for (;;) {
      if (this.peek() === '}') return this.consumeRbrack(node);
      node.args.push(this.parseParam(acceptNotClosing, SCAN_IDENT));
    }
  }

  private parseCasingFunc(param: string): Node {
    return this.consumeRbrack({ t: 'func', name: this.opName(acceptCasingFunc), param, args: [] });
  }

  private parseLenFunc(): Node {
    const name = this.opName(acceptOneHash);
    const param = this.opName(acceptIdent);
    return this.consumeRbrack({ t: 'func', name, param, args: [] });
  }

  private consumeRbrack(node: Node): Node {
    this.mode = SCAN_RBRACK;
    if (this.scan() !== Tok.Rbrack) this.fail(BAD_SUBSTITUTION);
    return node;
  }
}

const ASCII = /^[ -~\t\n\r]*$/; // printable ASCII and the whitespace YAML text holds: other bytes are refused with non-ASCII

/** A byte-based operator on text that is not ASCII: Go's bytes and JavaScript's code units differ, so refuse. */
function asciiOnly(op: string, ...texts: string[]): void {
  if (!texts.every((t) => ASCII.test(t))) throw new FluxSubstituteError(`fleetplan does not evaluate the operator ${op} on non-ASCII text (Flux counts UTF-8 bytes)`, 0, true);
}

/** Go's strconv.Atoi: an optional sign and decimal digits, nothing else. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

function toSubstr(s: string, args: string[]): string {
  asciiOnly(':', s);
  let pos = atoi(args[0]!);
  if (pos === undefined) return s;
  if (pos < 0) pos = Math.max(0, s.length + pos);
  if (args.length === 1) return pos < s.length ? s.slice(pos) : '';
  const length = atoi(args[1]!);
  if (length === undefined) return s;
  if (pos + length >= s.length) return pos < s.length ? s.slice(pos) : '';
  // Go slices s[pos:pos+length]; a negative length below pos panics there, and is refused here.
  if (length < 0) throw new FluxSubstituteError(`the negative length ${length} makes Flux's substitution fail (slice bounds out of range)`, 0);
  return s.slice(pos, pos + length);
}

/** Go's strings.Replace(s, old, repl, n) for n = 1 or -1, with its rule for an empty `old`. */
function goReplace(s: string, old: string, repl: string, all: boolean): string {
  if (old !== '') return all ? s.split(old).join(repl) : s.replace(old, () => repl);
  if (!all) return repl + s;
  return repl + [...s].map((c) => c + repl).join('');
}

/** envsubst/path.Match: Go's path.Match, except that a trailing `*` matches the rest including `/`. */
export function envsubstGlobMatch(pattern: string, name: string): boolean {
  outer: while (pattern.length > 0) {
    let star = false;
    let chunk: string;
    [star, chunk, pattern] = scanChunk(pattern);
    if (star && chunk === '') return true;
    const m = matchChunk(chunk, name);
    if (m !== undefined && (m.length === 0 || pattern.length > 0)) {
      name = m;
      continue;
    }
    if (star) {
      for (let i = 0; i < name.length; i++) {
        const t = matchChunk(chunk, name.slice(i + 1));
        if (t !== undefined) {
          if (pattern.length === 0 && t.length > 0) continue;
          name = t;
          continue outer;
        }
      }
    }
    return false;
  }
  return name.length === 0;
}

function scanChunk(pattern: string): [boolean, string, string] {
  let star = false;
  while (pattern.startsWith('*')) {
    pattern = pattern.slice(1);
    star = true;
  }
  let inrange = false;
  let i = 0;
  scan: for (; i < pattern.length; i++) {
    switch (pattern[i]) {
      case '\\':
        if (i + 1 < pattern.length) i++;
        break;
      case '[':
        inrange = true;
        break;
      case ']':
        inrange = false;
        break;
      case '*':
        if (!inrange) break scan;
    }
  }
  return [star, pattern.slice(0, i), pattern.slice(i)];
}

const BAD_PATTERN = new Error('syntax error in pattern');

/** The rest of `s` after `chunk` matches its beginning; undefined when it does not; throws BAD_PATTERN. */
function matchChunk(chunk: string, s: string): string | undefined {
  while (chunk.length > 0) {
    if (s.length === 0) return undefined;
    const c = chunk[0]!;
    if (c === '[') {
      const r = s[0]!;
      s = s.slice(1);
      chunk = chunk.slice(1);
      let negated = false;
      if (chunk.startsWith('^')) {
        negated = true;
        chunk = chunk.slice(1);
      }
      let match = false;
      let nrange = 0;
      for (;;) {
        if (chunk.startsWith(']') && nrange > 0) {
          chunk = chunk.slice(1);
          break;
        }
        let lo: string;
        [lo, chunk] = getEsc(chunk);
        let hi = lo;
        if (chunk[0] === '-') [hi, chunk] = getEsc(chunk.slice(1));
        if (lo <= r && r <= hi) match = true;
        nrange++;
      }
      if (match === negated) return undefined;
    } else if (c === '?') {
      s = s.slice(1);
      chunk = chunk.slice(1);
    } else {
      if (c === '\\') {
        chunk = chunk.slice(1);
        if (chunk.length === 0) throw BAD_PATTERN;
      }
      if (chunk[0] !== s[0]) return undefined;
      s = s.slice(1);
      chunk = chunk.slice(1);
    }
  }
  return s;
}

function getEsc(chunk: string): [string, string] {
  if (chunk.length === 0 || chunk[0] === '-' || chunk[0] === ']') throw BAD_PATTERN;
  if (chunk[0] === '\\') {
    chunk = chunk.slice(1);
    if (chunk.length === 0) throw BAD_PATTERN;
  }
  const r = chunk[0]!;
  const rest = chunk.slice(1);
  if (rest.length === 0) throw BAD_PATTERN;
  return [r, rest];
}

/** trimShortest/trimLongest of envsubst/funcs.go: a bad pattern leaves the value unchanged, as there. */
function trimPrefix(s: string, pattern: string, longest: boolean): string {
  let shortest = '';
  for (let i = 0; i < s.length; i++) {
    const prefix = s.slice(0, s.length - i);
    let match: boolean;
    try {
      match = envsubstGlobMatch(pattern, prefix);
    } catch {
      return s;
    }
    if (match) {
      if (longest) return s.slice(prefix.length);
      shortest = prefix;
    }
  }
  return shortest !== '' ? s.slice(shortest.length) : s;
}

const reverse = (s: string) => [...s].reverse().join('');

function applyFunc(name: string, v: string, args: string[]): string {
  switch (name) {
    case ',':
      return v === '' ? v : ([...v][0]!.toLowerCase() + v.slice([...v][0]!.length));
    case ',,':
      return v.toLowerCase();
    case '^':
      return v === '' ? v : ([...v][0]!.toUpperCase() + v.slice([...v][0]!.length));
    case '^^':
      return v.toUpperCase();
    case '#':
      if (args.length === 0) return String(Buffer.byteLength(v));
      asciiOnly('#', v, args[0]!);
      return trimPrefix(v, args[0]!, false);
    case '##':
      asciiOnly('##', v, ...args);
      return args.length ? trimPrefix(v, args[0]!, true) : v;
    case '%':
      asciiOnly('%', v, ...args);
      return args.length ? reverse(trimPrefix(reverse(v), reverse(args[0]!), false)) : v;
    case '%%':
      asciiOnly('%%', v, ...args);
      return args.length ? reverse(trimPrefix(reverse(v), reverse(args[0]!), true)) : v;
    case ':':
      return args.length ? toSubstr(v, args) : v;
    case '/#':
      return args.length === 2 && v.startsWith(args[0]!) ? args[1]! + v.slice(args[0]!.length) : v;
    case '/%':
      return args.length === 2 && v.endsWith(args[0]!) ? v.slice(0, v.length - args[0]!.length) + args[1]! : v;
    case '/':
    case '//':
      return args.length === 0 ? v : goReplace(v, args[0]!, args[1] ?? '', name === '//');
    default:
      // toDefault: the default operators (=, :=, :-, :?, :+) and a plain ${VAR}.
      return v.length === 0 && args.length > 0 ? args.join('') : v;
  }
}

const DEFAULT_OPS = new Set(['', '=', ':=', ':-', ':?', ':+']);

/** envsubst's isDefaultOp: the operators that supply a value for an unset variable (strict mode leaves them alone). */
const UNSET_OPS = new Set(['-', '+', '=', '?', ':-', ':+', ':=', ':?']);

/** How unset variables are treated: kustomize-controller's StrictPostBuildSubstitutions feature gate. */
export interface FluxSubstituteMode {
  /** The gate on: an unset variable read bare or through a transformation fails, as envsubst's strict mode ("variable not set (strict mode)"). */
  strict?: boolean;
  /** The gate off: collects those variables (each becomes the empty string). */
  unset?: Set<string>;
}

/**
 * Evaluates `text` with `lookup` (undefined = unset, which Flux treats as empty). `used` collects
 * every variable name read, in order of first use. `opaque` names variables whose lookup is a
 * stand-in for a value fleetplan does not print (a Secret's redaction marker): an operator on them
 * (length, case, substring, replace, trim) gives the stand-in unchanged, not a result computed
 * from the marker's own letters. `mode`: strict substitution, or where to collect unset variables.
 */
export function fluxSubstitute(text: string, lookup: (name: string) => string | undefined, used?: Set<string>, opaque?: (name: string) => boolean, mode?: FluxSubstituteMode): string {
  if (!text.includes('$')) return text;
  const root = new Parser(text).parseAny();
  const evaluate = (n: Node | undefined): string => {
    if (n === undefined) return '';
    if (n.t === 'text') return n.value;
    if (n.t === 'list') return n.nodes.map(evaluate).join('');
    try {
      const args = n.args.map(evaluate);
      used?.add(n.param);
      const found = lookup(n.param);
      if (found === undefined && !UNSET_OPS.has(n.name)) {
        if (mode?.strict) throw new FluxSubstituteError(`variable not set (strict mode): "${n.param}"`, n.at ?? 0);
        mode?.unset?.add(n.param);
      }
      const v = found ?? '';
      return opaque?.(n.param) === true && !DEFAULT_OPS.has(n.name) ? v : applyFunc(n.name, v, args);
    } catch (e) {
      if (n.expr === undefined || !(e instanceof FluxSubstituteError)) throw e;
      throw new FluxSubstituteError(`${e.message} in "${n.expr}"`, n.at ?? 0, e.notEvaluated);
    }
  };
  return evaluate(root);
}

/** The hint of a failed substitution: Flux's own failure, or an expression fleetplan does not evaluate. */
export function fluxSubstitutionHint(e: unknown): string {
  return e instanceof FluxSubstituteError && e.notEvaluated
    ? 'Flux evaluates this expression; fleetplan does not, so it shows no output for these objects'
    : 'Flux fails the same way; escape a literal with $${...} or annotate the object kustomize.toolkit.fluxcd.io/substitute: disabled';
}
