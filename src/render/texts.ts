/**
 * Content-keyed YAML texts for one render run (ADR 0360): an object whose content equals one
 * emitted before gets that text back, the same string, without emitting it again. In a fleet most
 * objects recur across clusters (an app of a group has the same Application on every cluster of
 * the same sector; the AppProjects are the fleet's): at 1,000 clusters × 40 apps, 46,000 objects
 * hold ~3,100 distinct contents. A recurring text is then also flattened and encoded by the writer
 * as one string, not as a fresh tree of concatenated pieces per file.
 *
 * The key is the object's JSON (V8's native JSON.stringify, a few times cheaper than emitting),
 * taken only for plain data on which equal JSON means equal YAML (`plainData`): plain objects and
 * arrays, strings, booleans, null, finite numbers other than -0, `undefined` only as an object's
 * value beside a defined one (both JSON and the emitter leave such a key out; a map of `undefined`
 * values only is `{}` in JSON but an empty value in YAML). Anything else — NaN and the infinities
 * (JSON writes null), -0 (JSON writes 0), a Date or any object with `toJSON` or another prototype,
 * boxed primitives, functions, symbols, BigInt, holes and `undefined` in arrays — is emitted as
 * before and not remembered. Key order does not matter for exactness: objects with the same
 * entries in another order have different keys and are simply emitted again.
 *
 * Memory is bounded: texts are kept in two generations of at most `generation` entries each; a
 * text used again moves to the young one, and when the young one is full the old one is dropped.
 * Texts every cluster uses stay; a cluster's own texts age out.
 */
import { toYaml } from '../yaml/serialize.js';

export interface TextMemo {
  /** The YAML of `o` (toYaml's bytes), remembered by content. */
  yaml(o: unknown): string;
  /** How many texts were reused, emitted and kept, and how many objects were not plain data (for tests and the benchmark). */
  readonly stats: { hits: number; misses: number; unkeyed: number; size: number };
}

/** Entries per generation: ~1,000 distinct texts per 20 clusters of the benchmark fleet, a few MB. */
const GENERATION = 4096;

export function createTextMemo(options: { generation?: number } = {}): TextMemo {
  const limit = Math.max(1, options.generation ?? GENERATION);
  let young = new Map<string, string>();
  let old = new Map<string, string>();
  const stats = { hits: 0, misses: 0, unkeyed: 0, size: 0 };
  return {
    stats,
    yaml(o) {
      if (!plainData(o)) {
        stats.unkeyed++;
        return toYaml(o);
      }
      const key = JSON.stringify(o);
      let text = young.get(key);
      if (text === undefined) {
        text = old.get(key);
        if (text === undefined) {
          stats.misses++;
          text = flat(toYaml(o));
        } else {
          stats.hits++;
          old.delete(key);
        }
        if (young.size >= limit) {
          old = young;
          young = new Map();
        }
        young.set(key, text);
        stats.size = young.size + old.size;
      } else {
        stats.hits++;
      }
      return text;
    },
  };
}

/**
 * Whether `v` is data on which JSON.stringify is as fine as the YAML emitter: equal JSON texts of
 * two such values mean equal YAML texts (see above). A map or list nested deeper than 100 levels
 * is not taken (no stack to spare for data no fleet has).
 */
export function plainData(v: unknown, depth = 0): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      // -0 is the one finite number whose JSON (0) is not its YAML (-0).
      return Number.isFinite(v) && (v !== 0 || 1 / v > 0);
    case 'object': {
      if (v === null) return true;
      if (depth > 100) return false;
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto === Array.prototype) {
        const a = v as unknown[];
        for (let i = 0; i < a.length; i++) {
          // A hole or `undefined` is `null` in JSON and in YAML alike, but so is a function: none is taken.
          const x = a[i];
          if (x === undefined || !plainData(x, depth + 1)) return false;
        }
        return true;
      }
      if (proto !== Object.prototype && proto !== null) return false;
      const o = v as Record<string, unknown>;
      // `undefined` values are left out by both, but a map of nothing else is `key:` in YAML where
      // JSON says `{}`: such a map is not taken.
      let keys = 0;
      let defined = 0;
      for (const k in o) {
        keys++;
        const x = o[k];
        if (x === undefined) continue;
        defined++;
        if (!plainData(x, depth + 1)) return false;
      }
      return keys === 0 || defined > 0;
    }
    default:
      // undefined (as a whole document), functions, symbols, BigInt.
      return false;
  }
}

/**
 * The same string as one flat sequence: the emitter's text is a tree of concatenated pieces, which
 * every file that includes it would otherwise copy piece by piece (V8 flattens a concatenation of
 * several texts into a new string, and leaves the texts in it as they were). A slice of a
 * concatenation makes V8 flatten it once; the slice then reads as a flat string.
 */
function flat(s: string): string {
  return s.length < 2 ? s : (s + ' ').slice(0, s.length);
}
