/**
 * A small JSON Schema validator for the subset fleetplan's file kinds and Kubernetes structural
 * schemas (CRD openAPIV3Schema) use: type, properties, required, additionalProperties,
 * patternProperties, items, enum, const, pattern, minimum/maximum, minLength/maxLength,
 * minItems/maxItems, anyOf/oneOf/allOf, $ref to `#/$defs/...`, and the Kubernetes extensions
 * nullable, x-kubernetes-int-or-string and x-kubernetes-preserve-unknown-fields.
 *
 * Written here rather than taken from a general validator so that messages read as a person
 * would say them ("expected an integer, got \"high\"", "unknown field \"wavee\" — did you mean
 * \"wave\"?") and carry the exact path, which the caller turns into file:line:column.
 */

export interface JsonSchema {
  type?: SchemaType | SchemaType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  format?: string;
  nullable?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  [extension: `x-${string}`]: unknown;
}

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface SchemaIssue {
  path: (string | number)[];
  message: string;
  hint?: string;
  /** Set on a field the schema does not allow (the other issues are about values). */
  unknownField?: boolean;
}

export interface SchemaCheckOptions {
  /**
   * Kubernetes pruning: an object schema that lists `properties` and says nothing of
   * `additionalProperties` (nor x-kubernetes-preserve-unknown-fields) allows no other field.
   * The API server drops such fields silently (or rejects them with strict field validation);
   * with this option they are reported as unknown fields, as with `additionalProperties: false`.
   */
  structuralUnknownFields?: boolean;
}

export function validateSchema(value: unknown, schema: JsonSchema, root: JsonSchema = schema, options: SchemaCheckOptions = {}): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  check(value, schema, root, [], issues, options);
  return issues;
}

/**
 * Each pattern's RegExp, compiled once: loading checks every cluster file's app names, group
 * names and the like against the same few patterns (5,000 cluster files: tens of thousands of
 * tests). A `u` RegExp without `g` or `y` keeps no state between tests, so one can be shared.
 * Bounded: schemas read from CRDs may bring many patterns.
 */
const compiledPatterns = new Map<string, RegExp>();
function pattern(source: string): RegExp {
  let re = compiledPatterns.get(source);
  if (re === undefined) {
    re = new RegExp(source, 'u');
    if (compiledPatterns.size >= 1024) compiledPatterns.clear();
    compiledPatterns.set(source, re);
  }
  return re;
}

/**
 * `path` is one list, extended and shortened as the check descends (no copy per value); an issue
 * takes a copy of it.
 */
