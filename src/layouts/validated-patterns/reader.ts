/**
 * The Validated Patterns layout (validatedpatterns/multicloud-gitops): `values-global.yaml` names
 * the hub's cluster group (`main.clusterGroupName`), and `values-<group>.yaml` holds that group's
 * `clusterGroup` values, which the clustergroup Helm chart (pulled from
 * https://charts.validatedpatterns.io, not in the repository) turns into Namespaces,
 * OperatorGroups, OLM Subscriptions, AppProjects and Argo CD Applications.
 *
 * Mapping to the fleet model (ADR 0093):
 *   - the hub: a cluster named after main.clusterGroupName, role hub (standalone when it has no
 *     managed cluster groups and no ACM subscription);
 *   - each `managedClusterGroups` entry of the hub: one representative spoke named after the group
 *     (it stands for every managed cluster ACM selects with the group's labels), apps from
 *     `values-<group>.yaml`;
 *   - per cluster, apps in the order the chart needs them: `clustergroup-namespaces` (the
 *     Namespaces and OperatorGroups of `namespaces`), one app per subscription (its OLM
 *     Subscription; named after the package, and providing the APIs the CRD catalog knows for
 *     it), then the `applications` — local charts with the chart's helm valueFiles, remote
 *     charts (`chartVersion`) as multi-source Applications with the pattern's values through
 *     `$patternref`;
 *   - `argoProjects` become the cluster's AppProjects.
 * What only the Validated Patterns operator knows (cluster platform, version, domains, the
 * repository URL a Pattern CR names) is never guessed: value files and parameters that depend on
 * it are left out and listed in the cluster's notes.
 * Pure: reads through the RepoFileSystem port only.
 */
import { basename } from 'node:path';
import type { Finding } from '../../model/finding.js';
import type { ClusterDef, Fleet, GeneratedSource, GroupDef } from '../../model/fleet.js';
import type { AppSpec, ClusterSpec, ProjectSpec } from '../../model/spec.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { RepositoryOrigin } from '../../ports/git-repo.js';
import { isServerURL } from '../../model/git-url.js';
import type { ClusterSecret } from '../../appset/types.js';
import { compileSelector } from '../../appset/selector.js';
import type { LoadResult } from '../../load/native.js';
import { FLEET_FILE } from '../../model/constants.js';
import type { SourceFile, YamlPath } from '../../model/source.js';
import { parseYamlSource } from '../../yaml/source.js';
import { deepMerge, getPath, isPlainObject } from '../../model/merge.js';
import { operatorPackages } from '../../model/catalog/operators.js';
import { parseYaml } from '../../yaml/index.js';
import { ARGOCD_REPOSITORY_CAPABILITIES } from '../../model/fleet.js';
import { emptyFleet } from '../../model/fleet.js';
import type { ChartInfo, GroupInstall, LabelSelector } from './install.js';
import { GITOPS_DEFAULT_CHANNEL, VP_ARGO_NAMESPACE, hubInstall, placementSelector, readInstaller, selectedLabels, selectorText, spokeInstall } from './install.js';

export const VP_GLOBAL_FILE = 'values-global.yaml';
export const VP_METADATA_FILE = 'pattern-metadata.yaml';
/** Where `chart` + `chartVersion` applications come from unless main.multiSourceConfig.helmRepoUrl says otherwise. */
export const VP_HELM_REPO = 'https://charts.validatedpatterns.io/';
export const NAMESPACES_APP = 'clustergroup-namespaces';
export const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
/** Default waves: OLM Subscriptions one wave before the Applications that use their APIs. */
export const VP_WAVES = { subscriptions: -1, applications: 0 } as const;
export const VP_FINALIZER = 'resources-finalizer.argocd.argoproj.io/foreground';
export const VP_PATTERN_LABEL = 'validatedpatterns.io/pattern';
export const MANAGED_BY_LABEL = 'argocd.argoproj.io/managed-by';
/** global.options.installPlanApproval of the clustergroup chart's values.yaml: what a Subscription gets when neither it nor the pattern sets one. */
export const CHART_DEFAULT_INSTALL_PLAN_APPROVAL = 'Automatic';
/** Subscriptions without a namespace go here (the chart's default). */
export const DEFAULT_OPERATOR_NAMESPACE = 'openshift-operators';

/**
 * Values the Validated Patterns operator passes to the clustergroup chart per cluster (helm
 * parameters win over value files): unknown offline, whatever the values files say.
 */
export const INJECTED_VALUES = [
  'global.clusterDomain',
  'global.clusterPlatform',
  'global.clusterVersion',
  'global.hubClusterDomain',
  'global.localClusterDomain',
  'global.localClusterName',
  'global.namespace',
  'global.originURL',
  'global.privateRepo',
  'global.repoURL',
  'global.targetRevision',
] as const;
const injected = new Set<string>(INJECTED_VALUES);

/**
 * The helm parameters the clustergroup chart gives every Application
 * (`clustergroup.app.globalvalues.helmparameters` in templates/_helpers.tpl, chart 0.9.x), each
 * with the value the chart itself holds, which the operator sets per cluster from its Pattern
 * resource. Only the two below are known offline; the others are left out of the Applications (and
 * so of the leaves) and named in the cluster's notes.
 */
export const CHART_PARAMETERS = [
  'global.repoURL',
  'global.originURL',
  'global.targetRevision',
  'global.namespace',
  'global.pattern',
  'global.clusterDomain',
  'global.localClusterName',
  'global.clusterVersion',
  'global.clusterPlatform',
  'global.hubClusterDomain',
  'global.multiSourceSupport',
  'global.multiSourceRepoUrl',
  'global.multiSourceTargetRevision',
  'global.localClusterDomain',
  'global.privateRepo',
  'global.experimentalCapabilities',
  'global.deletePattern',
  'global.gitOpsSubNamespace',
  'global.vpArgoNamespace',
] as const;
/** `global.pattern` (the pattern's name) and `global.namespace` (`$ARGOCD_APP_NAMESPACE`, Argo CD's build variable). */
const KNOWN_PARAMETERS = new Set<string>(['global.pattern', 'global.namespace']);

export function groupValuesFile(group: string): string {
  return `values-${group}.yaml`;
}

const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** main.clusterGroupName of values-global.yaml, when it is a usable file-name part. */
export function hubGroupName(fs: RepoFileSystem): string | undefined {
  if (!fs.exists(VP_GLOBAL_FILE) || fs.isDirectory(VP_GLOBAL_FILE)) return undefined;
  let v: unknown;
  try {
    v = parseYaml(fs.readText(VP_GLOBAL_FILE), { schema: 'core' });
  } catch {
    return undefined;
  }
  const name = getPath(v, ['main', 'clusterGroupName']);
  return typeof name === 'string' && GROUP_NAME.test(name) ? name : undefined;
}

export function detectValidatedPatterns(fs: RepoFileSystem): boolean {
  if (fs.exists(FLEET_FILE)) return false;
  const hub = hubGroupName(fs);
  return hub !== undefined && fs.exists(groupValuesFile(hub));
}

/** The root file parsed, or undefined when it is not there or does not parse (validate reports that). */
function rootYaml(fs: RepoFileSystem, file: string): unknown {
  try {
    return parseYaml(fs.readText(file), { schema: 'core' });
  } catch {
    return undefined;
  }
}

/**
 * The files that make a repository look like a pattern, whether or not it is one (ADR 0415): a root
 * `values-<name>.yaml` with a `clusterGroup` map (the clustergroup chart's values of a cluster group)
 * and a `values-global.yaml` that names the hub's cluster group (`main.clusterGroupName`). A chart's
 * own values-global.yaml or values-prod.yaml has neither. None where fleet.yaml is (the native layout
 * comes first and this one never reads such a repository).
 */
export function validatedPatternsMarkers(fs: RepoFileSystem): string[] {
  if (fs.exists(FLEET_FILE)) return [];
  return fs
    .list('.')
    .filter((f) => /^values-[^/]+\.yaml$/.test(f) && !fs.isDirectory(f))
    .filter((f) => {
      const v = rootYaml(fs, f);
      return isPlainObject(getPath(v, ['clusterGroup'])) || (f === VP_GLOBAL_FILE && getPath(v, ['main', 'clusterGroupName']) !== undefined);
    })
    .sort();
}

