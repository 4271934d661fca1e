/**
 * A generator's `values`: each value is rendered against the params computed so far (not
 * against the other values — no chaining) and added after them, as `values.<k>` (flat) or
 * `values: {k: …}` (goTemplate).
 */
import type { Renderer } from './render.js';
import type { ParamSet } from './types.js';
import { ApplicationSetError } from './types.js';

export function appendTemplatedValues(values: unknown, params: ParamSet, renderer: Renderer): ParamSet {
  if (!values || typeof values !== 'object') return params;
  const entries = Object.entries(values as Record<string, unknown>);
  if (entries.length === 0) return params;
  const data = renderer.prepare(params);
  const rendered: Record<string, string> = {};
  for (const [k, v] of entries) {
    try {
      rendered[k] = renderer.compile(String(v ?? ''))(data);
    } catch (e) {
      throw new ApplicationSetError(`failed to replace templated string: ${(e as Error).message}`, { cause: e });
    }
  }
  if (renderer.goTemplate) {
    params['values'] = rendered;
  } else {
    for (const [k, v] of Object.entries(rendered)) params[`values.${k}`] = v;
  }
  return params;
}
