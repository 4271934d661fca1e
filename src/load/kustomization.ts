/**
 * What a gitops-standards cluster's kustomization does to its Applications, read without running
 * kustomize: the app-of-app chart inflations it pulls in (groups as `resources` or as
 * `components`, then its own `helmCharts`), and the `cluster-versions` replacement that sets every
 * Application's `spec.source.targetRevision`. Anything else that could change the Applications
 * (other patches, namespace, labels, nested kustomizations, unknown fields) is reported as a
 * reason to build the cluster with the real kustomize instead.
 */
import { joinRepoPath } from '../model/repo-path.js';
import { isPlainObject } from '../model/merge.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { SourceFile, YamlPath } from '../model/source.js';
import { parseAll } from '../yaml/documents.js';

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export interface ChartUse {
  /** Repository-relative directory of the chart (chartHome/name). */
  chartDir: string;
  /** Repository-relative values file, if the entry names one. */
  valuesFile: string | undefined;
}

export interface Layer {
  kind: 'group' | 'cluster';
  /** Group name (folder under groups/, else the directory path) or the cluster name. */
  name: string;
  dir: string;
  charts: ChartUse[];
}

export interface ClusterKustomization {
  file: string;
  /** Group layers in the order kustomize accumulates them, then the cluster's own layer. */
  layers: Layer[];
  pin?: { revision: string; file: string; path: YamlPath };
  /** Why the Applications cannot be derived from the values alone (empty: they can). */
  unsupported: string[];
  /** The objects of plain resource files the kustomization lists that are not Argo CD's (Namespaces, ConfigMaps, …): the build applies them too. */
  others: Record<string, unknown>[];
}

export type ParseSource = (file: string) => SourceFile | undefined;

/**
 * Plain resource files already read, by path: the documents, or why they cannot be read. Shared by
 * the clusters of one load, because they all list the same `../cluster-versions.yaml` (which
 * grows with the fleet: read once per cluster, it made loading quadratic in the cluster count).
 */
export type ResourceDocsCache = Map<string, unknown[] | Error>;

export function kustomizationFile(fs: RepoFileSystem, dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((f) => `${dir}/${f}`).find((f) => fs.exists(f));
}

const CLUSTER_KEYS = new Set(['apiVersion', 'kind', 'resources', 'components', 'helmGlobals', 'helmCharts', 'replacements', 'patches']);
const LAYER_KEYS = new Set(['apiVersion', 'kind', 'helmGlobals', 'helmCharts']);
const CHART_KEYS = new Set(['name', 'valuesFile', 'namespace', 'releaseName']);

const join = joinRepoPath;

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** The chart inflations of one kustomization (its `helmCharts` with `helmGlobals.chartHome`). */
function charts(doc: Record<string, unknown>, dir: string, file: string, unsupported: string[]): ChartUse[] {
  const home = isPlainObject(doc.helmGlobals) && typeof doc.helmGlobals.chartHome === 'string' ? doc.helmGlobals.chartHome : 'charts';
  const out: ChartUse[] = [];
  for (const [i, entry] of list(doc.helmCharts).entries()) {
    if (!isPlainObject(entry) || typeof entry.name !== 'string') {
      unsupported.push(`${file}: helmCharts[${i}] has no name`);
      continue;
    }
    const extra = Object.keys(entry).filter((k) => !CHART_KEYS.has(k));
    if (extra.length) unsupported.push(`${file}: helmCharts[${i}] uses ${extra.join(', ')}`);
    const chartDir = join(dir, `${home}/${entry.name}`);
    if (!chartDir) {
      unsupported.push(`${file}: helmCharts[${i}] chart home leaves the repository`);
      continue;
    }
    let valuesFile: string | undefined;
    if (entry.valuesFile !== undefined) {
      valuesFile = typeof entry.valuesFile === 'string' ? join(dir, entry.valuesFile) : undefined;
      if (!valuesFile) {
        unsupported.push(`${file}: helmCharts[${i}].valuesFile is not a path inside the repository`);
        continue;
      }
    }
    out.push({ chartDir, valuesFile });
  }
  return out;
}

