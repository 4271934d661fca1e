/**
 * One generator entry → param sets (Argo CD `Transform`): pick the generator(s) the entry
 * names, interpolate them with the params of a previous matrix child when given, generate,
 * and keep the sets matching the entry's post `selector` (flattened params as labels).
 */
import type { GeneratorContext, GeneratorRegistry, MatrixRow } from './generator.js';
import { GENERATOR_KINDS } from './generator.js';
import { interpolateGenerator } from './interpolate.js';
import type { JsonObject, LabelSelector, ParamSet } from '../types.js';
import { ApplicationSetError, SERVICE_GENERATORS, ServiceGeneratorError, atPath } from '../types.js';
import { compileSelector } from '../selector.js';
import { flattenParams, hasNoKeys, isPlainObject } from '../go-value.js';

export interface TransformResult {
  kind: string;
  /** The generator's own spec, after interpolation (its `template` is read from here). */
  spec: JsonObject;
  params: ParamSet[];
  /** A goTemplate matrix without a post selector, when asked for (`wantRows`): its rows; `params` is then combined on first read. */
  rows?: readonly MatrixRow[];
}

const KNOWN_KEYS = new Set<string>([...GENERATOR_KINDS, 'selector']);

export async function transform(
  entry: JsonObject,
  registry: GeneratorRegistry,
  ctx: GeneratorContext,
  previous?: ParamSet,
  wantRows = false,
): Promise<TransformResult[]> {
  if (!isPlainObject(entry)) throw new ApplicationSetError('a generator entry must be a mapping', atPath(ctx.path));
  for (const k of Object.keys(entry)) {
    if (!KNOWN_KEYS.has(k)) {
      throw new ApplicationSetError(`unknown generator ${JSON.stringify(k)}`, atPath(`${ctx.path}.${k}`, `known generators: ${GENERATOR_KINDS.join(', ')}`));
    }
  }
  let selector: ((labels: Record<string, unknown>) => boolean) | undefined;
  if (entry['selector'] !== undefined && entry['selector'] !== null) {
    try {
      selector = compileSelector(entry['selector'] as LabelSelector);
    } catch (e) {
      throw new ApplicationSetError((e as Error).message, atPath(`${ctx.path}.selector`));
    }
  }
  const kinds = GENERATOR_KINDS.filter((k) => entry[k] !== undefined && entry[k] !== null);
  let interpolated = entry;
  if (previous && !hasNoKeys(previous)) {
    try {
      interpolated = interpolateGenerator(entry, previous, ctx.renderer);
    } catch (e) {
      if (e instanceof ApplicationSetError && !e.location) throw new ApplicationSetError(e.message, { ...atPath(ctx.path), cause: e.cause });
      throw e;
    }
  }
  const res: TransformResult[] = [];
  for (const kind of kinds) {
    const g = registry[kind];
    const path = `${ctx.path}.${kind}`;
    if (!g && SERVICE_GENERATORS.has(kind)) {
      throw new ServiceGeneratorError(kind, `the ${kind} generator asks a service when Argo CD runs it, which offline evaluation does not`, atPath(path, 'offline evaluation supports list, clusters, git, matrix and merge'));
    }
    if (!g) {
      throw new ApplicationSetError(`the ${kind} generator is not supported here`, atPath(path, 'offline evaluation supports list, clusters, git, matrix and merge; matrix and merge nest two levels deep'));
    }
    const spec = interpolated[kind];
    if (!isPlainObject(spec)) throw new ApplicationSetError(`${kind} must be a mapping`, atPath(path));
    let params: ParamSet[];
    try {
      if (wantRows && !selector && g.generateRows !== undefined) {
        const m = await g.generateRows(spec, { ...ctx, path });
        if (m.rows !== undefined) {
          const rows = m.rows;
          res.push({
            kind,
            spec,
            rows,
            get params() {
              return m.params();
            },
          });
          continue;
        }
        params = m.params();
      } else params = await g.generate(spec, { ...ctx, path });
    } catch (e) {
      if (e instanceof ApplicationSetError && !e.location) throw new ApplicationSetError(e.message, { ...atPath(path), hint: e.hint, cause: e.cause });
      throw e;
    }
    if (selector) {
      const sel = selector;
      params = params.filter((p) => sel(flattenParams(p, true)));
    }
    res.push({ kind, spec, params });
  }
  return res;
}
