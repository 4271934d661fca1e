/**
 * A manifest stream as sigs.k8s.io/yaml turns it into JSON (its convertToJSONableObject over
 * go-yaml v2's decoding): what kubectl, Argo CD's repo-server and Helm send for it. Beyond the
 * `kubernetes` schema's scalars (go-yaml.ts) this gets right what JavaScript property names and
 * numbers lose (ADR 0414):
 *
 * - a map key that is not a string is written as Go writes it: an integer in its decimal digits
 *   (all of them: `9007199254740993`), a float with strconv.FormatFloat(f, 'g', -1, 32) — float32's
 *   shortest digits, an exponent from 1e+06 and below 1e-04 (`1.23456789` → `1.2345679`, `1e6` →
 *   `1e+06`, `-0.0` → `-0`, `.inf` → `.inf`), a boolean as `true`/`false`;
 * - a key that sigs.k8s.io/yaml refuses is refused, at its line: null (`~:`, `null:`) and an
 *   integer beyond int64 (go-yaml v2 makes a uint64 of it);
 * - an integer value beyond 2^53 within int64 is a BigInt, so that it is written with its digits
 *   (JSON carries int64 exactly; kubectl and Helm keep it); beyond int64 it is a float64 in Go too.
 *
 * js-yaml turns a key into a property name with String(); the scalars whose String() is not Go's
 * are constructed as small objects whose toString is Go's, and replaced by their values after the
 * parse (only when one was made).
 */
import jsYaml from 'js-yaml';
import { GO_YAML_V2_SCHEMA, goYamlFloat, goYamlInt, goYamlIntNumber, isGoYamlInt } from './go-yaml.js';

const INT64_MAX = (1n << 63n) - 1n;
/** Starts a property name that stands for a key sigs.k8s.io/yaml refuses (no YAML text holds it: NUL is not printable). */
const REFUSED = '\u0000';

/** A scalar whose key text differs from String(value). */
class GoScalar {
  constructor(
    readonly value: number | null,
    private readonly key: string,
  ) {}
  get [Symbol.toStringTag](): string {
    return 'GoScalar';
  }
  toString(): string {
    return this.key;
  }
}

let made = 0;

/** Six significant digits or fewer (float32 keeps them), 1e-4 ≤ |f| < 1e6 (no exponent in Go's spelling or JavaScript's). */
function shortFloat(f: number): boolean {
  const a = Math.abs(f);
  return a >= 1e-4 && a < 1e6 && String(a).replace(/^0\.0*/, '').replace('.', '').length <= 6;
}

