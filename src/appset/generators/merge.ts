/**
 * The merge generator: the first child's param sets are the base; a later child's set with the
 * same merge key (JSON of the merge-key values) overrides the base set's values.
 */
import type { Generator, GeneratorContext, GeneratorRegistry } from './generator.js';
import { childParams, structuredCloneParams } from './matrix.js';
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

/** `mergo.Merge(dst, src, mergo.WithOverride)` on maps: src wins, nested maps merge. */
function mergeOverride(dst: ParamSet, src: ParamSet): ParamSet {
  const out = structuredCloneParams(dst) as ParamSet;
  const apply = (d: Record<string, unknown>, s: Record<string, unknown>): void => {
    for (const [k, v] of Object.entries(s)) {
      const cur = d[k];
      if (isPlainObject(cur) && isPlainObject(v)) apply(cur, v);
      else d[k] = structuredCloneParams(v);
    }
  };
  apply(out, src);
  return out;
}