function layerName(dir: string): string {
  const m = /^groups\/([^/]+)$/.exec(dir);
  return m ? m[1]! : dir;
}

/** Reads `clusters/<name>/kustomization.yaml` and the group kustomizations it pulls in. */
export function readClusterKustomization(
  fs: RepoFileSystem,
  name: string,
  dir: string,
  parse: ParseSource,
  resourceDocs: ResourceDocsCache = new Map(),
): ClusterKustomization {
  const unsupported: string[] = [];
  const file = kustomizationFile(fs, dir) ?? `${dir}/kustomization.yaml`;
  const result: ClusterKustomization = { file, layers: [], unsupported, others: [] };
  const src = parse(file);
  if (!src || !isPlainObject(src.value)) {
    unsupported.push(`${file} cannot be read as a kustomization`);
    return result;
  }
  const doc = src.value;
  const extra = Object.keys(doc).filter((k) => !CLUSTER_KEYS.has(k));
  if (extra.length) unsupported.push(`${file} uses ${extra.join(', ')}`);
  if (doc.kind !== undefined && doc.kind !== 'Kustomization') unsupported.push(`${file} is a ${String(doc.kind)}`);
  const configMaps = new Map<string, Record<string, unknown>>();

  const addLayer = (entry: unknown, field: 'resources' | 'components', i: number) => {
    if (typeof entry !== 'string') {
      unsupported.push(`${file}: ${field}[${i}] is not a path`);
      return;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\/|^git@|^github\.com\//.test(entry)) {
      unsupported.push(`${file}: ${field}[${i}] is remote (${entry})`);
      return;
    }
    const target = join(dir, entry);
    if (!target) {
      unsupported.push(`${file}: ${field}[${i}] "${entry}" leaves the repository`);
      return;
    }
    if (!fs.isDirectory(target)) {
      if (field === 'components' || !fs.exists(target)) {
        unsupported.push(`${file}: ${field}[${i}] "${entry}" is not a directory`);
        return;
      }
      // A plain resource file: ConfigMaps feed replacements; Argo CD objects would be emitted as they are.
      let docs = resourceDocs.get(target);
      if (docs === undefined) {
        try {
          docs = parseAll(fs.readText(target));
        } catch (e) {
          docs = e as Error;
        }
        resourceDocs.set(target, docs);
      }
      if (docs instanceof Error) {
        unsupported.push(`${target}: ${docs.message}`);
        return;
      }
      for (const d of docs) {
        if (!isPlainObject(d)) continue;
        const md = isPlainObject(d.metadata) ? d.metadata : {};
        if (d.kind === 'Application' || d.kind === 'AppProject' || d.kind === 'ApplicationSet') {
          unsupported.push(`${target} holds ${String(d.kind)} objects`);
        } else {
          if (d.kind === 'ConfigMap' && typeof md.name === 'string') configMaps.set(md.name, isPlainObject(d.data) ? d.data : {});
          if (typeof d.kind === 'string') result.others.push(d);
        }
      }
      return;
    }
    const kfile = kustomizationFile(fs, target);
    const ksrc = kfile ? parse(kfile) : undefined;
    if (!kfile || !ksrc || !isPlainObject(ksrc.value)) {
      unsupported.push(`${file}: ${field}[${i}] "${entry}" has no readable kustomization`);
      return;
    }
    const k = ksrc.value;
    const wantKind = field === 'components' ? 'Component' : 'Kustomization';
    if ((k.kind ?? 'Kustomization') !== wantKind) unsupported.push(`${kfile} is a ${String(k.kind)} but is listed under ${field}`);
    const kextra = Object.keys(k).filter((x) => !LAYER_KEYS.has(x));
    if (kextra.length) unsupported.push(`${kfile} uses ${kextra.join(', ')}`);
    result.layers.push({ kind: 'group', name: layerName(target), dir: target, charts: charts(k, target, kfile, unsupported) });
  };
  // kustomize accumulates resources first, then components, then runs the generators (helmCharts).
  list(doc.resources).forEach((e, i) => addLayer(e, 'resources', i));
  list(doc.components).forEach((e, i) => addLayer(e, 'components', i));
  result.layers.push({ kind: 'cluster', name, dir, charts: charts(doc, dir, file, unsupported) });

  for (const [i, p] of list(doc.patches).entries()) {
    const kind = patchKind(fs, dir, p);
    if (kind === undefined || kind === 'Application' || kind === 'AppProject') unsupported.push(`${file}: patches[${i}] may change Argo CD objects`);
  }
  const reps = list(doc.replacements);
  if (reps.length > 1) unsupported.push(`${file} has ${reps.length} replacements`);
  const rep = reps[0];
  if (rep !== undefined) {
    const pin = clusterVersionsPin(rep, configMaps);
    if (typeof pin === 'string') unsupported.push(`${file}: replacements[0] ${pin}`);
    else result.pin = { revision: pin.revision, file, path: ['replacements', 0, 'source', 'fieldPath'] };
  }
  return result;
}

