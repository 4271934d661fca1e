/**
 * go-yaml v2's reading of plain scalars (its resolve.go), which is what every consumer of a
 * manifest applies: kubectl, Argo CD (the repo-server's output, Application manifests, the
 * `fromYaml` template function), Helm's kube client and Flux's controllers all turn YAML into JSON
 * with sigs.k8s.io/yaml, which decodes with go-yaml v2 into interface{}. So `0755` is the octal
 * 493, `on` is true, `1_000` is 1000, `-.5` is a float, `1:20` stays a string (no sexagesimal),
 * `1e999` stays a string (out of a float64's range), and a timestamp stays its text.
 *
 * The resolution, for an untagged plain scalar, by its first character:
 * - a fixed word: y/yes/true/on (and n/no/false/off) in three spellings each, `~`/null, `.inf`,
 *   `.nan`, `<<`;
 * - `.`: strconv.ParseFloat of the text (Go float syntax, underscores between digits);
 * - a digit, `+` or `-`: with every `_` removed, strconv.ParseInt(s, 0, 64) (0x…, 0o…, 0b…,
 *   leading-0 octal, decimal), else ParseUint, else a float matching
 *   `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` within range;
 * - anything else: a string.
 */
import jsYaml from 'js-yaml';
import type { ScalarTag, Tags } from 'yaml';

const TRUE_WORDS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const FALSE_WORDS = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);

/** YAML 1.1 booleans (yes/no/on/off…), as go-yaml v2 reads them. */
const bool11 = new jsYaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  // Every string written is tested: the length first.
  resolve: (s: string) => s.length <= 5 && (TRUE_WORDS.has(s) || FALSE_WORDS.has(s)),
  construct: (s: string) => TRUE_WORDS.has(s),
  predicate: (v: unknown) => typeof v === 'boolean',
  represent: { lowercase: (v: unknown) => (v ? 'true' : 'false') },
  defaultStyle: 'lowercase',
});

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/**
 * strconv.ParseInt(s, 0, 64), else strconv.ParseUint(s, 0, 64), of a text whose underscores
 * go-yaml v2 has removed already: sign (ParseInt only), then 0x…, 0b…, 0o…, 0 and octal digits,
 * or decimal digits.
 */
export function goYamlInt(s: string): bigint | undefined {
  const m = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|0[bB]([01]+)|0[oO]([0-7]+)|0([0-7]*)|([1-9][0-9]*))$/.exec(s);
  if (!m) return undefined;
  const [, sign, hex, bin, oct, oct0, dec] = m;
  let v: bigint;
  if (hex !== undefined) v = BigInt(`0x${hex}`);
  else if (bin !== undefined) v = BigInt(`0b${bin}`);
  else if (oct !== undefined) v = BigInt(`0o${oct}`);
  else if (oct0 !== undefined) v = oct0 === '' ? 0n : BigInt(`0o${oct0}`);
  else v = BigInt(dec!);
  if (sign === '-') v = -v;
  if (v >= INT64_MIN && v <= INT64_MAX) return v;
  return sign === '' && v <= UINT64_MAX ? v : undefined;
}

/** The first character's class in go-yaml v2's resolve table: a digit or sign reads as a number. */
function numeric(s: string): boolean {
  const c = s.charCodeAt(0);
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d;
}