/** Why a repository with this layout's markers is not read as this layout (ADR 0415). */
export function validatedPatternsMissing(fs: RepoFileSystem): string {
  if (!fs.exists(VP_GLOBAL_FILE) || fs.isDirectory(VP_GLOBAL_FILE)) {
    const kept = fs.list('.').filter((f) => f.startsWith(`${VP_GLOBAL_FILE}.`)).sort();
    return `there is no ${VP_GLOBAL_FILE}${kept.length ? ` (${kept.join(', ')} ${kept.length === 1 ? 'is' : 'are'} there)` : ''}, which names the hub's cluster group (main.clusterGroupName)`;
  }
  const hub = hubGroupName(fs);
  if (hub === undefined) return `${VP_GLOBAL_FILE} sets no main.clusterGroupName (the hub's cluster group, as a file-name part)`;
  return fs.exists(groupValuesFile(hub)) ? '' : `${VP_GLOBAL_FILE} names the hub's cluster group ${hub} (main.clusterGroupName), but there is no ${groupValuesFile(hub)}`;
}

/** `[key, value]` of a map, or `[index, item]` of a list: the chart accepts both shapes. */
export function entriesOf(v: unknown): [string | number, unknown][] {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  if (isPlainObject(v)) return Object.entries(v);
  return [];
}

export interface NamespaceEntry {
  name: string;
  /** Where it is written: the key (map form) or the index (list form). */
  key: string | number;
  spec: Record<string, unknown>;
}

/** The `namespaces` of a clusterGroup: map form (`name: {labels, operatorGroup, ...}`) or list of names / single-key maps. */
export function namespaceEntries(v: unknown): NamespaceEntry[] {
  const out: NamespaceEntry[] = [];
  for (const [key, x] of entriesOf(v)) {
    if (typeof key === 'string') out.push({ name: key, key, spec: isPlainObject(x) ? x : {} });
    else if (typeof x === 'string') out.push({ name: x, key, spec: {} });
    else if (isPlainObject(x)) for (const [n, s] of Object.entries(x)) out.push({ name: n, key, spec: isPlainObject(s) ? s : {} });
  }
  return out;
}

/** argoProjects (or the deprecated `projects`): a list of names or a map keyed by name. */
export function projectNames(cg: Record<string, unknown>): { names: string[]; field: 'argoProjects' | 'projects' } {
  const field = cg.argoProjects !== undefined && cg.argoProjects !== null ? 'argoProjects' : 'projects';
  const v = cg[field];
  const names = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : isPlainObject(v) ? Object.keys(v) : [];
  return { names, field };
}

/** The clusterGroup values a cluster of `group` gets: values-global.yaml's, then values-<group>.yaml's (Helm merges maps, replaces lists). */
export interface GroupValues {
  group: string;
  file: string;
  exists: boolean;
  /** values-global.yaml merged with values-<group>.yaml (what tpl sees, minus the operator's values). */
  values: Record<string, unknown>;
  clusterGroup: Record<string, unknown>;
  /** The file that writes clusterGroup.<section>(.<key>) last, for placing findings. */
  fileOf(section: string, key?: string | number): string;
}

export function readGroupValues(globalValues: Record<string, unknown>, group: string, own: unknown, exists: boolean): GroupValues {
  const file = groupValuesFile(group);
  const ownValues = isPlainObject(own) ? own : {};
  const values = deepMerge(globalValues, ownValues);
  const cg = isPlainObject(values.clusterGroup) ? values.clusterGroup : {};
  return {
    group,
    file,
    exists,
    values,
    clusterGroup: cg,
    fileOf: (section, key) => {
      const path = key === undefined ? ['clusterGroup', section] : ['clusterGroup', section, key];
      return getPath(ownValues, path) !== undefined || getPath(globalValues, path) === undefined ? file : VP_GLOBAL_FILE;
    },
  };
}

/** Result of resolving one `tpl` value file name. */
export interface TemplateResult {
  /** The resolved text, when every action could be resolved. */
  text?: string;
  /** The actions that depend on what only the cluster knows. */
  unknown: string[];
  /** The name with every unknown action as `*` (to list candidate files). */
  pattern: string;
  /** The name with known actions filled in and unknown ones as written. */
  display: string;
}

/**
 * `tpl` as the chart runs it on value file names, limited to `{{ $.Values.a.b }}` and
 * `{{ .Values.a.b }}`: known values are filled in, the operator's values are unknown.
 */
export function resolveTemplate(text: string, values: Record<string, unknown>): TemplateResult {
  const unknown: string[] = [];
  let pattern = '';
  let display = '';
  let out = '';
  let last = 0;
  for (const m of text.matchAll(/\{\{-?\s*(.*?)\s*-?\}\}/g)) {
    const lit = text.slice(last, m.index);
    out += lit;
    pattern += lit;
    display += lit;
    last = m.index + m[0].length;
    const ref = /^\$?\.Values\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)$/.exec(m[1]!);
    const path = ref?.[1];
    const v = path !== undefined && !injected.has(path) ? getPath(values, path.split('.')) : undefined;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      out += String(v);
      pattern += String(v);
      display += String(v);
    } else {
      unknown.push(path ?? m[1]!);
      pattern += '*';
      display += m[0];
    }
  }
  out += text.slice(last);
  pattern += text.slice(last);
  display += text.slice(last);
  return unknown.length ? { unknown, pattern, display } : { text: out, unknown, pattern, display };
}

