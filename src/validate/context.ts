/**
 * What every rule sees: the loaded fleet, its resolved clusters, the repository, and what each
 * app applies (leaf objects when a leaf rendering is supplied, else read statically).
 */
import type { Finding } from '../model/finding.js';
import type { Fleet, Origin } from '../model/fleet.js';
import { displayPath, locateOrigin } from '../model/fleet.js';
import type { ResolvedApp, ResolvedCluster } from '../model/resolved.js';
import type { ValidationSpec } from '../model/spec.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { LeafObjects } from '../ports/leaf-objects.js';
import { formatPath } from '../model/source.js';
import type { ManifestIndex, ManifestObject } from '../load/manifests.js';
import type { ArgoCdSchemaSet } from './catalog/argocd-schema-source.js';
import type { JsonnetEvaluations } from './jsonnet-evaluate.js';
import type { ArgoSourceType } from '../model/argo-source-type.js';
import { applicationSource, argoSourceType } from '../model/argo-source-type.js';
import { applicationFor } from '../generate/argocd.js';
import { normalizeRepoPath as normalize } from '../model/repo-path.js';


export interface RuleContext {
  fleet: Fleet;
  clusters: ResolvedCluster[];
  /** Any cluster of the fleet, resolved (ResolvedFleet.cluster): rules about a hub's spokes use it. */
  cluster(name: string): ResolvedCluster;
  fs: RepoFileSystem;
  manifests: ManifestIndex;
  settings: ValidationSpec;
  /** The leaf rendering given to `validate --leaves`, when one was (rules/leaf-builds.ts). */
  leaves?: LeafObjects;
  /** Objects the app applies on the cluster; undefined when they cannot be known offline (remote sources, charts without leaves). */
  objectsOf(cluster: ResolvedCluster, app: ResolvedApp): readonly ManifestObject[] | undefined;
  /** The app's repository path, normalized, when it is sourced from the fleet repository. */
  localPath(app: ResolvedApp): string | undefined;
  /** Argo CD schemas read from the CRDs the user gave; their kinds replace the bundled ones (ADR 0155). */
  argoCdSchemas?: ArgoCdSchemaSet;
  /** The real Jsonnet's evaluations of the Jsonnet Argo CD evaluates (jsonnet-evaluate.ts); absent: only imports are checked. */
  jsonnet?: JsonnetEvaluations;
}

export type FindingDraft = Omit<Finding, 'file' | 'line' | 'column' | 'path'>;

/** A finding placed at a fleet origin (file + YAML path). */
export function place(fleet: Fleet, origin: Origin, f: FindingDraft): Finding {
  const loc = locateOrigin(fleet, origin);
  const p = formatPath(displayPath(fleet, origin));
  return { ...f, ...loc, ...(p ? { path: p } : {}) };
}

/** A finding placed at a file and line (manifests that are not fleet files). */
export function at(file: string, line: number | undefined, f: FindingDraft, column?: number): Finding {
  return { ...f, file, ...(line ? { line } : {}), ...(line && column ? { column } : {}) };
}

/** The layer that set `field` last: where a finding about that field belongs. */
export function fieldOrigin(fleet: Fleet, app: ResolvedApp, field: readonly string[]): Origin {
  for (let i = app.layers.length - 1; i >= 0; i--) {
    const o = app.layers[i]!;
    const src = fleet.sources.get(o.file);
    let v: unknown = src?.value;
    for (const seg of [...o.path, ...field]) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[seg] : undefined;
    if (v !== undefined) return { file: o.file, path: [...o.path, ...field] };
  }
  return app.origin;
}

export { normalizeRepoPath } from '../model/repo-path.js';

const sourceTypes = new WeakMap<ResolvedApp, ArgoSourceType | undefined>();

/**
 * The tool Argo CD builds an app's source with (model/argo-source-type.ts), from the Application
 * fleetplan emits for it: `helm` when the source names `helm` (a kustomization.yaml beside the
 * chart is then never read), else what the directory holds. Undefined for a multi-source app or a
 * source outside the repository.
 */
export function appSourceType(fs: RepoFileSystem, cluster: ResolvedCluster, app: ResolvedApp): ArgoSourceType | undefined {
  if (sourceTypes.has(app)) return sourceTypes.get(app);
  const source = applicationSource(applicationFor(cluster, app) as unknown as Record<string, unknown>);
  let type: ArgoSourceType | undefined;
  if (source) {
    const dir = typeof source.path === 'string' ? normalize(source.path) : undefined;
    type = argoSourceType(source, (name) => dir !== undefined && fs.exists(dir === '.' ? name : `${dir}/${name}`));
  }
  sourceTypes.set(app, type);
  return type;
}
