/**
 * The repository's own bootstrap of a gitops-standards cluster (ADR 0399): the files of
 * `.bootstrap/` applied by hand with envsubst, among them the root Application that reads
 * `clusters/${cluster_name}`. When the repository has that root, it is the cluster's root: the
 * plan lists the repository's files as the bootstrap steps and render --out writes that root
 * (ADR 0299's ownBootstrap), instead of fleetplan's own root reading `rendered/<cluster>`.
 *
 * Input: the bootstrap files and their parsed objects, the cluster's name and role, the clone's
 * origin. Output: the ownBootstrap of the cluster, or undefined when no bootstrap Application reads
 * the cluster's folder. Pure.
 */
import type { ClusterDef } from '../../model/fleet.js';
import { isPlainObject } from '../../model/merge.js';
import { normalizeRepoPath } from '../../model/repo-path.js';
import { isServerURL } from '../../model/git-url.js';

/** One file of `.bootstrap/` with the objects it holds (list documents expanded by the caller). */
export interface BootstrapFileObjects {
  file: string;
  objects: Record<string, unknown>[];
}

const CLUSTER_VARIABLE = /\$\{(cluster_name|CLUSTER_NAME)\}/g;
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function ref(o: Record<string, unknown>): string {
  const md = isPlainObject(o.metadata) ? o.metadata : {};
  return `${String(o.kind)}/${typeof md.namespace === 'string' ? `${md.namespace}/` : ''}${String(md.name)}`;
}

function sourceOf(app: Record<string, unknown>): Record<string, unknown> | undefined {
  const spec = isPlainObject(app.spec) ? app.spec : {};
  return isPlainObject(spec.source) ? spec.source : undefined;
}

/** `${cluster_name}` filled in everywhere in the object, as envsubst does when the file is applied. */
function withCluster(value: unknown, cluster: string): unknown {
  if (typeof value === 'string') return value.replace(CLUSTER_VARIABLE, cluster);
  if (Array.isArray(value)) return value.map((v) => withCluster(v, cluster));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withCluster(v, cluster)]));
  return value;
}

/**
 * The root Applications of `.bootstrap/` that read `clusters/<cluster>` (with `${cluster_name}`
 * filled in), a literal path before one with the variable, then a file named for the cluster's role
 * (`hub-root-application.yaml` on the hub), then file order.
 */
function rootsOf(files: readonly BootstrapFileObjects[], cluster: string, role: string): { file: string; app: Record<string, unknown> }[] {
  const found: { file: string; app: Record<string, unknown>; literal: boolean; named: boolean }[] = [];
  for (const f of files) {
    for (const o of f.objects) {
      if (o.kind !== 'Application' || typeof o.apiVersion !== 'string' || !o.apiVersion.startsWith('argoproj.io/')) continue;
      const path = sourceOf(o)?.path;
      if (typeof path !== 'string' || normalizeRepoPath(path.replace(CLUSTER_VARIABLE, cluster)) !== `clusters/${cluster}`) continue;
      const base = f.file.slice(f.file.lastIndexOf('/') + 1);
      found.push({ file: f.file, app: o, literal: !path.includes('${'), named: base.includes(role) });
    }
  }
  return found.sort((a, b) => Number(b.literal) - Number(a.literal) || Number(b.named) - Number(a.named));
}

export function repositoryBootstrap(files: readonly BootstrapFileObjects[], cluster: string, role: string, origin: string | undefined): NonNullable<ClusterDef['ownBootstrap']> | undefined {
  const roots = rootsOf(files, cluster, role);
  const chosen = roots[0];
  if (!chosen) return undefined;
  const notes: string[] = [];
  const root = withCluster(chosen.app, cluster) as Record<string, unknown>;
  const source = sourceOf(root)!;
  const written = String(source.repoURL ?? '');
  // The repoURL is usually a variable the person bootstrapping fills in: the clone's origin is that repository.
  if (written.includes('${') && origin !== undefined && isServerURL(origin)) {
    notes.push(`${written} is filled in when the file is applied: shown as the clone's origin, ${origin}`);
    source.repoURL = origin;
  }
  const left = [...new Set([...JSON.stringify(root).matchAll(VARIABLE)].map((m) => m[0]))];
  if (left.length) notes.push(`the root keeps ${left.join(', ')} as written: envsubst fills ${left.length === 1 ? 'it' : 'them'} in when the file is applied`);
  const md = root.metadata as Record<string, unknown>;
  const name = `${typeof md.namespace === 'string' ? `${md.namespace}/` : ''}${String(md.name)}`;
  const revision = typeof source.targetRevision === 'string' && source.targetRevision !== '' ? source.targetRevision : 'HEAD';
  notes.unshift(
    `this repository bootstraps each cluster itself: the files of .bootstrap/ are applied by hand (envsubst, then kubectl apply -f), in an order fleetplan does not know; the root last, since it needs the Argo CD the others install. fleetplan bootstrap does not run them`,
    `root: Application ${name} of ${chosen.file} (the repository's own) reads ${String(source.path)} at ${revision} of ${String(source.repoURL)}`,
  );
  for (const other of roots.slice(1)) notes.push(`${other.file} holds another root reading the same folder (Application ${String((other.app.metadata as Record<string, unknown>).name)}); the plan takes ${chosen.file}`);
  const steps = files
    .filter((f) => f.objects.length > 0 && f.file !== chosen.file && !roots.some((r) => r.file === f.file))
    .map((f) => ({ file: f.file, description: `kubectl apply -f ${f.file}, its variables filled in: ${f.objects.map(ref).join(', ')}`, objects: f.objects.map(ref) }));
  const rootFile = files.find((f) => f.file === chosen.file)!;
  steps.push({ file: chosen.file, description: `the root Application ${name}, reading ${String(source.path)} (render --out: bootstrap/90-root-application.yaml)`, objects: rootFile.objects.map(ref) });
  return { by: '.bootstrap/, applied by hand', steps, notes, rootApplication: root };
}
