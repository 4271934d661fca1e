/**
 * Sources that a layout reader generates (ClusterDef.generated) → the kustomize directory each such
 * app reads under the rendered directory:
 *
 *   <cluster>/<...>/<app>/kustomization.yaml    resources in the order the reader gave them
 *   <cluster>/<...>/<app>/<kind>-<name>.yaml    one object per file
 *
 * Only for apps the resolved cluster still has (an app turned off writes nothing).
 */
import type { K8sObject } from '../model/k8s.js';
import type { Fleet } from '../model/fleet.js';
import { clusterDef } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { RenderedFile } from './files.js';
import { objectFileName } from './provision.js';
import { header, toYaml } from '../yaml/serialize.js';

export function renderGenerated(fleet: Fleet, c: ResolvedCluster): RenderedFile[] {
  const def = clusterDef(fleet, c.name);
  if (!def?.generated?.length) return [];
  const prefix = `${fleet.renderedPath}/`;
  const files: RenderedFile[] = [];
  for (const g of def.generated) {
    const app = c.apps.find((a) => a.name === g.app);
    if (!app || !g.path.startsWith(prefix)) continue;
    const dir = g.path.slice(prefix.length);
    const from = [...new Set(app.layers.map((l) => l.file))];
    const resources: string[] = [];
    for (const raw of g.objects) {
      const o = raw as K8sObject;
      const name = objectFileName(o, '');
      if (resources.includes(name)) throw new Error(`two generated objects would be written to ${dir}/${name}`);
      resources.push(name);
      const doc = toYaml(o);
      files.push({ path: `${dir}/${name}`, content: header(from) + doc, cluster: c.name, objects: [o], documents: [doc] });
    }
    const kustomization = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources };
    files.push({ path: `${dir}/kustomization.yaml`, content: header(from) + toYaml(kustomization), cluster: c.name, objects: [], documents: [] });
  }
  return files;
}
