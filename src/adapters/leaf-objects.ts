/**
 * Leaf objects from a previous `fleetplan render --leaves --out DIR`: the objects under
 * `DIR/<cluster>/manifests/<app>/*.yaml`, for validation rules that want what apps really apply.
 * An app without a folder there is read statically by the rules.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import type { LeafObjects } from '../validate/context.js';
import { readTextFile } from './fs.js';

export function leafObjectsFromDirectory(dir: string): LeafObjects {
  return {
    objects(cluster, app) {
      const d = join(dir, cluster, 'manifests', app);
      if (!existsSync(d) || !statSync(d).isDirectory()) return undefined;
      const out: Record<string, unknown>[] = [];
      for (const f of readdirSync(d).sort()) {
        if (!/\.ya?ml$/.test(f)) continue;
        for (const doc of jsYaml.loadAll(readTextFile(join(d, f), `${cluster}/manifests/${app}/${f}`))) {
          if (doc && typeof doc === 'object' && !Array.isArray(doc)) out.push(doc as Record<string, unknown>);
        }
      }
      return out;
    },
  };
}
