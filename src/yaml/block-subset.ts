/**
 * A position-free reader for the small YAML most fleet files are written in (ADR 0328): block
 * mappings and block sequences indented with spaces, plain or simply quoted scalars, and one-line
 * flow lists of plain words (`groups: [all, region-0, tier-0]`). At 5,000 clusters the thousands
 * of tiny cluster files spent more time in js-yaml's general reader than in anything it needs.
 *
 * It answers only when it is sure to give what `jsYaml.load(text, { schema: CORE_SCHEMA })`
 * gives, and returns `undefined` otherwise: anything outside the subset (anchors, aliases, tags,
 * block scalars, multi-line scalars, flow mappings, escapes, comments after a value, tabs, CR,
 * several documents, duplicate keys, a key the core schema would rewrite …) is left to js-yaml
 * and, for errors and positions, to the positioned parser, exactly as before. Plain scalars are
 * resolved by js-yaml's own core-schema types (null, bool, int, float), in js-yaml's order.
 * test/yaml/block-subset.test.ts checks the values against js-yaml on a table and on random
 * documents.
 */
import jsYaml from 'js-yaml';

/** Thrown inside the reader to give up; never leaves this module. */
const OUTSIDE = Symbol('outside the subset');

interface Line {
  indent: number;
  /** The text after the indentation, right-trimmed. */
  text: string;
}

/** js-yaml's own resolvers of the core schema's implicit types (its typings do not declare `types`). */
interface ImplicitType {
  resolve(data: string): boolean;
  construct(data: string): unknown;
}
const { types } = jsYaml as unknown as { types: Record<'null' | 'bool' | 'int' | 'float', ImplicitType> };
const CORE_IMPLICIT = [types.null, types.bool, types.int, types.float];

/** The value js-yaml's core schema gives `text` when it is written as a plain scalar, or OUTSIDE. */
function plainValue(text: string): unknown {
  const c = text.charCodeAt(0);
  // A letter other than those that start null / true / false words, `_`, `$` or `/`: a string.
  if (((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) && !'nNtTfF'.includes(text[0]!)) return text;
  if (c === 95 || c === 36 || c === 47) return text;
  for (const t of CORE_IMPLICIT) if (t.resolve(text)) return t.construct(text);
  return text;
}

/** Characters a plain scalar may hold here: printable ASCII, none of the indicators that change meaning. */
function plainChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return !s.includes(': ') && !s.includes(' #') && !s.endsWith(':');
}

/** May a plain scalar start with this character (YAML indicators excepted)? `-` only before a digit. */
function plainStart(s: string): boolean {
  const ch = s[0]!;
  if (ch === '-') return s.length > 1 && s.charCodeAt(1) >= 48 && s.charCodeAt(1) <= 57;
  return !'?:,[]{}#&*!|>\'"%@` '.includes(ch);
}

/** A scalar written on one line after `key: ` or `- `. */
function inlineValue(s: string): unknown {
  const ch = s[0]!;
  if (ch === '"') {
    // No escapes, no inner quote: the text between the quotes.
    if (s.length < 2 || !s.endsWith('"') || s.indexOf('"', 1) !== s.length - 1 || s.includes('\\')) throw OUTSIDE;
    const inner = s.slice(1, -1);
    if (!printable(inner)) throw OUTSIDE;
    return inner;
  }
  if (ch === "'") {
    if (s.length < 2 || !s.endsWith("'") || s.indexOf("'", 1) !== s.length - 1) throw OUTSIDE;
    const inner = s.slice(1, -1);
    if (!printable(inner)) throw OUTSIDE;
    return inner;
  }
  if (ch === '[') return flowList(s);
  if (s === '{}') return {};
  if (!plainStart(s) || !plainChars(s)) throw OUTSIDE;
  return plainValue(s);
}

