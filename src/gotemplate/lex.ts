/**
 * The lexer of Go's text/template (text/template/parse/lex.go): text, actions between `{{` and
 * `}}`, trim markers `{{- ` and ` -}}`, comments `{{/* … *\/}}`, and the tokens inside actions.
 * It produces the whole token list at once; a lexing error is the last token.
 */

export const enum Tok {
  Error,
  Bool,
  Char,
  CharConstant,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  // keywords
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Token {
  typ: Tok;
  pos: number;
  val: string;
  line: number;
}

const keywords: Record<string, Tok> = {
  '.': Tok.Dot,
  block: Tok.Block,
  break: Tok.Break,
  continue: Tok.Continue,
  define: Tok.Define,
  else: Tok.Else,
  end: Tok.End,
  if: Tok.If,
  range: Tok.Range,
  nil: Tok.Nil,
  template: Tok.Template,
  with: Tok.With,
};

export function isKeyword(t: Tok): boolean {
  return t >= Tok.Block;
}

/** Go's item.String(), used in "unexpected X in Y" messages. */
export function tokenString(t: Token): string {
  switch (t.typ) {
    case Tok.EOF:
      return 'EOF';
    case Tok.Error:
      return t.val;
  }
  if (isKeyword(t.typ)) return `<${t.val}>`;
  if (t.val.length > 10) return goQuote(t.val.slice(0, 10)) + '...';
  return goQuote(t.val);
}

function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

const LEFT = '{{';
const RIGHT = '}}';
const LEFT_COMMENT = '/*';
const RIGHT_COMMENT = '*/';

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

const alnumRe = /^[\p{L}\p{Nd}_]$/u;
function isAlphaNumeric(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
  }
  return alnumRe.test(c);
}

/** "%#U" formatting of a rune. */
export function runeU(c: string): string {
  const cp = c.codePointAt(0) ?? 0;
  const hex = cp.toString(16).toUpperCase().padStart(4, '0');
  return `U+${hex} '${c}'`;
}