/** Repository files matching a value file name whose unknown parts are `*` (only the file part may vary). */
function candidates(fs: RepoFileSystem, pattern: string): string[] {
  const p = pattern.replace(/^\$patternref\//, '').replace(/^\/+/, '');
  const i = p.lastIndexOf('/');
  const dir = i < 0 ? '' : p.slice(0, i);
  if (dir.includes('*')) return [];
  const re = new RegExp(`^${p.slice(i + 1).split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);
  return fs.list(dir === '' ? '.' : dir).filter((n) => re.test(n)).map((n) => (dir ? `${dir}/${n}` : n));
}

interface ReaderContext {
  fs: RepoFileSystem;
  /** The Pattern resource's name: the operator's global.pattern parameter. */
  pattern: string;
  /** global.singleArgoCD: every group's Applications in the operator's Argo CD namespace, else `<pattern>-<group>`. */
  singleArgoCD: boolean;
  vpArgoNamespace: string;
  /** The clustergroup chart renders ApplicationSet-shaped applications as ApplicationSets (charts before 0.9.5). */
  applicationSets: boolean;
  /** The version of the repository's own common/clustergroup chart, when the operator's Application reads it (no multi-source). */
  localChart?: string;
  /** The clustergroup chart the operator's Application renders: named where fleetplan writes its objects instead of running it (ADR 0402). */
  chart: ChartInfo & { remote?: { repo: string; version: string } };
  repoURL: string;
  revision: string;
  helmRepo: string;
  renderedPath: string;
  globalValues: Record<string, unknown>;
}

interface ClusterBuild {
  apps: Record<string, AppSpec>;
  /** Apps written in values-global.yaml's clusterGroup (a layer of their own). */
  globalApps: Record<string, AppSpec>;
  projects: Record<string, ProjectSpec>;
  generated: GeneratedSource[];
  notes: string[];
  /** Per app built from a local chart: what `render --leaves` prints about the operator's values it leaves empty. */
  leafNotes: Record<string, string[]>;
  /** What `render --leaves` prints once for the cluster group (the operator's values every local chart is built without). */
  clusterLeafNotes: string[];
  /** What the chart creates, for the install steps. */
  install: GroupInstall;
  /** Model app name → where it is written in its values file. */
  places: Map<string, { file: string; path: YamlPath }>;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function stringMap(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) out[k] = x === null || x === undefined ? '' : String(x);
  return Object.keys(out).length ? out : undefined;
}

function waveOf(annotations: unknown, fallback: number): number {
  const w = isPlainObject(annotations) ? annotations[SYNC_WAVE] : undefined;
  const n = typeof w === 'number' ? w : typeof w === 'string' && /^-?\d+$/.test(w.trim()) ? Number(w) : NaN;
  return Number.isInteger(n) ? n : fallback;
}

/** The chart's syncPolicy: `Manual` → none, `Automatic` → automated with retries, an object as it is. */
function syncPolicyOf(app: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> | undefined {
  const p = app.syncPolicy ?? getPath(values, ['global', 'options', 'syncPolicy']);
  const limit = getPath(values, ['global', 'options', 'applicationRetryLimit']);
  const automatic = { automated: {}, retry: { limit: typeof limit === 'number' ? limit : 20 } };
  if (typeof p === 'string') return p.toLowerCase() === 'manual' ? undefined : automatic;
  if (isPlainObject(p)) return p;
  return automatic;
}

/**
 * What render --leaves prints once per cluster group: the values the operator sets per cluster,
 * which every local chart of the group is built without (issue #12, ADR 0286, 0325).
 */
function groupLeafNote(group: string, params: readonly string[], unknownFiles: readonly string[]): string {
  const files = [...new Set(unknownFiles)];
  return `every local chart of cluster group ${group} is built without the values the Validated Patterns operator sets per cluster, left empty: helm parameters ${[...params].sort().join(', ')}${files.length ? `; value files ${files.join(', ')}` : ''} (a chart value read from them is what the value files set, often empty)`;
}

/** The per-app note: a reference to the group's, plus what only this app adds. */
function appLeafNote(group: string, params: readonly string[], unknownFiles: readonly string[]): string {
  const files = [...new Set(unknownFiles)];
  const own = [...(params.length ? [`helm parameters ${[...params].sort().join(', ')}`] : []), ...(files.length ? [`value files ${files.join(', ')}`] : [])];
  return `built without the operator's per-cluster values named in the note of cluster group ${group}${own.length ? `, and without its own ${own.join('; ')}` : ''}`;
}

/**
 * The clustergroup chart the operator's Application reads (patterns-operator argo.go
 * newArgoApplication): with main.multiSourceConfig.enabled, chart `clustergroup` at
 * clusterGroupChartVersion (default 0.9.* when common/ is slimmed, i.e. has no operator-install,
 * else 0.8.*) from the Helm repository, or clusterGroupGitRepoUrl; without it (the pattern-install
 * chart's default), the repository's own common/clustergroup. Charts before 0.9.5 render
 * ApplicationSet-shaped applications as ApplicationSets.
 */
export function clusterGroupChart(fs: RepoFileSystem, globalValues: Record<string, unknown>): ChartInfo & { applicationSets: boolean; local?: boolean; remote?: { repo: string; version: string } } {
  const ms = (k: string) => getPath(globalValues, ['main', 'multiSourceConfig', k]);
  if (ms('enabled') === true) {
    const gitRepo = str(ms('clusterGroupGitRepoUrl'));
    if (gitRepo) {
      const rev = str(ms('clusterGroupChartGitRevision')) ?? '?';
      return { version: rev, source: `the clustergroup chart from ${gitRepo} at ${rev} (multi-source, the pattern's repository as $patternref)`, applicationSets: false };
    }
    const slim = !fs.exists('common/operator-install');
    const version = ms('clusterGroupChartVersion') !== undefined && ms('clusterGroupChartVersion') !== null ? String(ms('clusterGroupChartVersion')) : slim ? '0.9.*' : '0.8.*';
    const repo = str(ms('helmRepoUrl')) ?? VP_HELM_REPO;
    return { version, source: `chart clustergroup ${version} from ${repo} (multi-source, the pattern's repository as $patternref)`, applicationSets: chartBefore095(version), remote: { repo, version } };
  }
  const local = fs.exists('common/clustergroup/Chart.yaml') ? fs.readText('common/clustergroup/Chart.yaml') : undefined;
  let version = '?';
  if (local !== undefined) {
    try {
      const v = getPath(parseYaml(local, { schema: 'core' }), ['version']);
      if (typeof v === 'string' || typeof v === 'number') version = String(v);
    } catch {
      version = '?';
    }
  }
  return {
    version,
    source: local !== undefined
      ? `the repository's own chart common/clustergroup (version ${version}; main.multiSourceConfig.enabled is not true)`
      : 'the repository\'s own common/clustergroup, which does not exist (main.multiSourceConfig.enabled is not true): the operator\'s Application cannot sync',
    applicationSets: local !== undefined && chartBefore095(version),
    ...(local !== undefined ? { local: true } : {}),
  };
}

/** A chart version (or range such as `0.8.*`) before 0.9.5, which still has the ApplicationSet template. */
function chartBefore095(version: string): boolean {
  const m = /^v?(\d+)\.(\d+|\*)(?:\.(\d+|\*))?/.exec(version.trim());
  if (!m) return false;
  const [maj, min, patch] = [Number(m[1]), m[2] === '*' ? Infinity : Number(m[2]), m[3] === undefined || m[3] === '*' ? Infinity : Number(m[3])];
  if (maj !== 0) return false;
  return min < 9 || (min === 9 && patch < 5);
}

/**
 * An ApplicationSet-shaped application as charts before 0.9.5 render it
 * (templates/plumbing/applications.yaml, removed by clustergroup-chart 7018b5f "Drop
 * applicationsets"): the entry's generators (or a git files generator over `generatorFile`), and a
 * template with the same source and value files as an Application; the operator's parameters
 * are left out as for Applications.
 */
function applicationSetOf(ctx: ReaderContext, gv: GroupValues, a: Record<string, unknown>, valueFiles: string[]): Record<string, unknown> {
  const ns = `${ctx.pattern}-${gv.group}`;
  const name = str(a.name)!;
  const generators = Array.isArray(a.generators)
    ? a.generators
    : [{ git: { repoURL: ctx.repoURL, revision: ctx.revision, ...(str(a.generatorFile) ? { files: [{ path: str(a.generatorFile) }] } : {}) } }];
  const source: Record<string, unknown> = { repoURL: str(a.repoURL) ?? ctx.repoURL, targetRevision: str(a.targetRevision) ?? ctx.revision };
  if (str(a.chart)) source.chart = a.chart;
  if (str(a.path)) source.path = a.path;
  if (isPlainObject(a.plugin)) source.plugin = a.plugin;
  if (a.kustomize !== true) {
    const parameters: Record<string, unknown>[] = [{ name: 'global.pattern', value: ctx.pattern }, { name: 'clusterGroup.name', value: gv.group }];
    for (const o of entriesOf(a.overrides).map(([, o]) => o)) {
      if (!isPlainObject(o) || typeof o.name !== 'string') continue;
      parameters.push({ name: o.name, value: o.value === null || o.value === undefined ? '' : String(o.value), ...(o.forceString === true ? { forceString: true } : {}) });
    }
    source.helm = { ignoreMissingValueFiles: true, valueFiles, ...(a.useGeneratorValues ? { values: '{{ values }}' } : {}), parameters };
  }
  const spec: Record<string, unknown> = {
    project: str(a.project) ?? null,
    syncPolicy: isPlainObject(a.syncPolicy) ? a.syncPolicy : { automated: {}, retry: { limit: (getPath(gv.values, ['global', 'options', 'applicationRetryLimit']) as number | undefined) ?? 20 } },
    source,
    destination: { server: str(a.destinationServer) ?? 'https://kubernetes.default.svc', namespace: str(a.destinationNamespace) ?? str(a.namespace) ?? ns },
  };
  if (Array.isArray(a.ignoreDifferences)) spec.ignoreDifferences = a.ignoreDifferences;
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: { generators, template: { metadata: { name: str(a.namespace) ?? ns }, spec } },
  };
}

function buildCluster(ctx: ReaderContext, gv: GroupValues, cluster = gv.group): ClusterBuild {
  const { fs, pattern } = ctx;
  const cg = gv.clusterGroup;
  const group = gv.group;
  const argoNamespace = ctx.singleArgoCD ? ctx.vpArgoNamespace : `${pattern}-${group}`;
  const install: GroupInstall = { group, argoNamespace, namespaces: [], operatorGroups: [], subscriptions: [], projects: [], applications: [], applicationSets: [], objects: { namespaces: [], subscriptions: [], projects: [], applications: [] } };
  const b: ClusterBuild = { apps: {}, globalApps: {}, projects: {}, generated: [], notes: [], leafNotes: {}, clusterLeafNotes: [], install, places: new Map() };
  const appNamespace = argoNamespace;
  const put = (name: string, spec: AppSpec, file: string, path: YamlPath) => {
    (file === VP_GLOBAL_FILE ? b.globalApps : b.apps)[name] = spec;
    b.places.set(name, { file, path });
  };

  // Value files: what the chart gives every Application, as far as it is known offline.
  const unknownFiles: string[] = [];
  const candidateFiles = new Set<string>();
  const vf = (name: string, prefix: string, listCandidates: boolean): string | undefined => {
    const r = resolveTemplate(name, gv.values);
    // Single source: the file as written. Multi-source (clustergroup.sharedvaluefiles / app.extravaluefiles):
    // as written when it starts with `$patternref/`, else `$patternref` + the file (with no slash added).
    if (r.text !== undefined) return prefix === '/' || r.text.startsWith(prefix) ? r.text : `${prefix.replace(/\/$/, '')}${r.text}`;
    unknownFiles.push(r.display);
    // The user's own templated files: which files of the repository they may pick.
    if (listCandidates) for (const c of candidates(fs, r.pattern)) candidateFiles.add(c);
    return undefined;
  };
  const platformFiles = [
    '/values-{{ $.Values.global.clusterPlatform }}.yaml',
    '/values-{{ $.Values.global.clusterPlatform }}-{{ $.Values.global.clusterVersion }}.yaml',
    `/values-{{ $.Values.global.clusterPlatform }}-${group}.yaml`,
    `/values-{{ $.Values.global.clusterVersion }}-${group}.yaml`,
    '/values-{{ $.Values.global.localClusterName }}.yaml',
  ];
  const globalExtra = (Array.isArray(getPath(gv.values, ['global', 'extraValueFiles'])) ? (getPath(gv.values, ['global', 'extraValueFiles']) as unknown[]) : []).filter((x): x is string => typeof x === 'string');
  const shared = (Array.isArray(cg.sharedValueFiles) ? cg.sharedValueFiles : []).filter((x): x is string => typeof x === 'string');
  const valueFiles = (prefix: string, extra: string[]): string[] => {
    const out = [`${prefix}values-global.yaml`, `${prefix}values-${group}.yaml`];
    for (const f of platformFiles) vf(f, prefix, false);
    // global.extraValueFiles: as written, or `$patternref/` + the file (clustergroup.app.globalvalues.prefixedvaluefiles).
    for (const f of globalExtra) out.push(prefix === '/' ? f : `${prefix}${f}`);
    for (const f of [...shared, ...extra]) {
      const r = vf(f, prefix, true);
      if (r !== undefined) out.push(r);
    }
    return out;
  };

  // Namespaces and OperatorGroups: one app, first.
  const nsObjects: Record<string, unknown>[] = [];
  const ogObjects: Record<string, unknown>[] = [];
  const excludes = new Set((Array.isArray(cg.operatorgroupExcludes) ? cg.operatorgroupExcludes : []).filter((x): x is string => typeof x === 'string'));
  for (const ns of namespaceEntries(cg.namespaces)) {
    if (ns.spec.disabled === true) continue;
    const labels: Record<string, string> = { [MANAGED_BY_LABEL]: argoNamespace, ...(stringMap(ns.spec.labels) ?? {}) };
    const metadata: Record<string, unknown> = { name: ns.name, labels };
    const annotations = stringMap(ns.spec.annotations);
    if (annotations) metadata.annotations = annotations;
    nsObjects.push({ apiVersion: 'v1', kind: 'Namespace', metadata });
    if (ns.spec.operatorGroup === false || excludes.has(ns.name)) continue;
    const ogMeta: Record<string, unknown> = { name: `${ns.name}-operator-group`, namespace: ns.name };
    // In the list form the chart gives the OperatorGroup the entry's labels and annotations too (templates/core/operatorgroup.yaml).
    if (typeof ns.key === 'number') {
      if ('labels' in ns.spec) ogMeta.labels = stringMap(ns.spec.labels) ?? {};
      if (annotations) ogMeta.annotations = annotations;
    }
    const og: Record<string, unknown> = { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: ogMeta };
    if (!('targetNamespaces' in ns.spec)) og.spec = { targetNamespaces: [ns.name] };
    else if (Array.isArray(ns.spec.targetNamespaces) && ns.spec.targetNamespaces.length) og.spec = { targetNamespaces: ns.spec.targetNamespaces.map(String) };
    ogObjects.push(og);
  }
  // The chart always creates the imperative jobs' namespace (templates/imperative/namespace.yaml).
  const imperativeNs = str(getPath(cg, ['imperative', 'namespace'])) ?? 'imperative';
  if (!nsObjects.some((o) => (o.metadata as { name: string }).name === imperativeNs)) {
    nsObjects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: imperativeNs, labels: { name: imperativeNs, [MANAGED_BY_LABEL]: argoNamespace } } });
  }
  // Without global.singleArgoCD the chart runs its own Argo CD for the group (templates/plumbing/gitops-namespace.yaml, argocd.yaml).
  if (!ctx.singleArgoCD && !nsObjects.some((o) => (o.metadata as { name: string }).name === argoNamespace)) {
    nsObjects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: argoNamespace, labels: { name: argoNamespace } }, spec: {} });
    install.ownArgo = `ArgoCD ${argoNamespace}/${group}-gitops`;
  }
  for (const o of nsObjects) install.namespaces.push((o.metadata as { name: string }).name);
  for (const o of ogObjects) install.operatorGroups.push(`${String((o.metadata as { namespace: string }).namespace)}/${String((o.metadata as { name: string }).name)}`);
  install.objects.namespaces.push(...nsObjects.map((o) => `Namespace//${String((o.metadata as { name: string }).name)}`), ...ogObjects.map((o) => `OperatorGroup/${String((o.metadata as { namespace: string }).namespace)}/${String((o.metadata as { name: string }).name)}`));
  const generatedPath = (app: string) => `${ctx.renderedPath}/${cluster}/clustergroup/${app}`;

  // Subscriptions.
  const appEntries = entriesOf(cg.applications).filter(([, a]) => isPlainObject(a) && a.disabled !== true && str(a.name) !== undefined);
  const applicationNames = new Set(appEntries.map(([, a]) => str((a as Record<string, unknown>).name)!));
  const subApps: { name: string; wave: number }[] = [];
  // coalesce of the entry's and global.options.installPlanApproval, whose default in the chart's values.yaml is Automatic.
  const installPlanSet = getPath(gv.values, ['global', 'options', 'installPlanApproval']);
  const installPlan = installPlanSet === undefined ? CHART_DEFAULT_INSTALL_PLAN_APPROVAL : installPlanSet;
  const useCSV = getPath(gv.values, ['global', 'options', 'useCSV']) === true;
  const olmV1: string[] = [];
  for (const [key, raw] of entriesOf(cg.subscriptions)) {
    if (!isPlainObject(raw) || raw.disabled === true) continue;
    const pkg = str(raw.name);
    if (!pkg) continue;
    if (['channels', 'version', 'serviceAccountName', 'upgradeConstraintPolicy'].some((k) => raw[k] !== undefined)) {
      olmV1.push(pkg);
      continue;
    }
    // The package name, unless an application (or an earlier subscription of the package) has it.
    let name = applicationNames.has(pkg) || pkg === NAMESPACES_APP ? `${pkg}-subscription` : pkg;
    if (b.places.has(name)) name = `${name}-${String(key)}`;
    const namespaces = Array.isArray(raw.namespaces) && raw.namespaces.length ? raw.namespaces.map(String) : [str(raw.namespace) ?? DEFAULT_OPERATOR_NAMESPACE];
    const objects = namespaces.map((ns) => {
      const metadata: Record<string, unknown> = { name: pkg, namespace: ns };
      const annotations = stringMap(raw.annotations);
      if (annotations) metadata.annotations = annotations;
      const spec: Record<string, unknown> = {
        name: pkg,
        source: str(raw.source) ?? 'redhat-operators',
        sourceNamespace: str(raw.sourceNamespace) ?? 'openshift-marketplace',
      };
      if (str(raw.channel)) spec.channel = raw.channel;
      const approval = str(raw.installPlanApproval) ?? str(installPlan);
      if (approval) spec.installPlanApproval = approval;
      if (raw.config !== undefined) spec.config = raw.config;
      if (str(raw.csv) || (useCSV && raw.csv !== undefined)) spec.startingCSV = raw.csv;
      return { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata, spec };
    });
    const wave = waveOf(raw.annotations, VP_WAVES.subscriptions);
    const file = gv.fileOf('subscriptions', key);
    put(name, {
      path: generatedPath(name),
      namespace: namespaces[0]!,
      project: 'default',
      wave,
      provides: [...(operatorPackages[pkg] ?? [])],
      annotations: { [SYNC_WAVE]: String(wave) },
      labels: { [VP_PATTERN_LABEL]: pattern },
      finalizers: [VP_FINALIZER],
      syncPolicy: syncPolicyOf({}, gv.values),
    }, file, ['clusterGroup', 'subscriptions', key]);
    b.generated.push({ app: name, path: generatedPath(name), objects });
    subApps.push({ name, wave });
    for (const o of objects) {
      const ch = o.spec.channel !== undefined ? `channel ${String(o.spec.channel)}` : 'the package\'s default channel';
      install.subscriptions.push(`${o.metadata.namespace as string}/${pkg} (${ch}${o.spec.startingCSV !== undefined ? `, startingCSV ${String(o.spec.startingCSV)}` : ''})`);
      install.objects.subscriptions.push(`Subscription/${o.metadata.namespace as string}/${pkg}`);
    }
  }

  // Applications.
  const chartApps: string[] = [];
  const injectedParams = new Set<string>();
  // What every local chart of the group is built without: printed once by render --leaves (ADR 0325).
  const groupUnknown: string[] = [];
  for (const f of [...platformFiles, ...shared]) {
    const r = resolveTemplate(f, gv.values);
    if (r.text === undefined) groupUnknown.push(r.display);
  }
  const groupParams = CHART_PARAMETERS.filter((p) => !KNOWN_PARAMETERS.has(p));
  const targetCluster = str(cg.targetCluster) ?? 'in-cluster';
  // `extraParametersNested`: the Pattern's extraParameters (values-global.yaml main.extraParameters), passed to every Application.
  const nested: [string, string][] = entriesOf(getPath(gv.values, ['main', 'extraParameters']))
    .map(([, x]) => x)
    .filter((x): x is Record<string, unknown> => isPlainObject(x) && typeof x.name === 'string')
    .map((x): [string, string] => [x.name as string, x.value === null || x.value === undefined ? '' : String(x.value)])
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const nestedValues = `extraParametersNested:\n${nested.map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`).join('')}`;
  for (const [key, raw] of appEntries) {
    const a = raw as Record<string, unknown>;
    const name = str(a.name)!;
    if (ctx.applicationSets && ['generators', 'generatorFile', 'useGeneratorValues', 'destinationServer', 'destinationNamespace'].some((k) => a[k] !== undefined && a[k] !== null)) {
      // Charts before 0.9.5 render these entries as ApplicationSets (templates/plumbing/applications.yaml).
      const set = applicationSetOf(ctx, gv, a, valueFiles('/', (Array.isArray(a.extraValueFiles) ? a.extraValueFiles : []).filter((x): x is string => typeof x === 'string')));
      const setSpec: AppSpec = { manifest: set, namespace: str(a.destinationNamespace) ?? str(a.namespace) ?? `${pattern}-${group}`, project: str(a.project) ?? 'default', wave: waveOf(a.annotations, VP_WAVES.applications) };
      // The template's source, for the plan (the ApplicationSet controller makes the Applications).
      if (str(a.repoURL)) setSpec.repoURL = str(a.repoURL)!;
      if (str(a.chart)) setSpec.chart = str(a.chart)!;
      else if (str(a.path)) setSpec.path = str(a.path)!;
      put(name, setSpec, gv.fileOf('applications', key), ['clusterGroup', 'applications', key]);
      install.applicationSets.push(name);
      install.objects.applications.push(`ApplicationSet/${String((set.metadata as { namespace: string }).namespace)}/${name}`);
      continue;
    }
    install.applications.push(name);
    install.objects.applications.push(`Application/${argoNamespace}/${name}`);
    const spec: AppSpec = {
      namespace: str(a.namespace) ?? appNamespace,
      project: str(a.argoProject) ?? str(a.project) ?? 'default',
      wave: waveOf(a.annotations, VP_WAVES.applications),
      labels: { [VP_PATTERN_LABEL]: pattern },
      finalizers: [VP_FINALIZER],
    };
    // The chart writes the annotations as given, sync-wave included, and adds none (conventions.syncWaveAnnotation: as-given).
    const annotations = stringMap(a.annotations);
    if (annotations) spec.annotations = annotations;
    const syncPolicy = syncPolicyOf(a, gv.values);
    if (syncPolicy) spec.syncPolicy = syncPolicy;
    if (Array.isArray(a.ignoreDifferences)) spec.ignoreDifferences = a.ignoreDifferences.filter(isPlainObject);
    const extra = (Array.isArray(a.extraValueFiles) ? a.extraValueFiles : []).filter((x): x is string => typeof x === 'string');
    // In the chart's order (clustergroup.app.globalvalues.helmparameters): global.namespace before global.pattern.
    const parameters: Record<string, unknown>[] = [
      { name: 'global.namespace', value: '$ARGOCD_APP_NAMESPACE' },
      { name: 'global.pattern', value: pattern },
    ];
    for (const p of CHART_PARAMETERS) if (!KNOWN_PARAMETERS.has(p)) injectedParams.add(p);
    for (const f of (Array.isArray(a.extraRepoURLFields) ? a.extraRepoURLFields : []).filter((x): x is string => typeof x === 'string')) parameters.push({ name: f, value: '$ARGOCD_APP_SOURCE_REPO_URL' });
    for (const f of (Array.isArray(a.extraTargetRevisionFields) ? a.extraTargetRevisionFields : []).filter((x): x is string => typeof x === 'string')) parameters.push({ name: f, value: '$ARGOCD_APP_SOURCE_TARGET_REVISION' });
    for (const f of (Array.isArray(a.extraNamespaceFields) ? a.extraNamespaceFields : []).filter((x): x is string => typeof x === 'string')) parameters.push({ name: f, value: '$ARGOCD_APP_NAMESPACE' });
    for (const f of (Array.isArray(a.extraPatternNameFields) ? a.extraPatternNameFields : []).filter((x): x is string => typeof x === 'string')) parameters.push({ name: f, value: pattern });
    for (const [k, v] of nested) parameters.push({ name: k, value: v });
    const appParams = new Set<string>();
    for (const f of [...(Array.isArray(a.extraHubClusterDomainFields) ? a.extraHubClusterDomainFields : []), ...(Array.isArray(a.extraLocalClusterDomainFields) ? a.extraLocalClusterDomainFields : [])]) {
      if (typeof f === 'string') {
        injectedParams.add(f);
        appParams.add(f);
      }
    }
    const appUnknown = extra.map((f) => resolveTemplate(f, gv.values)).filter((r) => r.text === undefined).map((r) => r.display);
    const note = () => [appLeafNote(group, [...appParams], appUnknown)];
    for (const o of entriesOf(a.overrides).map(([, o]) => o)) {
      if (!isPlainObject(o) || typeof o.name !== 'string') continue;
      const p: Record<string, unknown> = { name: o.name, value: o.value === null || o.value === undefined ? '' : String(o.value) };
      if (o.forceString === true) p.forceString = true;
      parameters.push(p);
    }
    const helm = (prefix: string): Record<string, unknown> => ({ ignoreMissingValueFiles: true, values: nestedValues, valueFiles: valueFiles(prefix, extra), parameters });
    const destination = { name: targetCluster, namespace: spec.namespace };
    const chartVersion = str(a.chartVersion);
    if (chartVersion !== undefined) {
      // Multi-source: the pattern's repository as `$patternref`, the chart from the Helm repository.
      const repoURL = str(a.repoURL) ?? ctx.helmRepo;
      const second: Record<string, unknown> = { repoURL, targetRevision: chartVersion };
      if (str(a.chart)) second.chart = a.chart;
      else second.path = a.path;
      if (isPlainObject(a.plugin)) second.plugin = a.plugin;
      else {
        second.helm = helm('$patternref/');
        b.leafNotes[name] = note();
      }
      Object.assign(spec, { repoURL, targetRevision: chartVersion });
      if (str(a.chart)) spec.chart = str(a.chart)!;
      else if (str(a.path)) spec.path = str(a.path)!;
      spec.extraSpec = { destination, sources: [{ repoURL: ctx.repoURL, targetRevision: ctx.revision, ref: 'patternref' }, second] };
      chartApps.push(`${name} (${str(a.chart) ?? str(a.path) ?? '?'} ${chartVersion} from ${repoURL})`);
    } else {
      if (str(a.repoURL)) spec.repoURL = str(a.repoURL)!;
      if (str(a.targetRevision)) spec.targetRevision = str(a.targetRevision)!;
      if (str(a.chart)) spec.chart = str(a.chart)!;
      else if (str(a.path)) spec.path = str(a.path)!;
      if (isPlainObject(a.plugin)) spec.extraSource = { plugin: a.plugin };
      else if (a.kustomize !== true) {
        spec.extraSource = { helm: helm('/') };
        // What render --leaves builds this chart without (issue #12): the group's note, and what this app adds.
        b.leafNotes[name] = note();
      }
      spec.extraSpec = { destination };
    }
    put(name, spec, gv.fileOf('applications', key), ['clusterGroup', 'applications', key]);
  }

  // Namespaces first, whatever waves the subscriptions and applications have.
  if (nsObjects.length) {
    const waves = [...Object.values(b.apps), ...Object.values(b.globalApps)].map((s) => s.wave ?? 0);
    const wave = Math.min(0, ...waves) - 1;
    const spec: AppSpec = {
      path: generatedPath(NAMESPACES_APP),
      project: 'default',
      wave,
      annotations: { [SYNC_WAVE]: String(wave) },
      labels: { [VP_PATTERN_LABEL]: pattern },
      finalizers: [VP_FINALIZER],
      syncPolicy: syncPolicyOf({}, gv.values),
    };
    put(NAMESPACES_APP, spec, gv.fileOf('namespaces'), ['clusterGroup', 'namespaces']);
    b.generated.unshift({ app: NAMESPACES_APP, path: generatedPath(NAMESPACES_APP), objects: [...nsObjects, ...ogObjects] });
  }

  if (Object.keys(b.leafNotes).length) b.clusterLeafNotes.push(groupLeafNote(group, groupParams, groupUnknown));
  for (const p of projectNames(cg).names) {
    install.projects.push(p);
    install.objects.projects.push(`AppProject/${argoNamespace}/${p}`);
    const spec = {
      description: `Pattern ${p}`,
      destinations: [{ namespace: '*', server: '*' }],
      clusterResourceWhitelist: [{ group: '*', kind: '*' }],
      namespaceResourceWhitelist: [{ group: '*', kind: '*' }],
      sourceRepos: ['*'],
    };
    // Exactly as the chart writes it (templates/plumbing/argoProjects.yaml): no sync-wave of fleetplan's; generation puts it in the cluster's Argo CD namespace.
    b.projects[p] = { ...spec, manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name: p, namespace: argoNamespace }, spec, status: {} } };
  }

  // Notes: what was done, and what only the cluster knows.
  const files = gv.exists ? `${VP_GLOBAL_FILE} + ${gv.file}` : `${VP_GLOBAL_FILE} (${gv.file} does not exist)`;
  b.notes.push(`clusterGroup "${group}" read from ${files}, as the Validated Patterns clustergroup chart renders it${str(getPath(gv.values, ['main', 'multiSourceConfig', 'clusterGroupChartVersion'])) ? ` (chart ${String(getPath(gv.values, ['main', 'multiSourceConfig', 'clusterGroupChartVersion']))})` : ''}`);
  if (ctx.localChart !== undefined) {
    // fleetplan writes what the published chart (0.9.x) writes; an older copy in the repository may write less.
    b.notes.push(`the Applications, AppProjects, Namespaces and Subscriptions are written as the published clustergroup chart 0.9.x writes them; the operator's Application reads this repository's own common/clustergroup (version ${ctx.localChart}), which fleetplan does not run: where that chart is older it may differ (charts of 2023 write no validatedpatterns.io/pattern label, no syncPolicy.retry and no extraParametersNested values); compare with helm template common/clustergroup -f ${VP_GLOBAL_FILE} -f ${gv.file}`);
  } else if (ctx.chart.remote) {
    // The operator's Application pulls the chart; offline there is nothing to run (ADR 0402).
    const { repo, version } = ctx.chart.remote;
    b.notes.push(`the operator's Application renders ${ctx.chart.source}; that chart is remote and not run (fleetplan fetches no chart to plan, and render --leaves does not build it): the Applications, AppProjects, Namespaces, OperatorGroups and Subscriptions are written as the published clustergroup chart 0.9.x writes them; compare with helm template clustergroup --repo ${repo} --version '${version}' -f ${VP_GLOBAL_FILE} -f ${gv.file}`);
  }
  b.clusterLeafNotes.unshift(`the clustergroup chart the operator's Application renders (${ctx.chart.source}) is not run by render --leaves: this cluster group's Namespaces, OperatorGroups, Subscriptions, AppProjects and Applications are fleetplan's reading of the published chart 0.9.x (see the plan's notes)`);
  if (nsObjects.length || subApps.length) {
    const first = [
      ...(nsObjects.length ? [`${NAMESPACES_APP} (${nsObjects.length} Namespaces, ${ogObjects.length} OperatorGroups)`] : []),
      ...(subApps.length ? [`the OLM Subscriptions (${subApps.map((s) => s.name).join(', ')})`] : []),
    ];
    b.notes.push(`${first.join(' and ')} are planned before the Applications; the chart applies them in one sync with the Applications and relies on retries`);
  }
  if (olmV1.length) b.notes.push(`OLMv1 subscriptions (ClusterExtension) are not planned: ${olmV1.join(', ')}`);
  if (chartApps.length) b.notes.push(`remote charts, not rendered offline; their values come from this repository through the $patternref source: ${chartApps.sort().join(', ')}`);
  if (unknownFiles.length) {
    const list = [...new Set(unknownFiles)];
    const cands = [...candidateFiles].sort();
    b.notes.push(`value files set per cluster by the Validated Patterns operator, left out of the Applications (the chart adds them, ignored when missing): ${list.join(', ')}${cands.length ? `; files in the repository that may match: ${cands.join(', ')}` : ''}`);
  }
  if (appEntries.length) {
    b.notes.push(`helm parameters the operator sets per cluster, left out: ${[...injectedParams].sort().join(', ')} (render --leaves builds the local charts without them: a chart value read from them is what the value files set, often empty)`);
  }
  const more = otherChartObjects(cg);
  if (more.length) b.notes.push(`objects the clustergroup chart also creates, not planned: ${more.join('; ')}`);
  const jobs = entriesOf(getPath(cg, ['imperative', 'jobs'])).map(([, j]) => (isPlainObject(j) ? str(j.name) : undefined)).filter((x): x is string => x !== undefined);
  if (jobs.length) b.notes.push(`imperative jobs (CronJob in namespace imperative, not planned): ${jobs.join(', ')}`);
  return b;
}

