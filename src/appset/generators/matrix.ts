/**
 * The matrix generator: exactly two children; the second is interpolated with each param set
 * of the first, and every pair is combined (flat: union of `%v` strings, a conflicting key is
 * an error; goTemplate: deep merge where the first child's values win).
 */
import type { Generator, GeneratorContext, GeneratorRegistry, MatrixRow, MatrixRows } from './generator.js';
import { transform } from './transform.js';
import type { JsonObject, ParamSet } from '../types.js';
import { ApplicationSetError, atPath } from '../types.js';
import { formatGoValue, isPlainObject } from '../go-value.js';
import { APPSET_LIMITS } from '../limits.js';

export class MatrixGenerator implements Generator {
  constructor(private readonly children: GeneratorRegistry) {}

  async generate(spec: JsonObject, ctx: GeneratorContext): Promise<ParamSet[]> {
    return (await this.generateRows(spec, ctx)).params();
  }

  /**
   * The matrix as its rows — each parameter set of the first child with the sets the second gave
   * for it — before the pairs are combined (goTemplate): generateApplications renders compiled
   * templates from the two halves of a pair (ADR 0308) and combines a pair only when asked.
   * The same children, errors and limit as `generate`; combining cannot fail.
   */
  async generateRows(spec: JsonObject, ctx: GeneratorContext): Promise<MatrixRows> {
    const gens = (spec['generators'] ?? []) as JsonObject[];
    if (!Array.isArray(gens)) throw new ApplicationSetError('matrix.generators must be a list', atPath(`${ctx.path}.generators`));
    if (gens.length < 2) throw new ApplicationSetError('found less than two generators, Matrix support only two', atPath(`${ctx.path}.generators`));
    if (gens.length > 2) throw new ApplicationSetError('found more than two generators, Matrix support only two', atPath(`${ctx.path}.generators`));
    const first = await childParams(gens[0]!, this.children, { ...ctx, path: `${ctx.path}.generators[0]` });
    const out: ParamSet[] = [];
    const rows: MatrixRow[] = [];
    let count = 0;
    const secondCtx = { ...ctx, path: `${ctx.path}.generators[1]` };
    for (const a of first) {
      let second: ParamSet[];
      try {
        second = await childParams(gens[1]!, this.children, secondCtx, a);
      } catch (e) {
        throw wrap(e, 'failed to get params for generator 1 in the matrix generator: ', secondCtx.path);
      }
      if (count + second.length > APPSET_LIMITS.maxParamSets) {
        throw new ApplicationSetError(
          `the matrix generator makes more than ${APPSET_LIMITS.maxParamSets} parameter sets, fleetplan's limit (generator 0 gives ${first.length}, generator 1 gives ${second.length} for one of them)`,
          atPath(ctx.path, 'split the ApplicationSet, or narrow its generators with selectors; a real fleet makes a few thousand Applications'),
        );
      }
      count += second.length;
      if (ctx.renderer.goTemplate) rows.push({ first: a, second });
      else for (const b of second) out.push(combineStringMaps(a, b, ctx.path));
    }
    if (!ctx.renderer.goTemplate) return { rows: undefined, params: () => out };
    let merged: ParamSet[] | undefined;
    return { rows, params: () => (merged ??= mergeRows(rows)) };
  }
}

function mergeRows(rows: readonly MatrixRow[]): ParamSet[] {
  const out: ParamSet[] = [];
  for (const { first, second } of rows) {
    // `first`'s keys listed once for its whole row, not once per pair.
    const ka = Object.keys(first);
    for (const b of second) out.push(mergeFirstWinsKeyed(first, ka, b));
  }
  return out;
}

function wrap(e: unknown, prefix: string, path: string): Error {
  if (!(e instanceof ApplicationSetError)) return e as Error;
  return new ApplicationSetError(prefix + e.message, { location: e.location ?? { file: '', path }, hint: e.hint, cause: e.cause ?? e });
}

/**
 * Params of one matrix/merge child entry (Argo CD `getParams`): the entry must name exactly one
 * generator; with `applyNestedSelectors` off, selectors inside a nested matrix/merge are dropped.
 */
export async function childParams(entry: JsonObject, registry: GeneratorRegistry, ctx: GeneratorContext, previous?: ParamSet): Promise<ParamSet[]> {
  let e = entry;
  if (!ctx.appSet.spec.applyNestedSelectors && isPlainObject(e)) {
    for (const k of ['matrix', 'merge']) {
      const nested = e[k];
      if (isPlainObject(nested) && Array.isArray(nested['generators'])) {
        e = { ...e, [k]: { ...nested, generators: (nested['generators'] as unknown[]).map((g) => (isPlainObject(g) ? dropSelector(g) : g)) } };
      }
    }
  }
  let t;
  try {
    t = await transform(e, registry, ctx, previous);
  } catch (err) {
    throw wrap(err, 'child generator returned an error on parameter generation: ', ctx.path);
  }
  if (t.length === 0) throw new ApplicationSetError('child generator generated no parameters', atPath(ctx.path, 'each matrix/merge child names one generator'));
  if (t.length > 1) throw new ApplicationSetError('found more than one generator in matrix.Generators', atPath(ctx.path, 'give each child its own list entry'));
  return t[0]!.params;
}

function dropSelector(g: JsonObject): JsonObject {
  if (!('selector' in g)) return g;
  const { selector: _dropped, ...rest } = g;
  return rest;
}

/** Flat combine (`utils.CombineStringMaps`). */
function combineStringMaps(a: ParamSet, b: ParamSet, path: string): ParamSet {
  const res: ParamSet = {};
  for (const k in a) {
    const v = a[k];
    res[k] = typeof v === 'string' ? v : formatGoValue(v);
  }
  for (const k in b) {
    const v = b[k];
    const s = typeof v === 'string' ? v : formatGoValue(v);
    const cur = res[k];
    if (cur !== undefined && cur !== s && Object.hasOwn(res, k)) {
      throw new ApplicationSetError(`found duplicate key ${k} with different value, a: ${String(cur)} ,b: ${s}`, atPath(path));
    }
    res[k] = s;
  }
  return res;
}

/**
 * goTemplate combine (mergo without override): `a` completed from `b` where `a` has no value,
 * maps merged recursively. Only the maps on merged paths are copied; other values are shared
 * (param sets are never mutated once generated).
 */
export function mergeFirstWins(a: ParamSet, b: ParamSet): ParamSet {
  return mergeFirstWinsKeyed(a, Object.keys(a), b);
}

/** mergeFirstWins with `ka` = `Object.keys(a)`. */
function mergeFirstWinsKeyed(a: ParamSet, ka: readonly string[], b: ParamSet): ParamSet {
  // Copied key by key, not spread: V8 gives `{ ...a }` a map on which every later lookup and
  // for-in is slow (a matrix of 100,000 param sets spent ~0.4 s here and in the key checks).
  const out: ParamSet = {};
  for (let i = 0; i < ka.length; i++) setOwn(out, ka[i]!, a[ka[i]!]);
  const kb = Object.keys(b);
  for (let i = 0; i < kb.length; i++) {
    const k = kb[i]!;
    const bv = b[k];
    if (!Object.hasOwn(out, k)) setOwn(out, k, bv);
    else {
      const av = out[k];
      if (isPlainObject(av) && isPlainObject(bv)) out[k] = mergeFirstWins(av, bv);
    }
  }
  return out;
}

/** `o[k] = v` as an own data property, `__proto__` included (a key read from a git file). */
function setOwn(o: ParamSet, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}