export function lex(input: string): Token[] {
  const items: Token[] = [];
  let pos = 0;
  let start = 0;
  let parenDepth = 0;
  let lastWidth = 0;

  const emit = (typ: Tok): void => {
    items.push({ typ, pos: start, val: input.slice(start, pos), line: 0 });
    start = pos;
  };
  const ignore = (): void => {
    start = pos;
  };
  const error = (msg: string): void => {
    items.push({ typ: Tok.Error, pos: start, val: msg, line: 0 });
  };
  const nextW = (): string | undefined => {
    if (pos >= input.length) {
      lastWidth = 0;
      return undefined;
    }
    const c = input.charCodeAt(pos);
    const w = c >= 0xd800 && c <= 0xdbff && pos + 1 < input.length ? 2 : 1;
    const ch = input.slice(pos, pos + w);
    pos += w;
    lastWidth = w;
    return ch;
  };
  const backup = (): void => {
    pos -= lastWidth;
    lastWidth = 0;
  };
  const peek = (): string | undefined => {
    if (pos >= input.length) return undefined;
    const cp = input.codePointAt(pos)!;
    return String.fromCodePoint(cp);
  };
  const accept = (valid: string): boolean => {
    const c = nextW();
    if (c !== undefined && valid.includes(c)) return true;
    if (c !== undefined) backup();
    return false;
  };
  const acceptRun = (valid: string): void => {
    for (;;) {
      const c = nextW();
      if (c === undefined) return;
      if (!valid.includes(c)) {
        backup();
        return;
      }
    }
  };
  const hasLeftTrimMarker = (at: number): boolean => input[at] === '-' && isSpace(input[at + 1]);
  const hasRightTrimMarker = (at: number): boolean => isSpace(input[at]) && input[at + 1] === '-';
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    if (hasRightTrimMarker(pos) && input.startsWith(RIGHT, pos + 2)) return { delim: true, trim: true };
    if (input.startsWith(RIGHT, pos)) return { delim: true, trim: false };
    return { delim: false, trim: false };
  };
  const leftTrimLength = (at: number): number => {
    let n = 0;
    while (isSpace(input[at + n])) n++;
    return n;
  };
  const atTerminator = (): boolean => {
    const r = peek();
    if (r === undefined || isSpace(r)) return true;
    switch (r) {
      case '.':
      case ',':
      case '|':
      case ':':
      case ')':
      case '(':
        return true;
    }
    return input.startsWith(RIGHT, pos);
  };

  // State machine: 0 text, 1 inside action; returns false when done.
  let inside = false;

  const lexText = (): boolean => {
    const x = input.indexOf(LEFT, pos);
    if (x >= 0) {
      if (x > pos) {
        pos = x;
        let trimLength = 0;
        const delimEnd = pos + LEFT.length;
        if (hasLeftTrimMarker(delimEnd)) {
          let k = pos;
          while (k > start && isSpace(input[k - 1])) k--;
          trimLength = pos - k;
        }
        pos -= trimLength;
        if (pos > start) items.push({ typ: Tok.Text, pos: start, val: input.slice(start, pos), line: 0 });
        start = pos;
        pos += trimLength;
        ignore();
      }
      return lexLeftDelim();
    }
    pos = input.length;
    if (pos > start) {
      items.push({ typ: Tok.Text, pos: start, val: input.slice(start, pos), line: 0 });
      start = pos;
    }
    items.push({ typ: Tok.EOF, pos, val: '', line: 0 });
    return false;
  };

  const lexLeftDelim = (): boolean => {
    pos += LEFT.length;
    const trimSpace = hasLeftTrimMarker(pos);
    const afterMarker = trimSpace ? 2 : 0;
    if (input.startsWith(LEFT_COMMENT, pos + afterMarker)) {
      pos += afterMarker;
      ignore();
      return lexComment();
    }
    items.push({ typ: Tok.LeftDelim, pos: start, val: input.slice(start, pos), line: 0 });
    start = pos;
    inside = true;
    pos += afterMarker;
    ignore();
    parenDepth = 0;
    return true;
  };

  const lexComment = (): boolean => {
    pos += LEFT_COMMENT.length;
    const x = input.indexOf(RIGHT_COMMENT, pos);
    if (x < 0) {
      error('unclosed comment');
      return false;
    }
    pos = x + RIGHT_COMMENT.length;
    const { delim, trim } = atRightDelim();
    if (!delim) {
      error('comment ends before closing delimiter');
      return false;
    }
    if (trim) pos += 2;
    pos += RIGHT.length;
    if (trim) pos += leftTrimLength(pos);
    ignore();
    return true;
  };

  const lexRightDelim = (): boolean => {
    const { trim } = atRightDelim();
    if (trim) {
      pos += 2;
      ignore();
    }
    pos += RIGHT.length;
    emit(Tok.RightDelim);
    if (trim) {
      pos += leftTrimLength(pos);
      ignore();
    }
    inside = false;
    return true;
  };

  const lexSpace = (): boolean => {
    let numSpaces = 0;
    while (isSpace(peek())) {
      nextW();
      numSpaces++;
    }
    if (hasRightTrimMarker(pos - 1) && input.startsWith(RIGHT, pos - 1 + 2)) {
      nextWBackupSpace();
      if (numSpaces === 1) return lexRightDelim();
    }
    emit(Tok.Space);
    return true;
  };
  const nextWBackupSpace = (): void => {
    pos -= 1;
  };

  const lexFieldOrVariable = (typ: Tok): boolean => {
    if (atTerminator()) {
      emit(typ === Tok.Variable ? Tok.Variable : Tok.Dot);
      return true;
    }
    let r: string | undefined;
    for (;;) {
      r = nextW();
      if (!isAlphaNumeric(r)) {
        if (r !== undefined) backup();
        break;
      }
    }
    if (!atTerminator()) {
      error(`bad character ${runeU(r ?? '')}`);
      return false;
    }
    emit(typ);
    return true;
  };

  const lexIdentifier = (): boolean => {
    for (;;) {
      const r = nextW();
      if (isAlphaNumeric(r)) continue;
      if (r !== undefined) backup();
      const word = input.slice(start, pos);
      if (!atTerminator()) {
        error(`bad character ${runeU(r ?? '')}`);
        return false;
      }
      const kw = keywords[word];
      if (kw !== undefined && Object.prototype.hasOwnProperty.call(keywords, word)) emit(kw);
      else if (word[0] === '.') emit(Tok.Field);
      else if (word === 'true' || word === 'false') emit(Tok.Bool);
      else emit(Tok.Identifier);
      return true;
    }
  };

  const scanNumber = (): boolean => {
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (isAlphaNumeric(peek())) {
      nextW();
      return false;
    }
    return true;
  };

  const lexNumber = (): boolean => {
    if (!scanNumber()) {
      error(`bad number syntax: ${goQuote(input.slice(start, pos))}`);
      return false;
    }
    const sign = peek();
    if (sign === '+' || sign === '-') {
      if (!scanNumber() || input[pos - 1] !== 'i') {
        error(`bad number syntax: ${goQuote(input.slice(start, pos))}`);
        return false;
      }
      emit(Tok.Complex);
      return true;
    }
    emit(Tok.Number);
    return true;
  };

  const lexQuote = (): boolean => {
    for (;;) {
      const c = nextW();
      if (c === '\\') {
        const r = nextW();
        if (r !== undefined && r !== '\n') continue;
        error('unterminated quoted string');
        return false;
      }
      if (c === undefined || c === '\n') {
        error('unterminated quoted string');
        return false;
      }
      if (c === '"') break;
    }
    emit(Tok.String);
    return true;
  };

  const lexRawQuote = (): boolean => {
    for (;;) {
      const c = nextW();
      if (c === undefined) {
        error('unterminated raw quoted string');
        return false;
      }
      if (c === '`') break;
    }
    emit(Tok.RawString);
    return true;
  };

  const lexChar = (): boolean => {
    for (;;) {
      const c = nextW();
      if (c === '\\') {
        const r = nextW();
        if (r !== undefined && r !== '\n') continue;
        error('unterminated character constant');
        return false;
      }
      if (c === undefined || c === '\n') {
        error('unterminated character constant');
        return false;
      }
      if (c === "'") break;
    }
    emit(Tok.CharConstant);
    return true;
  };

  const lexInsideAction = (): boolean => {
    const { delim } = atRightDelim();
    if (delim) {
      if (parenDepth === 0) return lexRightDelim();
      error('unclosed left paren');
      return false;
    }
    const r = nextW();
    if (r === undefined) {
      error('unclosed action');
      return false;
    }
    if (isSpace(r)) {
      backup();
      return lexSpace();
    }
    switch (r) {
      case '=':
        emit(Tok.Assign);
        return true;
      case ':':
        if (nextW() !== '=') {
          error('expected :=');
          return false;
        }
        emit(Tok.Declare);
        return true;
      case '|':
        emit(Tok.Pipe);
        return true;
      case '"':
        return lexQuote();
      case '`':
        return lexRawQuote();
      case '$':
        return lexFieldOrVariable(Tok.Variable);
      case "'":
        return lexChar();
      case '.': {
        const n = input[pos];
        if (n === undefined || n < '0' || n > '9') return lexFieldOrVariable(Tok.Field);
        backup();
        return lexNumber();
      }
      case '(':
        parenDepth++;
        emit(Tok.LeftParen);
        return true;
      case ')':
        parenDepth--;
        if (parenDepth < 0) {
          error(`unexpected right paren ${runeU(r)}`);
          return false;
        }
        emit(Tok.RightParen);
        return true;
    }
    if (r === '+' || r === '-' || (r >= '0' && r <= '9')) {
      backup();
      return lexNumber();
    }
    if (isAlphaNumeric(r)) {
      backup();
      return lexIdentifier();
    }
    const cp = r.codePointAt(0)!;
    if (cp < 0x7f && cp >= 0x20) {
      emit(Tok.Char);
      return true;
    }
    error(`unrecognized character in action: ${runeU(r)}`);
    return false;
  };

  for (;;) {
    const ok = inside ? lexInsideAction() : lexText();
    if (!ok) break;
  }
  // Line of each token's start.
  let line = 1;
  let at = 0;
  for (const it of items) {
    line += countNewlines(input, at, it.pos);
    at = it.pos;
    it.line = line;
  }
  return items;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}
