/**
 * The merge generator: the first child's param sets are the base; a later child's set with the
 * same merge key (JSON of the merge-key values) overrides the base set's values.
 */
import type { Generator, GeneratorContext, GeneratorRegistry } from './generator.js';
import { childParams } from './matrix.js';
import type { JsonObject, ParamSet } from '../types.js';
import { ApplicationSetError, atPath } from '../types.js';
import { formatGoValue, goJsonMarshal, isPlainObject } from '../go-value.js';

export class MergeGenerator implements Generator {
  constructor(private readonly children: GeneratorRegistry) {}

  async generate(spec: JsonObject, ctx: GeneratorContext): Promise<ParamSet[]> {
    const gens = (spec['generators'] ?? []) as JsonObject[];
    const mergeKeys = (spec['mergeKeys'] ?? []) as string[];
    if (!Array.isArray(gens) || gens.length < 2) {
      throw new ApplicationSetError('found less than two generators, Merge requires two or more', atPath(`${ctx.path}.generators`));
    }
    const all: ParamSet[][] = [];
    for (let i = 0; i < gens.length; i++) {
      all.push(await childParams(gens[i]!, this.children, { ...ctx, path: `${ctx.path}.generators[${i}]` }));
    }
    let base: Map<string, ParamSet>;
    try {
      base = paramSetsByMergeKey(mergeKeys, all[0]!);
      for (const sets of all.slice(1)) {
        const byKey = paramSetsByMergeKey(mergeKeys, sets);
        for (const [key, baseSet] of base) {
          const override = byKey.get(key);
          if (!override) continue;
          base.set(key, ctx.renderer.goTemplate ? mergeOverride(baseSet, override) : combineAllowDuplicates(baseSet, override));
        }
      }
    } catch (e) {
      if (e instanceof ApplicationSetError && !e.location) throw new ApplicationSetError(e.message, { ...atPath(`${ctx.path}.mergeKeys`), cause: e.cause });
      throw e;
    }
    return [...base.values()];
  }
}

/** Argo CD `getParamSetsByMergeKey`. */
export function paramSetsByMergeKey(mergeKeys: readonly string[], paramSets: readonly ParamSet[]): Map<string, ParamSet> {
  if (mergeKeys.length < 1) throw new ApplicationSetError('no merge keys were specified, Merge requires at least one');
  const keys = [...new Set(mergeKeys)];
  const out = new Map<string, ParamSet>();
  for (const set of paramSets) {
    const keyObj: Record<string, unknown> = {};
    for (const k of keys) keyObj[k] = set[k] ?? null;
    const key = goJsonMarshal(keyObj);
    if (out.has(key)) {
      throw new ApplicationSetError(
        `the parameters from a generator were not unique by the given mergeKeys, Merge requires all param sets to be unique. Duplicate key was ${key}`,
      );
    }
    out.set(key, set);
  }
  return out;
}

function combineAllowDuplicates(a: ParamSet, b: ParamSet): ParamSet {
  const res: ParamSet = {};
  for (const [k, v] of Object.entries(a)) res[k] = formatGoValue(v);
  for (const [k, v] of Object.entries(b)) res[k] = formatGoValue(v);
  return res;
}

/**
 * `mergo.Merge(dst, src, mergo.WithOverride)` on param maps: src values win, nested maps merge,
 * and an empty src value (nil, "", 0, false, empty map or list) does not override — mergo's
 * "non-empty src attributes" rule. Only maps on merged paths are copied.
 */
function mergeOverride(dst: ParamSet, src: ParamSet): ParamSet {
  const out: ParamSet = { ...dst };
  for (const k in src) {
    const v = src[k];
    const cur = out[k];
    if (isPlainObject(cur) && isPlainObject(v)) out[k] = mergeOverride(cur, v);
    else if (!isEmptyGoValue(v) || !Object.hasOwn(out, k)) out[k] = v;
  }
  return out;
}

function isEmptyGoValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return false;
}
