/**
 * bcrypt (golang.org/x/crypto/bcrypt GenerateFromPassword, cost 10, `$2a$`), for sprig's `bcrypt`
 * and `htpasswd`. Blowfish's initial P-array and S-boxes are the hexadecimal digits of π; they are
 * computed once, on first use, instead of being carried as a 4 KB table.
 */
import { randomBytes } from 'node:crypto';
import { FuncError } from '../errors.js';

const WORDS = 18 + 4 * 256;

let initial: Uint32Array | undefined;

/** The first 1042 32-bit words of π's fractional part (Machin's formula on BigInt fixed point). */
function piWords(): Uint32Array {
  if (initial) return initial;
  const bits = BigInt(WORDS * 32 + 64);
  const one = 1n << bits;
  const atanInv = (x: bigint): bigint => {
    const x2 = x * x;
    let term = one / x;
    let sum = term;
    for (let k = 1n; term !== 0n; k++) {
      term /= x2;
      const t = term / (2n * k + 1n);
      sum = k % 2n === 1n ? sum - t : sum + t;
    }
    return sum;
  };
  const pi = 16n * atanInv(5n) - 4n * atanInv(239n);
  const frac = (pi - 3n * one) >> 64n;
  const out = new Uint32Array(WORDS);
  for (let i = 0; i < WORDS; i++) out[i] = Number((frac >> BigInt((WORDS - 1 - i) * 32)) & 0xffffffffn);
  initial = out;
  return out;
}

class Blowfish {
  readonly p: Uint32Array;
  readonly s0: Uint32Array;
  readonly s1: Uint32Array;
  readonly s2: Uint32Array;
  readonly s3: Uint32Array;
  private l = 0;
  private r = 0;

  constructor() {
    const w = piWords();
    this.p = w.slice(0, 18);
    this.s0 = w.slice(18, 18 + 256);
    this.s1 = w.slice(18 + 256, 18 + 512);
    this.s2 = w.slice(18 + 512, 18 + 768);
    this.s3 = w.slice(18 + 768, 18 + 1024);
  }

  /** Encrypts (l, r) in place in this.l / this.r. */
  encrypt(l: number, r: number): void {
    const { p, s0, s1, s2, s3 } = this;
    let xl = l ^ p[0]!;
    let xr = r;
    for (let i = 1; i <= 16; i += 2) {
      xr ^= ((((s0[xl >>> 24]! + s1[(xl >>> 16) & 0xff]!) | 0) ^ s2[(xl >>> 8) & 0xff]!) + s3[xl & 0xff]!) ^ p[i]!;
      xl ^= ((((s0[xr >>> 24]! + s1[(xr >>> 16) & 0xff]!) | 0) ^ s2[(xr >>> 8) & 0xff]!) + s3[xr & 0xff]!) ^ p[i + 1]!;
    }
    xr ^= p[17]!;
    this.l = xr >>> 0;
    this.r = xl >>> 0;
  }

  expand(key: Uint8Array, salt: Uint8Array | undefined): void {
    let j = 0;
    const next = (b: Uint8Array): number => {
      let w = 0;
      for (let i = 0; i < 4; i++) {
        w = (w << 8) | b[j % b.length]!;
        j++;
      }
      return w >>> 0;
    };
    for (let i = 0; i < 18; i++) this.p[i] = (this.p[i]! ^ next(key)) >>> 0;
    j = 0;
    let l = 0;
    let r = 0;
    const fill = (arr: Uint32Array): void => {
      for (let i = 0; i < arr.length; i += 2) {
        if (salt) {
          l ^= next(salt);
          r ^= next(salt);
        }
        this.encrypt(l, r);
        l = this.l;
        r = this.r;
        arr[i] = l;
        arr[i + 1] = r;
      }
    };
    fill(this.p);
    fill(this.s0);
    fill(this.s1);
    fill(this.s2);
    fill(this.s3);
  }
}

const B64 = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!;
    const b1 = bytes[i + 1] ?? 0;
    const b2 = bytes[i + 2] ?? 0;
    out += B64[b0 >> 2]! + B64[((b0 & 3) << 4) | (b1 >> 4)]!;
    if (i + 1 < bytes.length) out += B64[((b1 & 15) << 2) | (b2 >> 6)]!;
    if (i + 2 < bytes.length) out += B64[b2 & 63]!;
  }
  return out;
}

/** bcrypt of a password with a given raw 16-byte salt and cost. */
export function bcryptHash(password: string, cost: number, salt: Uint8Array): string {
  const pw = Buffer.from(password, 'utf8');
  if (pw.length > 72) throw new FuncError('bcrypt: password length exceeds 72 bytes');
  // Like the C implementations, the key includes its terminating NUL.
  const key = new Uint8Array(pw.length + 1);
  key.set(pw);
  const c = new Blowfish();
  c.expand(key, salt);
  const rounds = 1 << cost;
  for (let i = 0; i < rounds; i++) {
    c.expand(key, undefined);
    c.expand(salt, undefined);
  }
  const data = Buffer.from('OrpheanBeholderScryDoubt', 'latin1');
  const words = new Uint32Array(6);
  for (let i = 0; i < 6; i++) words[i] = data.readUInt32BE(i * 4);
  for (let i = 0; i < 6; i += 2) {
    let l = words[i]!;
    let r = words[i + 1]!;
    for (let k = 0; k < 64; k++) {
      c.encrypt(l, r);
      l = (c as unknown as { l: number }).l;
      r = (c as unknown as { r: number }).r;
    }
    words[i] = l;
    words[i + 1] = r;
  }
  const out = Buffer.alloc(24);
  for (let i = 0; i < 6; i++) out.writeUInt32BE(words[i]!, i * 4);
  // Only 23 of the 24 bytes are encoded, for compatibility with the C implementation.
  return `$2a$${String(cost).padStart(2, '0')}$${encode(salt)}${encode(out.subarray(0, 23))}`;
}

/** sprig's bcrypt: GenerateFromPassword with the default cost 10 and a random salt. */
export function bcrypt(password: string): string {
  return bcryptHash(password, 10, randomBytes(16));
}

function decode(s: string): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of s) {
    const v = B64.indexOf(ch);
    if (v < 0) throw new FuncError('bcrypt: invalid base64 character');
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** Whether `hash` (`$2a$`/`$2b$`/`$2y$`) is the bcrypt of `password`. */
export function bcryptVerify(password: string, hash: string): boolean {
  const m = /^\$2[aby]?\$(\d\d)\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/.exec(hash);
  if (!m) return false;
  const again = bcryptHash(password, Number(m[1]), decode(m[2]!));
  return again.slice(7) === hash.slice(7);
}
