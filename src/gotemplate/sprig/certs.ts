/**
 * sprig's certificate functions (genCA, genSelfSignedCert, genSignedCert and their WithKey forms,
 * buildCustomCert): X.509 v3 certificates laid out as Go's x509.CreateCertificate writes them
 * for sprig's template (CN subject, key usages, server+client auth, basic constraints, subject and
 * authority key ids, SANs), signed with node:crypto. Keys are RSA 2048 unless given.
 */
import { X509Certificate, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { FuncError } from '../errors.js';
import type { FuncDef } from '../funcs.js';
import { def } from '../funcs.js';
import type { GoValue } from '../values.js';
import { GoObject, NOT_FOUND } from '../values.js';
import { formatValue } from '../fmt.js';

/** sprig's `certificate` struct: fields Cert and Key (PEM). */
export class Certificate extends GoObject {
  readonly goType = 'sprig.certificate';
  constructor(
    readonly cert: string,
    readonly key: string,
  ) {
    super();
  }
  field(name: string): GoValue | typeof NOT_FOUND {
    if (name === 'Cert') return this.cert;
    if (name === 'Key') return this.key;
    return NOT_FOUND;
  }
  plain(): string {
    return `{${this.cert} ${this.key}}`;
  }
}

// --- DER

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  while (n > 0) {
    bytes.unshift(n & 0xff);
    n >>= 8;
  }
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), len(body.length), body]);
const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const NULL = Buffer.from([0x05, 0x00]);

function integer(v: bigint): Buffer {
  let hex = v.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  let b = Buffer.from(hex, 'hex');
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

function oid(s: string): Buffer {
  const parts = s.split('.').map(Number);
  const out = [parts[0]! * 40 + parts[1]!];
  for (const p of parts.slice(2)) {
    const stack = [p & 0x7f];
    let v = p >>> 7;
    while (v > 0) {
      stack.unshift(0x80 | (v & 0x7f));
      v >>>= 7;
    }
    out.push(...stack);
  }
  return tlv(0x06, Buffer.from(out));
}

function bitString(b: Buffer, unused = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), b]));
}

/** Go's asn1 string choice: PrintableString when every character allows it, else UTF8String. */
function dirString(s: string): Buffer {
  return /^[A-Za-z0-9 '()+,\-./:=?]*$/.test(s) ? tlv(0x13, Buffer.from(s, 'latin1')) : tlv(0x0c, Buffer.from(s, 'utf8'));
}

function time(d: Date): Buffer {
  const y = d.getUTCFullYear();
  const p = (n: number): string => String(n).padStart(2, '0');
  const rest = p(d.getUTCMonth() + 1) + p(d.getUTCDate()) + p(d.getUTCHours()) + p(d.getUTCMinutes()) + p(d.getUTCSeconds()) + 'Z';
  if (y >= 1950 && y < 2050) return tlv(0x17, Buffer.from(p(y % 100) + rest, 'latin1'));
  return tlv(0x18, Buffer.from(String(y).padStart(4, '0') + rest, 'latin1'));
}

function name(cn: string): Buffer {
  return cn === '' ? seq() : seq(set(seq(oid('2.5.4.3'), dirString(cn))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

// --- keys

function algorithmFor(key: KeyObject): { alg: Buffer; hash: string | null } {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return { alg: seq(oid('1.2.840.113549.1.1.11'), NULL), hash: 'sha256' };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === 'secp384r1') return { alg: seq(oid('1.2.840.10045.4.3.3')), hash: 'sha384' };
      if (curve === 'secp521r1') return { alg: seq(oid('1.2.840.10045.4.3.4')), hash: 'sha512' };
      return { alg: seq(oid('1.2.840.10045.4.3.2')), hash: 'sha256' };
    }
    case 'ed25519':
      return { alg: seq(oid('1.3.101.112')), hash: null };
  }
  throw new FuncError(`x509: unsupported key type ${key.asymmetricKeyType ?? 'unknown'}`);
}

function keyPem(key: KeyObject): string {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return key.export({ type: 'pkcs1', format: 'pem' }).toString();
    case 'ec':
      return key.export({ type: 'sec1', format: 'pem' }).toString();
    default:
      return key.export({ type: 'pkcs8', format: 'pem' }).toString();
  }
}

function parseKey(pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw new FuncError('parsing private key: no PEM data found');
  }
}

/** The SubjectPublicKeyInfo and the SHA-1 of its key bits (Go's generated subject key id). */
function publicKeyInfo(key: KeyObject): { spki: Buffer; keyId: Buffer } {
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  // The key bits are the BIT STRING, the last element of the SPKI SEQUENCE.
  const bits = lastBitString(spki);
  return { spki, keyId: createHash('sha1').update(bits).digest() };
}

function readLen(b: Buffer, at: number): { len: number; next: number } {
  const first = b[at]!;
  if (first < 0x80) return { len: first, next: at + 1 };
  const n = first & 0x7f;
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + b[at + 1 + i]!;
  return { len: v, next: at + 1 + n };
}