/** Whether a number or a float word could start with this text's first character (`.`, a digit, a sign). */
function mayBeNumber(s: string): boolean {
  return numeric(s) || s.charCodeAt(0) === 0x2e;
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** strconv.ParseFloat's decimal syntax for a text that starts with `.` (underscores between digits). */
const GO_DOT_FLOAT = /^\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$/;
const FLOAT_WORDS: Record<string, number> = {};
for (const w of ['.nan', '.NaN', '.NAN']) FLOAT_WORDS[w] = NaN;
for (const w of ['.inf', '.Inf', '.INF']) FLOAT_WORDS[w] = FLOAT_WORDS[`+${w}`] = Infinity;
for (const w of ['.inf', '.Inf', '.INF']) FLOAT_WORDS[`-${w}`] = -Infinity;

/** The common case, a plain decimal that a double holds exactly (`3`, `8080`). */
const SMALL_DECIMAL = /^(0|[1-9][0-9]{0,14})$/;
const isInt = (s: string) => numeric(s) && (SMALL_DECIMAL.test(s) || goYamlInt(s.replace(/_/g, '')) !== undefined);
/** Whether go-yaml v2 reads this plain scalar as an integer. */
export const isGoYamlInt = isInt;
/** The integer of a plain scalar for which isGoYamlInt holds, as a number (beyond 2^53: the nearest). */
export const goYamlIntNumber = (s: string): number => (SMALL_DECIMAL.test(s) ? Number(s) : Number(goYamlInt(s.replace(/_/g, ''))!));

/** go-yaml v2's integers; a value beyond 2^53 loses digits as a JavaScript number. */
const int11 = new jsYaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: isInt,
  construct: goYamlIntNumber,
  // As js-yaml's own: -0 is a float (written -0.0). A BigInt is an integer read exactly (sigs-yaml.ts).
  predicate: (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && !Object.is(v, -0)) || typeof v === 'bigint',
  represent: { decimal: (v: unknown) => String(v) },
  defaultStyle: 'decimal',
});

/** The float a plain scalar is to go-yaml v2, or undefined. */
export function goYamlFloat(s: string): number | undefined {
  if (!mayBeNumber(s)) return undefined;
  if (Object.prototype.hasOwnProperty.call(FLOAT_WORDS, s)) return FLOAT_WORDS[s];
  let f: number;
  if (s.startsWith('.')) {
    if (!GO_DOT_FLOAT.test(s)) return undefined;
    f = Number(s.replace(/_/g, ''));
  } else {
    if (!numeric(s)) return undefined;
    const plain = s.replace(/_/g, '');
    if (goYamlInt(plain) !== undefined || !YAML_STYLE_FLOAT.test(plain)) return undefined;
    f = Number(plain);
  }
  // ParseFloat reports a value beyond float64's range as an error: the scalar stays a string.
  return Number.isFinite(f) ? f : undefined;
}

// js-yaml exports its types at run time (`types`), which @types/js-yaml does not declare.
const jsFloat = (jsYaml as unknown as { types: { float: unknown } }).types.float as { represent: jsYaml.TypeConstructorOptions['represent']; defaultStyle?: string };
const float11 = new jsYaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (s: string) => goYamlFloat(s) !== undefined,
  construct: (s: string) => goYamlFloat(s)!,
  predicate: (v: unknown) => typeof v === 'number' && (!Number.isInteger(v) || Object.is(v, -0)),
  // Written as js-yaml writes floats.
  represent: jsFloat.represent,
  ...(jsFloat.defaultStyle !== undefined ? { defaultStyle: jsFloat.defaultStyle } : {}),
});

/**
 * For writing: a string quoted when it is a float by its syntax, even one beyond float64's range
 * (`1e999` is a string to go-yaml v2, but Infinity to YAML 1.2 readers such as js-yaml).
 */
const float11Quoted = new jsYaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (s: string) => mayBeNumber(s) && (goYamlFloat(s) !== undefined || (numeric(s) && YAML_STYLE_FLOAT.test(s.replace(/_/g, ''))) || GO_DOT_FLOAT.test(s)),
  predicate: float11.predicate!,
  represent: jsFloat.represent,
  ...(jsFloat.defaultStyle !== undefined ? { defaultStyle: jsFloat.defaultStyle } : {}),
});

/** Timestamps stay strings: go-yaml v2 gives a string for a timestamp decoded into interface{}. */
const noTimestamp = new jsYaml.Type('tag:yaml.org,2002:timestamp', { kind: 'scalar', resolve: () => false });

/**
 * The default schema (with merge keys) with booleans, numbers and timestamps as go-yaml v2 reads
 * them (a type with the same tag and kind replaces the earlier one).
 */
export const GO_YAML_V2_SCHEMA: jsYaml.Schema = jsYaml.DEFAULT_SCHEMA.extend({ implicit: [bool11, int11, float11, noTimestamp] });

/**
 * For writing: a string is quoted when go-yaml v2 would read it as anything else, when it is a
 * float by its syntax alone, and when it looks like a timestamp (js-yaml's own type stays, so that YAML 1.1 readers that do make
 * dates of them, and kyaml, read a string too).
 */
