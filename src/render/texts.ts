/**
 * Content-keyed YAML texts for one render run (ADR 0360, 0371): an object whose content equals one
 * emitted before gets that text back, the same string, without emitting it again. In a fleet most
 * objects recur across clusters (an app of a group has the same Application on every cluster of
 * the same sector; the AppProjects are the fleet's): at 1,000 clusters × 40 apps, 46,000 objects
 * hold ~3,100 distinct contents. A recurring text is then also flattened and encoded by the writer
 * as one string, not as a fresh tree of concatenated pieces per file.
 *
 * An object is compared with the remembered ones of the same `kind` and `metadata.name` (a hint
 * only: any object may be given) by walking both (ADR 0371): the same prototypes, the same own
 * keys in the same order, `Object.is` on every leaf, lists of the same length. What is remembered
 * is a snapshot taken when the text was emitted (`Snap`), so an object changed after it was
 * rendered cannot change what later objects are compared with. Only plain data is remembered
 * (`plainData`): plain objects and arrays, strings, booleans, null, finite numbers other than -0,
 * `undefined` only as an object's value beside a defined one. Anything else — NaN and the
 * infinities, -0, a Date or any object with another prototype, boxed primitives, functions,
 * symbols, BigInt, holes and `undefined` in arrays, a map of `undefined` values only — is emitted
 * as before and not remembered. An object equal to a snapshot is plain data itself (every leaf
 * and shape is the snapshot's). Key order only costs a miss: the emitter sorts keys, but objects
 * with another order are simply emitted again.
 *
 * Comparing by walking replaced the object's JSON as a map key (ADR 0360): JSON.stringify and
 * hashing the key were a fifth of the main thread's instructions at 1,000 clusters, and the
 * 40 MB of keys were garbage to collect; a walk that meets an equal snapshot first reads each
 * value once and allocates nothing.
 *
 * Memory is bounded: texts are kept in two generations of at most `generation` entries each (and
 * at most `PER_NAME` per kind and name, the most used first); a text used again moves to the
 * young generation, and when the young one is full the old one is dropped. Texts every cluster
 * uses stay; a cluster's own texts age out.
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
/** Remembered texts per kind and name: a fleet has a few variants of an app (per sector, region); an app that differs on every cluster only churns the last slot. */
const PER_NAME = 16;

/** A snapshot of plain data: leaves as they are; maps and lists copied into their own shapes. */
type Snap = string | number | boolean | null | undefined | SnapMap | SnapList;
class SnapMap {
  constructor(
    readonly proto: object | null,
    readonly keys: string[],
    readonly values: Snap[],
  ) {}
}
class SnapList {
  constructor(readonly items: Snap[]) {}
}

/** What `snapshot` returns for data that is not plain (see plainData). */
const NOT_PLAIN = Symbol('not plain');

/** The snapshot of `v`, or NOT_PLAIN when it is not plain data (exactly when plainData(v) is false). */
function snapshot(v: unknown, depth: number): Snap | typeof NOT_PLAIN {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) && (v !== 0 || 1 / v > 0) ? v : NOT_PLAIN;
    case 'object': {
      if (v === null) return null;
      if (depth > 100) return NOT_PLAIN;
      const proto = Object.getPrototypeOf(v) as object | null;
      if (proto === Array.prototype) {
        const a = v as unknown[];
        const items: Snap[] = new Array<Snap>(a.length);
        for (let i = 0; i < a.length; i++) {
          const x = a[i];
          if (x === undefined) return NOT_PLAIN;
          const s = snapshot(x, depth + 1);
          if (s === NOT_PLAIN) return NOT_PLAIN;
          items[i] = s;
        }
        return new SnapList(items);
      }
      if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
      const o = v as Record<string, unknown>;
      const keys: string[] = [];
      const values: Snap[] = [];
      let defined = 0;
      for (const k in o) {
        const x = o[k];
        keys.push(k);
        if (x === undefined) {
          values.push(undefined);
          continue;
        }
        defined++;
        const s = snapshot(x, depth + 1);
        if (s === NOT_PLAIN) return NOT_PLAIN;
        values.push(s);
      }
      return keys.length === 0 || defined > 0 ? new SnapMap(proto, keys, values) : NOT_PLAIN;
    }
    default:
      return NOT_PLAIN;
  }
}

