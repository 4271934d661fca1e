/**
 * Go's fmt package (Sprint, Sprintln, Sprintf) over the Go value model: verbs, flags, width,
 * precision, argument indexes, and Go's error notations (`%!d(string=x)`, `%!s(MISSING)`,
 * `%!(EXTRA …)`, `%!(NOVERB)`, `%!(BADWIDTH)`, `%!(BADPREC)`, `%!v(BADINDEX)`).
 */
import type { GoValue } from './values.js';
import { GoBox, GoComplex, GoFuncValue, GoObject, TypedInt, hasOwn, isMap, sortedKeys, typeName } from './values.js';
import { canBackquote, formatFloat, formatFloatV, quote, quoteRune } from './strconv.js';

const LDIGITS = '0123456789abcdefx';
const UDIGITS = '0123456789ABCDEFX';

class Printer {
  buf = '';
  // flags
  plus = false;
  minus = false;
  sharp = false;
  space = false;
  zero = false;
  plusV = false;
  sharpV = false;
  wid = 0;
  prec = 0;
  widPresent = false;
  precPresent = false;

  clearFlags(): void {
    this.plus = this.minus = this.sharp = this.space = this.zero = false;
    this.plusV = this.sharpV = false;
    this.wid = this.prec = 0;
    this.widPresent = this.precPresent = false;
  }

  writePadding(n: number): void {
    if (n <= 0) return;
    this.buf += (this.zero ? '0' : ' ').repeat(n);
  }