/**
 * What the clustergroup chart creates beyond the Namespaces, OperatorGroups, Subscriptions,
 * AppProjects and Applications fleetplan plans (templates/core: a subscription's sequenceJob,
 * extraObjects, indexImages' CatalogSources, nodes, scheduler), each named with the value that
 * makes it, so that the plan says what it leaves out.
 */
function otherChartObjects(cg: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [, raw] of entriesOf(cg.subscriptions)) {
    if (!isPlainObject(raw) || raw.disabled === true || !str(raw.name)) continue;
    const job = raw.sequenceJob;
    if (!isPlainObject(job) || job.disabled === true) continue;
    const what = [str(job.resourceType), str(job.resourceName)].filter((x) => x !== undefined).join(' ');
    out.push(`Job ${str(raw.name)!}-sequencejob (subscription ${str(raw.name)!}'s sequenceJob${what ? `: waits for ${what}` : ''})`);
  }
  for (const [key, obj] of entriesOf(cg.extraObjects)) {
    if (!isPlainObject(obj) || obj.disabled === true) continue;
    const md = isPlainObject(obj.metadata) ? obj.metadata : {};
    out.push(`${str(obj.kind) ?? 'an object'} ${str(md.namespace) ? `${str(md.namespace)!}/` : ''}${str(md.name) ?? '(no name)'} (extraObjects.${String(key)})`);
  }
  for (const [, idx] of entriesOf(cg.indexImages)) {
    if (!isPlainObject(idx) || !str(idx.image)) continue;
    // The chart's name: the image path after the registry, without the tag, '/' → '-', unless the entry names it.
    const m = /^[^/]*\/(.*):.*$/.exec(str(idx.image)!);
    const name = str(idx.name) ?? (m ? m[1]! : str(idx.image)!).replace(/\//g, '-');
    out.push(`CatalogSource openshift-marketplace/${name} (indexImages)`);
  }
  for (const [, node] of entriesOf(cg.nodes)) if (isPlainObject(node)) for (const n of Object.keys(node)) out.push(`Node ${n} (nodes)`);
  if (cg.scheduler !== undefined) out.push('Scheduler cluster (scheduler)');
  return out;
}