function lastBitString(spki: Buffer): Buffer {
  const outer = readLen(spki, 1);
  let at = outer.next;
  // AlgorithmIdentifier
  const alg = readLen(spki, at + 1);
  at = alg.next + alg.len;
  const bs = readLen(spki, at + 1);
  return spki.subarray(bs.next + 1, bs.next + bs.len);
}

// --- certificates

interface Template {
  cn: string;
  ips: string[];
  dns: string[];
  days: number;
  isCA: boolean;
}

function netIps(ips: GoValue): string[] {
  if (ips === null || ips === undefined) return [];
  return (ips as GoValue[]).map((ip) => {
    if (typeof ip !== 'string') throw new FuncError(`error parsing ip: ${formatValue(ip)} is not a string`);
    if (isIP(ip) === 0) throw new FuncError(`error parsing ip: ${ip}`);
    return ip;
  });
}

function dnsNames(dns: GoValue): string[] {
  if (dns === null || dns === undefined) return [];
  return (dns as GoValue[]).map((d) => {
    if (typeof d !== 'string') throw new FuncError(`error processing alternate dns name: ${formatValue(d)} is not a string`);
    return d;
  });
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  // IPv6 (IPv4-mapped addresses are written as 4 bytes, as Go does).
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return Buffer.from(mapped[1]!.split('.').map(Number));
  const [head = '', tail = ''] = ip.split('::');
  const h = head === '' ? [] : head.split(':');
  const t = ip.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return Buffer.from(groups.map((g) => g.padStart(4, '0')).join(''), 'hex');
}