/** strconv.FormatFloat(f, 'g', -1, 32), then sigs.k8s.io/yaml's words for the non-finite ones. */
export function goFloat32Key(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  const x = Math.fround(f);
  if (x === Infinity) return '.inf';
  if (x === -Infinity) return '-.inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  // The shortest digits that read back as the same float32.
  let e = '';
  for (let p = 1; p <= 9; p++) {
    e = x.toExponential(p - 1);
    if (Math.fround(Number(e)) === x) break;
  }
  const [mant, expText] = e.split('e') as [string, string];
  const exp = Number(expText);
  const neg = mant.startsWith('-');
  const digits = mant.replace(/^-/, '').replace('.', '');
  let out: string;
  if (exp < -4 || exp >= 6) {
    out = `${digits[0]!}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  } else if (exp < 0) {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else {
    const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    out = frac ? `${whole}.${frac}` : whole;
  }
  return neg ? `-${out}` : out;
}

const intExact = new jsYaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: isGoYamlInt,
  construct: (s: string) => {
    const n = goYamlIntNumber(s);
    if (Number.isSafeInteger(n)) return n;
    const v = goYamlInt(s.replace(/_/g, ''))!;
    if (v <= INT64_MAX) return v;
    // A uint64 to go-yaml v2: a float64 in JSON, and a key sigs.k8s.io/yaml refuses.
    made++;
    return new GoScalar(Number(v), `${REFUSED}an integer beyond int64 (${String(v)}), which go-yaml decodes as uint64`);
  },
});

const floatKeyed = new jsYaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (s: string) => goYamlFloat(s) !== undefined,
  construct: (s: string) => {
    const f = goYamlFloat(s)!;
    // The common case: at most six significant digits, no exponent in either spelling.
    if (shortFloat(f)) return f;
    const key = goFloat32Key(f);
    if (key === String(f)) return f;
    made++;
    return new GoScalar(f, key);
  },
});

const nullKeyed = new jsYaml.Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (s: string | null) => s === null || s === '~' || s === 'null' || s === 'Null' || s === 'NULL',
  construct: () => {
    made++;
    return new GoScalar(null, `${REFUSED}null`);
  },
});

const SIGS_YAML_SCHEMA: jsYaml.Schema = GO_YAML_V2_SCHEMA.extend({ implicit: [intExact, floatKeyed] });
/** With nulls as GoScalars too, for a text that may have a null key (nulls are common values: `creationTimestamp: null`). */
const SIGS_YAML_NULL_KEY_SCHEMA: jsYaml.Schema = SIGS_YAML_SCHEMA.extend({ implicit: [nullKeyed] });
/** Every way a text can spell a null key: a null word before `:`, after `? `, or a `!!null` tag. */
const MAY_HAVE_NULL_KEY = /(?:^|[\s{,])(?:~|null|Null|NULL)[ \t]*:(?:\s|$)|\?[ \t]+(?:~|null|Null|NULL)|!!null/m;

/** Where a refused key is: the line of the first such scalar the parse closes, and the column its line's text starts at. */
function refusedKeyAt(text: string, options: jsYaml.LoadOptions, key: string): { line: number; column: number } | undefined {
  let at: { line: number; column: number } | undefined;
  jsYaml.loadAll(text, undefined, {
    ...options,
    listener: (event, state) => {
      if (at === undefined && event === 'close' && state.result instanceof GoScalar && String(state.result) === key) {
        const end = text.indexOf('\n', state.lineStart);
        const lineText = text.slice(state.lineStart, end === -1 ? undefined : end);
        at = { line: state.line, column: /^[ -]*/.exec(lineText)![0].length };
      }
    },
  });
  return at;
}

/**
 * Replaces the GoScalars of a parse by their values; the first refused key, if any. An object an
 * alias repeats is visited again, and has nothing left to replace (js-yaml makes no cycles).
 */
function settle(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let refused: string | undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v instanceof GoScalar) value[i] = v.value;
      else refused ??= settle(v);
    }
    return refused;
  }
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    if (k.startsWith(REFUSED)) refused ??= k;
    const v = obj[k];
    if (v instanceof GoScalar) obj[k] = v.value;
    else refused ??= settle(v);
  }
  return refused;
}

/** Every document, as sigs.k8s.io/yaml converts it; a key it refuses throws a YAMLException at its line. */
export function loadAllAsJson(text: string, options: jsYaml.LoadOptions): unknown[] {
  const before = made;
  const schema = MAY_HAVE_NULL_KEY.test(text) ? SIGS_YAML_NULL_KEY_SCHEMA : SIGS_YAML_SCHEMA;
  const docs = jsYaml.loadAll(text, undefined, { ...options, schema });
  if (made === before) return docs;
  let refused: string | undefined;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    if (d instanceof GoScalar) docs[i] = d.value;
    else refused ??= settle(d);
  }
  if (refused === undefined) return docs;
  const at = refusedKeyAt(text, { ...options, schema }, refused);
  const what = refused.slice(REFUSED.length);
  throw new jsYaml.YAMLException(`a map key is ${what}: kubectl, Argo CD and Helm refuse it (sigs.k8s.io/yaml: unsupported map key); quote the key to make it a string`, {
    name: options.filename ?? null,
    buffer: text,
    position: 0,
    line: at?.line ?? 0,
    column: at?.column ?? 0,
    snippet: null,
  } as unknown as jsYaml.YAMLException['mark']);
}

/**
 * A copy of a value read with `asJson` whose BigInts are numbers again (digits beyond 2^53 lost),
 * for code that hands the value on as JSON (JSON.stringify refuses a BigInt).
 */
export function withNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(withNumbers);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNumbers(v)]));
  return value;
}
