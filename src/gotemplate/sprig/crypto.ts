/**
 * sprig's hashing, encryption and random functions (crypto.go). Random values come from the
 * operating system's cryptographic generator, as in sprig.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, generateKeyPairSync, randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { FuncError } from '../errors.js';
import type { FuncDef } from '../funcs.js';
import { def } from '../funcs.js';
import type { TypedInt } from '../values.js';
import { bcrypt } from './bcrypt.js';
import { certFuncs, dsaPrivateKeyPem } from './certs.js';

function adler32(s: string): number {
  let a = 1;
  let b = 0;
  for (const byte of Buffer.from(s, 'utf8')) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function aesKey(password: string): Buffer {
  const key = Buffer.alloc(32);
  Buffer.from(password, 'utf8').copy(key, 0, 0, 32);
  return key;
}

function encryptAES(password: string, plaintext: string): string {
  if (plaintext === '') return '';
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', aesKey(password), iv);
  const body = Buffer.concat([cipher.update(Buffer.from(plaintext, 'utf8')), cipher.final()]);
  return Buffer.concat([iv, body]).toString('base64');
}

function decryptAES(password: string, crypt64: string): string {
  if (crypt64 === '') return '';
  const crypt = Buffer.from(crypt64, 'base64');
  if (crypt.length < 16 || (crypt.length - 16) % 16 !== 0) throw new FuncError('crypto/cipher: input not full blocks');
  const decipher = createDecipheriv('aes-256-cbc', aesKey(password), crypt.subarray(0, 16));
  decipher.setAutoPadding(false);
  const out = Buffer.concat([decipher.update(crypt.subarray(16)), decipher.final()]);
  const padLen = out[out.length - 1] ?? 0;
  return out.subarray(0, out.length - padLen).toString('utf8');
}

const masterPasswordSeed = 'com.lyndir.masterpassword';
const passwordTypeTemplates: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: [
    'CvcvnoCvcvCvcv', 'CvcvCvcvnoCvcv', 'CvcvCvcvCvcvno', 'CvccnoCvcvCvcv', 'CvccCvcvnoCvcv', 'CvccCvcvCvcvno', 'CvcvnoCvccCvcv',
    'CvcvCvccnoCvcv', 'CvcvCvccCvcvno', 'CvcvnoCvcvCvcc', 'CvcvCvcvnoCvcc', 'CvcvCvcvCvccno', 'CvccnoCvccCvcv', 'CvccCvccnoCvcv',
    'CvccCvccCvcvno', 'CvcvnoCvccCvcc', 'CvcvCvccnoCvcc', 'CvcvCvccCvccno', 'CvccnoCvcvCvcc', 'CvccCvcvnoCvcc', 'CvccCvcvCvccno',
  ],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};
const templateCharacters: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: "@&%?,=[]_:-+*$#!'^~;()/.",
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** The Master Password algorithm, as sprig implements it. */
function derivePassword(counter: TypedInt, passwordType: string, password: string, user: string, site: string): string {
  const templates = passwordTypeTemplates[passwordType];
  if (!templates) return `cannot find password template ${passwordType}`;
  const seed = Buffer.from(masterPasswordSeed);
  const userB = Buffer.from(user, 'utf8');
  const salt = Buffer.concat([seed, u32(userB.length), userB]);
  const key = scryptSync(Buffer.from(password, 'utf8'), salt, 64, { N: 32768, r: 8, p: 2, maxmem: 256 * 1024 * 1024 });
  const siteB = Buffer.from(site, 'utf8');
  const msg = Buffer.concat([seed, u32(siteB.length), siteB, u32(Number(counter.v))]);
  const h = createHmac('sha256', key).update(msg).digest();
  const temp = templates[h[0]! % templates.length]!;
  let out = '';
  for (let i = 0; i < temp.length; i++) {
    const chars = templateCharacters[temp[i]!]!;
    out += chars[h[i + 1]! % chars.length];
  }
  return out;
}

function genPrivateKey(typ: string): string {
  switch (typ) {
    case '':
    case 'rsa':
      return generateKeyPairSync('rsa', { modulusLength: 4096 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    case 'ecdsa':
      return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    case 'ed25519':
      return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    case 'dsa':
      return dsaPrivateKeyPem();
    default:
      return 'Unknown type ' + typ;
  }
}

/** sprig returns bcrypt's error as the text. */
function sprigBcrypt(input: string): string {
  try {
    return bcrypt(input);
  } catch (e) {
    return `failed to encrypt string with bcrypt: ${(e as Error).message}`;
  }
}


export function cryptoFuncs(): [string, FuncDef][] {
  const hash = (alg: string) => def(['string'], ((s: string) => createHash(alg).update(s, 'utf8').digest('hex')) as never);
  return [
    ['sha1sum', hash('sha1')],
    ['sha256sum', hash('sha256')],
    ['sha512sum', hash('sha512')],
    ['adler32sum', def(['string'], ((s: string) => String(adler32(s))) as never)],
    ['encryptAES', def(['string', 'string'], encryptAES as never)],
    ['decryptAES', def(['string', 'string'], decryptAES as never)],
    ['randBytes', def(['int'], ((n: bigint) => randomBytes(Number(n)).toString('base64')) as never)],
    ['uuidv4', def([], (() => randomUUID()) as never)],
    ['randInt', def(['int', 'int'], ((min: bigint, max: bigint) => {
      if (max <= min) throw new FuncError('invalid argument to Intn');
      const span = max - min;
      const r = BigInt('0x' + randomBytes(8).toString('hex')) % span;
      return r + min;
    }) as never)],
    ['derivePassword', def(['uint32', 'string', 'string', 'string', 'string'], derivePassword as never)],
    ['genPrivateKey', def(['string'], genPrivateKey as never)],
    ...certFuncs(),
    ['bcrypt', def(['string'], sprigBcrypt as never)],
    [
      'htpasswd',
      def(['string', 'string'], ((user: string, password: string) =>
        user.includes(':') ? `invalid username: ${user}` : `${user}:${sprigBcrypt(password)}`) as never),
    ],
  ];
}