/** Whether `v` has exactly the content of the snapshot `s` (see above): then toYaml(v) is the snapshot's text. */
function matches(v: unknown, s: Snap): boolean {
  if (typeof s !== 'object' || s === null) return typeof s === 'number' ? Object.is(v, s) : v === s;
  if (typeof v !== 'object' || v === null) return false;
  if (s instanceof SnapList) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return false;
    const a = v as unknown[];
    const items = s.items;
    if (a.length !== items.length) return false;
    for (let i = 0; i < items.length; i++) if (!matches(a[i], items[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== s.proto) return false;
  const o = v as Record<string, unknown>;
  const { keys, values } = s;
  let i = 0;
  for (const k in o) {
    if (i >= keys.length || keys[i] !== k || !matches(o[k], values[i])) return false;
    i++;
  }
  return i === keys.length;
}

interface Entry {
  snap: Snap;
  text: string;
}

/** Remembered entries by kind, then by metadata.name (any value; undefined when there is none). */
type Generation = Map<unknown, Map<unknown, Entry[]>>;

/** The `kind` and `metadata.name` of an object, the hint for where to look (read as they are). */
function hintOf(o: unknown): [unknown, unknown] {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return [undefined, undefined];
  const m = o as { kind?: unknown; metadata?: unknown };
  const md = m.metadata;
  return [m.kind, typeof md === 'object' && md !== null ? (md as { name?: unknown }).name : undefined];
}

function listOf(g: Generation, kind: unknown, name: unknown, create: boolean): Entry[] | undefined {
  let byName = g.get(kind);
  if (!byName) {
    if (!create) return undefined;
    g.set(kind, (byName = new Map()));
  }
  let list = byName.get(name);
  if (!list && create) byName.set(name, (list = []));
  return list;
}

/** The index of the entry whose snapshot `o` matches, or -1. */
function find(list: readonly Entry[] | undefined, o: unknown): number {
  if (list) for (let i = 0; i < list.length; i++) if (matches(o, list[i]!.snap)) return i;
  return -1;
}

export function createTextMemo(options: { generation?: number } = {}): TextMemo {
  const limit = Math.max(1, options.generation ?? GENERATION);
  let young: Generation = new Map();
  let old: Generation = new Map();
  let youngSize = 0;
  let oldSize = 0;
  const stats = { hits: 0, misses: 0, unkeyed: 0, size: 0 };
  /** Puts an entry in the young generation's list (the old one dropped when the young one is full). */
  const keep = (kind: unknown, name: unknown, e: Entry): void => {
    if (youngSize >= limit) {
      old = young;
      oldSize = youngSize;
      young = new Map();
      youngSize = 0;
    }
    const list = listOf(young, kind, name, true)!;
    if (list.length >= PER_NAME) list[list.length - 1] = e;
    else {
      list.push(e);
      youngSize++;
    }
    stats.size = youngSize + oldSize;
  };
  return {
    stats,
    yaml(o) {
      const [kind, name] = hintOf(o);
      const list = listOf(young, kind, name, false);
      const at = find(list, o);
      if (at >= 0) {
        stats.hits++;
        // The most used first: a text every cluster uses is found at once.
        if (at > 0) [list![at - 1], list![at]] = [list![at]!, list![at - 1]!];
        return list![at > 0 ? at - 1 : 0]!.text;
      }
      const older = listOf(old, kind, name, false);
      const was = find(older, o);
      if (was >= 0) {
        stats.hits++;
        const [e] = older!.splice(was, 1);
        oldSize--;
        keep(kind, name, e!);
        return e!.text;
      }
      const snap = snapshot(o, 0);
      if (snap === NOT_PLAIN) {
        stats.unkeyed++;
        return toYaml(o);
      }
      stats.misses++;
      const text = flat(toYaml(o));
      keep(kind, name, { snap, text });
      return text;
    },
  };
}

/**
 * Whether `v` is data on which equal content means equal YAML (see above): plain maps and lists,
 * strings, booleans, null, finite numbers other than -0, `undefined` only beside a defined map
 * value. A map or list nested deeper than 100 levels is not taken (no stack to spare for data no
 * fleet has). The same test that decides what is remembered (`snapshot`).
 */
export function plainData(v: unknown): boolean {
  return snapshot(v, 0) !== NOT_PLAIN;
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
