/**
 * Renders a matrix child generator with the params of the first child (Argo CD
 * `RenderGeneratorParams`): every string, map keys included, in the ApplicationSet's mode.
 * The child's own `values` are pre-resolved with missingkey=error forced: a value that needs a
 * key the first child does not have is kept as written, for the child to resolve later.
 */
import type { Renderer } from '../render.js';
import { isMissingKeyError } from '../render.js';
import type { JsonObject, ParamSet } from '../types.js';
import { ApplicationSetError } from '../types.js';
import { hasNoKeys, isPlainObject } from '../go-value.js';

export function interpolateGenerator(entry: JsonObject | null | undefined, params: ParamSet, renderer: Renderer): JsonObject {
  if (entry === null || entry === undefined) throw new ApplicationSetError('generator is empty');
  if (hasNoKeys(params)) return entry;
  const data = renderer.prepare(params);
  const str = (s: string): string => {
    try {
      return renderer.compile(s)(data);
    } catch (e) {
      throw new ApplicationSetError(`failed to replace parameters in generator: ${(e as Error).message}`, { cause: e });
    }
  };
  const walk = (v: unknown, depth: number, underKind: boolean): unknown => {
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1, false));
    if (isPlainObject(v)) {
      const out: JsonObject = {};
      for (const [k, x] of Object.entries(v)) {
        if (underKind && k === 'values' && isPlainObject(x)) out[str(k)] = preResolveValues(x, data, renderer, str);
        else out[str(k)] = walk(x, depth + 1, depth === 0);
      }
      return out;
    }
    return v;
  };
  return walk(entry, 0, false) as JsonObject;
}

function preResolveValues(
  values: JsonObject,
  data: ReturnType<Renderer['prepare']>,
  renderer: Renderer,
  str: (s: string) => string,
): JsonObject {
  if (!renderer.goTemplate) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'string' ? str(v) : v;
    return out;
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v !== 'string') {
      out[k] = v;
      continue;
    }
    try {
      out[k] = renderer.compile(v, true)(data);
    } catch (e) {
      if (isMissingKeyError(e)) out[k] = v;
      else throw new ApplicationSetError(`failed to pre-resolve Values key ${JSON.stringify(k)}: ${(e as Error).message}`, { cause: e });
    }
  }
  return out;
}