  pad(s: string): void {
    if (!this.widPresent || this.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.wid - runeCount(s);
    if (!this.minus) {
      this.writePadding(width);
      this.buf += s;
    } else {
      this.buf += s;
      this.writePadding(width);
    }
  }

  truncate(s: string): string {
    if (this.precPresent) {
      const runes = [...s];
      if (runes.length > this.prec) return runes.slice(0, this.prec).join('');
    }
    return s;
  }

  fmtBoolean(v: boolean): void {
    this.pad(v ? 'true' : 'false');
  }

  fmtInteger(u: bigint, base: number, isSigned: boolean, verb: string, digits: string): void {
    const negative = isSigned && u < 0n;
    if (negative) u = -u;
    let prec = 0;
    if (this.precPresent) {
      prec = this.prec;
      if (prec === 0 && u === 0n) {
        const oldZero = this.zero;
        this.zero = false;
        this.writePadding(this.wid);
        this.zero = oldZero;
        return;
      }
    } else if (this.zero && this.widPresent) {
      prec = this.wid;
      if (negative || this.plus || this.space) prec--;
    }
    let s = u.toString(base);
    if (digits === UDIGITS) s = s.toUpperCase();
    if (s.length < prec) s = '0'.repeat(prec - s.length) + s;
    if (this.sharp) {
      switch (base) {
        case 2:
          s = '0b' + s;
          break;
        case 8:
          if (s[0] !== '0') s = '0' + s;
          break;
        case 16:
          s = '0' + digits[16] + s;
          break;
      }
    }
    if (verb === 'O') s = '0o' + s;
    if (negative) s = '-' + s;
    else if (this.plus) s = '+' + s;
    else if (this.space) s = ' ' + s;
    const oldZero = this.zero;
    this.zero = false;
    this.pad(s);
    this.zero = oldZero;
  }

  fmtFloat(v: number, verb: string, prec: number): void {
    if (this.precPresent) prec = this.prec;
    let num: string;
    const fmtVerb = verb === 'F' ? 'f' : verb;
    if (fmtVerb === 'g' && prec === -1 && !this.sharp) num = formatFloatV(v);
    else num = formatFloat(v, fmtVerb === 'x' || fmtVerb === 'X' || fmtVerb === 'b' ? 'g' : fmtVerb, prec);
    if (num[0] === '-' || num[0] === '+') {
      // keep
    } else num = '+' + num;
    if (this.space && num[0] === '+' && !this.plus) num = ' ' + num.slice(1);
    if (num[1] === 'I' || num[1] === 'N') {
      const oldZero = this.zero;
      this.zero = false;
      if (num[1] === 'N' && !this.space && !this.plus) num = num.slice(1);
      this.pad(num);
      this.zero = oldZero;
      return;
    }
    if (this.sharp && verb !== 'b') {
      let digits = 0;
      switch (verb) {
        case 'v':
        case 'g':
        case 'G':
        case 'x':
          digits = prec;
          if (digits === -1) digits = 6;
      }
      let tail = '';
      let hasDecimalPoint = false;
      let sawNonzeroDigit = false;
      let body = num;
      for (let i = 1; i < body.length; i++) {
        const c = body[i]!;
        if (c === '.') hasDecimalPoint = true;
        else if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
          tail = body.slice(i);
          body = body.slice(0, i);
          break;
        } else {
          if (c !== '0') sawNonzeroDigit = true;
          if (sawNonzeroDigit) digits--;
        }
      }
      if (!hasDecimalPoint) {
        if (body.length === 2 && body[1] === '0') digits--;
        body += '.';
      }
      while (digits > 0) {
        body += '0';
        digits--;
      }
      num = body + tail;
    }
    if (this.plus || num[0] !== '+') {
      if (this.zero && this.widPresent && this.wid > num.length) {
        this.buf += num[0];
        this.writePadding(this.wid - num.length);
        this.buf += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  fmtS(s: string): void {
    this.pad(this.truncate(s));
  }

  fmtQ(s: string): void {
    s = this.truncate(s);
    if (this.sharp && canBackquote(s)) {
      this.pad('`' + s + '`');
      return;
    }
    this.pad(quote(s, this.plus));
  }

  fmtSx(s: string, digits: string): void {
    const bytes = Buffer.from(s, 'utf8');
    let length = bytes.length;
    if (this.precPresent && this.prec < length) length = this.prec;
    let out = '';
    for (let i = 0; i < length; i++) {
      if (this.space && i > 0) out += ' ';
      if (this.sharp && (this.space || i === 0)) out += '0' + digits[16];
      const b = bytes[i]!;
      out += digits[b >> 4]! + digits[b & 15]!;
    }
    this.pad(out);
  }

  fmtC(c: bigint): void {
    const cp = c > 0x10ffffn || c < 0n || (c >= 0xd800n && c <= 0xdfffn) ? 0xfffd : Number(c);
    this.pad(String.fromCodePoint(cp));
  }

  fmtQc(c: bigint): void {
    const cp = c > 0x10ffffn || c < 0n ? 0xfffd : Number(c);
    this.pad(quoteRune(cp, this.plus));
  }

  fmtUnicode(u: bigint): void {
    let s = 'U+' + u.toString(16).toUpperCase().padStart(4, '0');
    if (this.precPresent && this.prec > 4) s = 'U+' + u.toString(16).toUpperCase().padStart(this.prec, '0');
    if (this.sharp && u <= 0x10ffffn && !(u >= 0xd800n && u <= 0xdfffn)) {
      s += " '" + String.fromCodePoint(Number(u)) + "'";
    }
    const oldZero = this.zero;
    this.zero = false;
    this.pad(s);
    this.zero = oldZero;
  }

  badVerb(verb: string, v: GoValue): void {
    this.buf += '%!' + verb + '(';
    if (v === undefined || v === null) this.buf += '<nil>';
    else {
      // Go prints the operand with %v keeping the flags, width and precision of the bad verb.
      this.buf += typeName(v) + '=';
      this.printValue(v, 'v', 0);
    }
    this.buf += ')';
  }

  fmtIntegerVerb(u: bigint, isSigned: boolean, verb: string, v: GoValue): void {
    switch (verb) {
      case 'v':
        if (this.sharpV && !isSigned) {
          this.sharp = true;
          this.fmtInteger(u, 16, isSigned, verb, LDIGITS);
          this.sharp = false;
        } else this.fmtInteger(u, 10, isSigned, verb, LDIGITS);
        return;
      case 'd':
        this.fmtInteger(u, 10, isSigned, verb, LDIGITS);
        return;
      case 'b':
        this.fmtInteger(u, 2, isSigned, verb, LDIGITS);
        return;
      case 'o':
      case 'O':
        this.fmtInteger(u, 8, isSigned, verb, LDIGITS);
        return;
      case 'x':
        this.fmtInteger(u, 16, isSigned, verb, LDIGITS);
        return;
      case 'X':
        this.fmtInteger(u, 16, isSigned, verb, UDIGITS);
        return;
      case 'c':
        this.fmtC(u);
        return;
      case 'q':
        this.fmtQc(u);
        return;
      case 'U':
        this.fmtUnicode(u);
        return;
      default:
        this.badVerb(verb, v);
    }
  }

  fmtFloatVerb(f: number, verb: string, v: GoValue): void {
    switch (verb) {
      case 'v':
        this.fmtFloat(f, 'g', -1);
        return;
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
        this.fmtFloat(f, verb, -1);
        return;
      case 'f':
      case 'e':
      case 'E':
      case 'F':
        this.fmtFloat(f, verb, 6);
        return;
      default:
        this.badVerb(verb, v);
    }
  }

  fmtStringVerb(s: string, verb: string, v: GoValue): void {
    switch (verb) {
      case 'v':
        if (this.sharpV) this.fmtQ(s);
        else this.fmtS(s);
        return;
      case 's':
        this.fmtS(s);
        return;
      case 'x':
        this.fmtSx(s, LDIGITS);
        return;
      case 'X':
        this.fmtSx(s, UDIGITS);
        return;
      case 'q':
        this.fmtQ(s);
        return;
      default:
        this.badVerb(verb, v);
    }
  }

  /** printArg: the top-level operand (depth 0). */
  printArg(arg: GoValue, verb: string): void {
    if (arg === undefined || arg === null) {
      switch (verb) {
        case 'T':
        case 'v':
          this.pad('<nil>');
          return;
        default:
          this.badVerb(verb, arg);
          return;
      }
    }
    if (verb === 'T') {
      this.fmtS(typeName(arg));
      return;
    }
    if (verb === 'p') {
      this.badVerb(verb, arg);
      return;
    }
    this.printValue(arg, verb, 0);
  }

  printValue(v: GoValue, verb: string, depth: number): void {
    switch (typeof v) {
      case 'undefined':
        this.pad(depth === 0 ? '<invalid reflect.Value>' : '<nil>');
        return;
      case 'string':
        this.fmtStringVerb(v, verb, v);
        return;
      case 'boolean':
        if (verb === 't' || verb === 'v') this.fmtBoolean(v);
        else this.badVerb(verb, v);
        return;
      case 'number':
        this.fmtFloatVerb(v, verb, v);
        return;
      case 'bigint':
        this.fmtIntegerVerb(v, true, verb, v);
        return;
      case 'object':
        break;
      default:
        return;
    }
    if (v === null) {
      // A nil element of a container is written as is, without padding.
      if (depth > 0) this.buf += this.sharpV ? 'interface {}(nil)' : '<nil>';
      else this.pad('<nil>');
      return;
    }
    if (Array.isArray(v)) {
      if (this.sharpV) {
        this.buf += typeName(v) + '{';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) this.buf += ', ';
          this.printValue(v[i], verb, depth + 1);
        }
        this.buf += '}';
        return;
      }
      if ((verb === 's' || verb === 'q' || verb === 'x' || verb === 'X') && typeName(v) === '[]uint8') {
        const s = Buffer.from(v.map((b) => Number(b instanceof TypedInt ? b.v : 0))).toString('latin1');
        this.fmtStringVerb(s, verb, v);
        return;
      }
      this.buf += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) this.buf += ' ';
        this.printValue(v[i], verb, depth + 1);
      }
      this.buf += ']';
      return;
    }
    if (v instanceof GoBox) {
      if (v instanceof TypedInt) {
        this.fmtIntegerVerb(v.unsigned ? BigInt.asUintN(64, v.v) : v.v, !v.unsigned, verb, v);
        return;
      }
      if (v instanceof GoComplex) {
        switch (verb) {
          case 'v':
          case 'b':
          case 'g':
          case 'G':
          case 'x':
          case 'X':
          case 'f':
          case 'F':
          case 'e':
          case 'E': {
            const oldPlus = this.plus;
            this.buf += '(';
            this.fmtFloatVerb(v.re, verb, v.re);
            this.plus = true;
            this.fmtFloatVerb(v.im, verb, v.im);
            this.buf += 'i)';
            this.plus = oldPlus;
            return;
          }
          default:
            this.badVerb(verb, v);
            return;
        }
      }
      if (v instanceof GoObject) {
        const s = verb === 'v' || verb === 's' || verb === 'x' || verb === 'X' || verb === 'q' ? v.goString() : undefined;
        if (s !== undefined && !this.sharpV) {
          this.fmtStringVerb(s, verb, s);
          return;
        }
        this.buf += v.plain();
        return;
      }
      if (v instanceof GoFuncValue) {
        this.buf += '0xc000000000';
        return;
      }
      return;
    }
    if (isMap(v)) {
      const keys = sortedKeys(v);
      if (this.sharpV) {
        this.buf += typeName(v) + '{';
        keys.forEach((k, i) => {
          if (i > 0) this.buf += ', ';
          this.printValue(k, verb, depth + 1);
          this.buf += ':';
          this.printValue(v[k], verb, depth + 1);
        });
        this.buf += '}';
        return;
      }
      this.buf += 'map[';
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (i > 0) this.buf += ' ';
        this.printValue(k, verb, depth + 1);
        this.buf += ':';
        this.printValue(hasOwn(v, k) ? v[k] : null, verb, depth + 1);
      }
      this.buf += ']';
    }
  }

  doPrintf(format: string, a: GoValue[]): void {
    const end = format.length;
    let argNum = 0;
    let afterIndex = false;
    let reordered = false;
    let goodArgNum = true;

    const argNumber = (i: number): { i: number; found: boolean } => {
      if (format.length <= i || format[i] !== '[') return { i, found: false };
      reordered = true;
      // parseArgNumber
      const rest = format.slice(i);
      if (rest.length >= 3) {
        for (let j = 1; j < rest.length; j++) {
          if (rest[j] === ']') {
            const pn = parsenum(rest, 1, j);
            if (!pn.ok || pn.next !== j) {
              goodArgNum = false;
              return { i: i + j + 1, found: false };
            }
            const index = pn.num - 1;
            if (index >= 0 && index < a.length) {
              argNum = index;
              return { i: i + j + 1, found: true };
            }
            goodArgNum = false;
            return { i: i + j + 1, found: true };
          }
        }
      }
      goodArgNum = false;
      return { i: i + 1, found: false };
    };

    const intFromArg = (): { num: number; isInt: boolean } => {
      let num = 0;
      let isInt = false;
      if (argNum < a.length) {
        const arg = a[argNum];
        let n: bigint | undefined;
        if (typeof arg === 'bigint') n = arg;
        else if (arg instanceof TypedInt) n = arg.v;
        if (n !== undefined) {
          num = Number(n);
          isInt = true;
          if (num > 1e6 || num < -1e6) {
            num = 0;
            isInt = false;
          }
        }
        argNum++;
      }
      return { num, isInt };
    };

    for (let i = 0; i < end; ) {
      goodArgNum = true;
      const lasti = i;
      while (i < end && format[i] !== '%') i++;
      if (i > lasti) this.buf += format.slice(lasti, i);
      if (i >= end) break;
      i++;
      this.clearFlags();
      let simple = false;
      for (; i < end; i++) {
        const c = format[i]!;
        if (c === '#') this.sharp = true;
        else if (c === '0') this.zero = !this.minus;
        else if (c === '+') this.plus = true;
        else if (c === '-') {
          this.minus = true;
          this.zero = false;
        } else if (c === ' ') this.space = true;
        else {
          if (c >= 'a' && c <= 'z' && argNum < a.length) {
            if (c === 'v') {
              this.sharpV = this.sharp;
              this.sharp = false;
              this.plusV = this.plus;
              this.plus = false;
            }
            this.printArg(a[argNum], c);
            argNum++;
            i++;
            simple = true;
          }
          break;
        }
      }
      if (simple) continue;

      let r = argNumber(i);
      i = r.i;
      afterIndex = r.found;

      if (i < end && format[i] === '*') {
        i++;
        const w = intFromArg();
        this.wid = w.num;
        this.widPresent = w.isInt;
        if (!this.widPresent) this.buf += '%!(BADWIDTH)';
        if (this.wid < 0) {
          this.wid = -this.wid;
          this.minus = true;
          this.zero = false;
        }
        afterIndex = false;
      } else {
        const pn = parsenum(format, i, end);
        this.wid = pn.num;
        this.widPresent = pn.ok;
        i = pn.next;
        if (afterIndex && this.widPresent) goodArgNum = false;
      }

      if (i + 1 < end && format[i] === '.') {
        i++;
        if (afterIndex) goodArgNum = false;
        r = argNumber(i);
        i = r.i;
        afterIndex = r.found;
        if (i < end && format[i] === '*') {
          i++;
          const p = intFromArg();
          this.prec = p.num;
          this.precPresent = p.isInt;
          if (this.prec < 0) {
            this.prec = 0;
            this.precPresent = false;
          }
          if (!this.precPresent) this.buf += '%!(BADPREC)';
          afterIndex = false;
        } else {
          const pn = parsenum(format, i, end);
          this.prec = pn.num;
          this.precPresent = pn.ok;
          i = pn.next;
          if (!this.precPresent) {
            this.prec = 0;
            this.precPresent = true;
          }
        }
      }

      if (!afterIndex) {
        r = argNumber(i);
        i = r.i;
        afterIndex = r.found;
      }

      if (i >= end) {
        this.buf += '%!(NOVERB)';
        break;
      }
      const cp = format.codePointAt(i)!;
      const verb = String.fromCodePoint(cp);
      i += verb.length;

      if (verb === '%') {
        this.buf += '%';
      } else if (!goodArgNum) {
        this.buf += '%!' + verb + '(BADINDEX)';
      } else if (argNum >= a.length) {
        this.buf += '%!' + verb + '(MISSING)';
      } else {
        if (verb === 'v') {
          this.sharpV = this.sharp;
          this.sharp = false;
          this.plusV = this.plus;
          this.plus = false;
        }
        this.printArg(a[argNum], verb);
        argNum++;
      }
    }
    if (!reordered && argNum < a.length) {
      this.clearFlags();
      this.buf += '%!(EXTRA ';
      for (let k = argNum; k < a.length; k++) {
        if (k > argNum) this.buf += ', ';
        const arg = a[k];
        if (arg === undefined || arg === null) this.buf += '<nil>';
        else {
          this.buf += typeName(arg) + '=';
          this.printArg(arg, 'v');
        }
      }
      this.buf += ')';
    }
  }
}