/** The kind a patch applies to, when it can be told without kustomize; undefined when it cannot. */
function patchKind(fs: RepoFileSystem, dir: string, p: unknown): string | undefined {
  if (!isPlainObject(p)) return undefined;
  if (isPlainObject(p.target)) return typeof p.target.kind === 'string' ? p.target.kind : undefined;
  let text: string | undefined;
  if (typeof p.patch === 'string') text = p.patch;
  else if (typeof p.path === 'string') {
    const f = join(dir, p.path);
    text = f && fs.exists(f) ? fs.readText(f) : undefined;
  }
  if (text === undefined) return undefined;
  try {
    const docs = parseAll(text);
    const kinds = new Set(docs.map((d) => (isPlainObject(d) ? d.kind : undefined)));
    if (kinds.size !== 1) return undefined;
    const [k] = [...kinds];
    return typeof k === 'string' ? k : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one replacement shape gitops-standards uses: ConfigMap data.<key> → every Application's
 * spec.source.targetRevision. Returns the revision, or why the replacement is something else.
 */
function clusterVersionsPin(rep: unknown, configMaps: Map<string, Record<string, unknown>>): { revision: string } | string {
  if (!isPlainObject(rep) || !isPlainObject(rep.source) || !Array.isArray(rep.targets) || rep.targets.length !== 1) return 'is not a single-source, single-target replacement';
  const s = rep.source;
  const sExtra = Object.keys(s).filter((k) => !['version', 'kind', 'name', 'fieldPath', 'namespace', 'group'].includes(k));
  if (s.kind !== 'ConfigMap' || typeof s.name !== 'string' || typeof s.fieldPath !== 'string' || sExtra.length) return 'does not read a ConfigMap field';
  const m = /^data\.([A-Za-z0-9_.-]+)$/.exec(s.fieldPath);
  if (!m) return `reads ${s.fieldPath}, not data.<key>`;
  const cm = configMaps.get(s.name);
  if (!cm) return `reads ConfigMap ${s.name}, which is not a resource file of this kustomization`;
  const value = cm[m[1]!];
  if (typeof value !== 'string') return `reads data.${m[1]!} of ConfigMap ${s.name}, which has no such key`;
  const t = rep.targets[0] as unknown;
  if (!isPlainObject(t) || !isPlainObject(t.select) || Object.keys(t).some((k) => !['select', 'fieldPaths'].includes(k))) return 'has a target with options or rejects';
  const sel = t.select;
  if (sel.kind !== 'Application' || Object.keys(sel).some((k) => !['group', 'version', 'kind'].includes(k))) return 'selects more than kind Application';
  if ((sel.group ?? 'argoproj.io') !== 'argoproj.io') return 'selects another API group';
  if (!Array.isArray(t.fieldPaths) || t.fieldPaths.length !== 1 || t.fieldPaths[0] !== 'spec.source.targetRevision') return 'sets fields other than spec.source.targetRevision';
  return { revision: value };
}
