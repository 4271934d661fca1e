/**
 * Go's view of decoded JSON values, as far as the generators need it: `fmt.Sprintf("%v")` of a
 * value (every JSON number is a float64 in Argo CD), and the `[]string` slices (`path.segments`)
 * that Argo keeps as one leaf when it flattens params for selectors.
 */

const stringSlices = new WeakSet<readonly unknown[]>();

/** Marks an array as a Go `[]string` (not `[]interface{}`): flatten keeps it as one `%v` leaf. */
export function markStringSlice<T extends readonly unknown[]>(arr: T): T {
  stringSlices.add(arr);
  return arr;
}

export function isStringSlice(v: unknown): boolean {
  return Array.isArray(v) && stringSlices.has(v);
}

/** `strconv.FormatFloat(f, 'g', -1, 64)`, which is what `%v` prints for a float64. */
export function formatGoFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant = '', expText = '0'] = f.toExponential().split('e');
  const exp = Number(expText);
  // Shortest formatting: %e when the exponent is < -4 or >= 6 (eprec is 6 for the shortest form).
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mant}e${sign}${digits}`;
  }
  return String(f);
}

/** `fmt.Sprintf("%v", v)` for a JSON-decoded value. */
export function formatGoValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return formatGoFloat(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    default:
      break;
  }
  if (Array.isArray(v)) return `[${v.map(formatGoValue).join(' ')}]`;
  if (typeof v === 'object') {
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj).sort();
    return `map[${keys.map((k) => `${k}:${formatGoValue(obj[k])}`).join(' ')}]`;
  }
  return String(v);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `jeremywohl/flatten` with dot style: nested maps and lists become dotted keys (`a.b`, `a.0`);
 * empty maps and lists produce no key. Leaves are kept as they are.
 */
export function flattenParams(input: Record<string, unknown>, stringifyLeaves: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (prefix: string, v: unknown): void => {
    if (isPlainObject(v)) {
      for (const k of Object.keys(v)) walk(prefix === '' ? k : `${prefix}.${k}`, v[k]);
    } else if (Array.isArray(v) && !isStringSlice(v)) {
      for (let i = 0; i < v.length; i++) walk(prefix === '' ? String(i) : `${prefix}.${i}`, v[i]);
    } else {
      out[prefix] = stringifyLeaves ? formatGoValue(v) : v;
    }
  };
  for (const k of Object.keys(input)) walk(k, input[k]);
  return out;
}

/** Go's `json.Marshal` of a decoded JSON value: sorted map keys, HTML characters escaped. */
export function goJsonMarshal(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') {
    return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJsonMarshal).join(',')}]`;
  if (typeof v === 'object') {
    const obj = v as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${goJsonMarshal(k)}:${goJsonMarshal(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(String(v));
}

/** Whether an object has no own enumerable key (without allocating a key list). */
export function hasNoKeys(o: object): boolean {
  // Param sets are plain JSON objects: no inherited enumerable keys to skip.
  for (const _k in o) return false;
  return true;
}

const paramsAsGoData = new WeakSet<object>();

/**
 * Marks a `toGoData` as Argo CD's rule, under which a parameter set (JSON data) is its own Go
 * data: field chains may then be read from the parameter sets themselves (compiled-app.ts
 * `renderPair`). test/appset/compiled-app.test.ts checks that the engine's conversion returns its
 * input for JSON data.
 */
export function markParamsAsGoData<F extends (params: Record<string, unknown>) => unknown>(toGoData: F): F {
  paramsAsGoData.add(toGoData);
  return toGoData;
}

export function isParamsAsGoData(toGoData: object): boolean {
  return paramsAsGoData.has(toGoData);
}
