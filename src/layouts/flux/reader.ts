/**
 * The Flux clusters layout (`flux bootstrap` and Flux's own examples: fluxcd/flux2-kustomize-helm-example,
 * fluxcd/flux2-multi-tenancy): one cluster per `clusters/<name>/` (or `kubernetes/clusters/<name>/`)
 * whose `flux-system` Kustomization (gotk-sync.yaml) is the entry. Read as kustomize-controller
 * does: build the entry's `spec.path` (build.ts), take every Flux Kustomization in the output, build
 * each one's path in turn with its `targetNamespace`, `patches`, `components` and post-build
 * substitution, until no new Kustomization appears. Decisions: docs/adr/0279-flux-clusters-layout.md.
 */
import type { Finding } from '../../model/finding.js';
import type { ClusterDef, Fleet, GroupDef } from '../../model/fleet.js';
import type { FleetGraphs, FluxKustomization, GraphRef } from '../../model/graphs.js';
import { kustomizationApp } from '../../model/graphs.js';
import type { AppSpec } from '../../model/spec.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { LoadResult } from '../../load/native.js';
import type { SourceFile, YamlPath } from '../../model/source.js';
import { FLEET_FILE } from '../../model/constants.js';
import { emptyFleet } from '../../model/fleet.js';
import { isObj, joinRelative } from '../../load/manifests.js';
import { dumpYaml, parseYamlAll } from '../../yaml/index.js';
import { fluxSubstitute, FluxSubstituteError, fluxSubstitutionHint } from '../../model/flux-substitute.js';
import { fluxVariables, setFluxBuildScopes } from '../../load/flux-variables.js';
import type { FluxBuildScope } from '../../load/flux-variables.js';
import type { ConfigLookup, RepoObject } from '../../load/flux-variables.js';
import type { HelmfileStateValues } from '../../load/helmfile-state-values.js';
import { findNoCrossNamespaceRefs, groupSource, helmfileFiles, readDocs, readHelmfile, releaseSource, stateValuesOfFiles } from '../helmfile-flux/reader.js';
import type { AppPlace } from '../helmfile-flux/reader.js';
import type { HelmfileRelease } from '../../model/graphs.js';
import { releaseApp } from '../../model/graphs.js';
import { FLUX_APPLIED_BY_LABEL, FLUX_APPLIES_TO_LABEL, PHASE_LABEL } from '../../model/constants.js';
import { chartName, helmCharts } from '../../model/catalog/operators.js';
import { buildFluxPath } from './build.js';
import { resourceSetsNotRead } from './resourceset.js';
import { artifactIgnore } from '../../model/flux-source-ignore.js';
import type { SourceIgnore } from '../../model/flux-source-ignore.js';
import { STRICT_HINT, UNSET_HINT, strictSubstitutions } from './feature-gates.js';
import type { StrictGate } from './feature-gates.js';
import { sameRepository } from '../../model/git-url.js';
import { checkedOutRef, gitRefText, originURL } from '../../load/repository-origin.js';
import type { Built, BuildContext } from './build.js';
import { isFluxKustomization as isFluxKustomizationObject, kubeConfigTarget } from '../../model/k8s.js';

type Obj = Record<string, unknown>;

/** Folders whose subfolders are clusters. */
export const CLUSTER_ROOTS = ['clusters', 'kubernetes/clusters'];

export const FLUX_CLUSTERS_PLAN_NOTE =
  'waves are the topological depth of Flux dependsOn (a Kustomization also waits for the one whose build applies it), not Argo CD sync waves; apps in one wave reconcile in parallel';

/** A cluster's entry: its flux-system Kustomization as the bootstrap file writes it. */
export interface ClusterEntry {
  cluster: string;
  dir: string;
  entry: Built;
  /** The file holds no entry Kustomization: what fleetplan reads instead (`flux bootstrap --path`, a FluxInstance's sync). */
  implied?: string;
  /** The URL and ref (`refs/heads/main`) of the entry's source where the entry says them (a FluxInstance's sync). */
  source?: { url?: string; ref?: string; declared?: string };
}

/** The flux-system Kustomization `flux bootstrap --path=<dir>` writes into gotk-sync.yaml. */
export function bootstrapKustomization(dir: string): Obj {
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'flux-system', namespace: 'flux-system' },
    spec: { interval: '10m0s', path: `./${dir}`, prune: true, sourceRef: { kind: 'GitRepository', name: 'flux-system' } },
  };
}

/** A Flux Kustomization (model/k8s.ts) that has a name. */
function isFluxKustomization(v: unknown): v is Obj & { metadata: Obj } {
  return isFluxKustomizationObject(v) && isObj(v.metadata) && typeof v.metadata.name === 'string';
}

function yamlFiles(fs: RepoFileSystem, dir: string, depth: number, out: string[]): string[] {
  if (depth > 3) return out;
  for (const e of [...fs.list(dir)].sort()) {
    if (e.startsWith('.')) continue;
    const p = `${dir}/${e}`;
    if (fs.isDirectory(p)) yamlFiles(fs, p, depth + 1, out);
    else if (/\.ya?ml$/.test(e)) out.push(p);
  }
  return out;
}

const entriesCache = new WeakMap<RepoFileSystem, ClusterEntry[]>();

/** The FluxInstance's `spec.sync`, or the flux-instance chart's values `instance.sync` in a HelmRelease. */
function syncOf(v: unknown): Obj | undefined {
  if (!isObj(v) || !isObj(v.spec)) return undefined;
  const sync = v.kind === 'FluxInstance' ? v.spec.sync : v.kind === 'HelmRelease' && isObj(v.spec.values) && isObj(v.spec.values.instance) ? v.spec.values.instance.sync : undefined;
  return isObj(sync) && typeof sync.path === 'string' && !sync.path.includes('${') ? sync : undefined;
}