/** A values file seen as the model's layer: `{spec: {apps, projects}}`, positions in clusterGroup. */
function valuesView(real: SourceFile, apps: Record<string, AppSpec>, projects: Record<string, ProjectSpec>, places: Map<string, { file: string; path: YamlPath }>, projectField: string): SourceFile {
  const projectIndex = (name: string): string | number => {
    const v = getPath(real.value, ['clusterGroup', projectField]);
    if (Array.isArray(v)) {
      const i = v.indexOf(name);
      return i < 0 ? name : i;
    }
    return name;
  };
  const map = (path: YamlPath): YamlPath => {
    if (path[0] !== 'spec') return path;
    if (path[1] === 'apps' && typeof path[2] === 'string') {
      const place = places.get(path[2]);
      if (!place) return ['clusterGroup'];
      const [field, ...rest] = path.slice(3);
      if (field === undefined) return place.path;
      if (place.path[1] !== 'applications') return place.path;
      const app = getPath(real.value, place.path);
      const fields: Record<string, YamlPath> = {
        project: [isPlainObject(app) && app.argoProject === undefined && app.project !== undefined ? 'project' : 'argoProject'],
        targetRevision: [isPlainObject(app) && app.chartVersion !== undefined ? 'chartVersion' : 'targetRevision'],
        wave: ['annotations', SYNC_WAVE],
        extraSource: [],
        extraSpec: [],
      };
      const mapped = typeof field === 'string' && fields[field] ? fields[field] : [field];
      return [...place.path, ...mapped, ...(typeof field === 'string' && fields[field] ? [] : rest)];
    }
    if (path[1] === 'projects' && typeof path[2] === 'string') return ['clusterGroup', projectField, projectIndex(path[2])];
    return ['clusterGroup'];
  };
  return { file: real.file, value: { spec: { apps, projects } }, locate: (p) => real.locate(map(p)), displayPath: map };
}

