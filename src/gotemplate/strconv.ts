/**
 * Go's strconv for what templates need: FormatFloat ('e', 'f', 'g' with shortest or fixed
 * precision, exactly as Go rounds), Quote, and integer parsing with Go literal syntax.
 */

/** Decimal digits of |v|: value = 0.d1d2d3… × 10^dp. `d` has no leading zeros; empty for 0. */
interface Digits {
  d: string;
  dp: number;
}

/** Shortest digits that round-trip (JavaScript and Go both produce the shortest, closest string). */
function shortestDigits(v: number): Digits {
  if (v === 0) return { d: '', dp: 0 };
  const s = Math.abs(v).toExponential(); // "d.ddde+x"
  const e = s.indexOf('e');
  const mant = s.slice(0, e).replace('.', '');
  const exp = Number(s.slice(e + 1));
  const d = mant.replace(/0+$/, '');
  return { d, dp: exp + 1 };
}

/** Exact decimal expansion of |v| (every double is a finite decimal). */
function exactDigits(v: number): Digits {
  if (v === 0) return { d: '', dp: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(v));
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp2: number;
  if (expBits === 0) {
    exp2 = -1074;
  } else {
    mant |= 1n << 52n;
    exp2 = expBits - 1075;
  }
  let digits: string;
  let dp: number;
  if (exp2 >= 0) {
    digits = (mant << BigInt(exp2)).toString();
    dp = digits.length;
  } else {
    // mant / 2^-exp2 = mant * 5^-exp2 / 10^-exp2
    const n = -exp2;
    digits = (mant * 5n ** BigInt(n)).toString();
    dp = digits.length - n;
  }
  digits = digits.replace(/0+$/, '');
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead);
  dp -= lead;
  return { d: digits, dp };
}

/** Rounds to `nd` digits, half to even on the exact value (Go's decimal.Round). */
function roundDigits(x: Digits, nd: number): Digits {
  if (nd < 0 || nd >= x.d.length) return x;
  const next = x.d.charCodeAt(nd) - 48;
  let up: boolean;
  if (next > 5) up = true;
  else if (next < 5) up = false;
  else {
    // Exactly 5 followed by nothing means halfway: round to even.
    if (nd + 1 < x.d.length) up = true;
    else up = nd > 0 && (x.d.charCodeAt(nd - 1) - 48) % 2 === 1;
  }
  let d = x.d.slice(0, nd);
  let dp = x.dp;
  if (up) {
    let i = nd - 1;
    const arr = d.split('');
    while (i >= 0 && arr[i] === '9') {
      arr[i] = '0';
      i--;
    }
    if (i < 0) {
      arr.unshift('1');
      arr.length = nd; // keep nd digits (a trailing 0 dropped below)
      dp++;
      if (nd === 0) {
        return { d: '1', dp };
      }
    } else {
      arr[i] = String.fromCharCode(arr[i]!.charCodeAt(0) + 1);
    }
    d = arr.join('');
  }
  d = d.replace(/0+$/, '');
  if (d === '') dp = 0;
  return { d, dp };
}

function fmtE(neg: boolean, x: Digits, prec: number, ch: string): string {
  let out = neg ? '-' : '';
  out += x.d.length > 0 ? x.d[0] : '0';
  if (prec > 0) {
    out += '.';
    let i = 1;
    const m = Math.min(x.d.length, prec + 1);
    if (i < m) {
      out += x.d.slice(i, m);
      i = m;
    }
    for (; i <= prec; i++) out += '0';
  }
  out += ch;
  let exp = x.d.length === 0 ? 0 : x.dp - 1;
  if (exp < 0) {
    out += '-';
    exp = -exp;
  } else out += '+';
  out += exp < 10 ? '0' + exp : String(exp);
  return out;
}

function fmtF(neg: boolean, x: Digits, prec: number): string {
  let out = neg ? '-' : '';
  if (x.dp > 0) {
    const m = Math.min(x.d.length, x.dp);
    out += x.d.slice(0, m);
    for (let k = m; k < x.dp; k++) out += '0';
  } else out += '0';
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) {
      const j = x.dp + i - 1;
      out += j >= 0 && j < x.d.length ? x.d[j] : '0';
    }
  }
  return out;
}

