/** sprig's semver and semverCompare (Masterminds/semver v3 versions and constraints). */
import { FuncError } from '../errors.js';
import type { FuncDef } from '../funcs.js';
import { def } from '../funcs.js';
import type { GoValue } from '../values.js';
import { GoObject, NOT_FOUND, TypedInt } from '../values.js';

const versionRe =
  /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;

export class SemverVersion extends GoObject {
  readonly goType = '*semver.Version';
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string,
    readonly metadata: string,
    readonly original: string,
  ) {
    super();
  }

  static parse(v: string): SemverVersion {
    const m = versionRe.exec(v);
    if (!m) throw new FuncError('Invalid Semantic Version');
    const pre = m[5] ?? '';
    for (const id of pre === '' ? [] : pre.split('.')) {
      if (/^[0-9]+$/.test(id) && id.length > 1 && id.startsWith('0')) throw new FuncError('Version segment starts with 0');
    }
    return new SemverVersion(
      BigInt(m[1]!),
      m[2] ? BigInt(m[2].slice(1)) : 0n,
      m[3] ? BigInt(m[3].slice(1)) : 0n,
      pre,
      m[8] ?? '',
      v,
    );
  }

  override goString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre) s += '-' + this.pre;
    if (this.metadata) s += '+' + this.metadata;
    return s;
  }

  plain(): string {
    return this.goString();
  }

  field(): GoValue | typeof NOT_FOUND {
    return NOT_FOUND;
  }

  override method(name: string): { arity: number; call: (args: GoValue[]) => GoValue } | undefined {
    switch (name) {
      case 'Major':
        return { arity: 0, call: () => new TypedIntU64(this.major) };
      case 'Minor':
        return { arity: 0, call: () => new TypedIntU64(this.minor) };
      case 'Patch':
        return { arity: 0, call: () => new TypedIntU64(this.patch) };
      case 'Prerelease':
        return { arity: 0, call: () => this.pre };
      case 'Metadata':
        return { arity: 0, call: () => this.metadata };
      case 'Original':
        return { arity: 0, call: () => this.original };
      case 'String':
        return { arity: 0, call: () => this.goString() };
      case 'Compare':
        return { arity: 1, call: ([o]) => BigInt(compareVersions(this, asVersion(o))) };
      case 'LessThan':
        return { arity: 1, call: ([o]) => compareVersions(this, asVersion(o)) < 0 };
      case 'GreaterThan':
        return { arity: 1, call: ([o]) => compareVersions(this, asVersion(o)) > 0 };
      case 'Equal':
        return { arity: 1, call: ([o]) => compareVersions(this, asVersion(o)) === 0 };
      case 'IncMajor':
        return { arity: 0, call: () => new SemverVersion(this.major + 1n, 0n, 0n, '', '', `${this.major + 1n}.0.0`) };
      case 'IncMinor':
        return { arity: 0, call: () => new SemverVersion(this.major, this.minor + 1n, 0n, '', '', `${this.major}.${this.minor + 1n}.0`) };
      case 'IncPatch':
        return {
          arity: 0,
          call: () =>
            this.pre !== ''
              ? new SemverVersion(this.major, this.minor, this.patch, '', '', `${this.major}.${this.minor}.${this.patch}`)
              : new SemverVersion(this.major, this.minor, this.patch + 1n, '', '', `${this.major}.${this.minor}.${this.patch + 1n}`),
        };
    }
    return undefined;
  }
}

class TypedIntU64 extends TypedInt {
  constructor(v: bigint) {
    super('uint64', v);
  }
}

