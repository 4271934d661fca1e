/**
 * The cluster generator: one param set per Argo CD cluster Secret matching the selector, plus
 * the local cluster (`in-cluster`) when the selector is empty and no Secret already names
 * `https://kubernetes.default.svc`.
 */
import type { Generator, GeneratorContext } from './generator.js';
import type { ClusterSecret, JsonObject, LabelSelector, ParamSet } from '../types.js';
import { ApplicationSetError, atPath } from '../types.js';
import { compileSelector, isEmptySelector } from '../selector.js';
import { normalizeName } from '../normalize.js';
import { appendTemplatedValues } from '../values.js';
import { checkValues } from './git.js';

export const CLUSTER_SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';
export const LOCAL_CLUSTER_SERVER = 'https://kubernetes.default.svc';
export const LOCAL_CLUSTER_NAME = 'in-cluster';

export class ClusterGenerator implements Generator {
  async generate(spec: JsonObject, ctx: GeneratorContext): Promise<ParamSet[]> {
    checkValues(spec, ctx.path);
    const selector = (spec['selector'] ?? {}) as LabelSelector;
    let matches: (labels: Record<string, unknown>) => boolean;
    try {
      matches = compileSelector(selector);
    } catch (e) {
      throw new ApplicationSetError((e as Error).message, atPath(`${ctx.path}.selector`));
    }
    const ignoreLocal = !isEmptySelector(selector);
    let secrets: readonly ClusterSecret[];
    try {
      secrets = await ctx.clusterSecrets();
    } catch (e) {
      throw new ApplicationSetError(`error getting cluster secrets: ${(e as Error).message}`, { ...atPath(ctx.path), cause: e });
    }
    // Secrets are keyed by cluster name: a later Secret with the same data.name replaces an earlier one.
    const byName = new Map<string, ClusterSecret>();
    for (const s of secrets) {
      if (s.labels[CLUSTER_SECRET_TYPE_LABEL] !== 'cluster') continue;
      if (!matches(s.labels)) continue;
      const name = s.data['name'] ?? '';
      byName.delete(name);
      byName.set(name, s);
    }
    const goTemplate = ctx.renderer.goTemplate;
    const res: ParamSet[] = [];
    let hasLocal = false;
    for (const s of byName.values()) {
      if (s.data['server'] === LOCAL_CLUSTER_SERVER) hasLocal = true;
      res.push(appendTemplatedValues(spec['values'], clusterParams(s, goTemplate), ctx.renderer));
    }
    if (!ignoreLocal && !hasLocal) {
      const local: ParamSet = { name: LOCAL_CLUSTER_NAME, nameNormalized: LOCAL_CLUSTER_NAME, server: LOCAL_CLUSTER_SERVER, project: '' };
      res.push(appendTemplatedValues(spec['values'], local, ctx.renderer));
    }
    if (spec['flatList'] === true) return [{ clusters: res }];
    return res;
  }
}

function clusterParams(s: ClusterSecret, goTemplate: boolean): ParamSet {
  const name = s.data['name'] ?? '';
  const params: ParamSet = {
    name,
    nameNormalized: normalizeName(name),
    server: s.data['server'] ?? '',
    project: s.data['project'] ?? '',
  };
  if (goTemplate) {
    const meta: Record<string, unknown> = {};
    if (Object.keys(s.labels).length > 0) meta['labels'] = { ...s.labels };
    if (Object.keys(s.annotations).length > 0) meta['annotations'] = { ...s.annotations };
    params['metadata'] = meta;
  } else {
    for (const [k, v] of Object.entries(s.labels)) params[`metadata.labels.${k}`] = v;
    for (const [k, v] of Object.entries(s.annotations)) params[`metadata.annotations.${k}`] = v;
  }
  return params;
}