/** strconv.FormatFloat(v, fmt, prec, 64) for fmt in e E f g G (prec -1 = shortest). */
export function formatFloat(v: number, fmt: string, prec: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  const neg = v < 0 || Object.is(v, -0);
  const shortest = prec < 0;
  let x: Digits;
  if (shortest) {
    x = shortestDigits(v);
    switch (fmt) {
      case 'e':
      case 'E':
        prec = Math.max(x.d.length - 1, 0);
        break;
      case 'f':
        prec = Math.max(x.d.length - x.dp, 0);
        break;
      case 'g':
      case 'G':
        prec = x.d.length;
        break;
    }
  } else {
    x = exactDigits(v);
    switch (fmt) {
      case 'e':
      case 'E':
        x = roundDigits(x, 1 + prec);
        break;
      case 'f':
        x = roundDigits(x, x.dp + prec);
        break;
      case 'g':
      case 'G':
        if (prec === 0) prec = 1;
        x = roundDigits(x, prec);
        break;
    }
  }
  switch (fmt) {
    case 'e':
    case 'E':
      return fmtE(neg, x, prec, fmt);
    case 'f':
      return fmtF(neg, x, prec);
    case 'g':
    case 'G': {
      let eprec = prec;
      if (eprec > x.d.length && x.d.length >= x.dp) eprec = x.d.length;
      if (shortest) eprec = 6;
      const exp = x.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (prec > x.d.length) prec = x.d.length;
        return fmtE(neg, x, prec - 1, fmt === 'g' ? 'e' : 'E');
      }
      if (prec > x.dp) prec = x.d.length;
      return fmtF(neg, x, Math.max(prec - x.dp, 0));
    }
  }
  return fmtE(neg, x, prec, 'e');
}

/** `%v` of a float64 (Go switches to exponent form below 1e-4 and from 1e+06). */
export function formatFloatV(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e-4 && a < 1e6) return String(v);
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  return formatFloat(v, 'g', -1);
}

// ---------------------------------------------------------------------------------------------
// Quoting

const printRe = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** unicode.IsPrint (letters, marks, numbers, punctuation, symbols and the ASCII space). */
export function isPrint(cp: number): boolean {
  if (cp < 0x7f) return cp >= 0x20;
  if (cp < 0xa1) return false;
  return printRe.test(String.fromCodePoint(cp));
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** strconv.Quote (ASCIIonly: QuoteToASCII). */
export function quote(s: string, asciiOnly = false, q = '"'): string {
  let out = q;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === q || ch === '\\') {
      out += '\\' + ch;
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += '\uFFFD';
      continue;
    }
    if (asciiOnly ? cp < 0x7f && isPrint(cp) : isPrint(cp)) {
      out += ch;
      continue;
    }
    switch (ch) {
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2);
    else if (cp < 0x10000) out += '\\u' + hex(cp, 4);
    else out += '\\U' + hex(cp, 8);
  }
  return out + q;
}

/** strconv.QuoteRune. */
export function quoteRune(cp: number, asciiOnly = false): string {
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) cp = 0xfffd;
  const ch = String.fromCodePoint(cp);
  if (ch === '"') return `'"'`;
  return quote(ch, asciiOnly, "'");
}

/** strconv.CanBackquote. */
export function canBackquote(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '`' || cp === 0xfeff) return false;
    if (cp < 0x20 && ch !== '\t') return false;
    if (cp === 0x7f) return false;
  }
  return true;
}