function createCertificate(t: Template, subjectKey: KeyObject, signer: { name: Buffer; key: KeyObject; keyId: Buffer | undefined }): string {
  const serial = BigInt('0x' + randomBytes(16).toString('hex'));
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const notAfter = new Date(now.getTime() + t.days * 86400000);
  const { spki, keyId } = publicKeyInfo(subjectKey);
  const subject = name(t.cn);
  const { alg, hash } = algorithmFor(signer.key);

  const exts: Buffer[] = [];
  // KeyUsage: digitalSignature | keyEncipherment (| keyCertSign for a CA), bits reversed in the byte.
  const ku = t.isCA ? 0b10100100 : 0b10100000;
  exts.push(extension('2.5.29.15', true, bitString(Buffer.from([ku]), t.isCA ? 2 : 5)));
  exts.push(extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2'))));
  exts.push(extension('2.5.29.19', true, t.isCA ? seq(bool(true)) : seq()));
  if (t.isCA) exts.push(extension('2.5.29.14', false, octets(keyId)));
  const selfSigned = signer.name.equals(subject);
  if (signer.keyId && !selfSigned) exts.push(extension('2.5.29.35', false, seq(tlv(0x80, signer.keyId))));
  if (t.dns.length > 0 || t.ips.length > 0) {
    const names = [...t.dns.map((d) => tlv(0x82, Buffer.from(d, 'latin1'))), ...t.ips.map((ip) => tlv(0x87, ipBytes(ip)))];
    exts.push(extension('2.5.29.17', t.cn === '', seq(...names)));
  }

  const tbs = seq(
    tlv(0xa0, integer(2n)),
    integer(serial),
    alg,
    signer.name,
    seq(time(now), time(notAfter)),
    subject,
    spki,
    tlv(0xa3, seq(...exts)),
  );
  const signature = sign(hash, tbs, signer.key);
  const der = seq(tbs, alg, bitString(signature));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`;
}

function newRsaKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

function genCA(cn: string, days: bigint, key = newRsaKey()): Certificate {
  const t: Template = { cn, ips: [], dns: [], days: Number(days), isCA: true };
  const cert = createCertificate(t, key, { name: name(cn), key, keyId: undefined });
  return new Certificate(cert, keyPem(key));
}

function genSelfSigned(cn: string, ips: GoValue, dns: GoValue, days: bigint, key = newRsaKey()): Certificate {
  const t: Template = { cn, ips: netIps(ips), dns: dnsNames(dns), days: Number(days), isCA: false };
  const cert = createCertificate(t, key, { name: name(cn), key, keyId: undefined });
  return new Certificate(cert, keyPem(key));
}

function parseCaCert(ca: Certificate): { name: Buffer; keyId: Buffer | undefined } {
  let x: X509Certificate;
  try {
    x = new X509Certificate(ca.cert);
  } catch (e) {
    throw new FuncError(`error parsing certificate: decodedSignerCert.Bytes: ${(e as Error).message}`);
  }
  // The issuer of the new certificate is the CA's subject exactly as the CA's certificate has it.
  const fields = children(children(x.raw)[0]!);
  const offset = fields[0]![0] === 0xa0 ? 1 : 0; // [version], serial, signature, issuer, validity, subject
  return { name: fields[offset + 4]!, keyId: subjectKeyIdOf(fields) };
}

/** The DER children of a constructed value. */
function children(der: Buffer): Buffer[] {
  const out: Buffer[] = [];
  const { len: total, next } = readLen(der, 1);
  let at = next;
  const end = next + total;
  while (at < end) {
    const l = readLen(der, at + 1);
    out.push(der.subarray(at, l.next + l.len));
    at = l.next + l.len;
  }
  return out;
}

/** The contents of a primitive DER value. */
function contents(der: Buffer): Buffer {
  const l = readLen(der, 1);
  return der.subarray(l.next, l.next + l.len);
}

function subjectKeyIdOf(tbsFields: Buffer[]): Buffer | undefined {
  const exts = tbsFields.find((f) => f[0] === 0xa3);
  if (!exts) return undefined;
  const skiOid = oid('2.5.29.14');
  for (const ext of children(children(exts)[0]!)) {
    const parts = children(ext);
    if (parts[0]!.equals(skiOid)) return contents(contents(parts[parts.length - 1]!));
  }
  return undefined;
}

function genSigned(cn: string, ips: GoValue, dns: GoValue, days: bigint, ca: Certificate, key = newRsaKey()): Certificate {
  const signer = parseCaCert(ca);
  const signerKey = parseKey(ca.key);
  const t: Template = { cn, ips: netIps(ips), dns: dnsNames(dns), days: Number(days), isCA: false };
  const cert = createCertificate(t, key, { name: signer.name, key: signerKey, keyId: signer.keyId });
  return new Certificate(cert, keyPem(key));
}

function buildCustomCert(b64cert: string, b64key: string): Certificate {
  const cert = Buffer.from(b64cert, 'base64').toString('utf8');
  const key = Buffer.from(b64key, 'base64').toString('utf8');
  if (!/-----BEGIN [^-]+-----/.test(cert)) throw new FuncError('unable to decode certificate');
  try {
    new X509Certificate(cert);
  } catch (e) {
    throw new FuncError(`error parsing certificate: decodedCert.Bytes: ${(e as Error).message}`);
  }
  try {
    createPrivateKey(key);
  } catch (e) {
    throw new FuncError(`error parsing private key: ${(e as Error).message}`);
  }
  return new Certificate(cert, key);
}

export function certFuncs(): [string, FuncDef][] {
  return [
    ['genCA', def(['string', 'int'], ((cn: string, days: bigint) => genCA(cn, days)) as never)],
    ['genCAWithKey', def(['string', 'int', 'string'], ((cn: string, days: bigint, pem: string) => genCA(cn, days, parseKey(pem))) as never)],
    [
      'genSelfSignedCert',
      def(['string', 'list', 'list', 'int'], ((cn: string, ips: GoValue, dns: GoValue, days: bigint) => genSelfSigned(cn, ips, dns, days)) as never),
    ],
    [
      'genSelfSignedCertWithKey',
      def(['string', 'list', 'list', 'int', 'string'], ((cn: string, ips: GoValue, dns: GoValue, days: bigint, pem: string) =>
        genSelfSigned(cn, ips, dns, days, parseKey(pem))) as never),
    ],
    [
      'genSignedCert',
      def(['string', 'list', 'list', 'int', 'certificate'], ((cn: string, ips: GoValue, dns: GoValue, days: bigint, ca: Certificate) =>
        genSigned(cn, ips, dns, days, ca)) as never),
    ],
    [
      'genSignedCertWithKey',
      def(['string', 'list', 'list', 'int', 'certificate', 'string'], ((cn: string, ips: GoValue, dns: GoValue, days: bigint, ca: Certificate, pem: string) =>
        genSigned(cn, ips, dns, days, ca, parseKey(pem))) as never),
    ],
    ['buildCustomCert', def(['string', 'string'], buildCustomCert as never)],
  ];
}

function bigOf(intDer: Buffer): bigint {
  return BigInt('0x' + (contents(intDer).toString('hex') || '0'));
}

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  base %= mod;
  while (exp > 0n) {
    if (exp & 1n) result = (result * base) % mod;
    base = (base * base) % mod;
    exp >>= 1n;
  }
  return result;
}

/** A DSA key (L=2048, N=256) as Go's "DSA PRIVATE KEY" block: SEQUENCE {0, p, q, g, y, x}. */
export function dsaPrivateKeyPem(): string {
  const { privateKey } = generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 });
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  const [, algId, keyOctets] = children(pkcs8) as [Buffer, Buffer, Buffer];
  const [p, q, g] = children(children(algId)[1]!).map(bigOf) as [bigint, bigint, bigint];
  const x = bigOf(contents(keyOctets));
  const y = modPow(g, x, p);
  const der = seq(integer(0n), integer(p), integer(q), integer(g), integer(y), integer(x));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN DSA PRIVATE KEY-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END DSA PRIVATE KEY-----\n`;
}