/**
 * The repoURL the pattern's installer gives the operator for a clone's origin remote:
 * rhvp.cluster_utils (install_settings) and common/Makefile turn an scp-like `git@host:path` into
 * `https://host/path` (no token secret: the operator reads over HTTPS) and pass any other URL as
 * it is. A path on this machine is no URL the cluster can read: undefined.
 */
export function installerRepoURL(origin: string | undefined): string | undefined {
  if (!isServerURL(origin)) return undefined;
  const u = origin.trim();
  const scp = /^git@([^:/]+):(.+)$/.exec(u);
  return scp ? `https://${scp[1]}/${scp[2]}` : u;
}

/** A managed cluster of `--clusters`: its name (the Secret's data.name) and labels (the Secret's, standing for the ManagedCluster's). */
interface ManagedCluster {
  name: string;
  secret: string;
  labels: Record<string, string>;
}

/**
 * Which managed cluster group each cluster of `--clusters` belongs to: the group whose ACM
 * placement clusterSelector (matchLabels and matchExpressions, as Kubernetes label selectors)
 * selects its labels (ADR 0343). A cluster no placement selects gets nothing from the pattern; one
 * that several select gets each of those groups' policies, which fleetplan does not merge: it is
 * planned with the first and a warning names the others.
 */
function matchManagedClusters(
  clusters: readonly ClusterSecret[],
  spokes: readonly { gv: GroupValues; selector: LabelSelector }[],
  hub: string,
  hubFile: string,
  findings: Finding[],
): Map<string, ManagedCluster[]> {
  const out = new Map<string, ManagedCluster[]>();
  const compiled = spokes.map((s) => {
    try {
      return { group: s.gv.group, matches: compileSelector(s.selector as Parameters<typeof compileSelector>[0]) };
    } catch (e) {
      findings.push({ severity: 'error', code: 'vp-placement-selector', message: `managed cluster group ${s.gv.group}: its placement selector cannot be read: ${(e as Error).message}`, file: hubFile, hint: 'fix clusterSelector (matchLabels / matchExpressions with In, NotIn, Exists, DoesNotExist)' });
      return { group: s.gv.group, matches: () => false };
    }
  });
  const seen = new Set<string>();
  for (const c of clusters) {
    const name = c.data['name'] ?? c.name;
    if (seen.has(name)) continue;
    seen.add(name);
    const server = c.data['server'] ?? '';
    // The hub itself (in-cluster): the pattern's hub group, not a managed cluster.
    if (name === 'in-cluster' || name === hub || server === 'https://kubernetes.default.svc') continue;
    const labels = Object.fromEntries(Object.entries(c.labels).filter(([k]) => k !== 'argocd.argoproj.io/secret-type'));
    const groups = compiled.filter((g) => g.matches(labels)).map((g) => g.group);
    if (groups.length === 0) {
      findings.push({ severity: 'warning', code: 'vp-cluster-not-selected', message: `--clusters: cluster ${name} (Secret ${c.name}) matches no managed cluster group's placement, so the pattern gives it nothing (${spokes.map((s) => `${s.gv.group}: ${selectorText(s.selector)}`).join('; ') || 'the hub has no managedClusterGroups'})`, file: hubFile, hint: 'label the cluster as a group\'s clusterSelector asks, or leave it out of --clusters' });
      continue;
    }
    if (groups.length > 1) {
      findings.push({ severity: 'warning', code: 'vp-cluster-in-several-groups', message: `--clusters: cluster ${name} (Secret ${c.name}) is selected by the placements of ${groups.join(', ')}: ACM gives it each group's clustergroup Application; fleetplan plans it with ${groups[0]} only`, file: hubFile, hint: 'make the groups\' clusterSelectors exclusive' });
    }
    let list = out.get(groups[0]!);
    if (!list) out.set(groups[0]!, (list = []));
    list.push({ name, secret: c.name, labels });
  }
  return out;
}