export const GO_YAML_V2_DUMP_SCHEMA: jsYaml.Schema = jsYaml.DEFAULT_SCHEMA.extend({ implicit: [bool11, int11, float11Quoted] });

/**
 * go-yaml v3's `parseTimestamp` (kyaml, so kustomize's reading of its inputs): four digits and a
 * `-`, then one of `2006-1-2T15:4:5.999999999Z07:00` (also with `t`), `2006-1-2 15:4:5.999999999`
 * (UTC) or `2006-1-2`, with Go's range checks; the result as kustomize writes it (Go's JSON time,
 * RFC 3339 with the fraction's trailing zeros cut, `Z` for UTC). Undefined when it is no timestamp.
 */
export function goTimestamp(s: string): string | undefined {
  const m = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:([Tt ])([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:\.([0-9]+))?(Z|[+-][0-9]{2}:[0-9]{2})?)?$/.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, sep, h, mi, se, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > days[month - 1]!) return undefined;
  const two = (n: number) => String(n).padStart(2, '0');
  const date = `${y}-${two(month)}-${two(day)}`;
  if (sep === undefined) return `${date}T00:00:00Z`;
  // The space form has no zone; the T forms require one.
  if ((sep === ' ') !== (zone === undefined)) return undefined;
  const [hour, min, sec] = [Number(h), Number(mi), Number(se)];
  if (hour > 23 || min > 59 || sec > 59) return undefined;
  // time.Parse takes up to nine fractional digits.
  if (frac !== undefined && frac.length > 9) return undefined;
  const fraction = frac !== undefined ? frac.replace(/0+$/, '') : '';
  const z = zone === undefined || zone === 'Z' || zone === '+00:00' ? 'Z' : zone;
  return `${date}T${two(hour)}:${two(min)}:${two(sec)}${fraction ? `.${fraction}` : ''}${z}`;
}

/** kyaml's timestamps, read as the text kustomize writes for them. */
const timestamp3 = new jsYaml.Type('tag:yaml.org,2002:timestamp', {
  kind: 'scalar',
  resolve: (s: string) => s.length >= 8 && goTimestamp(s) !== undefined,
  construct: (s: string) => goTimestamp(s)!,
});

/**
 * kyaml's reading (go-yaml v3), which is how kustomize reads every resource it builds — a Flux
 * Kustomization or HelmRelease in the repository reaches the cluster as this reading written back:
 * YAML 1.2 booleans and nulls (`on`, `yes` are strings), go-yaml's integers and floats (the same as
 * v2's: `0755` is 493, `1_000` is 1000) and timestamps as RFC 3339 text (`2024-01-01` is
 * `2024-01-01T00:00:00Z`). kustomize keeps `metadata.annotations` as written (the caller's part).
 */
export const KYAML_SCHEMA: jsYaml.Schema = jsYaml.CORE_SCHEMA.extend({ implicit: [int11, float11, timestamp3] });

/** A plain scalar of the `yaml` package's tag list, as kyaml reads one that starts with a digit, sign or `.`. */
function kyamlNumberOrTime(s: string): unknown {
  if (numeric(s)) {
    const t = s.length >= 8 ? goTimestamp(s) : undefined;
    if (t !== undefined) return t;
    if (isInt(s)) return int11.construct(s);
  }
  const f = goYamlFloat(s);
  return f !== undefined ? f : s;
}


/**
 * `customTags` for the `yaml` package's core schema giving KYAML_SCHEMA's reading: its integer
 * and float tags (but `.inf`/`.nan`) give way to one that reads as kyaml does (for readers that
 * need positions).
 */
export function kyamlTags(tags: Tags): Tags {
  const numberTag = (t: Tags[number]) => typeof t === 'object' && 'test' in t && (t.tag === 'tag:yaml.org,2002:int' || (t.tag === 'tag:yaml.org,2002:float' && !(t.test?.test('.inf') ?? false)));
  const number: ScalarTag = { tag: 'tag:yaml.org,2002:int', default: true, test: /^[-+0-9.]/, resolve: kyamlNumberOrTime };
  return [...tags.filter((t) => !numberTag(t)), number];
}