function check(value: unknown, schema: JsonSchema, root: JsonSchema, path: (string | number)[], out: SchemaIssue[], opts: SchemaCheckOptions): void {
  if (schema.$ref) {
    const target = resolveRef(root, schema.$ref);
    check(value, target, root, path, out, opts);
    return;
  }
  if (value === null && schema.nullable) return;
  if (schema['x-kubernetes-int-or-string']) {
    if (!(typeof value === 'string' || Number.isInteger(value))) {
      out.push({ path: [...path], message: `expected an integer or a string, got ${describe(value)}` });
    }
    return;
  }
  if (schema.allOf) for (const s of schema.allOf) check(value, s, root, path, out, opts);
  if (schema.anyOf || schema.oneOf) {
    const options = (schema.anyOf ?? schema.oneOf)!;
    const results = options.map((s) => {
      const o: SchemaIssue[] = [];
      check(value, s, root, path, o, opts);
      return o;
    });
    const passing = results.filter((r) => r.length === 0).length;
    if (passing === 0) {
      // Report the alternative that got furthest (fewest issues, deepest path).
      const best = results.reduce((a, b) => (score(b) > score(a) ? b : a));
      out.push(...best);
      return;
    }
    if (schema.oneOf && passing > 1 && !schema.type) {
      out.push({ path: [...path], message: 'matches more than one of the allowed forms' });
      return;
    }
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => isType(value, t))) {
      out.push({ path: [...path], message: `expected ${types.map(article).join(' or ')}, got ${describe(value)}`, ...typeHint(value, types) });
      return;
    }
  }
  if (schema.const !== undefined && !deepEqual(value, schema.const)) {
    out.push({ path: [...path], message: `expected ${JSON.stringify(schema.const)}, got ${describe(value)}` });
    return;
  }
  if (schema.enum && !schema.enum.some((e) => (typeof value === 'string' ? e === value : deepEqual(e, value)))) {
    const suggestion = typeof value === 'string' ? closest(value, schema.enum.filter((e): e is string => typeof e === 'string')) : undefined;
    out.push({
      path: [...path],
      message: `${describe(value)} is not one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`,
      ...(suggestion ? { hint: `did you mean "${suggestion}"?` } : {}),
    });
    return;
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      out.push({ path: [...path], message: schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters long` });
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      out.push({ path: [...path], message: `must be at most ${schema.maxLength} characters long, is ${value.length}` });
    }
    if (schema.pattern !== undefined && !pattern(schema.pattern).test(value)) {
      out.push({ path: [...path], message: `${JSON.stringify(value)} does not match the pattern ${schema.pattern}` });
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) out.push({ path: [...path], message: `must be at least ${schema.minimum}, got ${value}` });
    if (schema.maximum !== undefined && value > schema.maximum) out.push({ path: [...path], message: `must be at most ${schema.maximum}, got ${value}` });
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      out.push({ path: [...path], message: `must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}` });
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      out.push({ path: [...path], message: `must have at most ${schema.maxItems} items, has ${value.length}` });
    }
    if (schema.items) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        check(value[i], schema.items, root, path, out, opts);
        path.pop();
      }
    }
  }
  if (isObject(value) && (schema.properties || schema.required || schema.additionalProperties !== undefined || schema.patternProperties)) {
    for (const req of schema.required ?? []) {
      if (!(req in value)) out.push({ path: [...path], message: `missing required field "${req}"` });
    }
    for (const key of Object.keys(value)) {
      const v = value[key];
      const prop = schema.properties?.[key];
      path.push(key);
      if (prop) {
        check(v, prop, root, path, out, opts);
      } else {
        const patterned = patternProperty(schema, key);
        if (patterned) {
          check(v, patterned, root, path, out, opts);
        } else {
          const ap = schema.additionalProperties ?? (opts.structuralUnknownFields && schema.properties ? false : undefined);
          if (ap === false && !schema['x-kubernetes-preserve-unknown-fields']) {
            const known = Object.keys(schema.properties ?? {});
            const suggestion = closest(key, known);
            out.push({
              path: [...path],
              message: `unknown field "${key}"`,
              unknownField: true,
              hint: suggestion ? `did you mean "${suggestion}"?` : known.length ? `allowed: ${known.join(', ')}` : 'remove it',
            });
          } else if (typeof ap === 'object') {
            check(v, ap, root, path, out, opts);
          }
        }
      }
      path.pop();
    }
  }
}

/** The schema of the first of `schema.patternProperties` whose pattern `key` matches. */
function patternProperty(schema: JsonSchema, key: string): JsonSchema | undefined {
  const patterns = schema.patternProperties;
  if (patterns === undefined) return undefined;
  for (const p of Object.keys(patterns)) if (pattern(p).test(key)) return patterns[p];
  return undefined;
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  const m = /^#\/\$defs\/(.+)$/.exec(ref);
  const target = m ? root.$defs?.[m[1]!] : undefined;
  if (!target) throw new Error(`unresolvable schema reference ${ref}`);
  return target;
}

function score(issues: SchemaIssue[]): number {
  const depth = Math.max(0, ...issues.map((i) => i.path.length));
  return depth * 100 - issues.length;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isType(v: unknown, t: SchemaType): boolean {
  switch (t) {
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
  }
}

function article(t: SchemaType): string {
  return { object: 'a map', array: 'a list', string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false', null: 'null' }[t];
}

export function describe(v: unknown): string {
  if (v === null || v === undefined) return 'nothing (null)';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v);
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  return String(v);
}

function typeHint(v: unknown, types: SchemaType[]): { hint?: string } {
  if (typeof v === 'string' && types.includes('integer') && /^-?\d+$/.test(v)) return { hint: 'remove the quotes' };
  if (typeof v === 'number' && types.includes('string')) return { hint: `quote it: "${v}"` };
  if ((v === null || v === undefined) && types.length === 1) return { hint: 'give it a value or remove the key' };
  return {};
}

/** Equal as JSON. For a string this is `===`: no other value's JSON is a quoted string, and JSON.stringify of strings is one-to-one. */
function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The candidate within edit distance 2 (or a third of the word) of `word`, if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}