export function loadValidatedPatterns(fs: RepoFileSystem, context: { origin?: RepositoryOrigin } = {}): LoadResult {
  const result = readPattern(fs, context);
  result.withClusters = (secrets) => readPattern(fs, context, secrets);
  return result;
}

function readPattern(fs: RepoFileSystem, context: { origin?: RepositoryOrigin }, managedClusters?: readonly ClusterSecret[]): LoadResult {
  const findings: Finding[] = [];
  const real = new Map<string, SourceFile>();
  const parse = (file: string): SourceFile | undefined => {
    if (real.has(file)) return real.get(file);
    if (!fs.exists(file) || fs.isDirectory(file)) return undefined;
    const r = parseYamlSource(file, fs.readText(file));
    findings.push(...r.findings);
    if (r.source) real.set(file, r.source);
    return r.source;
  };
  const globalSrc = parse(VP_GLOBAL_FILE);
  const globalValues = isPlainObject(globalSrc?.value) ? globalSrc.value : {};
  const hub = hubGroupName(fs) ?? 'hub';
  const metadata = parse(VP_METADATA_FILE)?.value;
  const text = (f: string) => (fs.exists(f) && !fs.isDirectory(f) ? fs.readText(f) : undefined);
  const installer = readInstaller({ makefileCommon: text('Makefile-common'), commonMakefile: text('common/Makefile') }, str(getPath(globalValues, ['global', 'pattern'])), basename(fs.root));
  // The Pattern resource's name is the operator's global.pattern parameter, which wins over the value files.
  const pattern = installer.patternName;
  const fleetNotes: string[] = [];
  // The installer (common/Makefile, rhvp.cluster_utils) passes the clone's origin and branch as
  // main.git.repoURL/revision with --set, over values-global.yaml (ADR 0342); the file's own values
  // count only outside a clone with an origin on a Git server.
  const installerURL = installerRepoURL(context.origin?.url);
  let repoURL: string | undefined;
  let repoFrom: string;
  if (installerURL) {
    repoURL = installerURL;
    fleetNotes.push((repoFrom = `repository ${repoURL}: the clone's origin${context.origin?.branch ? ` and branch ${context.origin.branch}` : ''}, which the installer passes as main.git.repoURL/revision over ${VP_GLOBAL_FILE}`));
  } else if ((repoURL = str(getPath(globalValues, ['main', 'git', 'repoURL'])))) {
    fleetNotes.push((repoFrom = `repository ${repoURL} from ${VP_GLOBAL_FILE} main.git.repoURL (the clone has no origin on a Git server; the installer passes the origin over it)`));
  } else if ((repoURL = str(getPath(metadata, ['repo_url'])))) {
    fleetNotes.push((repoFrom = `repository ${repoURL} from ${VP_METADATA_FILE} repo_url (the upstream pattern; a fork's Pattern resource names its own)`));
  } else {
    // Never a file:// path: left empty, load/repository-origin.ts says that no repository URL is known.
    repoURL = '';
    repoFrom = 'no repository URL: the clone has no origin on a Git server and the repository names none (the installer passes the origin as main.git.repoURL)';
    fleetNotes.push(repoFrom);
  }
  if (!installerURL) repoFrom = `the installer passes the clone's origin and current branch as main.git.repoURL/revision, over values-global.yaml; shown: ${repoFrom.replace(/^repository /, '')}`;
  const revision = (installerURL ? context.origin?.branch : undefined) ?? str(getPath(globalValues, ['main', 'git', 'revision'])) ?? 'HEAD';
  if (installerURL) repoFrom = `${repoURL} at ${revision}`;
  const chart = clusterGroupChart(fs, globalValues);
  const singleArgoCD = getPath(globalValues, ['global', 'singleArgoCD']) === true;
  const ctx: ReaderContext = {
    fs,
    pattern,
    singleArgoCD,
    vpArgoNamespace: VP_ARGO_NAMESPACE,
    applicationSets: chart.applicationSets,
    ...(chart.local ? { localChart: chart.version } : {}),
    chart,
    repoURL,
    revision,
    helmRepo: str(getPath(globalValues, ['main', 'multiSourceRepoUrl'])) ?? str(getPath(globalValues, ['main', 'multiSourceConfig', 'helmRepoUrl'])) ?? VP_HELM_REPO,
    renderedPath: 'rendered',
    globalValues,
  };

  const groupValues = (group: string): GroupValues => {
    const file = groupValuesFile(group);
    const src = parse(file);
    return readGroupValues(globalValues, group, src?.value, fs.exists(file));
  };
  const hubValues = groupValues(hub);
  const clusters: ClusterDef[] = [];
  const groups = new Map<string, GroupDef>();
  const sources = new Map<string, SourceFile>();
  const add = (gv: GroupValues, spec: Omit<ClusterSpec, 'apps'>, notes: string[], own: (install: GroupInstall) => NonNullable<ClusterDef['ownBootstrap']>, name = gv.group) => {
    const b = buildCluster(ctx, gv, name);
    const groupNames: string[] = [];
    if (Object.keys(b.globalApps).length) {
      groups.set('values-global', { name: 'values-global', file: VP_GLOBAL_FILE, metadata: { name: 'values-global' }, spec: { apps: b.globalApps } });
      groupNames.push('values-global');
    }
    clusters.push({
      name,
      file: gv.file,
      metadata: { name },
      spec: { ...spec, groups: groupNames, apps: b.apps },
      projects: b.projects,
      notes: [...notes, ...b.notes],
      generated: b.generated,
      ...(Object.keys(b.leafNotes).length ? { leafNotes: b.leafNotes } : {}),
      clusterLeafNotes: b.clusterLeafNotes,
      leafEmptyValues: Object.fromEntries(CHART_PARAMETERS.filter((p) => !KNOWN_PARAMETERS.has(p)).map((p) => [p, 'set per cluster by the Validated Patterns operator'])),
      gitopsNamespace: b.install.argoNamespace,
      ownBootstrap: own(b.install),
    });
    const src = real.get(gv.file);
    if (src) sources.set(gv.file, valuesView(src, b.apps, b.projects, b.places, projectNames(gv.clusterGroup).field));
  };

  const hubNotes = [...fleetNotes];
  const spokes: { gv: GroupValues; selector: LabelSelector; from: string; key: string | number; notes: string[] }[] = [];
  for (const [key, raw] of entriesOf(hubValues.clusterGroup.managedClusterGroups)) {
    if (!isPlainObject(raw)) continue;
    const name = str(raw.name) ?? (typeof key === 'string' ? key : undefined);
    if (!name || !GROUP_NAME.test(name) || name === hub || spokes.some((s) => s.gv.group === name)) continue;
    // The acm chart's placements: clusterSelector, else acmlabels, else clusterGroup: <group> (never the hub).
    const { selector, from } = placementSelector(name, raw);
    const fromText = from === 'clusterSelector' ? `its clusterSelector` : from === 'acmlabels' ? 'its acmlabels' : 'no clusterSelector or acmlabels: the acm chart\'s default';
    const notes = [
      `stands for every managed cluster the hub's ACM placements select with ${selectorText(selector)} (${fromText}; ${hubValues.file} clusterGroup.managedClusterGroups.${key}); the repository names no managed cluster`,
    ];
    const overrides = entriesOf(raw.helmOverrides).map(([, o]) => (isPlainObject(o) && typeof o.name === 'string' ? `${o.name}=${String(o.value)}` : undefined)).filter((x): x is string => x !== undefined);
    if (overrides.length) notes.push(`helmOverrides passed to the group's clustergroup chart: ${overrides.join(', ')}`);
    if (isPlainObject(raw.clusterPools) || isPlainObject(raw.clusterDeployments)) notes.push('clusterPools/clusterDeployments of the group (ACM provisioning) are not planned');
    spokes.push({ gv: groupValues(name), selector, from: fromText, key, notes });
  }
  // Other cluster groups in the repository: variants, not part of this hub's fleet.
  const known = new Set([hub, ...spokes.map((s) => s.gv.group)]);
  for (const f of fs.list('.')) {
    const m = /^values-(.+)\.yaml$/.exec(f);
    if (!m || m[1] === 'global' || known.has(m[1]!)) continue;
    let v: unknown;
    try {
      v = parseYaml(fs.readText(f), { schema: 'core' });
    } catch {
      continue;
    }
    const name = getPath(v, ['clusterGroup', 'name']);
    if (typeof name === 'string') hubNotes.push(`${f} (clusterGroup ${name}) is not planned: main.clusterGroupName is ${hub} and no managedClusterGroups entry names it${name === 'standalone' ? ' (the single-cluster variant)' : ''}`);
  }
  // A pattern without managed cluster groups or ACM (the standalone variant) is one cluster on its own.
  const runsAcm = entriesOf(hubValues.clusterGroup.subscriptions).some(([, s]) => isPlainObject(s) && s.name === 'advanced-cluster-management' && s.disabled !== true);
  const acmApp = entriesOf(hubValues.clusterGroup.applications)
    .map(([, a]) => a)
    .find((a): a is Record<string, unknown> => isPlainObject(a) && a.disabled !== true && (a.chart === 'acm' || (typeof a.path === 'string' && /(^|\/)acm$/.test(a.path))));
  const acmAppName = acmApp ? str(acmApp.name) : undefined;
  const repo = { url: repoURL, from: repoFrom, revision };
  add(hubValues, { role: spokes.length > 0 || runsAcm ? 'hub' : 'standalone', platform: 'openshift' }, hubNotes, (install) => hubInstall({
    installer, hub, globalValues, chart, repo, vpArgoNamespace: VP_ARGO_NAMESPACE, hubInstall: install,
    managed: spokes.map((s) => ({ group: s.gv.group, selector: s.selector, from: s.from })),
    ...(acmAppName ? { acmApp: acmAppName } : {}),
  }));
  const gitopsChannel = str(getPath(globalValues, ['main', 'gitops', 'channel'])) ?? GITOPS_DEFAULT_CHANNEL;
  const managed = managedClusters ? matchManagedClusters(managedClusters, spokes, hub, hubValues.file, findings) : undefined;
  for (const s of spokes) {
    const own = (install: GroupInstall) => spokeInstall({
      hub, group: s.gv.group, patternName: pattern, selector: s.selector, selectorFrom: s.from, vpArgoNamespace: VP_ARGO_NAMESPACE,
      gitopsChannel, install, chart, ...(acmAppName ? { acmApp: acmAppName } : {}),
    });
    if (!managed) {
      add(s.gv, { role: 'spoke', hub, platform: 'openshift', labels: selectedLabels(s.selector) }, s.notes, own);
      continue;
    }
    const mine = managed.get(s.gv.group) ?? [];
    if (mine.length === 0) hubNotes.push(`managed cluster group ${s.gv.group}: no cluster of --clusters matches its placement (${selectorText(s.selector)}), so no cluster gets its apps`);
    for (const m of mine) {
      const notes = [`managed cluster ${m.name} (--clusters, Secret ${m.secret}): the hub's ACM placements of group ${s.gv.group} select it with ${selectorText(s.selector)} (${s.from}), so it gets that group's apps`, ...s.notes.slice(1)];
      add(s.gv, { role: 'spoke', hub, platform: 'openshift', labels: m.labels }, notes, own, m.name);
    }
  }
  if (globalSrc) sources.set(VP_GLOBAL_FILE, globalSrc);
  for (const [file, src] of real) if (!sources.has(file)) sources.set(file, src);

  const fleet: Fleet = {
    // Argo CD builds each chart with its own Helm support: nothing substitutes variables in the leaves;
    // the clustergroup chart writes the Applications' fields as the value files give them, and Argo CD
    // reads them as written (ADR 0344): no fleetplan variables in either.
    ...emptyFleet(fs.root, 'validated-patterns', { ...ARGOCD_REPOSITORY_CAPABILITIES, leafVariables: false, appVariables: false }),
    name: pattern,
    file: VP_GLOBAL_FILE,
    repoURL,
    revision,
    // Each cluster's Argo CD namespace is the chart's (ClusterDef.gitopsNamespace): the operator's vp-gitops with global.singleArgoCD, else <pattern>-<group>.
    gitopsNamespace: singleArgoCD ? VP_ARGO_NAMESPACE : undefined,
    renderedPath: ctx.renderedPath,
    clusters,
    groups,
    sources,
    loadFindings: findings,
    // The chart writes an Application's annotations as given and adds no sync-wave (fleetplan's own generated apps carry theirs explicitly).
    conventions: { syncWaveAnnotation: 'as-given', objectNamespace: true, projects: 'from-layers' },
  };
  return { fleet, findings };
}
