/**
 * Argo CD's additions to the ApplicationSet func map (applicationset/utils/utils.go):
 * `normalize` (SanitizeName), `slugify` (SlugifyName over gosimple/slug), `toYaml`, `fromYaml`,
 * `fromYamlArray` (sigs.k8s.io/yaml: YAML read as JSON, so every number is a float64).
 */
import { parseYaml } from '../../yaml/index.js';
import { FuncError } from '../errors.js';
import type { FuncDef } from '../funcs.js';
import { def } from '../funcs.js';
import type { GoValue } from '../values.js';
import { goToLower, isMap, newMap, typeName } from '../values.js';
import { marshalYamlV2 } from './yaml-v2.js';

/** SanitizeName: lower case, anything but [-a-z0-9.] becomes '-', at most 253 bytes, '-' and '.' trimmed at both ends. */
export function sanitizeName(name: string): string {
  let s = goToLower(name).replace(/[^-a-z0-9.]/gu, '-');
  if (Buffer.byteLength(s) > 253) s = s.slice(0, 253);
  return s.replace(/^[-.]+|[-.]+$/g, '');
}

/** gosimple/slug Make with MaxLength and EnableSmartTruncate, after SanitizeName. */
export function slugifyName(maxSize: number, smartTruncate: boolean, name: string): string {
  let slug = sanitizeName(name).trim();
  slug = slug.replace(/&/g, 'and').replace(/@/g, 'at');
  slug = slug.normalize('NFKD').replace(/\p{M}/gu, '');
  slug = goToLower(slug);
  if (!smartTruncate && maxSize > 0 && slug.length >= maxSize) slug = slug.slice(0, maxSize);
  slug = slug.replace(/[^a-zA-Z0-9\-_]/g, '-');
  slug = slug.replace(/-+/g, '-');
  slug = slug.replace(/^[-_]+|[-_]+$/g, '');
  if (maxSize > 0 && smartTruncate && slug.length > maxSize) {
    let cut = -1;
    for (let i = maxSize; i >= 0; i--) {
      if (slug[i] === '-') {
        cut = i;
        break;
      }
    }
    slug = cut >= 0 ? slug.slice(0, cut) : slug.slice(0, maxSize);
  }
  return slug;
}

function slugify(...args: GoValue[]): string {
  let maxSize = 50;
  let smart = true;
  let name = '';
  args.forEach((arg, idx) => {
    if (idx === args.length - 1) {
      if (typeof arg !== 'string') throw new FuncError(`interface conversion: interface {} is ${typeName(arg)}, not string`);
      name = arg;
    } else if (idx === 0) {
      if (typeof arg !== 'bigint') throw new FuncError(`interface conversion: interface {} is ${typeName(arg)}, not int`);
      maxSize = Number(arg);
    } else if (idx === 1) {
      if (typeof arg !== 'boolean') throw new FuncError(`interface conversion: interface {} is ${typeName(arg)}, not bool`);
      smart = arg;
    }
  });
  return slugifyName(maxSize, smart, name);
}

/** YAML → JSON → Go values: keys become strings, numbers float64. */
function yamlToGo(text: string): GoValue {
  let doc: unknown;
  try {
    // json: duplicate keys override earlier ones, as go-yaml v2 decoding into a map does.
    // Booleans, numbers and timestamps as go-yaml v2 reads them (src/yaml/go-yaml.ts).
    doc = parseYaml(text, { schema: 'kubernetes', json: true });
  } catch (e) {
    throw new FuncError(`error converting YAML to JSON: yaml: ${(e as Error).message.split('\n')[0]}`);
  }
  return toGo(doc);
}

function toGo(v: unknown): GoValue {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(toGo);
  if (typeof v === 'object') {
    const m = newMap();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) m[k] = toGo(x);
    return m;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) {
    throw new FuncError(`error converting YAML to JSON: json: unsupported value: ${v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN'}`);
  }
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return String(v);
}

function fromYaml(s: string): GoValue {
  const v = yamlToGo(s);
  if (v === null) return newMap();
  if (!isMap(v)) {
    throw new FuncError(`error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonKind(v)} into Go value of type map[string]interface {}`);
  }
  return v;
}

function fromYamlArray(s: string): GoValue {
  const v = yamlToGo(s);
  if (v === null) return [];
  if (!Array.isArray(v)) {
    throw new FuncError(`error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonKind(v)} into Go value of type []interface {}`);
  }
  return v;
}

function jsonKind(v: GoValue): string {
  if (Array.isArray(v)) return 'array';
  if (isMap(v)) return 'object';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'value';
}

function toYaml(v: GoValue): string {
  const out = marshalYamlV2(v);
  return out.endsWith('\n') ? out.slice(0, -1) : out;
}

export function argocdFuncList(): [string, FuncDef][] {
  return [
    ['normalize', def(['string'], sanitizeName as never)],
    ['slugify', def([], slugify as never, 'any')],
    ['toYaml', def(['any'], toYaml as never)],
    ['fromYaml', def(['string'], fromYaml as never)],
    ['fromYamlArray', def(['string'], fromYamlArray as never)],
  ];
}