function printable(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/** `[a, b-1, c/d]`: plain words only (letters, digits, `_ . / -`), on one line. */
function flowList(s: string): unknown[] {
  if (!s.endsWith(']')) throw OUTSIDE;
  const inner = s.slice(1, -1).trim();
  if (inner === '') return [];
  const out: unknown[] = [];
  for (const part of inner.split(',')) {
    const w = part.trim();
    if (w === '' || !/^[A-Za-z0-9_./][A-Za-z0-9_./-]*$/.test(w)) throw OUTSIDE;
    out.push(plainValue(w));
  }
  return out;
}

/** A mapping key kept as written: a word the core schema reads as a string, not `<<` or `__proto__`. */
function keyOf(k: string): string {
  if (!/^[A-Za-z_$/][A-Za-z0-9_.$/-]*$/.test(k) || k === '__proto__' || typeof plainValue(k) !== 'string') throw OUTSIDE;
  return k;
}

class Reader {
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  /** The node starting at the current line, all of whose lines are indented exactly `indent` at its level. */
  node(indent: number): unknown {
    const line = this.lines[this.i]!;
    if (line.indent !== indent) throw OUTSIDE;
    return line.text === '-' || line.text.startsWith('- ') ? this.sequence(indent) : this.mapping(indent, undefined);
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent) break;
      if (line.indent > indent) throw OUTSIDE;
      if (!(line.text === '-' || line.text.startsWith('- '))) break;
      // A bare `-` (an empty or nested item): js-yaml reads the lines after it in ways that depend
      // on their indentation; not in the subset.
      if (line.text === '-') throw OUTSIDE;
      let rest = line.text.slice(2);
      let at = indent + 2;
      while (rest.startsWith(' ')) {
        rest = rest.slice(1);
        at++;
      }
      if (rest.startsWith('- ') || rest === '-') throw OUTSIDE;
      if (keyEnd(rest) >= 0) {
        // `- key: value`: a mapping whose first key sits on the item's line, at column `at`.
        out.push(this.mapping(at, { indent: at, text: rest }));
        continue;
      }
      out.push(inlineValue(rest));
      this.i++;
      this.noContinuation(indent);
    }
    return out;
  }

  /** A block mapping at `indent`; `first` is a line that replaces the current one (the `- key:` case). */
  private mapping(indent: number, first: Line | undefined): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let line: Line | undefined = first ?? this.lines[this.i];
    while (line !== undefined) {
      if (line.indent < indent) break;
      if (line.indent > indent) throw OUTSIDE;
      const end = keyEnd(line.text);
      if (end < 0) {
        if (first === undefined && (line.text === '-' || line.text.startsWith('- '))) break;
        throw OUTSIDE;
      }
      const key = keyOf(line.text.slice(0, end));
      if (Object.prototype.hasOwnProperty.call(out, key)) throw OUTSIDE;
      const rest = line.text.slice(end + 1).trimStart();
      this.i++;
      first = undefined;
      if (rest === '') {
        const next = this.lines[this.i];
        if (next !== undefined && next.indent > indent) out[key] = this.node(next.indent);
        else if (next !== undefined && next.indent === indent && (next.text === '-' || next.text.startsWith('- '))) out[key] = this.sequence(indent);
        else out[key] = null;
      } else {
        out[key] = inlineValue(rest);
        this.noContinuation(indent);
      }
      line = this.lines[this.i];
    }
    return out;
  }

  /** After a one-line value, a deeper line would continue it (a multi-line scalar): not in the subset. */
  private noContinuation(indent: number): void {
    const next = this.lines[this.i];
    if (next !== undefined && next.indent > indent) throw OUTSIDE;
  }

  done(): boolean {
    return this.i === this.lines.length;
  }
}

/** Where the key of `key: value` / `key:` ends, or -1 when the line is not a simple key line. */
function keyEnd(text: string): number {
  const c = text.indexOf(':');
  if (c <= 0) return -1;
  if (c + 1 < text.length && text[c + 1] !== ' ') return -1;
  return c;
}

/**
 * The value of `text` as js-yaml (core schema) reads it, when the text is inside the subset;
 * `undefined` when it is not (then the caller parses it the general way).
 */
export function readBlockSubset(text: string): unknown {
  if (text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  const lines: Line[] = [];
  let from = 0;
  while (from <= text.length) {
    let nl = text.indexOf('\n', from);
    if (nl < 0) nl = text.length;
    let indent = from;
    while (indent < nl && text.charCodeAt(indent) === 32) indent++;
    let end = nl;
    while (end > indent && text.charCodeAt(end - 1) === 32) end--;
    if (end > indent && text.charCodeAt(indent) !== 35) {
      const t = text.slice(indent, end);
      // Directives, document markers and anything that is not plain ASCII stay with js-yaml.
      if (indent === from && (t.startsWith('---') || t.startsWith('...') || t.startsWith('%'))) return undefined;
      lines.push({ indent: indent - from, text: t });
    }
    from = nl + 1;
  }
  if (lines.length === 0 || lines[0]!.indent !== 0) return undefined;
  try {
    const reader = new Reader(lines);
    const value = reader.node(0);
    return reader.done() ? value : undefined;
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}