function asVersion(v: GoValue): SemverVersion {
  if (v instanceof SemverVersion) return v;
  throw new FuncError('wrong type for value; expected *semver.Version');
}

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const pa = a.split('.');
  const pb = b.split('.');
  const n = Math.max(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^[0-9]+$/.test(x);
    const yn = /^[0-9]+$/.test(y);
    if (xn && yn) {
      const d = BigInt(x) - BigInt(y);
      if (d !== 0n) return d < 0n ? -1 : 1;
    } else if (xn) return -1;
    else if (yn) return 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export function compareVersions(a: SemverVersion, b: SemverVersion): number {
  for (const [x, y] of [
    [a.major, b.major],
    [a.minor, b.minor],
    [a.patch, b.patch],
  ] as const) {
    if (x !== y) return x < y ? -1 : 1;
  }
  return comparePre(a.pre, b.pre);
}

// --- constraints

interface Constraint {
  op: string;
  v: SemverVersion;
  /** Number of version parts given (1, 2 or 3); wildcard parts count as missing. */
  parts: number;
  orig: string;
}

const cvRe = /^\s*(=|!=|>=|=>|<=|=<|>|<|~>|~|\^)?\s*v?(\*|[xX]|[0-9]+)(?:\.(\*|[xX]|[0-9]+))?(?:\.(\*|[xX]|[0-9]+))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?\s*$/;

function parseConstraint(s: string): Constraint {
  const m = cvRe.exec(s);
  if (!m) throw new FuncError(`improper constraint: ${s}`);
  const op = m[1] ?? '';
  const segs = [m[2], m[3], m[4]];
  let parts = 0;
  const nums: bigint[] = [];
  for (const seg of segs) {
    if (seg === undefined || seg === '*' || seg === 'x' || seg === 'X') {
      nums.push(0n);
      continue;
    }
    if (parts === nums.length) parts++;
    nums.push(BigInt(seg));
  }
  const pre = m[5] ? m[5].slice(1) : '';
  const meta = m[6] ? m[6].slice(1) : '';
  return { op, v: new SemverVersion(nums[0]!, nums[1]!, nums[2]!, pre, meta, s.trim()), parts, orig: s };
}

function check(c: Constraint, v: SemverVersion): boolean {
  if (v.pre !== '' && c.v.pre === '' && c.op !== '!=') return false;
  const cmp = compareVersions(v, c.v);
  const dirty = c.parts < 3;
  const lowerOk = cmp >= 0;
  const upperFor = (p: number): boolean => {
    if (p === 0) return true;
    if (p === 1) return v.major === c.v.major;
    return v.major === c.v.major && v.minor === c.v.minor;
  };
  switch (c.op) {
    case '':
    case '=':
      if (dirty) return upperFor(c.parts);
      return cmp === 0;
    case '!=':
      if (dirty) return !upperFor(c.parts);
      return cmp !== 0;
    case '>':
      if (dirty) {
        if (c.parts === 0) return false;
        if (c.parts === 1) return v.major > c.v.major;
        return v.major > c.v.major || (v.major === c.v.major && v.minor > c.v.minor);
      }
      return cmp > 0;
    case '<':
      return cmp < 0;
    case '>=':
    case '=>':
      return cmp >= 0;
    case '<=':
    case '=<':
      if (dirty) {
        if (c.parts === 0) return true;
        if (c.parts === 1) return v.major <= c.v.major;
        return v.major < c.v.major || (v.major === c.v.major && v.minor <= c.v.minor);
      }
      return cmp <= 0;
    case '~':
    case '~>':
      if (!lowerOk) return false;
      if (c.parts <= 1 && c.v.major === 0n && c.parts === 0) return true;
      if (c.parts <= 1) return v.major === c.v.major;
      return v.major === c.v.major && v.minor === c.v.minor;
    case '^':
      if (!lowerOk) return false;
      if (c.v.major > 0n || c.parts <= 1) return v.major === c.v.major;
      if (c.v.minor > 0n || c.parts === 2) return v.major === 0n && v.minor === c.v.minor;
      return v.major === 0n && v.minor === 0n && v.patch === c.v.patch;
  }
  return false;
}

export function semverCompare(constraint: string, version: string): boolean {
  const v = SemverVersion.parse(version);
  const groups = constraint.split('||').map((g) => g.trim());
  return groups.some((g) => {
    // Hyphen ranges "a - b".
    const hy = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(g);
    const items = hy ? [`>=${hy[1]}`, `<=${hy[2]}`] : splitAnd(g);
    return items.every((item) => check(parseConstraint(item), v));
  });
}

function splitAnd(g: string): string[] {
  // Operators may be separated from versions by spaces; constraints by commas or spaces.
  const tokens = g
    .replace(/(=|!=|>=|=>|<=|=<|>|<|~>|~|\^)\s+/g, '$1')
    .split(/[\s,]+/)
    .filter((t) => t !== '');
  if (tokens.length === 0) throw new FuncError(`improper constraint: ${g}`);
  return tokens;
}

export function semverFuncs(): [string, FuncDef][] {
  return [
    ['semver', def(['string'], ((v: string) => SemverVersion.parse(v)) as never)],
    ['semverCompare', def(['string', 'string'], semverCompare as never)],
  ];
}