/** The flux-system Kustomization of a file (gotk-sync.yaml), if it has one. */
function bootstrapEntry(fs: RepoFileSystem, f: string, text: string): Built | undefined {
  if (!/^kind:\s*Kustomization\s*$/m.test(text) || !/\bname:\s*["']?flux-system\b/.test(text)) return undefined;
  const doc = readDocs(fs, f, []).find((d) => isFluxKustomization(d.value) && (d.value as Obj & { metadata: Obj }).metadata.name === 'flux-system');
  return doc ? { obj: doc.value as Obj, file: f, locate: doc.locate } : undefined;
}

/** flux-operator: a FluxInstance's spec.sync makes the source and Kustomization, named after its namespace. */
function instanceEntry(fs: RepoFileSystem, f: string, text: string): { entry: Built; implied: string; source: { url?: string; ref?: string; declared: string } } | undefined {
  if (!/^kind:\s*(FluxInstance|HelmRelease)\s*$/m.test(text) || !/\bsync:/.test(text)) return undefined;
  const doc = readDocs(fs, f, []).find((d) => syncOf(d.value) !== undefined);
  if (!doc) return undefined;
  const fi = doc.value as Obj;
  const sync = syncOf(fi)!;
  const ns = (fi.kind === 'HelmRelease' ? str((fi.spec as Obj).targetNamespace) : undefined) ?? str(metaOf(fi).namespace) ?? 'flux-system';
  const kind = str(sync.kind) ?? 'GitRepository';
  const sname = str(sync.name) ?? ns;
  const k = bootstrapKustomization(String(sync.path).replace(/^\.\//, '').replace(/\/+$/, '') || '.');
  k.metadata = { name: sname, namespace: ns };
  k.spec = { ...(k.spec as Obj), sourceRef: { kind, name: sname } };
  const what = fi.kind === 'FluxInstance' ? `FluxInstance ${ns}/${String(metaOf(fi).name)} spec.sync` : `HelmRelease ${ns}/${String(metaOf(fi).name)} values instance.sync (the FluxInstance it installs)`;
  return { entry: { obj: k, file: f, locate: doc.locate }, implied: `the Kustomization flux-operator generates from ${what}, path ${String(sync.path)}`, source: { ...(str(sync.url) !== undefined ? { url: str(sync.url)! } : {}), ...(str(sync.ref) !== undefined ? { ref: str(sync.ref)! } : {}), declared: `${what} in ${f}` } };
}

/**
 * The older flux-cluster-template's entry (ADR 0411): a Flux Kustomization applied by hand
 * (`kubectl apply --kustomize kubernetes/<cluster>/flux/config`) beside the GitRepository it syncs,
 * in the same file, whose path holds that file (it then manages itself, as flux-system does).
 */
function selfAppliedEntry(fs: RepoFileSystem, f: string, text: string): { entry: Built; implied: string } | undefined {
  if (!/^kind:\s*GitRepository\s*$/m.test(text) || !/^kind:\s*Kustomization\s*$/m.test(text)) return undefined;
  const docs = readDocs(fs, f, []);
  const repos = new Set(docs.filter((d) => isObj(d.value) && d.value.kind === 'GitRepository' && /^source\.toolkit\.fluxcd\.io\//.test(String(d.value.apiVersion))).map((d) => `${str(metaOf(d.value as Obj).namespace) ?? ''}/${str(metaOf(d.value as Obj).name) ?? ''}`));
  for (const d of docs) {
    if (!isFluxKustomization(d.value)) continue;
    const k = d.value;
    const ref = isObj(k.spec) && isObj(k.spec.sourceRef) ? k.spec.sourceRef : undefined;
    if (!ref || (str(ref.kind) ?? 'GitRepository') !== 'GitRepository') continue;
    const ns = str(ref.namespace) ?? str(k.metadata.namespace) ?? '';
    const path = specPath(k);
    if (!repos.has(`${ns}/${str(ref.name) ?? ''}`) || path === undefined || !within(f, path)) continue;
    return { entry: { obj: k, file: f, locate: d.locate }, implied: `applied by hand with the GitRepository ${ns}/${String(ref.name)} beside it, and applies itself from its path ${path}` };
  }
  return undefined;
}

/** True when repository file `f` is under folder `dir` (`.` holds every file). */
function within(f: string, dir: string): boolean {
  return dir === '.' || f.startsWith(`${dir}/`);
}

function readTextOrUndefined(fs: RepoFileSystem, f: string): string | undefined {
  try {
    return fs.readText(f);
  } catch {
    return undefined;
  }
}

/** Every YAML file of the repository (dot folders left out), sorted, to a depth that real layouts reach. */
function repositoryYamlFiles(fs: RepoFileSystem, dir: string, depth: number, out: string[]): string[] {
  if (depth > 8) return out;
  for (const e of [...fs.list(dir)].sort()) {
    if (e.startsWith('.') || e === 'node_modules') continue;
    const p = dir === '.' ? e : `${dir}/${e}`;
    if (fs.isDirectory(p)) repositoryYamlFiles(fs, p, depth + 1, out);
    else if (/\.ya?ml$/.test(e)) out.push(p);
  }
  return out;
}

/** Path segments that name no cluster (`./kubernetes/main/flux` is cluster main). */
const GENERIC_SEGMENTS = new Set(['', '.', 'app', 'apps', 'base', 'cluster', 'clusters', 'deploy', 'flux', 'flux-system', 'gitops', 'k8s', 'kubernetes', 'manifests']);

/**
 * The cluster names of entries found outside clusters/<name>/ (ADR 0339): with one entry, the last
 * segment of its path that is not a generic folder name (`./hub` → hub), else `cluster`; with
 * several, per path the segment at the first index where it differs from every other path
 * (`kubernetes/main/flux`, `kubernetes/utility/flux`, `devenv/oci/flux` → main, utility, devenv);
 * a name taken twice gets its position.
 */
function entryNames(paths: readonly string[]): string[] {
  const segs = paths.map((p) => p.split('/').filter((x) => x !== '' && x !== '.'));
  if (segs.length === 0) return [];
  const lastNamed = (s: readonly string[]) => [...s].reverse().find((x) => !GENERIC_SEGMENTS.has(x));
  const names =
    segs.length === 1
      ? [lastNamed(segs[0]!) ?? 'cluster']
      : segs.map((s, j) => {
          let at = 0;
          for (const [k, o] of segs.entries()) {
            if (k === j) continue;
            let i = 0;
            while (s[i] !== undefined && s[i] === o[i]) i++;
            at = Math.max(at, i);
          }
          return s[at] ?? lastNamed(s) ?? `cluster-${j + 1}`;
        });
  return names.map((n, j) => (names.indexOf(n) !== j ? `${n}-${j + 1}` : n));
}

/**
 * Entries anywhere in the repository, when no clusters/<name>/ has one (ADR 0339): a flux-system
 * Kustomization in any file (`hub/flux-system/gotk-sync.yaml`), else a FluxInstance's sync or the
 * flux-instance chart's `instance.sync` in a HelmRelease (`kubernetes/main/apps/flux-system/…`).
 * One entry per path; the cluster is named from the path (entryNames).
 */
function entriesAnywhere(fs: RepoFileSystem): ClusterEntry[] {
  const kustomizations: { entry: Built; implied?: string }[] = [];
  const instances: { entry: Built; implied?: string }[] = [];
  const placeholders: { entry: Built; implied?: string }[] = [];
  const selfApplied: { entry: Built; implied?: string }[] = [];
  for (const f of repositoryYamlFiles(fs, '.', 0, [])) {
    const text = readTextOrUndefined(fs, f);
    if (text !== undefined && (f === 'flux-system/gotk-sync.yaml' || f.endsWith('/flux-system/gotk-sync.yaml')) && !bootstrapEntry(fs, f, text)) {
      // A placeholder gotk-sync.yaml (`hub/flux-system/`): what flux bootstrap --path=<its parent> writes there.
      const dir = f.split('/').slice(0, -2).join('/') || '.';
      placeholders.push({ entry: { obj: bootstrapKustomization(dir), file: f, locate: () => ({ line: 1, column: 1 }) }, implied: `a placeholder: read as flux bootstrap --path=${dir} writes it` });
      continue;
    }
    if (text === undefined || !/toolkit\.fluxcd\.io\/|fluxcd\.controlplane\.io\//.test(text)) continue;
    const k = bootstrapEntry(fs, f, text);
    if (k) kustomizations.push({ entry: k });
    else {
      const i = instanceEntry(fs, f, text);
      const own = i ? undefined : selfAppliedEntry(fs, f, text);
      if (i) instances.push(i);
      else if (own) selfApplied.push(own);
    }
  }
  // A self-applied Kustomization inside the path of another entry is one of that entry's objects, not an entry.
  const entries = [...kustomizations, ...instances];
  const paths = entries.map((c) => specPath(c.entry.obj));
  entries.push(...selfApplied.filter((c) => !paths.some((p) => p !== undefined && p !== specPath(c.entry.obj) && within(c.entry.file, p))));
  const byPath = new Map<string, { entry: Built; implied?: string }>();
  for (const c of entries.length ? entries : placeholders) {
    const p = specPath(c.entry.obj);
    if (p !== undefined && !byPath.has(p)) byPath.set(p, c);
  }
  const found = [...byPath.keys()];
  const names = entryNames(found);
  return found.map((p, i) => ({ cluster: names[i]!, dir: p, ...byPath.get(p)! })).sort((a, b) => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0));
}

/**
 * YAML files with Flux objects (HelmRelease, Kustomization, sources) in a repository without a Flux
 * entry: a component or tenant repository that a fleet's GitRepository or OCIRepository points at.
 */
export function fluxObjectFiles(fs: RepoFileSystem): string[] {
  return repositoryYamlFiles(fs, '.', 0, []).filter((f) => /^apiVersion:\s*["']?(helm|kustomize|source)\.toolkit\.fluxcd\.io\//m.test(readTextOrUndefined(fs, f) ?? ''));
}

/** True when a file holds a Flux Kustomization (kustomize.toolkit.fluxcd.io). */
function holdsFluxKustomization(fs: RepoFileSystem, f: string): boolean {
  const text = readTextOrUndefined(fs, f);
  return text !== undefined && /^apiVersion:\s*kustomize\.toolkit\.fluxcd\.io\//m.test(text) && /^kind:\s*Kustomization\s*$/m.test(text);
}

/**
 * Each `clusters/<name>/` with a Flux Kustomization named flux-system (gotk-sync.yaml, written by
 * `flux bootstrap`, or any file there), sorted by cluster name; else a FluxInstance there; else a
 * placeholder gotk-sync.yaml or Flux Kustomizations directly in the folder, read as `flux bootstrap
 * --path=clusters/<name>` makes them. When no such folder has one, entries anywhere (entriesAnywhere).
 */
export function clusterEntries(fs: RepoFileSystem): ClusterEntry[] {
  const known = entriesCache.get(fs);
  if (known) return known;
  const out: ClusterEntry[] = [];
  if (!fs.exists(FLEET_FILE)) {
    for (const root of CLUSTER_ROOTS) {
      if (!fs.isDirectory(root)) continue;
      for (const name of [...fs.list(root)].sort()) {
        const dir = `${root}/${name}`;
        if (name.startsWith('.') || !fs.isDirectory(dir) || out.some((e) => e.cluster === name)) continue;
        const files = yamlFiles(fs, dir, 0, []);
        // gotk-sync.yaml first: where flux bootstrap writes the entry.
        files.sort((a, b) => Number(!a.endsWith('/gotk-sync.yaml')) - Number(!b.endsWith('/gotk-sync.yaml')) || (a < b ? -1 : a > b ? 1 : 0));
        let found = false;
        for (const f of files) {
          const text = readTextOrUndefined(fs, f);
          const entry = text === undefined ? undefined : bootstrapEntry(fs, f, text);
          if (entry) {
            out.push({ cluster: name, dir, entry });
            found = true;
            break;
          }
        }
        if (!found) {
          for (const f of files) {
            const text = readTextOrUndefined(fs, f);
            const i = text === undefined ? undefined : instanceEntry(fs, f, text);
            if (i) {
              out.push({ cluster: name, dir, ...i });
              found = true;
              break;
            }
          }
        }
        const sync = `${dir}/flux-system/gotk-sync.yaml`;
        if (!found && fs.exists(sync)) {
          // A placeholder gotk-sync.yaml (Flux's example repositories): the Kustomization flux bootstrap --path=<dir> writes there.
          out.push({ cluster: name, dir, entry: { obj: bootstrapKustomization(dir), file: sync, locate: () => ({ line: 1, column: 1 }) }, implied: `a placeholder: read as flux bootstrap --path=${dir} writes it` });
        } else if (!found) {
          // No flux-system folder at all (Azure/Flux tutorials: `flux bootstrap --path=clusters/<name>` writes it on first run):
          // the Flux Kustomizations directly in the folder are what that bootstrap applies (ADR 0339).
          const direct = files.filter((f) => f.lastIndexOf('/') === dir.length && holdsFluxKustomization(fs, f));
          if (direct.length) {
            out.push({ cluster: name, dir, entry: { obj: bootstrapKustomization(dir), file: direct[0]!, locate: () => ({ line: 1, column: 1 }) }, implied: `no flux-system Kustomization in ${dir}: read as flux bootstrap --path=${dir} writes it` });
          }
        }
      }
    }
    if (!out.length) out.push(...entriesAnywhere(fs));
  }
  entriesCache.set(fs, out);
  return out;
}

export function detectFluxClusters(fs: RepoFileSystem): boolean {
  return clusterEntries(fs).length > 0;
}

export function fluxClustersMarkers(fs: RepoFileSystem): string[] {
  return clusterEntries(fs).map((e) => e.entry.file);
}

/**
 * The plan's name for a cluster folder: the folder name when it is a DNS-1123 name, else the folder
 * name lower-cased with other characters as `-` (`talos_cluster` → `talos-cluster`), unless that
 * is another folder's name.
 */
export function clusterName(folder: string, entries: readonly ClusterEntry[]): string {
  if (/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(folder)) return folder;
  const mapped = folder.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'cluster';
  return entries.some((e) => e.cluster === mapped) ? folder : mapped;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function metaOf(o: Obj): Obj {
  return isObj(o.metadata) ? o.metadata : {};
}

function idOf(o: Obj): string {
  const m = metaOf(o);
  return `${str(m.namespace) ?? ''}/${String(m.name)}`;
}

/** `spec.path` as a repository-relative path inside the source's root. */
function specPath(o: Obj): string | undefined {
  const spec = isObj(o.spec) ? o.spec : {};
  const p = str(spec.path);
  if (p === undefined) return '.';
  return joinRelative('.', p.replace(/^\.\//, '').replace(/\/+$/, '') || '.');
}

/** One Flux Kustomization of a cluster, as applied. */
interface Node {
  id: string;
  built: Built;
  parent?: Node;
  /** The repository path its build reads (absent: not read, see `notRead`). */
  repoPath?: string;
  notRead?: string;
  /** The remote cluster its objects are applied to (ADR 0369): `<namespace>/<Secret or ConfigMap name>` of its kubeConfig. */
  target?: string;
  /** Flux Kustomizations among the objects it applies to its spoke: objects there, not followed from the hub. */
  spokeKustomizations?: string[];
  /** What its GitRepository's artifact leaves out (ADR 0421). */
  ignore?: SourceIgnore;
}

/** A lookup of ConfigMaps and Secrets that one cluster's Kustomizations apply. */
class ClusterObjects implements ConfigLookup {
  constructor(private readonly objects: readonly Built[]) {}
  find(kind: string, name: string, namespace: string): RepoObject[] {
    const same = this.objects.filter((b) => b.obj.kind === kind && metaOf(b.obj).name === name);
    const exact = same.filter((b) => metaOf(b.obj).namespace === namespace);
    return exact.map((b) => ({ kind, name, namespace, file: b.file, body: b.obj }));
  }
  signature(): string {
    return JSON.stringify(this.objects.filter((b) => b.obj.kind === 'ConfigMap' || b.obj.kind === 'Secret').map((b) => [idOf(b.obj), b.obj.kind, b.obj.data ?? null, b.obj.stringData ?? null]));
  }
}

/**
 * Where an ExternalArtifact of an ArtifactGenerator (source-watcher) is in this repository: when
 * every copy of the artifact is `@<alias>/<dir>/**` → `@artifact/<sub>/` from the repository's own
 * GitRepository and `<dir>` ends with `<sub>`, the artifact is the repository folder
 * `<dir minus sub>` restricted to the copied folders, and relative paths resolve as in the repository.
 */
function artifactRoot(objects: readonly Built[], name: string, namespace: string, self: { name: string; namespace: string }): { root: string; copied: string[] } | string {
  const gen = objects.find((b) => b.obj.kind === 'ArtifactGenerator' && metaOf(b.obj).namespace === namespace && isObj(b.obj.spec) && Array.isArray(b.obj.spec.artifacts) && b.obj.spec.artifacts.some((a) => isObj(a) && a.name === name));
  if (!gen) return `no ArtifactGenerator in ${namespace} makes the ExternalArtifact ${name}`;
  const spec = gen.obj.spec as Obj;
  const aliases = new Map<string, Obj>();
  for (const s of Array.isArray(spec.sources) ? spec.sources.filter(isObj) : []) if (typeof s.alias === 'string') aliases.set(s.alias, s);
  const art = (spec.artifacts as unknown[]).find((a) => isObj(a) && a.name === name) as Obj;
  const copies = Array.isArray(art.copy) ? art.copy.filter(isObj) : [];
  let root: string | undefined;
  const copied: string[] = [];
  for (const c of copies) {
    const m = /^@([^/]+)\/(.*?)\/?\*\*$/.exec(String(c.from ?? ''));
    const t = /^@artifact\/?(.*?)\/?$/.exec(String(c.to ?? ''));
    const src = m ? aliases.get(m[1]!) : undefined;
    if (!m || !t || c.exclude !== undefined || !src || src.kind !== 'GitRepository' || src.name !== self.name || (str(src.namespace) ?? namespace) !== self.namespace) {
      return `ArtifactGenerator ${namespace}/${String(metaOf(gen.obj).name)} copies ${String(c.from)} to ${String(c.to)}, which fleetplan does not map to a folder of this repository`;
    }
    const from = m[2]!.replace(/\/+$/, '');
    const to = t[1]!;
    const base = to === '' ? from : from === to ? '.' : from.endsWith(`/${to}`) ? from.slice(0, -to.length - 1) : undefined;
    if (base === undefined || (root !== undefined && root !== base)) return `ArtifactGenerator ${namespace}/${String(metaOf(gen.obj).name)} moves folders around (${String(c.from)} → ${String(c.to)}), which fleetplan does not map to this repository`;
    root = base;
    copied.push(from === '' ? '.' : from);
  }
  return root === undefined ? `ExternalArtifact ${name} copies nothing` : { root, copied };
}

interface ClusterRead {
  nodes: Node[];
  objects: Built[];
  findings: Finding[];
  /** kustomize-controller's StrictPostBuildSubstitutions on this cluster (feature-gates.ts). */
  gate: StrictGate;
  /** Whether the GitRepository `namespace/name` is this repository: the entry's source, or one of the same URL and ref (ADR 0380, for charts too: 0393). */
  thisRepository: (name: string, namespace: string) => boolean;
}

/** Names that say "a cluster" and nothing about which: not a spoke's name (`cluster-kubeconfig`). */
const GENERIC_KUBECONFIG = /^(cluster|remote|spoke|target|kube|workload|managed)$/;

/**
 * The plan's name of a spoke from its kubeconfig reference (ADR 0369): Cluster API's
 * `<cluster>-kubeconfig` Secret gives `<cluster>`; a generic name (`cluster-kubeconfig`, one per
 * namespace as flux2-hub-spoke-example keeps it) gives the Secret's namespace, unless that is
 * flux-system or default; else the Secret's name. A name taken (the hub, another spoke) becomes
 * `<namespace>-<name>`.
 */
export function spokeName(target: string, taken: ReadonlySet<string>): string {
  const [ns, ref] = [target.slice(0, target.indexOf('/')), target.slice(target.indexOf('/') + 1).replace(/^configmap:/, '')];
  const m = /^(.+)-kubeconfig$/.exec(ref);
  let name = m && !GENERIC_KUBECONFIG.test(m[1]!) ? m[1]! : ns !== 'flux-system' && ns !== 'default' ? ns : ref;
  name = name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'spoke';
  if (taken.has(name)) name = `${ns}-${ref}`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
  return name;
}

/**
 * Whether the GitRepository `namespace/name` a Kustomization builds from is this repository: true
 * when the cluster applies it with the URL of the entry's own source (its GitRepository object, a
 * FluxInstance's sync, else the clone's origin) and the same ref (home-ops repositories declare
 * `home-kubernetes` next to flux-system); a string says why not, undefined when the object is not
 * in the cluster's objects. `spec.ignore` only hides files: the paths Flux builds are the clone's.
 */
function sameGitSource(fs: RepoFileSystem, e: ClusterEntry, objects: readonly Built[], self: { name: string; namespace: string }, name: string, namespace: string): true | string | undefined {
  const find = (n: string, ns: string) => objects.find((b) => b.obj.kind === 'GitRepository' && metaOf(b.obj).name === n && (str(metaOf(b.obj).namespace) ?? ns) === ns);
  const other = find(name, namespace);
  if (!other) return undefined;
  const spec = isObj(other.obj.spec) ? other.obj.spec : {};
  const own = find(self.name, self.namespace);
  const ownSpec = own && isObj(own.obj.spec) ? own.obj.spec : {};
  const selfURL = str(ownSpec.url) ?? e.source?.url ?? originURL(fs);
  const selfRef = own ? gitRefText(ownSpec.ref) : e.source?.ref ?? checkedOutRef(fs);
  const url = str(spec.url);
  const ref = gitRefText(spec.ref);
  if (url === undefined || selfURL === undefined || !sameRepository(url, selfURL)) return `its URL ${String(url)} is not ${selfURL ?? 'known for this repository'}`;
  if (ref === undefined || ref !== selfRef) return `the same repository at ${ref ?? 'its default branch'}, not ${selfRef ?? 'a ref fleetplan knows'}, another revision`;
  return true;
}

/** One pass over a cluster: the entry's build, then every Kustomization it applies, breadth first. */
function walkCluster(fs: RepoFileSystem, e: ClusterEntry, scope: ConfigLookup, gate: StrictGate): ClusterRead {
  const findings: Finding[] = [];
  const ctx: BuildContext = { fs, findings, reported: new Set() };
  const rootObj = e.entry.obj;
  const rootNs = str(metaOf(rootObj).namespace) ?? 'flux-system';
  const rootSpec = isObj(rootObj.spec) ? rootObj.spec : {};
  const rootRef = isObj(rootSpec.sourceRef) ? rootSpec.sourceRef : {};
  const self = { name: str(rootRef.name) ?? 'flux-system', namespace: str(rootRef.namespace) ?? rootNs };
  const selfKind = str(rootRef.kind) ?? 'GitRepository';
  /** The entry's source as the repository declares it: where, and its URL (a FluxInstance's sync, else the source object read). */
  const selfSource = (): string => {
    const decl = objects.find((b) => b.obj.kind === selfKind && metaOf(b.obj).name === self.name && (str(metaOf(b.obj).namespace) ?? rootNs) === self.namespace);
    const url = e.source?.url ?? (decl && isObj(decl.obj.spec) ? str(decl.obj.spec.url) : undefined);
    const where = e.source?.declared ?? (decl ? `in ${decl.file}` : 'declared nowhere in the repository');
    return `${selfKind} ${self.namespace}/${self.name} (${where}${url !== undefined ? `, ${url}` : ''})`;
  };
  const root: Node = { id: `${rootNs}/${String(metaOf(rootObj).name)}`, built: { ...e.entry, obj: { ...rootObj, metadata: { ...metaOf(rootObj), namespace: rootNs } } } };
  const nodes = new Map<string, Node>([[root.id, root]]);
  const objects: Built[] = [];
  const queue: Node[] = [root];
  let selfApplied = false;
  while (queue.length) {
    const n = queue.shift()!;
    const obj = n.built.obj;
    const ns = str(metaOf(obj).namespace) ?? rootNs;
    const spec = isObj(obj.spec) ? obj.spec : {};
    const ref = isObj(spec.sourceRef) ? spec.sourceRef : {};
    const kind = str(ref.kind) ?? '?';
    const refName = str(ref.name) ?? '?';
    const refNs = str(ref.namespace) ?? ns;
    const path = specPath(obj);
    const at = n.built.locate(['spec', 'path']);
    if (path === undefined) {
      findings.push({ severity: 'error', code: 'flux-path-outside', message: `Kustomization ${n.id} has spec.path ${String(spec.path)}, which leaves its source`, file: n.built.file, line: at.line, hint: 'spec.path is relative to the source root' });
      continue;
    }
    let repoPath: string | undefined;
    let allowed: string[] | undefined;
    // Applied by this cluster's Flux to another cluster (hub and spokes): its objects are that
    // cluster's, not this one's (ADR 0369).
    const remote = kubeConfigTarget(spec, ns);
    if (remote === null) {
      n.notRead = 'it applies its objects to the remote cluster of spec.kubeConfig, which names neither a Secret nor a ConfigMap';
      continue;
    }
    n.target = remote;
    if (kind === 'GitRepository' && refName === self.name && refNs === self.namespace) repoPath = path;
    else if (kind === 'ExternalArtifact') {
      const a = artifactRoot(objects, refName, refNs, self);
      if (typeof a === 'string') n.notRead = a;
      else {
        repoPath = joinRelative(a.root, path);
        allowed = a.copied;
      }
    } else {
      const same = kind === 'GitRepository' ? sameGitSource(fs, e, objects, self, refName, refNs) : undefined;
      if (same === true) repoPath = path;
      else if (selfKind !== 'GitRepository' && kind === selfKind && refName === self.name && refNs === self.namespace) {
        // The entry itself builds an artifact (a FluxInstance synced from an OCIRepository): not this repository's files.
        n.notRead = `its source is the entry's ${selfSource()}, an artifact built elsewhere, not this repository's files`;
      } else n.notRead = `its source ${kind} ${refNs}/${refName} is not this repository (${selfKind === 'GitRepository' ? 'GitRepository' : 'the entry builds'} ${selfKind === 'GitRepository' ? `${self.namespace}/${self.name}` : selfSource()})${typeof same === 'string' ? `: ${same}` : ''}`;
    }
    if (repoPath === undefined) {
      n.notRead ??= `spec.path ${String(spec.path)} leaves the artifact`;
      continue;
    }
    n.repoPath = repoPath;
    if (!fs.isDirectory(repoPath) || (allowed && !allowed.some((c) => c === '.' || repoPath === c || repoPath!.startsWith(`${c}/`)))) {
      findings.push({ severity: 'error', code: 'flux-path-missing', message: `Kustomization ${n.id} builds ${repoPath}, which is not a directory${allowed ? ' of its artifact' : ''}; Flux fails it ("kustomization path not found")`, file: n.built.file, line: at.line, column: at.column, hint: 'fix spec.path (relative to the source root)' });
      continue;
    }
    // The artifact leaves out what `.sourceignore` files and the GitRepository's spec.ignore name (ADR 0421).
    if (kind === 'GitRepository') n.ignore = artifactIgnore(fs, objects.find((b) => b.obj.kind === 'GitRepository' && metaOf(b.obj).name === refName && (str(metaOf(b.obj).namespace) ?? refNs) === refNs)?.obj);
    const built = buildFluxPath({ ...ctx, ...(n.ignore ? { ignore: n.ignore } : {}) }, repoPath, obj, n.built.file) ?? [];
    const vars = fluxVariables({ ...obj, metadata: { ...metaOf(obj), namespace: ns } }, scope);
    if (vars.unresolved.length) {
      findings.push({
        severity: 'warning',
        code: 'flux-substitution-unresolved',
        message: `Kustomization ${n.id} substitutes variables from ${vars.unresolved.map((u) => `${u.source} (${u.reason})`).join(', ')}; fleetplan shows its objects unsubstituted`,
        file: n.built.file,
        line: n.built.locate(['spec', 'postBuild']).line,
        hint: 'the values exist only in the cluster; plan and render show ${...} where Flux would put them',
      });
    }
    // Variables left unset without the strict gate: each object that reads one, for one warning per Kustomization.
    const unsetIn: { names: Set<string>; b: Built }[] = [];
    for (const b of built) {
      let o = b.obj;
      const m = metaOf(o);
      const flag = 'kustomize.toolkit.fluxcd.io/substitute';
      const disabled = (isObj(m.labels) && m.labels[flag] === 'disabled') || (isObj(m.annotations) && m.annotations[flag] === 'disabled');
      if (vars.active && !vars.unresolved.length && !disabled) {
        const unset = new Set<string>();
        try {
          // A value from a Secret is never printed (ADR 0191). kustomize-controller substitutes in
          // kustomize's output and reads the text with go-yaml v2 (ADR 0389): `${X}` set to `on` is true.
          const text = fluxSubstitute(dumpYaml(o, { schema: 'kubernetes' }), (v) => (vars.secret.has(v) ? `REDACTED_SECRET_${v}` : vars.vars[v]), undefined, (v) => vars.secret.has(v), gate.strict ? { strict: true } : { unset });
          const back = parseYamlAll(text, { schema: 'kubernetes' })[0];
          if (isObj(back)) o = back;
          if (unset.size) unsetIn.push({ names: unset, b });
        } catch (err) {
          const strictNote = gate.strict && err instanceof FluxSubstituteError && !err.notEvaluated && /strict mode/.test(err.message) ? ` (${gate.why})` : '';
          findings.push({ severity: 'error', code: 'flux-substitution', message: `post-build substitution of Kustomization ${n.id} fails on ${String(o.kind)} ${String(m.name)}: ${err instanceof FluxSubstituteError ? err.message : (err as Error).message}${strictNote}`, file: b.file, line: b.locate(['metadata', 'name']).line, hint: strictNote ? STRICT_HINT : fluxSubstitutionHint(err) });
        }
      }
      const applied: Built = { ...b, obj: o };
      objects.push(applied);
      if (!isFluxKustomization(o)) continue;
      if (n.target !== undefined) {
        // A Kustomization object applied to a spoke lives there: the hub's Flux never reconciles it.
        (n.spokeKustomizations ??= []).push(`Kustomization ${str(o.metadata.namespace) ?? '(no namespace)'}/${String(o.metadata.name)} (${b.file})`);
        continue;
      }
      if (str(o.metadata.namespace) === undefined) {
        findings.push({ severity: 'error', code: 'flux-kustomization-namespace-unset', message: `Kustomization ${String(o.metadata.name)} has no metadata.namespace after the build of ${n.id} (${repoPath}); Flux refuses to apply it ("namespace not specified")`, file: b.file, line: b.locate(['metadata', 'name']).line, hint: `set metadata.namespace, or namespace: in the kustomization.yaml of ${repoPath}; fleetplan assumes ${rootNs} meanwhile` });
        o = { ...o, metadata: { ...o.metadata, namespace: rootNs } };
        applied.obj = o;
      }
      const id = idOf(o);
      const known = nodes.get(id);
      if (known === root && n === root && !selfApplied) {
        selfApplied = true;
        // The entry applies itself (clusters/<c> holds flux-system/gotk-sync.yaml): take it as built.
        root.built = applied;
        continue;
      }
      if (known) {
        if (known.built.file !== b.file || known.parent !== n) {
          findings.push({ severity: 'warning', code: 'flux-kustomization-duplicate', message: `Kustomization ${id} is applied by ${known.parent ? `Kustomization ${known.parent.id}` : 'the bootstrap'} (${known.built.file}) and again by Kustomization ${n.id} (${b.file}); the two fight over one object and the cluster ends with the last applied`, file: b.file, line: b.locate(['metadata', 'name']).line, hint: 'keep one of them; fleetplan shows the first' });
        }
        continue;
      }
      const child: Node = { id, built: applied, parent: n };
      nodes.set(id, child);
      queue.push(child);
    }
    if (unsetIn.length) {
      const first = unsetIn[0]!.b;
      const names = [...new Set(unsetIn.flatMap((u) => [...u.names]))];
      findings.push({
        severity: 'warning',
        code: 'flux-substitution-unset',
        message: `Kustomization ${n.id} substitutes ${names.map((v) => `\${${v}}`).join(', ')}, which none of its variables defines, in ${unsetIn.map((u) => `${String(u.b.obj.kind)} ${String(metaOf(u.b.obj).name)} (${u.b.file})`).join(', ')}: kustomize-controller writes an empty string there (${gate.why})`,
        file: first.file,
        line: first.locate(['metadata', 'name']).line,
        hint: UNSET_HINT,
      });
    }
  }
  return { nodes: [...nodes.values()], objects, findings, gate, thisRepository: (name, namespace) => name === self.name || name === 'flux-system' || sameGitSource(fs, e, objects, self, name, namespace) === true };
}

/** A cluster read to a fixed point: substitution sources are what the cluster's own Kustomizations apply. */
function readCluster(fs: RepoFileSystem, e: ClusterEntry): ClusterRead {
  let scope = new ClusterObjects([]);
  // The StrictPostBuildSubstitutions gate is read from what the cluster applies (its Flux installation), as the sources are.
  let read = walkCluster(fs, e, scope, strictSubstitutions([]));
  for (let i = 0; i < 4; i++) {
    const next = new ClusterObjects(read.objects);
    const gate = strictSubstitutions(read.objects);
    if (next.signature() === scope.signature() && gate.why === read.gate.why) break;
    scope = next;
    read = walkCluster(fs, e, scope, gate);
  }
  return read;
}

const EXACT_VERSION = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * What a cluster's HelmReleases pin (docs/adr/0281-flux-chart-versions.md): per release, the chart
 * version or OCI reference, whether it is pinned (exact version, digest, tag) or resolved only at
 * reconcile time (a semver range: never resolved offline, never guessed); and valuesFrom references
 * that nothing in the cluster's Kustomizations applies.
 */
function helmReleaseChecks(read: ClusterRead): { findings: Finding[]; notes: string[] } {
  const findings: Finding[] = [];
  const pinned: string[] = [];
  const floating: string[] = [];
  const find = (kind: string, name: string, ns: string) => read.objects.find((b) => b.obj.kind === kind && metaOf(b.obj).name === name && (str(metaOf(b.obj).namespace) ?? ns) === ns);
  for (const b of read.objects) {
    const o = b.obj;
    if (o.kind !== 'HelmRelease' || typeof o.apiVersion !== 'string' || !o.apiVersion.startsWith('helm.toolkit.fluxcd.io/')) continue;
    const ns = str(metaOf(o).namespace) ?? 'default';
    const id = `${ns}/${String(metaOf(o).name)}`;
    const spec = isObj(o.spec) ? o.spec : {};
    (Array.isArray(spec.valuesFrom) ? spec.valuesFrom : []).forEach((vf: unknown, j: number) => {
      if (!isObj(vf) || vf.optional === true) return;
      const kind = vf.kind === 'Secret' ? 'Secret' : 'ConfigMap';
      if (find(kind, String(vf.name), ns)) return;
      const at = b.locate(['spec', 'valuesFrom', j]);
      findings.push({ severity: 'warning', code: 'flux-values-from-missing', message: `HelmRelease ${id} takes values from ${kind} ${ns}/${String(vf.name)}, which no Kustomization of this cluster applies; helm-controller fails the release until it exists, and fleetplan cannot show those values`, file: b.file, line: at.line, column: at.column, hint: `commit the ${kind} (SOPS-free) with the release, mark the reference optional: true, or ignore this if the cluster creates it (ExternalSecret, operator)` });
    });
    // helm-controller runs these kustomize patches and images over the chart output; fleetplan's leaves do not (ADR 0418).
    const kustomizeRenderers = Array.isArray(spec.postRenderers) ? spec.postRenderers.filter((r: unknown) => isObj(r) && isObj(r.kustomize)).length : 0;
    if (kustomizeRenderers > 0) {
      const at = b.locate(['spec', 'postRenderers']);
      findings.push({ severity: 'warning', code: 'flux-post-renderers-not-applied', message: `HelmRelease ${id}: spec.postRenderers (${kustomizeRenderers} kustomize post-renderer${kustomizeRenderers === 1 ? '' : 's'}) is not applied to its chart's objects in the rendered leaves; helm-controller patches them (patches, images) before applying`, file: b.file, line: at.line, column: at.column, hint: 'read the leaves of this release as before its post-renderers; the origin labels and spec.commonMetadata are applied' });
    }
    // A chartRef to a HelmChart: the chart is the HelmChart's (its spec has chart.spec's fields), reported at the HelmChart.
    const viaChart = isObj(spec.chartRef) && spec.chartRef.kind === 'HelmChart' ? find('HelmChart', String(spec.chartRef.name), str(spec.chartRef.namespace) ?? ns) : undefined;
    const chartSpec = isObj(spec.chart) && isObj(spec.chart.spec) ? spec.chart.spec : viaChart && isObj(viaChart.obj.spec) ? viaChart.obj.spec : undefined;
    const [at0, base, label] = viaChart && chartSpec === viaChart.obj.spec ? [viaChart, ['spec'], `HelmRelease ${id}: HelmChart ${idOf(viaChart.obj)}`] : [b, ['spec', 'chart', 'spec'], `HelmRelease ${id}`];
    if (chartSpec) {
      const sref = isObj(chartSpec.sourceRef) ? chartSpec.sourceRef : {};
      if (sref.kind === 'GitRepository') {
        pinned.push(`${id}: ${String(chartSpec.chart)} from GitRepository ${String(sref.name)} (the revision of that repository)`);
        continue;
      }
      const version = str(chartSpec.version) ?? '*';
      if (EXACT_VERSION.test(version)) {
        pinned.push(`${id}: ${String(chartSpec.chart)} ${version}`);
        continue;
      }
      const at = chartSpec.version === undefined ? at0.locate(base) : at0.locate([...base, 'version']);
      floating.push(`${id}: ${String(chartSpec.chart)} ${version}`);
      findings.push({ severity: 'info', code: 'flux-chart-version-range', message: `${label}: chart ${String(chartSpec.chart)} version ${JSON.stringify(version)} is ${chartSpec.version === undefined ? 'not set (any version)' : 'a range'}; helm-controller installs the newest matching version of ${String(sref.kind)} ${String(sref.name)} at reconcile time, which fleetplan cannot know offline, so it names no version`, file: at0.file, line: at.line, column: at.column, hint: 'pin an exact version for a plan that says exactly what is installed' });
    } else if (isObj(spec.chartRef)) {
      const ref = spec.chartRef;
      const rns = str(ref.namespace) ?? ns;
      const src = ref.kind === 'OCIRepository' ? find('OCIRepository', String(ref.name), rns) : undefined;
      if (!src) {
        floating.push(`${id}: chartRef ${String(ref.kind)} ${rns}/${String(ref.name)} (not applied by this cluster's Kustomizations)`);
        continue;
      }
      const sspec = isObj(src.obj.spec) ? src.obj.spec : {};
      const r = isObj(sspec.ref) ? sspec.ref : {};
      const url = String(sspec.url);
      if (typeof r.digest === 'string') pinned.push(`${id}: ${url}@${r.digest} (digest)`);
      else if (typeof r.semver === 'string') {
        const at = src.locate(['spec', 'ref', 'semver']);
        floating.push(`${id}: ${url} semver ${r.semver}`);
        findings.push({ severity: 'info', code: 'flux-chart-version-range', message: `HelmRelease ${id}: OCIRepository ${rns}/${String(ref.name)} selects ${url} by semver range ${JSON.stringify(r.semver)}; source-controller picks the newest matching tag at reconcile time, which fleetplan cannot know offline, so it names no version`, file: src.file, line: at.line, column: at.column, hint: 'pin ref.tag or ref.digest for a plan that says exactly what is installed' });
      } else {
        const tag = str(r.tag) ?? 'latest';
        pinned.push(`${id}: ${url}:${tag} (tag${r.tag === undefined ? ', the default latest' : ''}; a tag can be moved, a digest cannot)`);
      }
    }
  }
  const notes: string[] = [];
  if (pinned.length || floating.length) {
    notes.push(`HelmRelease charts: ${pinned.length} pinned, ${floating.length} resolved only at reconcile time${floating.length ? ` (${floating.join('; ')})` : ''}`);
  }
  return { findings, notes };
}

/** A kubeconfig reference in words: `the kubeConfig Secret ns/name` (or ConfigMap). */
function kubeConfigText(target: string): string {
  const ns = target.slice(0, target.indexOf('/'));
  const ref = target.slice(target.indexOf('/') + 1);
  return ref.startsWith('configmap:') ? `kubeConfig ConfigMap ${ns}/${ref.slice('configmap:'.length)}` : `kubeConfig Secret ${ns}/${ref}`;
}

/** `Kind namespace/name` of a Kustomization's source. */
function notReadSource(o: Obj): string {
  const spec = isObj(o.spec) ? o.spec : {};
  const ref = isObj(spec.sourceRef) ? spec.sourceRef : {};
  return `${String(ref.kind)} ${str(ref.namespace) ?? str(metaOf(o).namespace) ?? 'flux-system'}/${String(ref.name)}`;
}

function depths<T>(nodes: readonly T[], edges: (n: T) => T[]): Map<T, number> {
  const depth = new Map<T, number>();
  const state = new Map<T, 1 | 2>();
  const visit = (n: T): number => {
    if (state.get(n) === 2) return depth.get(n)!;
    state.set(n, 1);
    let d = 0;
    for (const m of edges(n)) if (state.get(m) !== 1) d = Math.max(d, visit(m) + 1);
    state.set(n, 2);
    depth.set(n, d);
    return d;
  };
  for (const n of nodes) visit(n);
  return depth;
}


/** The environment variable a helmfile bootstrap of the flux layout is run with: the cluster's folder name (ADR 0320). */
export const HELMFILE_CLUSTER_ENV = 'CLUSTER';

/** What the plan says of a cluster's helmfile bootstrap: what it ran the templates with, and what it could not read. */
function helmfileNote(releases: readonly HelmfileRelease[], cluster: string): string {
  const files = [...new Set(releases.map((r) => r.file))].join(', ');
  const unread = releases.filter((r) => r.notRead?.length).map((r) => `${releaseApp(r)}: ${r.notRead!.join('; ')}`);
  return `bootstrap: the helmfile releases of ${files} run before Flux (their CRD phase first); their templates are executed as helmfile does, with ${HELMFILE_CLUSTER_ENV}=${cluster}${unread.length ? `; not read: ${unread.join(' | ')}` : ''}`;
}

export function loadFluxClusters(fs: RepoFileSystem, context: { helmfileEnvironment?: string; helmfileStateValues?: HelmfileStateValues; helmfileChartDigests?: boolean; helmfileEnv?: Record<string, string> } = {}): LoadResult {
  const environment = context.helmfileEnvironment;
  const stateValues = context.helmfileStateValues;
  const findings: Finding[] = [];
  const entries = clusterEntries(fs);
  const flux: FluxKustomization[] = [];
  const clusters: ClusterDef[] = [];
  const groups = new Map<string, GroupDef>();
  const sourceApps = new Map<string, { apps: Record<string, AppSpec>; at: Map<string, AppPlace> }>();
  const scopes: { cluster: string; manifest: object; scope: FluxBuildScope }[] = [];
  // A helmfile bootstrap next to the clusters (bootstrap/helmfile/…) runs before Flux on each cluster:
  // its releases are the cluster's bootstrap phases (CRDs first), so that Kustomizations may use their APIs.
  const bootstrapFiles = helmfileFiles(fs);
  const cliValues = stateValuesOfFiles(fs, bootstrapFiles, stateValues);
  // Spokes (ADR 0369): per hub and kubeconfig reference, one cluster of the plan.
  const taken = new Set(entries.map((e) => clusterName(e.cluster, entries)));
  const spokeNames = new Map<string, string>();
  for (const e of entries) {
    const hubName = clusterName(e.cluster, entries);
    // kubeConfig reference → spoke cluster, for render --leaves (a HelmRelease's chart is rendered under its spoke).
    const spokeClusters = new Map<string, string>();
    const spokes = new Map<string, { name: string; target: string; perFile: Map<string, Record<string, AppSpec>>; ks: string[]; releases: string[]; objects: string[]; file?: string }>();
    const spokeOf = (target: string) => {
      let sp = spokes.get(target);
      if (!sp) {
        let name = spokeNames.get(`${e.cluster}\u0000${target}`);
        if (name === undefined) {
          name = spokeName(target, taken);
          taken.add(name);
          spokeNames.set(`${e.cluster}\u0000${target}`, name);
        }
        spokes.set(target, (sp = { name, target, perFile: new Map(), ks: [], releases: [], objects: [] }));
        spokeClusters.set(target, name);
      }
      return sp;
    };
    // The helmfile runs once per cluster, with CLUSTER set to the cluster's folder name (ADR 0320),
    // over the variables --helmfile-env gives (ADR 0413).
    const releases: HelmfileRelease[] = [];
    const uninstalled: HelmfileRelease[] = [];
    const env = new Map([...Object.entries(context.helmfileEnv ?? {}), [HELMFILE_CLUSTER_ENV, e.cluster]]);
    for (const f of bootstrapFiles) readHelmfile(fs, f, findings, releases, { env, scope: `cluster ${e.cluster}`, uninstalled, ...(environment !== undefined ? { environment } : {}), ...cliValues(f), ...(context.helmfileChartDigests ? { chartDigests: true } : {}) });
    const read = readCluster(fs, e);
    const charts = helmReleaseChecks(read);
    read.findings.push(...charts.findings);
    findings.push(...read.findings.map((f) => ({ ...f, message: `cluster ${e.cluster}: ${f.message}` })));
    const ks = new Map<Node, FluxKustomization>();
    for (const n of read.nodes) {
      const o = n.built.obj;
      const meta = metaOf(o);
      const spec = isObj(o.spec) ? o.spec : {};
      const dependsOn: GraphRef[] = [];
      (Array.isArray(spec.dependsOn) ? spec.dependsOn : []).forEach((d: unknown, j: number) => {
        if (!isObj(d) || typeof d.name !== 'string') return;
        const p = n.built.locate(['spec', 'dependsOn', j]);
        dependsOn.push({ name: d.name, ...(typeof d.namespace === 'string' ? { namespace: d.namespace } : {}), file: n.built.file, line: p.line, column: p.column });
      });
      const pos = n.built.locate(['metadata', 'name']);
      const k: FluxKustomization = {
        name: String(meta.name),
        namespace: str(meta.namespace) ?? 'flux-system',
        cluster: e.cluster,
        ...(n.repoPath !== undefined ? { path: n.repoPath } : {}),
        ...(str(spec.targetNamespace) !== undefined ? { targetNamespace: str(spec.targetNamespace)! } : {}),
        file: n.built.file,
        line: pos.line,
        column: pos.column,
        dependsOn,
        components: n.repoPath === undefined ? [] : (Array.isArray(spec.components) ? spec.components : []).flatMap((c: unknown, j: number) => {
          if (typeof c !== 'string') return [];
          const p = n.built.locate(['spec', 'components', j]);
          return [{ name: c, file: n.built.file, line: p.line, column: p.column }];
        }),
      };
      ks.set(n, k);
      flux.push(k);
    }
    // render --leaves builds each Kustomization with this cluster's objects and mapped paths.
    const lookup = new ClusterObjects(read.objects);
    for (const n of read.nodes) if (n.repoPath !== undefined) scopes.push({ cluster: n.target !== undefined ? spokeOf(n.target).name : hubName, manifest: n.built.obj, scope: { path: n.repoPath, lookup, thisRepository: read.thisRepository, strictSubstitution: read.gate.strict, ...(n.ignore ? { ignore: n.ignore } : {}), ...(n.target === undefined ? { spokes: spokeClusters } : {}) } });
    const byId = new Map(read.nodes.map((n) => [n.id, n]));
    const deps = (n: Node) => ks.get(n)!.dependsOn.map((d) => byId.get(`${d.namespace ?? ks.get(n)!.namespace}/${d.name}`)).filter((x): x is Node => x !== undefined);
    const depth = depths(read.nodes, (n) => [...deps(n), ...(n.parent ? [n.parent] : [])]);
    const notRead: string[] = [];
    const groupNames: string[] = [];
    const perFile = new Map<string, Record<string, AppSpec>>();
    for (const n of read.nodes) {
      const k = ks.get(n)!;
      const spoke = n.target !== undefined ? spokeOf(n.target) : undefined;
      const spec: AppSpec = {
        path: k.path ?? specPath(n.built.obj) ?? '.',
        // A Kustomization of another source: its path is in that source, not in this repository.
        // One applied to a spoke: the hub holds the object, its objects are the spoke's (read there).
        ...(n.repoPath === undefined ? { repoURL: `${notReadSource(n.built.obj)}` } : spoke ? { repoURL: `kubeConfig ${n.target!} (cluster ${spoke.name})` } : {}),
        namespace: k.targetNamespace ?? k.namespace,
        wave: depth.get(n)!,
        manifest: n.built.obj,
        ...(spoke ? { labels: { [FLUX_APPLIES_TO_LABEL]: spoke.name } } : {}),
      };
      const needs = [...new Set(deps(n))].map((x) => kustomizationApp(ks.get(x)!));
      if (needs.length) spec.needs = needs;
      if (spoke) {
        // The spoke's app: the objects, built there; it needs only the Kustomizations applied to the same spoke.
        const own: AppSpec = { path: k.path ?? '.', namespace: k.targetNamespace ?? k.namespace, wave: depth.get(n)!, manifest: n.built.obj, labels: { [FLUX_APPLIED_BY_LABEL]: hubName } };
        const sameSpoke = [...new Set(deps(n))].filter((x) => x.target === n.target).map((x) => kustomizationApp(ks.get(x)!));
        if (sameSpoke.length) own.needs = sameSpoke;
        let apps = spoke.perFile.get(n.built.file);
        if (!apps) spoke.perFile.set(n.built.file, (apps = {}));
        apps[kustomizationApp(k)] = own;
        spoke.ks.push(kustomizationApp(k));
        for (const x of n.spokeKustomizations ?? []) spoke.objects.push(`${x}, applied by ${kustomizationApp(k)}`);
        spoke.file ??= n.built.file;
      }
      if (n.notRead) {
        notRead.push(`${kustomizationApp(k)}: ${n.notRead}; its objects are not in the plan`);
        findings.push({ severity: 'info', code: 'flux-source-not-read', message: `cluster ${e.cluster}: Kustomization ${n.id}: ${n.notRead}; fleetplan lists the Kustomization but not the objects it applies`, file: n.built.file, line: n.built.locate(['spec', 'sourceRef']).line });
      }
      const app = kustomizationApp(k);
      let apps = perFile.get(n.built.file);
      if (!apps) perFile.set(n.built.file, (apps = {}));
      apps[app] = spec;
      let src = sourceApps.get(n.built.file);
      if (!src) sourceApps.set(n.built.file, (src = { apps: {}, at: new Map() }));
      src.apps[app] ??= spec;
      if (!src.at.has(app)) {
        const fields: Record<string, { line: number; column: number; path: YamlPath }> = {};
        const pathAt = n.built.locate(['spec', 'path']);
        fields.path = { ...pathAt, path: ['spec', 'path'] };
        if (k.dependsOn[0]) fields.needs = { line: k.dependsOn[0].line, column: k.dependsOn[0].column, path: ['spec', 'dependsOn'] };
        src.at.set(app, { line: k.line, column: k.column, path: ['metadata', 'name'], fields });
      }
    }
    for (const r of releases) {
      const chart = r.chart ?? `${r.namespace}/${r.name}`;
      const apps = perFile.get(r.file) ?? {};
      perFile.set(r.file, apps);
      apps[releaseApp(r)] = {
        ...releaseSource(r),
        namespace: r.namespace,
        wave: 0,
        labels: { [PHASE_LABEL]: r.phase === 'crds' ? 'crds' : 'bootstrap' },
        provides: [...(helmCharts[chartName(chart)] ?? [])],
      };
      let src = sourceApps.get(r.file);
      if (!src) sourceApps.set(r.file, (src = { apps: {}, at: new Map() }));
      src.apps[releaseApp(r)] ??= apps[releaseApp(r)]!;
      if (!src.at.has(releaseApp(r))) src.at.set(releaseApp(r), { line: r.line, column: r.column, path: ['metadata', 'name'], fields: {} });
    }
    [...perFile.entries()].forEach(([file, apps], i) => {
      const name = `${clusterName(e.cluster, entries)}-${i}`;
      groupNames.push(name);
      groups.set(name, { name, file, metadata: { name }, spec: { apps } });
    });
    // HelmReleases whose chart helm-controller installs on a spoke (spec.kubeConfig).
    for (const b of read.objects) {
      const o = b.obj;
      if (o.kind !== 'HelmRelease' || typeof o.apiVersion !== 'string' || !o.apiVersion.startsWith('helm.toolkit.fluxcd.io/')) continue;
      const ns = str(metaOf(o).namespace) ?? 'default';
      const target = kubeConfigTarget(isObj(o.spec) ? o.spec : {}, ns);
      if (typeof target !== 'string') continue;
      const sp = spokeOf(target);
      sp.releases.push(`HelmRelease ${ns}/${String(metaOf(o).name)} (${b.file}:${b.locate(['metadata', 'name']).line})`);
      sp.file ??= b.file;
    }
    // ResourceSets among the applied objects: flux-operator builds them in the cluster; fleetplan says it does not (ADR 0416).
    const resourceSets = resourceSetsNotRead(read.objects, e.cluster);
    findings.push(...resourceSets.findings);
    const spokeList = [...spokes.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const hubNotes = spokeList.filter((sp) => sp.ks.length > 0).map((sp) => `spoke ${sp.name}: ${sp.ks.join(', ')} apply their objects to cluster ${sp.name} through spec.kubeConfig (${kubeConfigText(sp.target)}); this cluster holds and reconciles the Kustomization objects, their objects are listed under ${sp.name}`);
    clusters.push({
      name: hubName,
      file: e.entry.file,
      metadata: { name: e.cluster },
      spec: { role: spokeList.length > 0 ? 'hub' : 'standalone', platform: 'kubernetes', groups: groupNames },
      ...(releases.length + uninstalled.length > 0 ? { helmfileReleases: [...releases, ...uninstalled] } : {}),
      notes: [...(clusterName(e.cluster, entries) !== e.cluster ? [`cluster folder ${e.dir}: named ${clusterName(e.cluster, entries)} in the plan (cluster names are DNS-1123)`] : []), `entry: Kustomization ${str(metaOf(e.entry.obj).namespace) ?? 'flux-system'}/${String(metaOf(e.entry.obj).name)} in ${e.entry.file}${e.implied ? ` (${e.implied})` : ''} (${read.nodes.length} Flux Kustomization${read.nodes.length === 1 ? '' : 's'} read from it)`, FLUX_CLUSTERS_PLAN_NOTE, ...(releases.length ? [helmfileNote(releases, e.cluster)] : []), ...charts.notes, ...hubNotes, ...notRead.map((r) => `not read: ${r}`), ...resourceSets.notes],
    });
    for (const sp of spokeList) {
      const spokeGroups: string[] = [];
      [...sp.perFile.entries()].forEach(([file, apps], i) => {
        const name = `${sp.name}-${i}`;
        spokeGroups.push(name);
        groups.set(name, { name, file, metadata: { name }, spec: { apps } });
      });
      const notes = [`spoke of ${hubName}: the Flux of ${hubName} applies to this cluster through spec.kubeConfig (${kubeConfigText(sp.target)}); named ${sp.name} from that reference (ADR 0369)`];
      if (sp.ks.length > 0) notes.push(`Kustomizations applied here by ${hubName}: ${sp.ks.join(', ')} (the Kustomization objects live on ${hubName}; render writes them there)`);
      for (const x of sp.objects) notes.push(`not followed: ${x}: a Flux object on this cluster, reconciled only if a Flux runs here, which this repository does not show`);
      for (const r of sp.releases) notes.push(`${r} on ${hubName} installs its chart on this cluster (helm-controller of ${hubName}, spec.kubeConfig)`);
      clusters.push({
        name: sp.name,
        file: sp.file ?? e.entry.file,
        metadata: { name: sp.name },
        spec: { role: 'spoke', hub: hubName, platform: 'kubernetes', groups: spokeGroups },
        notes,
      });
    }
  }
  setFluxBuildScopes(fs.root, scopes);
  const sources = new Map<string, SourceFile>();
  for (const [file, g] of sourceApps) sources.set(file, groupSource(file, g.apps, g.at));
  const noCrossNamespaceRefs = findNoCrossNamespaceRefs(fs, entries.flatMap((e) => yamlFiles(fs, e.dir, 0, [])));
  const graphs: FleetGraphs = { helmfile: [], flux, ...(noCrossNamespaceRefs ? { noCrossNamespaceRefs } : {}), ...(environment !== undefined ? { helmfileEnvironment: environment } : {}), ...(stateValues?.given.length ? { helmfileStateValues: stateValues.given } : {}) };
  const fleet: Fleet = {
    // leafVariables: false — Flux substitutes its own post-build variables; fleetplan's cluster variables never reach these leaves.
    // appVariables: false — kustomize-controller substitutes only in a Kustomization's built output with postBuild (read above with fluxSubstitute); never fleetplan's variables in its fields (ADR 0344).
    ...emptyFleet(fs.root, 'flux', { bootstrap: false, renderRepositoryObjects: true, repositoryArgoConfig: true, promote: false, leafVariables: false, appVariables: false, engineApisFirst: true, appDestinations: false }),
    // flux bootstrap installs Flux; Flux reads the repository's own Kustomizations.
    name: fs.root.split('/').filter(Boolean).pop() ?? 'fleet',
    file: entries[0]?.entry.file ?? '.',
    repoURL: 'local',
    platform: 'kubernetes',
    engine: 'flux',
    gitopsNamespace: 'flux-system',
    clusters,
    groups,
    sources,
    loadFindings: findings,
    graphs,
  };
  return { fleet, findings };
}