/** strconv.Unquote for Go string literals ("…", `…`, '…'). Returns undefined on bad syntax. */
export function unquote(lit: string): string | undefined {
  if (lit.length < 2) return undefined;
  const q = lit[0];
  if (q !== lit[lit.length - 1]) return undefined;
  const body = lit.slice(1, -1);
  if (q === '`') return body.includes('`') ? undefined : body.replace(/\r/g, '');
  if (q !== '"' && q !== "'") return undefined;
  let out = '';
  let bytes: number[] | undefined;
  const flush = (): void => {
    if (bytes) {
      out += Buffer.from(bytes).toString('utf8');
      bytes = undefined;
    }
  };
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c === q) return undefined;
    if (c === '\n') return undefined;
    if (c !== '\\') {
      flush();
      const cp = body.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out += ch;
      i += ch.length;
      continue;
    }
    const e = body[i + 1];
    i += 2;
    switch (e) {
      case 'a':
        flush();
        out += '\x07';
        break;
      case 'b':
        flush();
        out += '\b';
        break;
      case 'f':
        flush();
        out += '\f';
        break;
      case 'n':
        flush();
        out += '\n';
        break;
      case 'r':
        flush();
        out += '\r';
        break;
      case 't':
        flush();
        out += '\t';
        break;
      case 'v':
        flush();
        out += '\v';
        break;
      case '\\':
        flush();
        out += '\\';
        break;
      case '"':
      case "'":
        if (e !== q) return undefined;
        flush();
        out += e;
        break;
      case 'x': {
        const h = body.slice(i, i + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(h)) return undefined;
        (bytes ??= []).push(parseInt(h, 16));
        i += 2;
        break;
      }
      case 'u':
      case 'U': {
        const n = e === 'u' ? 4 : 8;
        const h = body.slice(i, i + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) return undefined;
        const cp = parseInt(h, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
        flush();
        out += String.fromCodePoint(cp);
        i += n;
        break;
      }
      default: {
        if (e !== undefined && e >= '0' && e <= '7') {
          const o = body.slice(i - 1, i + 2);
          if (!/^[0-7]{3}$/.test(o)) return undefined;
          const v = parseInt(o, 8);
          if (v > 255) return undefined;
          (bytes ??= []).push(v);
          i += 2;
          break;
        }
        return undefined;
      }
    }
  }
  flush();
  if (q === "'" && [...out].length !== 1) return undefined;
  return out;
}

/** Removes Go digit-separating underscores, checking they sit between digits (or after a base prefix). */
function stripUnderscores(s: string): string | undefined {
  if (!s.includes('_')) return s;
  let body = s;
  let prefix = '';
  if (/^[+-]/.test(body)) {
    prefix = body[0]!;
    body = body.slice(1);
  }
  let base = '';
  if (/^0[xXbBoO]/.test(body)) {
    base = body.slice(0, 2);
    body = body.slice(2);
    if (body.startsWith('_')) body = body.slice(1);
  }
  if (/(^_)|(_$)|(__)|(_[.eEpP])|([.eEpP]_)/.test(body)) {
    // "0_0_1_2_3.4" is accepted: underscores only between digits.
    return undefined;
  }
  return prefix + base + body.replace(/_/g, '');
}

/** strconv.ParseInt(s, 0, 64) / ParseUint: Go integer literal syntax. Returns undefined when not an integer literal. */
export function parseGoInt(text: string): bigint | undefined {
  const s = stripUnderscores(text);
  if (s === undefined) return undefined;
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1n : 1n;
  let body = m[2]!;
  let v: bigint;
  if (/^0[oO]/.test(body)) v = BigInt('0o' + body.slice(2));
  else if (/^0[0-7]+$/.test(body)) v = BigInt('0o' + body.slice(1));
  else {
    if (/^0[XBO]/.test(body)) body = '0' + body[1]!.toLowerCase() + body.slice(2);
    v = BigInt(body);
  }
  return sign * v;
}

/** strconv.ParseFloat(s, 64) with Go literal syntax (underscores, hex floats). */
export function parseGoFloat(text: string): number | undefined {
  const s = stripUnderscores(text);
  if (s === undefined) return undefined;
  if (/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/.test(s)) {
    const f = Number(s);
    // Go's ParseFloat reports a value out of range as an error.
    return Number.isFinite(f) ? f : undefined;
  }
  const h = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(s);
  if (h) {
    const intPart = h[2] ?? '';
    const frac = h[3] ?? '';
    if (intPart === '' && frac === '') return undefined;
    const mant = parseInt(intPart + frac || '0', 16);
    const v = mant * Math.pow(2, Number(h[4]) - 4 * frac.length);
    return h[1] === '-' ? -v : v;
  }
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return undefined;
}