function parsenum(s: string, start: number, end: number): { num: number; ok: boolean; next: number } {
  if (start >= end) return { num: 0, ok: false, next: end };
  let num = 0;
  let ok = false;
  let i = start;
  for (; i < end && s[i]! >= '0' && s[i]! <= '9'; i++) {
    if (num > 1e6) return { num: 0, ok: false, next: end };
    num = num * 10 + (s.charCodeAt(i) - 48);
    ok = true;
  }
  return { num, ok, next: i };
}

function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: GoValue[]): string {
  const p = new Printer();
  p.doPrintf(format, args);
  return p.buf;
}

function isStringArg(v: GoValue): boolean {
  return typeof v === 'string';
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: GoValue[]): string {
  let out = '';
  let prevString = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const isString = isStringArg(arg);
    if (i > 0 && !isString && !prevString) out += ' ';
    out += formatValue(arg);
    prevString = isString;
  }
  return out;
}

/** fmt.Sprintln: always spaces, and a newline. */
export function sprintln(args: GoValue[]): string {
  let out = '';
  for (let i = 0; i < args.length; i++) {
    if (i > 0) out += ' ';
    out += formatValue(args[i]);
  }
  return out + '\n';
}

/** `%v` of one operand (fmt.Sprint(v)); nil prints `<nil>`. */
export function formatValue(v: GoValue): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return formatFloatV(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
      return '<nil>';
  }
  if (v === null) return '<nil>';
  const p = new Printer();
  p.printArg(v, 'v');
  return p.buf;
}
