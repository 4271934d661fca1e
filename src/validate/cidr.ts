/** IPv4/IPv6 addresses and CIDR blocks as big integers: parsing, containment and overlap. */

export interface Address {
  family: 4 | 6;
  value: bigint;
}

export interface Cidr extends Address {
  prefix: number;
}

export function parseIp(text: string): Address | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) {
    const parts = text.split('.').map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return { family: 4, value: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  }
  if (!text.includes(':') || !/^[0-9A-Fa-f:]+$/.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0 || (halves.length === 2 && missing < 1)) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g))) return undefined;
  return { family: 6, value: groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n) };
}

export function parseCidr(text: string): Cidr | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const ip = parseIp(m[1]!);
  const prefix = Number(m[2]);
  if (!ip || prefix > (ip.family === 4 ? 32 : 128)) return undefined;
  return { ...ip, prefix };
}

function bits(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

/** The first address of the block (host bits cleared). */
export function networkOf(c: Cidr): bigint {
  const host = BigInt(bits(c.family) - c.prefix);
  return (c.value >> host) << host;
}

export function cidrContains(c: Cidr, ip: Address): boolean {
  if (c.family !== ip.family) return false;
  const host = BigInt(bits(c.family) - c.prefix);
  return c.value >> host === ip.value >> host;
}

export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  if (a.family !== b.family) return false;
  const prefix = Math.min(a.prefix, b.prefix);
  const host = BigInt(bits(a.family) - prefix);
  return a.value >> host === b.value >> host;
}
