/**
 * kustomize-controller's StrictPostBuildSubstitutions gate where Flux is a helmfile release
 * (ADR 0421): the flux-instance chart's values (`instance.distribution.version`, the gate in
 * `instance.kustomize.patches`), in a values file or inline in a helmfile's release, are read as
 * the FluxInstance they make; a FluxInstance, a flux-instance HelmRelease or a kustomize-controller
 * Deployment in the repository are read as they are. The flux layout's rule (feature-gates.ts)
 * then decides: the gate set anywhere, else the version, else off.
 */
import { isObj } from '../../load/manifests.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { yamlDocsMatching } from '../../load/flux-variables.js';
import { strictSubstitutions } from '../flux/feature-gates.js';
import type { StrictGate } from '../flux/feature-gates.js';
import type { Built } from '../flux/built.js';

type Obj = Record<string, unknown>;

/** The FluxInstance the flux-instance chart makes of `values` (its `instance` key), if the values are that chart's. */
function instanceOf(values: unknown, name: string): Obj | undefined {
  if (!isObj(values) || !isObj(values.instance)) return undefined;
  const i = values.instance;
  if (!isObj(i.distribution) && !isObj(i.kustomize) && !isObj(i.sync)) return undefined;
  return { apiVersion: 'fluxcd.controlplane.io/v1', kind: 'FluxInstance', metadata: { name }, spec: i };
}

/** The gate on the one cluster of a helmfile-flux repository, from the YAML files `files` (helmfiles and values files among them). */
export function helmfileFluxGate(fs: RepoFileSystem, files: readonly string[]): StrictGate {
  const objects: Built[] = [];
  const locate = () => ({ line: 1, column: 1 });
  for (const file of [...new Set(files)].sort()) {
    // A .gotmpl file is a template: only what parses as YAML is read.
    for (const d of yamlDocsMatching(fs, file, /instance:|StrictPostBuildSubstitutions|kustomize-controller|kind:\s*FluxInstance/)) {
      if (!isObj(d)) continue;
      const values = instanceOf(d, 'flux-instance values');
      if (values) objects.push({ obj: values, file, locate });
      else if (typeof d.kind === 'string' && typeof d.apiVersion === 'string') objects.push({ obj: d, file, locate });
      // A helmfile's releases with inline values.
      for (const r of Array.isArray(d.releases) ? d.releases.filter(isObj) : []) {
        for (const v of Array.isArray(r.values) ? r.values : []) {
          const inline = instanceOf(v, `${String(r.name)} release values`);
          if (inline) objects.push({ obj: inline, file, locate });
        }
      }
    }
  }
  return strictSubstitutions(objects);
}
