/**
 * Following a repository as Argo CD does (docs/adr/0197-argocd-layout.md): from the root objects,
 * each Application's sources are read as the repo-server reads them (a kustomization is built with
 * the real kustomize, a Helm chart with the real Helm, a plain directory is read with
 * `directory.recurse/include/exclude`), every Application or ApplicationSet in what they render is
 * followed in turn (app-of-apps, recursively), and ApplicationSets are evaluated by the
 * ApplicationSet engine with the repository's cluster Secrets. Each Application lands on the
 * cluster its destination names.
 *
 * Input: the static scan, the tools (through ports), the fleet to fill. Output: the fleet's
 * clusters and apps, and findings for what could not be read; nothing is thrown for content.
 */
import { isPlainObject } from '../../model/merge.js';
import { appFromApplication } from '../../model/application.js';
import { joinRepoPath, normalizeRepoPath } from '../../model/repo-path.js';
import type { Finding } from '../../model/finding.js';
import type { AppliedObject, ClusterDef, Fleet } from '../../model/fleet.js';
import type { AppSpec, ProjectSpec } from '../../model/spec.js';
import type { ChartTemplateRequest, ClusterBuilder } from '../../ports/cluster-build.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { GitRepo, RepositoryOrigin } from '../../ports/git-repo.js';
import { generateApplications } from '../../appset/applications.js';
import { goTemplateEngine } from '../../appset/go-engine.js';
import { directoryOptions, selectDirectoryFiles } from '../../render/leaves/directory.js';
import { loadApplicationSet, parseClusterSecrets } from '../../appset/load.js';
import type { ClusterSecret } from '../../appset/types.js';
import { serviceGeneratorOf } from '../../appset/types.js';
import { dumpYaml, parseYamlAll } from '../../yaml/index.js';
import { expandListDocument } from '../../model/k8s-list.js';
import type { ArgoObject, RepoScan } from './scan.js';
import { KUSTOMIZATION_FILES } from '../../load/kustomization.js';
import { ARGO_API, kustomizationClosure, kustomizationIn, repositoryFiles, topKustomizations } from './scan.js';
import { isServerURL, normalizeGitURL, placeholderRepoURL, sameRepository } from '../../model/git-url.js';
import { argoSourceType } from '../../model/argo-source-type.js';
import type { JsonnetTool } from '../../ports/tools.js';
import { InputError } from '../../errors/index.js';
import { dns1123SubdomainProblem } from '../../model/k8s-names.js';
import { notArgoObjects } from '../../model/object-list.js';
import { crdScopes, destinationNamespaceWords, inDestinationNamespace, kindScope } from '../../load/kind-scope.js';
import { compareSyncOrder, syncWaveOf } from '../../model/sync-order.js';
import { SYNC_WAVE_ANNOTATION } from '../../model/constants.js';
import { JsonnetEvaluator, applicationJsonnetSettings, directorySourceFiles } from './jsonnet.js';

/** What each service generator asks when Argo CD runs it. */
const SERVICE_ASKED: Readonly<Record<string, string>> = {
  pullRequest: "the Git provider's API for the open pull requests",
  scmProvider: "the Git provider's API for the organization's repositories",
  plugin: 'the plugin service its ConfigMap names',
  clusterDecisionResource: 'the cluster for the decision resource it names',
};
import { argoBuildEnvironment, envsubst } from '../../render/leaves/jobs.js';

export const IN_CLUSTER_NAME = 'in-cluster';
export const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';

/** What following needs from outside the pure core; api/ wires the adapters in. */
export interface FollowTools {
  /** The real kustomize and Helm; created on first use (a repository whose roots are plain files never needs them). */
  builder: () => Promise<ClusterBuilder>;
  /** The repo server for the ApplicationSet git generators (absent: git generators fail with a finding). */
  git?: GitRepo;
  /** The clone's origin remote and branch: which repoURLs are this repository. */
  origin: RepositoryOrigin;
  /** Cluster Secrets given with --clusters (over the repository's own). */
  clusterSecrets?: readonly ClusterSecret[];
  /** The real Jsonnet, located on first use (a directory source with `.jsonnet` files); absent: none. */
  jsonnet?: () => Promise<JsonnetTool>;
  /**
   * The roots given with --root (ADR 0345): repository-relative files or directories, read as
   * `kubectl apply -f` reads them. Absent or empty: the roots are guessed (every Argo CD object no
   * other object applies).
   */
  roots?: readonly string[];
}

interface Place {
  /** Where the object came from: a file, or `<kind> <name>` of the app whose source rendered it. */
  via: string;
  file?: string;
  /** Where the object is written (its `metadata.name`), or the ApplicationSet that generates it: the app's origin. */
  at?: AppOrigin;
  /**
   * Who applies it (ADR 0367): `hand:<home>` (a root group, applied by a person), `app:<cluster>/<name>`
   * (an Application's sync) or `appset:<home>/<name>` (the ApplicationSet controller).
   */
  parent?: string;
  /**
   * The root it descends from (ADR 0377): the file of a loose root, `kustomize build DIR` or
   * `helm template DIR`. Two guessed roots are not known to be applied together.
   */
  root?: string;
  /** The chart template that writes it, for an object a chart renders (no `at`: templates are not scanned). */
  template?: string;
}

/** An Argo CD object the follower reached, kept to judge a second object of the same key (ADR 0367). */
/** A chart's `helm template` request, without the chart directory. */
type HelmRequest = Omit<ChartTemplateRequest, 'dir'>;

interface Reached {
  place: Place;
  /** Its content, canonical: a second object with the same content is the same object reached again. */
  text: string;
  /** The object as first reached (a chart's render of it can be run again, ADR 0412). */
  doc: Record<string, unknown>;
  /** The cluster its destination names (Applications). */
  cluster?: string;
}

/** JSON with sorted keys: equal for equal content, whatever order the keys were written in. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** A place as a person finds it: `file:line`, with the ApplicationSet or build it comes from when that is what it is. */
function placeText(p: Place): string {
  const at = p.at ? `${p.at.file}:${p.at.line}` : p.file;
  if (p.via.startsWith('ApplicationSet ')) return at ? `${p.via} (${at})` : p.via;
  if (at) return at;
  return p.template ? `${p.via} (template ${p.template})` : p.via;
}

/** Where an app's Application is written in the repository: its file and the line of its `metadata.name`. */
export interface AppOrigin {
  file: string;
  line: number;
}

interface ClusterEntry {
  name: string;
  server: string;
  apps: Record<string, AppSpec>;
  /** The AppProjects a root or an app-of-apps applies to this cluster's Argo CD, exactly, with who applies each. */
  projects: Record<string, { spec: ProjectSpec; via: string }>;
  /** What a root or an app-of-apps applies to this cluster besides Argo CD's objects, first of each key kept (ADR 0398). */
  objects: Map<string, AppliedObject>;
  /** The ApplicationSets a person applies to this cluster's Argo CD (roots), first of each key kept. */
  appSets: Map<string, { file: string; line?: number; object: Record<string, unknown> }>;
  notes: string[];
  registered: boolean;
}

const key = (o: Record<string, unknown>): string => {
  const md = isPlainObject(o.metadata) ? o.metadata : {};
  return `${String(o.kind)}/${String(md.namespace ?? '')}/${String(md.name ?? '')}`;
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The Applications' sources, as a list (`spec.sources`, else `spec.source`). */
export function sourcesOf(app: Record<string, unknown>): Record<string, unknown>[] {
  const spec = isPlainObject(app.spec) ? app.spec : {};
  if (Array.isArray(spec.sources) && spec.sources.length > 0) return spec.sources.filter(isPlainObject);
  return isPlainObject(spec.source) ? [spec.source] : [];
}

/**
 * What sync waves do around an ApplicationSet (ADR 0407): its own annotation orders the
 * ApplicationSet object in the sync that applies it; its Applications carry the template's
 * annotations, whose waves order nothing (they are not children of a sync, argo-cd #12444) unless
 * a RollingSync strategy orders them.
 */
function appSetWaveNotes(doc: Record<string, unknown>, name: string, via: string, apps: readonly Record<string, unknown>[]): string[] {
  const notes: string[] = [];
  const waveOf = (o: Record<string, unknown>): unknown => {
    const md = o.metadata;
    return isPlainObject(md) && isPlainObject(md.annotations) ? md.annotations[SYNC_WAVE_ANNOTATION] : undefined;
  };
  const own = waveOf(doc);
  if (own !== undefined && via.startsWith('Application ')) notes.push(`ApplicationSet ${name}'s own sync wave (${String(own)}) orders the ApplicationSet object in ${via}'s sync, not its Applications: nothing waits for them to be healthy`);
  const strategy = isPlainObject(doc.spec) && isPlainObject(doc.spec.strategy) ? doc.spec.strategy.type : undefined;
  const waved = apps.filter((a) => waveOf(a) !== undefined);
  if (strategy !== 'RollingSync' && waved.length > 0) {
    const list = waved.map((a) => `${String((a.metadata as Record<string, unknown>).name)}: ${String(waveOf(a))}`).join(', ');
    notes.push(`the sync wave of the Applications ApplicationSet ${name} generates (${list}, from its template) orders nothing: they are not children of a sync (argo-cd #12444; validate warns); only a RollingSync strategy orders them`);
  }
  return notes;
}

/** An Application document → the model's app, carrying the exact object (AppSpec.manifest). */
export function appFromObject(doc: Record<string, unknown>): AppSpec {
  return appFromApplication(doc, sourcesOf(doc).find((s) => s.ref === undefined || s.path !== undefined) ?? {});
}

function argoObjectsOf(docs: readonly unknown[]): Record<string, unknown>[] {
  // A list document is its items, as the repo-server applies it (ADR 0300); a broken list is left to the leaf build to report.
  const objects = docs.flatMap((d) => {
    try {
      return expandListDocument(d);
    } catch {
      return [];
    }
  });
  return objects.filter(
    (d): d is Record<string, unknown> =>
      isPlainObject(d) && (d.kind === 'Application' || d.kind === 'ApplicationSet') && typeof d.apiVersion === 'string' && d.apiVersion.startsWith(`${ARGO_API}/`) && isPlainObject(d.metadata) && typeof d.metadata.name === 'string',
  );
}

/** Every object of a build or file (list documents expanded), with a kind and a name. */
function objectsOf(docs: readonly unknown[]): Record<string, unknown>[] {
  return docs.flatMap((d) => {
    try {
      return expandListDocument(d);
    } catch {
      return [];
    }
  }).filter((d): d is Record<string, unknown> => isPlainObject(d) && typeof d.kind === 'string' && isPlainObject(d.metadata) && typeof d.metadata.name === 'string');
}

/** An applied object as the sync order sees it. */
function syncItem(o: AppliedObject): { wave: number; kind: string; namespace?: string; name: string } {
  const md = o.manifest.metadata as Record<string, unknown>;
  return { wave: o.wave, kind: String(o.manifest.kind), ...(typeof md.namespace === 'string' ? { namespace: md.namespace } : {}), name: String(md.name) };
}

const isAppProject = (d: Record<string, unknown>): boolean => d.kind === 'AppProject' && typeof d.apiVersion === 'string' && d.apiVersion.startsWith(`${ARGO_API}/`);

type RootGroup =
  | { kind: 'kustomize'; dir: string; files: string[]; closure: ReturnType<typeof kustomizationClosure> }
  | { kind: 'files'; dir: string; files: string[]; objects: ArgoObject[] }
  | { kind: 'chart'; dir: string; files: string[] };

function commonDir(files: readonly string[]): string {
  let parts = (files[0] ?? '').split('/').slice(0, -1);
  for (const f of files.slice(1)) {
    const q = f.split('/').slice(0, -1);
    let i = 0;
    while (i < parts.length && i < q.length && parts[i] === q[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.join('/') || '.';
}

/**
 * The cluster each root group is applied to: `in-cluster` when there is one group; else the
 * `clusters/<name>` folder its files share (else their common folder), made unique.
 */
function homeNames(groups: readonly RootGroup[]): string[] {
  if (groups.length <= 1) return groups.map(() => IN_CLUSTER_NAME);
  const taken = new Set<string>();
  return groups.map((g) => {
    const dir = g.kind === 'kustomize' && /(?:^|\/)clusters\/[^/]+/.test(g.dir) ? g.dir : commonDir(g.files);
    // clusters/overlays/<name>/… is kustomize's layout of clusters/<name>: the cluster is <name>, not "overlays".
    const m = /(?:^|\/)clusters\/(?:overlays\/(?=[^/]))?([^/]+)/.exec(dir);
    let base = (m ? m[1]! : dir === '.' ? 'root' : dir.replace(/\//g, '-')).toLowerCase().replace(/[^a-z0-9-]/g, '-').replace(/^-+|-+$/g, '');
    if (base === '') base = 'root';
    let n = base;
    for (let i = 2; taken.has(n); i++) n = `${base}-${i}`;
    taken.add(n);
    return n;
  });
}

/** The origin of a scanned object, when the parser gave its line. */
function atOf(o: { file: string; line?: number }): { at?: AppOrigin } {
  return o.line !== undefined ? { at: { file: o.file, line: o.line } } : {};
}

export class ArgoFollower {
  readonly findings: Finding[] = [];
  /** Per cluster, where each app's Application (or the ApplicationSet generating it) is written (ADR 0323). */
  readonly origins = new Map<string, Map<string, AppOrigin>>();
  /** Repository objects reached (by file and document index). */
  private readonly reached = new Set<string>();
  /** The chart render that gave an Argo CD object, to run it again (ADR 0412). */
  private readonly renders = new WeakMap<object, { dir: string; req: HelmRequest }>();
  /** The chart template that wrote a rendered Argo CD object (helm's `# Source:`). */
  private readonly templates = new WeakMap<object, string>();
  private readonly clusters = new Map<string, ClusterEntry>();
  private readonly seen = new Map<string, Reached>();
  /** Per destination cluster and app name: where the app's Application was reached (ADR 0367). */
  private readonly placed = new Map<string, { place: Place; home: string }>();
  private readonly secrets: ClusterSecret[];
  private builder: ClusterBuilder | undefined;
  private builderError: string | undefined;
  private readonly jsonnet: JsonnetEvaluator;
  private readonly argoFiles: Set<string>;
  private readonly ownURL: string | undefined;
  private readonly allFiles: string[];
  /** Root descriptions per home cluster, for the plan. */
  readonly roots = new Map<string, string[]>();
  /** The clusters the root groups are applied to. */
  private homes: string[] = [];

  /** Per home cluster: the directory or file of its root (the cluster's `file`). */
  private readonly rootFiles = new Map<string, string>();
  private fleetFile = '';

  private rootOf(home: string, what: string, file?: string): void {
    if (file !== undefined && !this.rootFiles.has(home)) this.rootFiles.set(home, file);
    const list = this.roots.get(home) ?? [];
    if (!list.includes(what)) list.push(what);
    this.roots.set(home, list);
  }

  constructor(
    private readonly fs: RepoFileSystem,
    private readonly scan: RepoScan,
    private readonly tools: FollowTools,
  ) {
    this.argoFiles = new Set(scan.objects.map((o) => o.file));
    // A clone of a local copy has a path for its origin: like no origin, it says nothing about which URLs are this one.
    this.ownURL = isServerURL(tools.origin.url) ? normalizeGitURL(tools.origin.url) : undefined;
    this.allFiles = repositoryFiles(fs);
    this.jsonnet = new JsonnetEvaluator(fs, tools.jsonnet);
    this.secrets = [...(tools.clusterSecrets ?? [])];
    if (!tools.clusterSecrets) {
      for (const file of [...new Set(scan.clusterSecrets.map((s) => s.file))]) {
        try {
          this.secrets.push(...parseClusterSecrets(fs.readText(file), file).filter((s) => s.labels['argocd.argoproj.io/secret-type'] === 'cluster'));
        } catch (e) {
          this.findings.push({ severity: 'warning', code: 'unreadable-file', message: `cluster Secrets in ${file} cannot be read: ${(e as Error).message}`, file, hint: 'fix the Secret' });
        }
      }
    }
    for (const s of this.secrets) this.cluster(s.data.name ?? s.name, s.data.server ?? '', true);
  }

  private cluster(name: string, server: string, registered: boolean): ClusterEntry {
    let c = this.clusters.get(name);
    if (!c) this.clusters.set(name, (c = { name, server, apps: {}, projects: {}, objects: new Map(), appSets: new Map(), notes: [], registered }));
    return c;
  }

  /** The cluster an Application's destination names, as Argo CD resolves it (by name, else by server). */
  private destinationCluster(app: Record<string, unknown>, home: string): ClusterEntry {
    const spec = isPlainObject(app.spec) ? app.spec : {};
    const dest = isPlainObject(spec.destination) ? spec.destination : {};
    const name = str(dest.name);
    const server = str(dest.server);
    // The in-cluster destination is the cluster whose Argo CD holds the Application.
    if (name === IN_CLUSTER_NAME || (!name && (server === undefined || server.replace(/\/+$/, '') === IN_CLUSTER_SERVER))) return this.cluster(home, IN_CLUSTER_SERVER, true);
    if (name) {
      const c = this.clusters.get(name) ?? [...this.clusters.values()].find((x) => x.name === name);
      return c ?? this.cluster(name, '', false);
    }
    const s = (server ?? IN_CLUSTER_SERVER).replace(/\/+$/, '');
    const c = [...this.clusters.values()].find((x) => x.server.replace(/\/+$/, '') === s);
    return c ?? this.cluster(s.replace(/^https?:\/\//, '').replace(/[:/].*$/, ''), s, false);
  }

  /** True when a source's repoURL is this repository (the clone's origin; without one on a Git server, any Git URL whose path exists here). */
  isOwnSource(source: Record<string, unknown>): boolean {
    const url = str(source.repoURL);
    if (url === undefined || source.chart !== undefined) return false;
    if (this.ownURL) return normalizeGitURL(url) === this.ownURL;
    const path = str(source.path);
    return path !== undefined && !/^oci:/.test(url) && normalizeRepoPath(path) !== undefined && this.fs.exists(normalizeRepoPath(path)!);
  }

  /**
   * Repository files a source reads (statically): the kustomization's closure, the chart, or the
   * directory's files (`directory.recurse`, `include`, `exclude` as the repo-server applies them).
   */
  coveredFiles(source: Record<string, unknown>): string[] {
    const path = normalizeRepoPath(str(source.path) ?? '.') ?? '.';
    if (kustomizationIn(this.fs, path)) return [...kustomizationClosure(this.fs, path).files];
    const prefix = path === '.' ? '' : `${path}/`;
    const under = this.allFiles.filter((f) => f.startsWith(prefix));
    if (this.fs.exists(path === '.' ? 'Chart.yaml' : `${path}/Chart.yaml`)) return under;
    const picked = new Set(selectDirectoryFiles(under.map((f) => f.slice(prefix.length)), directoryOptions(source)));
    return under.filter((f) => picked.has(f.slice(prefix.length)));
  }

  private object(o: ArgoObject): string {
    return o.item === undefined ? `${o.file}#${o.index}` : `${o.file}#${o.index}.${o.item}`;
  }

  /** True when the roots were given (--root), not guessed. */
  get rootsGiven(): boolean {
    return (this.tools.roots?.length ?? 0) > 0;
  }

  /**
   * The root groups of the roots given with --root, read as `kubectl apply -f` reads them (ADR
   * 0345): a directory with a kustomization is built (`kubectl apply -k`); a file, or a directory
   * without one (its own .yaml/.yml/.json files, not recursing, as `kubectl apply -f DIR`), gives
   * the Argo CD objects written in it. Files and plain directories form one group, as guessed
   * loose roots do: one Argo CD applies them. A root that leaves the repository, does not exist or
   * holds no Argo CD object is an error: following nothing would print an empty plan that looks right.
   */
  private givenGroups(given: readonly string[]): { groups: RootGroup[]; roots: ArgoObject[] } {
    const objects = this.scan.objects;
    const groups: RootGroup[] = [];
    const loose: ArgoObject[] = [];
    const repo = this.fs.root;
    for (const raw of given) {
      const path = normalizeRepoPath(raw);
      if (path === undefined) {
        throw new InputError(`--root ${raw}: the root is outside the repository ${repo}`, { code: 'root-outside', hint: 'give a file or directory inside the repository, relative to --repo (e.g. --root bootstrap/root-app.yaml)' });
      }
      if (path === '' ? false : !this.fs.exists(path)) {
        throw new InputError(`--root ${raw}: no such file or directory in the repository ${repo}`, { code: 'root-missing', hint: 'give a file or directory that exists, relative to --repo (not to the current directory)' });
      }
      const dir = path === '' ? '.' : path;
      const isDir = dir === '.' || this.fs.isDirectory(dir);
      const kustomization = isDir ? kustomizationIn(this.fs, dir) : undefined;
      if (kustomization) {
        const closure = kustomizationClosure(this.fs, dir);
        const files = [...closure.files].filter((f) => this.argoFiles.has(f)).sort();
        const inflates = this.chartInflations().some((k) => closure.files.has(k.file));
        if (files.length === 0 && !inflates) throw noArgoObject(raw, kustomization, `kustomize build ${dir}`);
        if (!groups.some((g) => g.kind === 'kustomize' && g.dir === dir)) groups.push({ kind: 'kustomize', dir, files, closure });
        continue;
      }
      const inRoot = isDir ? objects.filter((o) => (o.file.includes('/') ? o.file.slice(0, o.file.lastIndexOf('/')) : '.') === dir) : objects.filter((o) => o.file === dir);
      if (inRoot.length === 0) throw noArgoObject(raw, dir, isDir ? `${dir} (its own .yaml, .yml and .json files, as kubectl apply -f reads a directory)` : dir);
      for (const o of inRoot) if (!loose.includes(o)) loose.push(o);
    }
    if (loose.length > 0) groups.push({ kind: 'files', dir: commonDir(loose.map((o) => o.file)), files: [...new Set(loose.map((o) => o.file))], objects: loose });
    const kustomized = new Set(groups.flatMap((g) => (g.kind === 'kustomize' ? [...g.closure.files] : [])));
    return { groups, roots: [...loose, ...objects.filter((o) => kustomized.has(o.file))] };
  }

  /** Runs the whole follow; fills `fleet.clusters`. */
  async follow(fleet: Fleet): Promise<void> {
    this.fleetFile = fleet.file;
    let roots: ArgoObject[];
    let groups: RootGroup[];
    let coveredFiles = new Set<string>();
    if (this.rootsGiven) ({ groups, roots } = this.givenGroups(this.tools.roots!));
    else ({ groups, roots, coveredFiles } = await this.guessedGroups());
    await this.followGroups(fleet, groups, roots, coveredFiles);
  }

  /**
   * The root groups when no root is given: every Argo CD object that no other object produces,
   * grouped by the kustomization that applies it (ADR 0197).
   */
  private async guessedGroups(): Promise<{ groups: RootGroup[]; roots: ArgoObject[]; coveredFiles: Set<string> }> {
    const objects = this.scan.objects;
    // 1. Which repository objects some other object produces: covered by a concrete Application's
    //    source, or by an Application an ApplicationSet of the repository generates.
    const producers: { self: ArgoObject; sources: Record<string, unknown>[] }[] = [];
    for (const o of objects) {
      if (o.kind === 'Application') producers.push({ self: o, sources: sourcesOf(o.doc) });
      else for (const app of await this.generate(o.doc, { via: o.file, file: o.file }, undefined)) producers.push({ self: o, sources: sourcesOf(app) });
    }
    const coveredBy = new Map<string, Set<string>>();
    for (const p of producers) {
      for (const s of p.sources) {
        if (!this.isOwnSource(s)) continue;
        for (const f of this.coveredFiles(s)) {
          if (!this.argoFiles.has(f)) continue;
          let set = coveredBy.get(f);
          if (!set) coveredBy.set(f, (set = new Set()));
          set.add(this.object(p.self));
        }
      }
    }
    const isRoot = (o: ArgoObject): boolean => [...(coveredBy.get(o.file) ?? [])].every((by) => by === this.object(o));
    // An object whose name the API server refuses cannot be applied as written: a template
    // (`name: OPERATOR_NAME-operator`), not a root. Said, and left out of the guess.
    const templates = objects.filter((o) => isRoot(o) && dns1123SubdomainProblem(o.name) !== undefined);
    for (const o of templates) {
      this.reached.add(this.object(o));
      this.findings.push({
        severity: 'info',
        code: 'not-read',
        message: `${o.kind} ${o.name} in ${o.file} is not guessed a root: it is not a valid ${o.kind} name (it ${dns1123SubdomainProblem(o.name)!}), so the API server refuses it as written; it reads as a template, and fleetplan did not follow it`,
        file: o.file,
        ...(o.line !== undefined ? { line: o.line } : {}),
        hint: 'fill in its placeholders before applying it; --root FILE follows it as it is',
      });
    }
    let roots = objects.filter((o) => isRoot(o) && !templates.includes(o));
    // Objects that only produce each other (an ApplicationSet whose own source holds it): no one
    // outside applies them, so they are roots too, or they would never be read.
    if (roots.length === 0 && objects.length > templates.length) roots = objects.filter((o) => !templates.includes(o));
    const coveredFiles = new Set<string>();
    for (const p of producers) for (const s of p.sources) if (this.isOwnSource(s)) for (const f of this.coveredFiles(s)) coveredFiles.add(f);
    // Kustomizations that inflate a chart of Applications (helmCharts, as gitops-standards'
    // clusters/<c> do) hold Argo CD objects too; no Application reading them: they are roots.
    const inflating = this.chartInflations().filter((k) => !coveredFiles.has(k.file));
    // 2. Root groups: each top kustomization holding roots is applied with `kubectl apply -k`;
    //    root files outside any kustomization are applied as they are; a Helm chart that writes
    //    Applications and that neither an Application nor a kustomization reads is installed as an
    //    app (`argocd app create --path <chart>`, as argocd-example-apps' README does). Each group
    //    is applied to the cluster that runs its Argo CD: with several groups, each is a cluster
    //    of its own, named after its clusters/<name> folder (ADR 0197), because one repository
    //    often bootstraps a hub and standalone clusters from separate roots.
    const rootFiles = new Set([...roots.map((o) => o.file), ...inflating.map((k) => k.file)]);
    const groups: RootGroup[] = [];
    const handled = new Set<string>();
    for (const dir of topKustomizations(this.fs, this.allFiles, rootFiles)) {
      const closure = kustomizationClosure(this.fs, dir);
      const inside = [...closure.files].filter((f) => rootFiles.has(f));
      if (inside.length === 0) continue;
      for (const f of inside) handled.add(f);
      groups.push({ kind: 'kustomize', dir, files: inside, closure });
    }
    // Loose root files under two or more clusters/<name>/ folders are each that cluster's roots,
    // as root kustomizations are (ADR 0197): one group per folder, the rest one group.
    const loose = roots.filter((o) => !handled.has(o.file));
    const folderOf = (f: string): string => /^(?:.*\/)?clusters\/[^/]+\//.exec(f)?.[0] ?? '';
    const folders = new Set(loose.map((o) => folderOf(o.file)).filter((d) => d !== ''));
    const byFolder = new Map<string, ArgoObject[]>();
    for (const o of loose) {
      const k = folders.size > 1 ? folderOf(o.file) : '';
      byFolder.set(k, [...(byFolder.get(k) ?? []), o]);
    }
    for (const part of byFolder.values()) groups.push({ kind: 'files', dir: commonDir(part.map((o) => o.file)), files: [...new Set(part.map((o) => o.file))], objects: part });
    const chartCovered = new Set<string>(this.chartInflations().map((k) => k.chart));
    for (const p of producers) for (const s of p.sources) if (this.isOwnSource(s)) chartCovered.add(normalizeRepoPath(str(s.path) ?? '.') ?? '.');
    // A subchart (DIR/charts/NAME) is rendered by helm template DIR: its outermost chart is the root (ADR 0407).
    const outermost = (chart: string): string => {
      let top = chart;
      for (let m = /^(?:(.*)\/)?charts\/[^/]+$/.exec(top); m; m = /^(?:(.*)\/)?charts\/[^/]+$/.exec(top)) {
        const parent = m[1] ?? '.';
        if (!this.fs.exists(parent === '.' ? 'Chart.yaml' : `${parent}/Chart.yaml`)) break;
        top = parent;
      }
      return top;
    };
    const chartRoots = new Set<string>();
    for (const chart of this.scan.argoCharts) {
      const top = outermost(chart);
      if (!chartCovered.has(chart) && !chartCovered.has(top) && !chartRoots.has(top)) {
        chartRoots.add(top);
        groups.push({ kind: 'chart', dir: top, files: [`${top}/Chart.yaml`] });
      }
    }
    return { groups, roots, coveredFiles };
  }

  /** Applies each root group to its home cluster and follows what it applies. */
  private async followGroups(fleet: Fleet, groups: readonly RootGroup[], roots: readonly ArgoObject[], coveredFiles: ReadonlySet<string>): Promise<void> {
    const objects = this.scan.objects;
    const names = homeNames(groups);
    // A cluster Secret for https://kubernetes.default.svc renames Argo CD's local cluster (gitops-bridge
    // registers the hub so): with one Argo CD instance, that cluster is the home, not a second cluster.
    const local = this.secrets.find((x) => (x.data.server ?? '').replace(/\/+$/, '') === IN_CLUSTER_SERVER);
    if (names.length === 1 && local) names[0] = local.data.name ?? local.name;
    for (const [i, g] of groups.entries()) {
      const home = names[i]!;
      this.cluster(home, IN_CLUSTER_SERVER, true);
      if (g.kind === 'kustomize') {
        const dir = g.dir;
        // kustomize stops at the first entry that names nothing; validate's kustomize-refs rule
        // reports every one at its line (this root is the cluster's file), so the build is skipped.
        const text = g.closure.missing.length > 0 ? undefined : await this.build(dir, `the root kustomization ${dir}`, kustomizationIn(this.fs, dir), home);
        if (text !== undefined) {
          this.rootOf(home, `kustomize build ${dir}`, kustomizationIn(this.fs, dir));
          for (const o of objects) if (g.closure.files.has(o.file)) this.reached.add(this.object(o));
          const docs = parseYamlAll(text, { schema: 'kubernetes' });
          this.alsoApplied(home, `kustomize build ${dir}`, objectsOf(docs), { who: 'root', from: dir });
          for (const doc of argoObjectsOf(docs)) {
            // Its origin is the one file of the build that writes an object of that kind and name, as for a child.
            const written = objects.filter((o) => g.closure.files.has(o.file) && o.kind === doc.kind && o.name === (doc.metadata as Record<string, unknown>).name);
            await this.handle(doc, { via: `kustomize build ${dir}`, parent: `hand:${home}`, root: `kustomize build ${dir}`, ...(written.length === 1 ? atOf(written[0]!) : {}) }, home);
          }
        } else {
          this.rootOf(home, `${dir} (kustomize build ${dir} fails: its ${g.files.length} file${g.files.length === 1 ? '' : 's'} with Argo CD objects are read as written)`, kustomizationIn(this.fs, dir));
          for (const o of roots.filter((r) => g.files.includes(r.file))) {
            this.reached.add(this.object(o));
            await this.handle(o.doc, { via: o.file, file: o.file, parent: `hand:${home}`, root: o.file, ...atOf(o) }, home);
          }
        }
      } else if (g.kind === 'files') {
        this.rootOf(home, g.files.join(', '), g.files[0]);
        // kubectl apply -f applies every object of the file, not only its Applications.
        for (const f of g.files) {
          try {
            this.alsoApplied(home, f, objectsOf(parseYamlAll(this.fs.readText(f), { schema: 'kubernetes' })), { who: 'root', from: f });
          } catch {
            // A file the scan read but that does not parse whole: the scan's findings say so.
          }
        }
        for (const o of g.objects) {
          this.reached.add(this.object(o));
          await this.handle(o.doc, { via: o.file, file: o.file, parent: `hand:${home}`, root: o.file, ...atOf(o) }, home);
        }
      } else {
        const chart = g.dir;
        this.rootOf(home, `helm template ${chart}`, `${chart === '.' ? '' : `${chart}/`}Chart.yaml`);
        const name = chart === '.' ? fleet.name : chart.split('/').pop()!;
        // A guessed chart root is not known to be installed as it is: one that fails with its own
        // defaults is installed with values the repository does not hold (--set from a portal or
        // a script), so its failure says what is missing from the plan, not that the chart is wrong.
        const text = await this.helm(chart, { releaseName: name, namespace: 'argocd', valueFiles: [], parameters: [] }, `the chart ${chart}`, `${chart}/Chart.yaml`, home, true);
        if (text !== undefined) {
          this.alsoApplied(home, `helm template ${chart}`, objectsOf(parseYamlAll(text, { schema: 'kubernetes' })), { who: 'root', from: chart });
          const rendered = argoObjectsOf(parseYamlAll(text, { schema: 'kubernetes' }));
          this.renderedAgain(rendered, chart, { releaseName: name, namespace: 'argocd', valueFiles: [], parameters: [] }, text);
          const items = rendered.map((doc) => ({ doc, place: { via: `helm template ${chart}`, parent: `app:${home}/${name}`, root: `helm template ${chart}`, ...this.writtenAt(doc), ...this.templateOf(doc) } as Place }));
          for (const { doc, place } of this.lastOfEachKey(items, `the chart ${chart}`, this.cluster(home, IN_CLUSTER_SERVER, true))) await this.handle(doc, place, home);
        }
      }
    }
    this.homes = names;
    // 4. What was found but not read. With --root the rest of the repository is left out on
    //    purpose: one note names what was, instead of a line per object (ADR 0345).
    if (this.rootsGiven) {
      const unread = [...new Set(objects.filter((o) => !this.reached.has(this.object(o))).map((o) => o.file))].sort();
      if (unread.length > 0) {
        const shown = unread.slice(0, 10).join(', ') + (unread.length > 10 ? `, and ${unread.length - 10} more` : '');
        this.findings.push({
          severity: 'info',
          code: 'not-read',
          message: `${unread.length} file${unread.length === 1 ? '' : 's'} with Argo CD objects ${unread.length === 1 ? 'is' : 'are'} not reached from the roots given with --root, so not followed: ${shown}`,
          file: unread[0]!,
          hint: 'add --root FILE for each further root that is applied by hand; leave --root out to guess the roots',
        });
      }
    }
    for (const o of this.rootsGiven ? [] : objects) {
      if (this.reached.has(this.object(o))) continue;
      this.findings.push({
        severity: 'info',
        code: 'not-read',
        message: `${o.kind} ${o.name} in ${o.file} is not applied by any root and no Application reads its file; fleetplan did not follow it`,
        file: o.file,
        hint: 'if a person applies it by hand, it is a root: apply it from a kustomization or a file no Application reads',
      });
    }
    const remoteRoots = this.rootsGiven ? [] : this.remoteChartRoots(coveredFiles, new Set(groups.flatMap((g) => (g.kind === 'kustomize' ? [...g.closure.files] : []))));
    if (remoteRoots.length > 0) {
      const message = `not read: ${remoteRoots.map((r) => `kustomize build ${r.dir} (${r.why})`).join('; ')}: each inflates a chart from a remote Helm repository that fleetplan does not fetch while following roots, and no Application reads it, so the Applications it would apply (a bootstrap run by hand, e.g. \`kustomize build --enable-helm DIR | kubectl apply -f -\`) are not in this plan`;
      this.cluster(this.homes[0] ?? IN_CLUSTER_NAME, IN_CLUSTER_SERVER, true).notes.push(message);
      this.findings.push({ severity: 'warning', code: 'bootstrap-not-read', message, file: remoteRoots[0]!.file, hint: 'vendor the chart into the repository (helmGlobals.chartHome) so fleetplan can build it, or apply its Applications from a file or kustomization without remote charts' });
    }
    if (this.remote.size > 0) {
      this.cluster(this.homes[0] ?? IN_CLUSTER_NAME, IN_CLUSTER_SERVER, true).notes.push(`not fetched offline: the remote kustomize bases of ${[...this.remote].sort().join(', ')} (Argo CD fetches them; they are leaf manifests, not followed for Applications)`);
    }
    fleet.clusters = this.clusterDefs();
  }

  private inflations: { file: string; chart: string }[] | undefined;

  /**
   * Top kustomizations (no other kustomization includes them) that no Application reads and no
   * root group applies, and that inflate a chart from a remote Helm repository which writes Argo CD
   * objects, as far as the repository shows it statically: the kustomization (or its values file)
   * names kind Application/ApplicationSet (a patch target, values), or the chart's name says
   * Argo CD applications (`argocd-apps`, `argocd-app-of-app`, …). Such a kustomization is a
   * bootstrap a person runs by hand; offline it cannot be built (ADR 0337).
   */
  private remoteChartRoots(coveredFiles: ReadonlySet<string>, handled: ReadonlySet<string>): { dir: string; file: string; why: string }[] {
    const kfiles = this.allFiles.filter((f) => KUSTOMIZATION_FILES.some((k) => f === k || f.endsWith(`/${k}`)));
    const candidates: { dir: string; file: string; why: string }[] = [];
    for (const file of kfiles) {
      if (coveredFiles.has(file) || handled.has(file)) continue;
      let text: string;
      let doc: unknown;
      try {
        text = this.fs.readText(file);
        if (!text.includes('helmCharts')) continue;
        doc = parseYamlAll(text)[0];
      } catch {
        continue;
      }
      // A Component is built only inside the kustomization that lists it.
      if (!isPlainObject(doc) || !Array.isArray(doc.helmCharts) || doc.kind === 'Component') continue;
      const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
      const remote = doc.helmCharts.filter((c): c is Record<string, unknown> => isPlainObject(c) && typeof c.name === 'string' && typeof c.repo === 'string' && /^(https?|oci):\/\//.test(c.repo));
      if (remote.length === 0) continue;
      const texts = [text];
      for (const c of remote) {
        const vf = typeof c.valuesFile === 'string' ? joinRepoPath(dir, c.valuesFile) : undefined;
        if (vf && this.fs.exists(vf)) texts.push(this.fs.readText(vf));
        if (c.valuesInline !== undefined) texts.push(dumpYaml(c.valuesInline));
      }
      const namesKind = texts.some((t) => /\bkind:\s*["']?(Application|ApplicationSet)["']?\s*$/m.test(t));
      const argoChart = remote.find((c) => /argo-?cd-?(apps|app-of-apps?|applications?)|app-of-apps?/i.test(String(c.name)));
      if (!namesKind && !argoChart) continue;
      const chart = argoChart ?? remote[0]!;
      const why = `chart ${String(chart.name)}${typeof chart.version === 'string' ? ` ${chart.version}` : ''} from ${String(chart.repo)}${namesKind ? ', which its kustomization or values name as kind Application' : ''}`;
      candidates.push({ dir, file, why });
    }
    if (candidates.length === 0) return [];
    const tops = new Set(topKustomizations(this.fs, this.allFiles, new Set(candidates.map((c) => c.file))));
    return candidates.filter((c) => tops.has(c.dir));
  }

  /** Kustomization files whose helmCharts inflate a chart of the repository that writes Applications. */
  private chartInflations(): { file: string; chart: string }[] {
    if (this.inflations) return this.inflations;
    const out: { file: string; chart: string }[] = [];
    if (this.scan.argoCharts.length > 0) {
      for (const file of this.allFiles) {
        if (!/(^|\/)(kustomization\.ya?ml|Kustomization)$/.test(file)) continue;
        let doc: unknown;
        try {
          const text = this.fs.readText(file);
          if (!text.includes('helmCharts')) continue;
          doc = parseYamlAll(text)[0];
        } catch {
          continue;
        }
        if (!isPlainObject(doc) || !Array.isArray(doc.helmCharts)) continue;
        const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
        const home = isPlainObject(doc.helmGlobals) && typeof doc.helmGlobals.chartHome === 'string' ? doc.helmGlobals.chartHome : 'charts';
        for (const c of doc.helmCharts) {
          if (!isPlainObject(c) || typeof c.name !== 'string') continue;
          const chart = joinRepoPath(dir, `${home}/${c.name}`);
          if (chart && this.scan.argoCharts.includes(chart)) out.push({ file, chart });
        }
      }
    }
    return (this.inflations = out);
  }

  private clusterDefs(): ClusterDef[] {
    const homes = new Set(this.homes);
    const used = [...this.clusters.values()].filter((c) => Object.keys(c.apps).length > 0 || c.registered || c.notes.length > 0 || Object.keys(c.projects).length > 0 || c.objects.size > 0 || c.appSets.size > 0);
    const spokes = used.filter((c) => !homes.has(c.name));
    const hub = this.homes.length === 1 && spokes.length > 0 ? this.homes[0] : undefined;
    const rank = (c: ClusterEntry): number => (homes.has(c.name) ? 0 : 1);
    return used
      .sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((c) => {
        const notes = [...c.notes];
        if (!c.registered) notes.push(`no cluster Secret in the repository registers ${c.server || c.name}: Argo CD refuses Applications sent there until one exists (pass --clusters FILE to name it)`);
        const spec: ClusterDef['spec'] = {
          role: homes.has(c.name) ? (c.name === hub ? 'hub' : 'standalone') : 'spoke',
          ...(!homes.has(c.name) && hub ? { hub } : {}),
          apps: c.apps,
          ...(c.server && !homes.has(c.name) ? { server: c.server } : {}),
        };
        const projects = Object.keys(c.projects).sort();
        if (projects.length > 0) notes.push(`AppProjects: ${projects.map((p) => `${p} (${c.projects[p]!.via})`).join(', ')}`);
        const objects = [...c.objects.values()].sort((a, b) => compareSyncOrder(syncItem(a), syncItem(b)));
        return { name: c.name, file: this.rootFiles.get(c.name) ?? this.fleetFile, metadata: { name: c.name }, spec, notes, projects: Object.fromEntries(projects.map((p) => [p, c.projects[p]!.spec])), ...(objects.length ? { appliedObjects: objects } : {}), ...(c.appSets.size ? { handAppliedApplicationSets: [...c.appSets.values()] } : {}) };
      });
  }

  /**
   * What a root or an app-of-apps applies besides its Applications and ApplicationSets: its
   * AppProjects land in the cluster's Argo CD as they are written (render writes them under
   * projects/), and every other object lands on the cluster too (render writes it under objects/,
   * ADR 0398). An app-of-apps' namespaced object without a namespace gets the app's destination
   * namespace, as Argo CD gives it; a root's is kept as written (kubectl apply puts it in the current
   * namespace, which fleetplan does not know).
   */
  private alsoApplied(cluster: string, via: string, docs: readonly Record<string, unknown>[], how: { who: 'root' | 'app'; from: string; destinationNamespace?: string }): void {
    const { who, from, destinationNamespace } = how;
    const c = this.cluster(cluster, '', true);
    for (const d of docs.filter(isAppProject)) {
      const name = String((d.metadata as Record<string, unknown>).name);
      if (!c.projects[name]) c.projects[name] = { spec: { manifest: d }, via };
    }
    const others = docs.filter((d) => !isAppProject(d) && !(typeof d.apiVersion === 'string' && d.apiVersion.startsWith(`${ARGO_API}/`) && (d.kind === 'Application' || d.kind === 'ApplicationSet')));
    if (others.length === 0) return;
    // Argo CD's sync gives the app's destination namespace to a namespaced object without one (ADR 0412).
    const placed = who === 'app' && destinationNamespace ? inDestinationNamespace(others, destinationNamespace) : undefined;
    const landed = placed?.docs ?? others;
    for (const d of landed) {
      const k = key(d);
      if (!c.objects.has(k)) c.objects.set(k, { manifest: d, via, from, wave: syncWaveOf(d) });
    }
    const crds = who === 'root' ? crdScopes(landed) : undefined;
    const unplaced = crds !== undefined && landed.some((d) => (d.metadata as Record<string, unknown>).namespace === undefined && kindScope(String(d.kind), d.apiVersion, crds) !== 'Cluster');
    const note = who === 'root'
      ? `the root ${via} also applies ${notArgoObjects(landed)} (render writes them under objects/${unplaced ? '; kubectl apply puts a namespaced object without a namespace in the current namespace' : ''})`
      : `${via} (an app-of-apps) also applies ${notArgoObjects(landed)} (render writes them under objects/${placed && placed.given > 0 ? `; ${destinationNamespaceWords(destinationNamespace!, 'the app\'s', placed.unknown)}` : ''})`;
    if (!c.notes.includes(note)) c.notes.push(note);
  }

  private async handle(doc: Record<string, unknown>, place: Place, home: string): Promise<void> {
    // One object per Argo CD instance: the same Application applied to two clusters is two apps.
    const k = `${home}\u0000${key(doc)}`;
    const text = canonical(doc);
    const prev = this.seen.get(k);
    if (prev) {
      // The same content from the same place is the same object reached again (a self-managing root,
      // a parent delivering its own manifest); from another file it is a second copy.
      if (prev.text === text && (samePlace(prev.place, place) || !prev.place.at || !place.at)) return;
      if ((samePlace(prev.place, place) || !prev.place.at || !place.at) && (await this.differsByRandom(prev, doc, place, home))) return;
      await this.collide(doc, prev, place, home);
      return;
    }
    const reached: Reached = { place, text, doc };
    this.seen.set(k, reached);
    if (doc.kind === 'ApplicationSet') {
      const setName = String((doc.metadata as Record<string, unknown>).name);
      // A root applied by hand lives in this cluster's Argo CD as it is written (render writes it, ADR 0420).
      if (place.parent?.startsWith('hand:') === true) {
        const sets = this.cluster(home, IN_CLUSTER_SERVER, true).appSets;
        if (!sets.has(k)) sets.set(k, { file: place.at?.file ?? place.file ?? place.via, ...(place.at ? { line: place.at.line } : {}), object: doc });
      }
      for (const app of await this.generate(doc, place, home)) await this.handle(app, { via: `ApplicationSet ${setName}`, parent: `appset:${home}/${setName}`, ...(place.root ? { root: place.root } : {}), ...(place.file ? { file: place.file } : {}), ...(place.at ? { at: place.at } : {}) }, home);
      return;
    }
    this.refused(doc, place);
    const cluster = this.destinationCluster(doc, home);
    reached.cluster = cluster.name;
    await this.place(doc, place, home, cluster);
  }

  /** An Application lands on its destination cluster, and what its sources render is followed. */
  /**
   * What Argo CD refuses in an Application (ADR 0407). Its CRD requires spec.project and
   * spec.source.repoURL (a null is dropped before validation), so kubectl apply rejects the
   * object; its controller marks an empty repoURL or a destination with neither server nor name
   * InvalidSpecError and never syncs it. The CRD's part is checked here only for the objects a
   * root renders (helm template, kustomize build): the argocd-schema rule checks the rest.
   */
  private refused(doc: Record<string, unknown>, place: Place): void {
    const spec = isPlainObject(doc.spec) ? doc.spec : {};
    const rendered = /^(helm template|kustomize build) /.test(place.via);
    const problems: string[] = [];
    if (rendered && (spec.project === undefined || spec.project === null)) problems.push('spec.project is missing: kubectl apply rejects it (spec.project: Required value)');
    const sources: [string, unknown][] = Array.isArray(spec.sources) && spec.sources.length > 0 ? spec.sources.map((x, i) => [`spec.sources[${i}]`, x]) : [['spec.source', spec.source]];
    for (const [at, src] of sources) {
      const repoURL = isPlainObject(src) ? src.repoURL : undefined;
      if (src !== undefined && (repoURL === undefined || repoURL === null)) {
        // The CRD's requirement; for a committed document the argocd-schema rule reports it.
        if (rendered) problems.push(`${at}.repoURL is ${repoURL === null ? 'null' : 'missing'}: kubectl apply rejects it (${at}.repoURL: Required value${repoURL === null ? '; a null is dropped before validation' : ''})`);
      } else if (src === undefined || repoURL === '') {
        problems.push(`Argo CD marks it InvalidSpecError: ${at}.repoURL and either ${at}.path or ${at}.chart are required`);
      }
    }
    const dest = isPlainObject(spec.destination) ? spec.destination : {};
    if (!str(dest.server) && !str(dest.name)) problems.push('Argo CD marks it InvalidSpecError: Destination server missing from app spec (give spec.destination.server or spec.destination.name)');
    if (problems.length === 0) return;
    const name = String((doc.metadata as Record<string, unknown>).name);
    const chart = /^helm template (.+)$/.exec(place.via)?.[1];
    const values = chart === undefined ? undefined : `${chart === '.' ? '' : `${chart}/`}values.yaml`;
    const from = chart !== undefined ? `, rendered by ${place.via} with its default values (${values})` : place.file ? '' : `, rendered by ${place.via}`;
    for (const p of problems) {
      this.findings.push({
        // A guessed chart root may be installed with values the repository does not hold (see handle's caller): a warning.
        severity: chart !== undefined && !this.rootsGiven ? 'warning' : 'error',
        code: 'application-invalid',
        message: `Application ${name} ${place.file ? `in ${place.file} ` : ''}is refused by Argo CD${from}: ${p}`,
        file: place.file ?? (values !== undefined && this.fs.exists(values) ? values : this.fleetFile),
        hint: chart !== undefined ? `give the value in ${values}; fleetplan renders the chart with its default values, so values given only at install time are not seen` : 'write the field in the Application',
      });
    }
  }

  private async place(doc: Record<string, unknown>, place: Place, home: string, cluster: ClusterEntry): Promise<void> {
    const name = String((doc.metadata as Record<string, unknown>).name);
    const first = this.placed.get(`${cluster.name}\u0000${name}`);
    if (cluster.apps[name] && first) {
      // Another Argo CD object (another instance, or another namespace) sends an app of this name here.
      const what = `two Applications named ${name} are sent to cluster ${cluster.name}: ${placeText(first.place)}${first.home !== home ? ` (Argo CD on ${first.home})` : ''} and ${placeText(place)}${first.home !== home ? ` (Argo CD on ${home})` : ''}`;
      const guessed = this.guessedApart(first.place, place);
      this.duplicate(place, cluster.name, `${what}; both are separate Applications and both deploy to ${cluster.name}, so their resources overwrite each other; the plan lists only the first, ${placeText(first.place)}${guessed}`, [cluster], guessed !== '');
      return;
    }
    cluster.apps[name] = appFromObject(doc);
    this.placed.set(`${cluster.name}\u0000${name}`, { place, home });
    const unbuilt = unbuiltSources(doc);
    if (unbuilt && !cluster.notes.includes(unbuilt)) cluster.notes.push(unbuilt);
    if (place.at) {
      let m = this.origins.get(cluster.name);
      if (!m) this.origins.set(cluster.name, (m = new Map()));
      m.set(name, place.at);
    }
    const children = await this.render(doc, name, place, cluster.name);
    const parent = `app:${cluster.name}/${name}`;
    const within = children.length === 0 ? undefined : new Set(sourcesOf(doc).filter((src) => this.isOwnSource(src)).flatMap((src) => this.coveredFiles(src)));
    const places = children.map((doc2) => ({ doc: doc2, place: { via: `Application ${name}`, parent, ...(place.root ? { root: place.root } : {}), ...this.writtenAt(doc2, within), ...this.templateOf(doc2) } as Place }));
    for (const { doc: doc2, place: p } of this.lastOfEachKey(places, `Application ${name}`, cluster)) {
      // A child Application is created where its parent syncs to, and that cluster's Argo CD runs it.
      await this.handle(doc2, p, cluster.name);
    }
  }

  /**
   * Where a rendered Argo CD object is written in the repository: the one scanned object of that
   * kind and name, or, among several, the one with its namespace and content (a directory source
   * reads files as written). Every candidate counts as reached.
   */
  private writtenAt(doc: Record<string, unknown>, within?: ReadonlySet<string>): { at?: AppOrigin } {
    const md = doc.metadata as Record<string, unknown>;
    let written = this.scan.objects.filter((o) => o.kind === doc.kind && o.name === md.name);
    for (const o of written) this.reached.add(this.object(o));
    // The files the parent's sources read say which copy it is, when they hold one.
    if (written.length > 1 && within) {
      const inside = written.filter((o) => within.has(o.file));
      if (inside.length > 0) written = inside;
    }
    if (written.length > 1) {
      const ns = str(md.namespace);
      const text = canonical(doc);
      const same = written.filter((o) => canonical(o.doc) === text);
      written = same.length > 0 ? same : written.filter((o) => ns !== undefined && o.namespace === ns && canonical((o.doc as Record<string, unknown>).spec) === canonical(doc.spec));
    }
    return written.length === 1 ? atOf(written[0]!) : {};
  }

  /**
   * Argo CD keeps the last of an Application's target objects with one key (controller/state.go
   * DeduplicateTargetObjects, a RepeatedResourceWarning): an earlier one with other content is
   * reported and left out (ADR 0367).
   */
  private lastOfEachKey(items: { doc: Record<string, unknown>; place: Place }[], parent: string, cluster: ClusterEntry): { doc: Record<string, unknown>; place: Place }[] {
    const last = new Map<string, number>();
    items.forEach((x, i) => last.set(key(x.doc), i));
    return items.filter((x, i) => {
      const j = last.get(key(x.doc))!;
      if (j === i) return true;
      const winner = items[j]!;
      if (canonical(x.doc) !== canonical(winner.doc)) {
        const md = x.doc.metadata as Record<string, unknown>;
        this.duplicate(winner.place, cluster.name, `two ${String(x.doc.kind)}s named ${String(md.name)} in namespace ${str(md.namespace) ?? '(the destination namespace)'} are rendered by ${parent}: ${placeText(x.place)} and ${placeText(winner.place)}; the cluster ends up with ${placeText(winner.place)} (Argo CD keeps the last of an Application's objects with one name and namespace and warns RepeatedResourceWarning)`, [cluster]);
      }
      return false;
    });
  }

  /**
   * A second Argo CD object with the key (kind, namespace, name) of one already reached in the same
   * Argo CD, with other content: one object on the cluster, written twice. Which one stays: the
   * one an Application's sync applies after a person applied the other by hand; else (two parents,
   * an ApplicationSet and a parent) each reconcile overwrites the other's, so it is not determinable.
   */
  private async collide(doc: Record<string, unknown>, prev: Reached, place: Place, home: string): Promise<void> {
    const md = doc.metadata as Record<string, unknown>;
    const name = String(md.name);
    const kind = String(doc.kind);
    const ns = str(md.namespace) ?? '(the destination namespace)';
    const differ = prev.text === canonical(doc) ? '' : ` (they differ in ${differingPaths(prev.doc, doc, '').slice(0, 3).join(', ')})`;
    const what = `two ${kind}s named ${name} in namespace ${ns} of the Argo CD on ${home}: ${placeText(prev.place)} and ${placeText(place)}${differ}`;
    const guessed = this.guessedApart(prev.place, place);
    if (prev.text === canonical(doc)) {
      const message = `${what}; both have the same content, so the cluster gets that content, but ${whoWrites(prev.place)} and ${whoWrites(place)} both manage it: once one copy is edited they overwrite each other${guessed}`;
      this.duplicate(place, home, message, [this.cluster(home, IN_CLUSTER_SERVER, true)], guessed !== '');
      return;
    }
    const byHand = prev.place.parent?.startsWith('hand:') === true && place.parent?.startsWith('app:') === true;
    const prevCluster = prev.cluster !== undefined ? this.clusters.get(prev.cluster) : undefined;
    const clusters = [this.cluster(home, IN_CLUSTER_SERVER, true)];
    if (kind === 'Application' && byHand) {
      // The sync overwrites what a person applied first: the cluster ends up with the later one.
      const cluster = this.destinationCluster(doc, home);
      if (prevCluster && !clusters.includes(prevCluster)) clusters.push(prevCluster);
      if (!clusters.includes(cluster)) clusters.push(cluster);
      this.duplicate(place, home, `${what}; the cluster ends up with ${placeText(place)}: ${place.via}'s sync overwrites the copy applied by hand${guessed}`, clusters, guessed !== '');
      if (prevCluster && this.placed.get(`${prevCluster.name}\u0000${name}`)?.place === prev.place) {
        delete prevCluster.apps[name];
        this.placed.delete(`${prevCluster.name}\u0000${name}`);
        this.origins.get(prevCluster.name)?.delete(name);
      }
      prev.place = place;
      prev.text = canonical(doc);
      prev.doc = doc;
      prev.cluster = cluster.name;
      await this.place(doc, place, home, cluster);
      return;
    }
    if (prevCluster && !clusters.includes(prevCluster)) clusters.push(prevCluster);
    const why = prev.place.parent?.startsWith('hand:') === true && place.parent?.startsWith('hand:') === true
      ? 'both are roots applied by hand, and the one applied last wins'
      : `${whoWrites(prev.place)} and ${whoWrites(place)} each overwrite the other's on their next reconcile`;
    this.duplicate(place, home, `${what}; which one the cluster ends up with is not determinable: ${why}; the plan lists the first, ${placeText(prev.place)}${guessed}`, clusters, guessed !== '');
  }

  /** Remembers the chart render that gave each of `docs`. */
  private renderedAgain(docs: readonly Record<string, unknown>[], dir: string, req: HelmRequest, text: string): void {
    for (const d of docs) this.renders.set(d, { dir, req });
    // helm template heads each document with `# Source: <chart>/<file>`: the template that writes it.
    const files: (string | undefined)[] = [];
    for (const chunk of text.split(/^---[ \t]*$/m)) {
      const m = /^# Source: [^/\n]+\/(.+)$/m.exec(chunk);
      const file = m ? joinRepoPath(dir, m[1]!.trim()) : undefined;
      let n = 0;
      try {
        n = argoObjectsOf(parseYamlAll(chunk, { schema: 'kubernetes' })).length;
      } catch {
        return;
      }
      for (let i = 0; i < n; i++) files.push(file && this.fs.exists(file) ? file : undefined);
    }
    if (files.length !== docs.length) return;
    docs.forEach((d, i) => {
      if (files[i]) this.templates.set(d, files[i]!);
    });
  }

  /** The chart template that writes a rendered object, when helm named it. */
  private templateOf(doc: Record<string, unknown>): { template?: string } {
    const t = this.templates.get(doc);
    return t ? { template: t } : {};
  }

  /**
   * The same Argo CD object reached twice with other text, where the first came from a chart whose
   * templates call a random function (randAlpha, uuidv4, …): the chart is templated again with the
   * same request, and the fields whose text changes between the two runs are the ones that change
   * at every render. When `doc` differs from the first only there, it is the same object (one
   * Application, rewritten at each refresh), and a note on the cluster says which fields change.
   */
  private async differsByRandom(prev: Reached, doc: Record<string, unknown>, place: Place, home: string): Promise<boolean> {
    const from = this.renders.get(prev.doc);
    const t = from ? await this.tool() : undefined;
    if (!from || !t?.helmTemplate) return false;
    let text: string;
    try {
      text = await t.helmTemplate({ dir: from.dir, ...from.req });
    } catch {
      return false;
    }
    const k = key(prev.doc);
    const again = argoObjectsOf(parseYamlAll(text, { schema: 'kubernetes' })).find((d) => key(d) === k);
    if (!again) return false;
    const changing: string[] = [];
    if (!sameOutsideChanging(prev.doc, again, doc, '', changing) || changing.length === 0) return false;
    const name = String((doc.metadata as Record<string, unknown>).name);
    const note = `${String(doc.kind)} ${name} is rendered by helm template ${from.dir} with text that changes at every render (${changing.join(', ')}: the chart gives other text at each run, a random function or the time); reached from ${placeText(prev.place)} and from ${placeText(place)}, it is one ${String(doc.kind)}, which Argo CD rewrites at each refresh`;
    const c = this.cluster(home, IN_CLUSTER_SERVER, true);
    if (!c.notes.includes(note)) c.notes.push(note);
    return true;
  }

  /**
   * Two places that descend from two different guessed roots (ADR 0377): fleetplan guessed that
   * both are applied to one Argo CD, which a repository of templates or alternative examples does
   * not do. The words that say so (appended to the message), or '' when the roots are given or one.
   */
  private guessedApart(a: Place, b: Place): string {
    if (this.rootsGiven || a.root === undefined || b.root === undefined || a.root === b.root) return '';
    return `. This holds only if both are applied to one Argo CD: they come from two roots fleetplan guessed, ${a.root} and ${b.root} (--root FILE chooses the roots applied together)`;
  }

  /**
   * A `duplicate-app` error at the later object's `metadata.name`, naming both; the same words in
   * the clusters' notes. A warning when the two come from guessed roots not known to be applied together.
   */
  private duplicate(later: Place, cluster: string, message: string, notes: readonly ClusterEntry[], guessed = false): void {
    const file = later.at?.file ?? later.file ?? later.template;
    this.findings.push({
      severity: guessed ? 'warning' : 'error',
      code: 'duplicate-app',
      cluster,
      message,
      ...(file ? { file } : {}),
      ...(later.at ? { line: later.at.line } : {}),
      path: 'metadata.name',
      hint: 'Argo CD keeps one Application per name and namespace: rename one, or delete the copy that should not be there',
    });
    for (const c of notes) if (!c.notes.includes(message)) c.notes.push(message);
  }

  /** The Argo CD objects an Application's own-repository sources render. */
  private async render(app: Record<string, unknown>, name: string, place: Place, cluster: string): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    const sources = sourcesOf(app);
    const refs = new Map<string, string>();
    for (const s of sources) if (typeof s.ref === 'string' && this.isOwnSource(s)) refs.set(s.ref, '.');
    const spec = isPlainObject(app.spec) ? app.spec : {};
    const dest = isPlainObject(spec.destination) ? spec.destination : {};
    const field = Array.isArray(spec.sources) && spec.sources.length > 0 ? 'spec.sources' : 'spec.source';
    for (const [i, s] of sources.entries()) {
      const at = field === 'spec.sources' ? `${field}[${i}]` : field;
      if (!this.isOwnSource(s)) {
        const placeholder = placeholderRepoURL(str(s.repoURL));
        if (placeholder !== undefined) this.placeholderSource(String(s.repoURL), placeholder, name, place, cluster, at);
        else this.remoteAppOfApps(app, s, name, place, cluster, at);
        continue;
      }
      if (typeof s.ref === 'string' && s.path === undefined) continue;
      const rawPath = str(s.path) ?? '';
      const path = normalizeRepoPath(rawPath === '' ? '.' : rawPath);
      const where = { ...(place.file ? { file: place.file } : {}), app: name, cluster, path: `${at}.path` };
      if (/\$\{?[A-Za-z_]/.test(rawPath) && (path === undefined || !this.fs.exists(path))) {
        this.findings.push({
          severity: 'info',
          code: 'not-read',
          message: `Application ${name}: ${at}.path "${rawPath}" holds a variable that is filled in when the file is applied (envsubst or a plugin); fleetplan does not guess its value and did not follow it`,
          ...where,
          hint: 'the clusters it would read are listed on their own when the repository applies them from a kustomization',
        });
        continue;
      }
      if (path === undefined || !this.fs.exists(path) || !this.fs.isDirectory(path)) {
        this.findings.push({
          severity: 'error',
          code: 'app-path-missing',
          message: `Application ${name}: ${at}.path "${rawPath}" ${path === undefined ? 'leaves the repository' : 'does not exist in the repository'}; Argo CD reports "app path does not exist" and syncs nothing`,
          ...where,
          hint: 'fix the path, or add the directory',
        });
        continue;
      }
      if (!this.mayRenderArgo(path, s, name)) continue;
      let text: string | undefined;
      let chart: { dir: string; req: HelmRequest } | undefined;
      if (kustomizationIn(this.fs, path)) {
        text = await this.build(path, `Application ${name}'s ${at}`, place.file, cluster);
      } else if (this.fs.exists(path === '.' ? 'Chart.yaml' : `${path}/Chart.yaml`)) {
        const helm = isPlainObject(s.helm) ? s.helm : {};
        // The repo-server substitutes its build environment in value file names and parameter values ($ARGOCD_APP_SOURCE_REPO_URL, …).
        const env = argoBuildEnvironment(s, { name, namespace: str(dest.namespace) ?? '', project: str(spec.project) ?? '' });
        const valueFiles: string[] = [];
        for (const v of Array.isArray(helm.valueFiles) ? helm.valueFiles.map(String) : []) {
          const m = /^\$([^/]+)\/(.*)$/.exec(v);
          const file = m ? (refs.has(m[1]!) ? normalizeRepoPath(envsubst(m[2]!, env)) : undefined) : joinRepoPath(path, envsubst(v, env));
          if (file && this.fs.exists(file)) valueFiles.push(file);
          else if (helm.ignoreMissingValueFiles !== true) {
            this.findings.push({ severity: 'error', code: 'helm-values-missing', message: `Application ${name}: ${at}.helm.valueFiles names ${v}, which does not exist`, ...where, hint: 'fix the file name, or set ignoreMissingValueFiles: true' });
          }
        }
        const values = isPlainObject(helm.valuesObject) ? helm.valuesObject : typeof helm.values === 'string' ? (parseYamlAll(helm.values, { schema: 'kubernetes' })[0] as unknown) : undefined;
        const parameters = Array.isArray(helm.parameters) ? helm.parameters.filter(isPlainObject).map((p) => ({ name: String(p.name), value: envsubst(p.value === undefined || p.value === null ? '' : String(p.value), env) })) : [];
        const req = { releaseName: str(helm.releaseName) ?? name, namespace: str(dest.namespace) ?? '', valueFiles, values, parameters };
        text = await this.helm(path, req, `Application ${name}'s ${at}`, place.file, cluster);
        if (text !== undefined) chart = { dir: path, req };
      } else {
        text = await this.directoryWithJsonnet(path, s, app, name, `Application ${name}'s ${at}`, where);
      }
      if (text !== undefined) {
        const docs = objectsOf(parseYamlAll(text, { schema: 'kubernetes' }));
        const argo = argoObjectsOf(docs);
        if (chart) this.renderedAgain(argo, chart.dir, chart.req, text);
        // An app-of-apps gives the cluster its AppProjects and other objects beside the Applications.
        if (argo.length > 0) this.alsoApplied(cluster, `Application ${name}`, docs, { who: 'app', from: path, ...(str(dest.namespace) ? { destinationNamespace: str(dest.namespace)! } : {}) });
        out.push(...argo);
      }
    }
    return out;
  }

  /**
   * A source outside the repository (an `oci://` artifact, a chart of a remote Helm repository)
   * that, as far as the Application shows, holds Applications: its chart or artifact is named as
   * Argo CD applications (`argocd-apps`, `app-of-apps`, …), its Helm values name `applications:` or
   * `kind: Application`, or it deploys into the namespace its own Application lives in (Argo CD's).
   * fleetplan does not pull it while following, so its child Applications are missing: a note
   * "not read" on the cluster, and one `apps-not-read` warning at the parent's repoURL (ADR 0368).
   */
  private remoteAppOfApps(app: Record<string, unknown>, source: Record<string, unknown>, name: string, place: Place, cluster: string, field: string): void {
    const url = str(source.repoURL) ?? '';
    const chart = str(source.chart);
    const oci = url.startsWith('oci://');
    if (typeof source.ref === 'string' && source.path === undefined && chart === undefined) return;
    if (!oci && chart === undefined) {
      this.remoteGitAppOfApps(app, source, name, place, cluster, field);
      return;
    }
    const md = isPlainObject(app.metadata) ? app.metadata : {};
    const spec = isPlainObject(app.spec) ? app.spec : {};
    const dest = isPlainObject(spec.destination) ? spec.destination : {};
    const artifact = chart ?? url.replace(/\/+$/, '').split('/').pop() ?? '';
    const helm = isPlainObject(source.helm) ? source.helm : {};
    const values = [helm.valuesObject !== undefined ? dumpYaml(helm.valuesObject) : '', str(helm.values) ?? ''].join('\n');
    const signs: string[] = [];
    if (/argo-?cd-?(apps|app-of-apps?|applications?)|apps?-of-apps?/i.test(artifact)) signs.push(`its name ${artifact} says Argo CD applications`);
    if (/^\s*applications\s*:|\bkind:\s*["']?(Application|ApplicationSet)\b/m.test(values)) signs.push('its Helm values name Applications');
    const home = str(md.namespace);
    // Only an artifact of manifests: a chart installed into Argo CD's namespace is usually Argo CD or an add-on of it.
    if (oci && chart === undefined && !/argo/i.test(artifact) && home !== undefined && str(dest.namespace) === home) signs.push(`it deploys into ${home}, the namespace of its own Application (Argo CD's)`);
    if (signs.length === 0) return;
    const rev = str(source.targetRevision);
    const what = `${chart !== undefined && !oci ? `chart ${chart} from ${url}` : url}${rev ? ` ${rev}` : ''}`;
    const parent = place.at ? `${place.at.file}:${place.at.line}` : (place.file ?? place.via);
    const message = `not read: Application ${name} (${parent}) ${field} is ${what}, which ${signs.join(' and ')}: fleetplan does not pull it while following, so the Applications in it are not in this plan`;
    this.appsNotRead(message, name, place, cluster, field, oci ? 'render --leaves --fetch builds the artifact; to see its Applications in the plan, keep them in this repository' : 'vendor the chart into the repository (a path source) so fleetplan can template it, or keep the Applications in this repository');
  }

  /**
   * A path of another git repository that, as far as the Application shows, holds Applications
   * (ADR 0378): it deploys into the namespace its own Application lives in (Argo CD's), or its path
   * is named as Argo CD applications (`apps`, `app-of-apps`, `applicationsets`, …). Argo CD
   * installing itself from its own repository is a leaf. Said "not read" with why: plan reads this
   * clone only, and --fetch pulls charts and artifacts for render --leaves, not repositories to follow.
   */
  private remoteGitAppOfApps(app: Record<string, unknown>, source: Record<string, unknown>, name: string, place: Place, cluster: string, field: string): void {
    const url = str(source.repoURL);
    const path = str(source.path);
    // Without an origin on a Git server, a source whose path is missing may be this repository: app-path rules judge it.
    if (url === undefined || path === undefined || this.ownURL === undefined || !isServerURL(url)) return;
    const md = isPlainObject(app.metadata) ? app.metadata : {};
    const spec = isPlainObject(app.spec) ? app.spec : {};
    const dest = isPlainObject(spec.destination) ? spec.destination : {};
    const home = str(md.namespace);
    const normalized = normalizeRepoPath(path) ?? path;
    const signs: string[] = [];
    if (/(^|[-_/])(apps|applications|applicationsets|appsets)$|apps?-of-apps?/i.test(normalized)) signs.push(`its path ${normalized} says Argo CD applications`);
    // A fork or copy of that repository: the same path here holds Argo CD objects (what Argo CD reads is the other repository's).
    const here = normalizeRepoPath(path);
    if (here !== undefined && this.fs.exists(here) && (this.scan.argoCharts.includes(here) || this.scan.objects.some((o) => here === '.' || o.file.startsWith(`${here}/`)))) signs.push(`the same path in this clone holds Argo CD objects (is this clone a fork or copy of it?)`);
    const argoItself = /(^|\/)argo-?cd(\.git)?$/i.test(url.replace(/\/+$/, '')) || /(^|\/)argo-?cd(\/|$)|(^|\/)(cluster-|namespace-)?install$/i.test(normalized);
    if (!argoItself && home !== undefined && str(dest.namespace) === home) signs.push(`it deploys into ${home}, the namespace of its own Application (Argo CD's)`);
    if (signs.length === 0) return;
    const rev = str(source.targetRevision);
    const parent = place.at ? `${place.at.file}:${place.at.line}` : (place.file ?? place.via);
    const message = `not read: Application ${name} (${parent}) ${field} is ${url} path ${normalized}${rev ? ` ${rev}` : ' HEAD'}, another repository than this clone (${this.tools.origin.url}), which ${signs.join(' and ')}: plan follows Applications in this clone only (--fetch pulls charts and OCI artifacts for render --leaves; it does not clone repositories to follow), so the Applications in it are not in this plan`;
    this.appsNotRead(message, name, place, cluster, field, `clone ${url} and run fleetplan plan --repo on it (--root ${normalized} follows that path), or keep the Applications in this repository`);
  }

  /**
   * A repoURL that is a placeholder the user fills in before applying (`REPLACE`, `<repo-url>`,
   * `${GITOPS_REPO}`, an empty host): it names no repository, neither this one nor another, so what
   * the source deploys is not followed; said as such in a note and a `not-read` info at the repoURL (ADR 0392).
   */
  private placeholderSource(url: string, why: string, name: string, place: Place, cluster: string, field: string): void {
    const parent = place.at ? `${place.at.file}:${place.at.line}` : (place.file ?? place.via);
    const message = `not read: Application ${name} (${parent}) ${field}.repoURL "${url}" is a placeholder the user fills in before applying (${why}), not a repository URL: fleetplan does not guess which repository it will name, so what this source deploys is not in this plan`;
    this.appsNotRead(message, name, place, cluster, field, `fill in the repoURL (for this repository: ${this.tools.origin.url || 'its clone URL'}) to see what it deploys; --root PATH follows a path of this repository directly`, 'info');
  }

  /**
   * The cluster note and the one finding at the parent's repoURL: an `apps-not-read` warning (ADR
   * 0368), or a `not-read` info for a placeholder, which names no repository (ADR 0392).
   */
  private appsNotRead(message: string, name: string, place: Place, cluster: string, field: string, hint: string, severity: 'warning' | 'info' = 'warning'): void {
    const c = this.cluster(cluster, '', true);
    if (!c.notes.includes(message)) c.notes.push(message);
    const file = place.at?.file ?? place.file;
    this.findings.push({
      severity,
      code: severity === 'warning' ? 'apps-not-read' : 'not-read',
      cluster,
      app: name,
      message,
      ...(file ? { file } : {}),
      ...(place.at ? { line: place.at.line } : {}),
      path: `${field}.repoURL`,
      hint,
    });
  }

  /**
   * A source can only render Argo CD objects when what it reads has some: a file with one, a chart
   * whose templates write one, or a kustomization that inflates a chart of the repository that does.
   * Remote bases are not fetched offline; the sources that use them are named in the plan.
   */
  private mayRenderArgo(path: string, source: Record<string, unknown>, app: string): boolean {
    if (this.scan.argoCharts.includes(path)) return true;
    // A directory source's Jsonnet says what it produces only when evaluated (ADR 0318).
    if (this.evaluatesJsonnet(path, source) && this.jsonnetFiles(path, source).length > 0) return true;
    const files = this.coveredFiles(source);
    if (files.some((f) => this.argoFiles.has(f))) return true;
    const inflating = new Set(this.chartInflations().map((k) => k.file));
    if (files.some((f) => inflating.has(f))) return true;
    if (kustomizationIn(this.fs, path)) {
      const texts = files.filter((f) => /(^|\/)(kustomization\.ya?ml|Kustomization)$/.test(f)).map((f) => this.fs.readText(f));
      // A chart of this repository may write Argo CD objects; one from a remote Helm repository is a leaf (offline it cannot be built).
      if (texts.some((t) => /helmCharts/.test(t) && localChartInflation(t)) && this.scan.argoCharts.length > 0) return true;
      if (texts.some((t) => /^\s*-\s*["']?(https?:\/\/|git@|ssh:\/\/|github\.com\/)/m.test(t))) this.remote.add(app);
    }
    return false;
  }

  /** Applications whose kustomization pulls remote bases, which are not fetched offline. */
  private readonly remote = new Set<string>();

  /** Argo CD evaluates Jsonnet only for a directory-type source (a plugin, Helm or kustomize source never). */
  private evaluatesJsonnet(path: string, source: Record<string, unknown>): boolean {
    return argoSourceType(source, (name) => this.fs.exists(path === '.' ? name : `${path}/${name}`)) === 'directory';
  }

  private jsonnetFiles(path: string, source: Record<string, unknown>): string[] {
    return directorySourceFiles(this.fs, this.allFiles, path, source).filter((f) => f.endsWith('.jsonnet'));
  }

  /**
   * A directory source as the repo-server reads it: its YAML files, and its `.jsonnet` files
   * evaluated in their place (ADR 0318). A Jsonnet that cannot be evaluated (no binary) or fails
   * is a finding naming the Application, and the objects it would produce are missing: said,
   * never silent. Undefined when nothing could be read.
   */
  private async directoryWithJsonnet(path: string, source: Record<string, unknown>, app: Record<string, unknown>, name: string, what: string, where: { file?: string; app: string; cluster: string; path: string }): Promise<string> {
    const parts: string[] = [];
    const settings = applicationJsonnetSettings(app, source);
    const notEvaluated: string[] = [];
    let reason = '';
    let hint: string | undefined;
    const jsonnet = this.evaluatesJsonnet(path, source);
    for (const f of directorySourceFiles(this.fs, this.allFiles, path, source)) {
      if (!jsonnet && f.endsWith('.jsonnet')) continue;
      if (!f.endsWith('.jsonnet')) {
        parts.push(this.fs.readText(f));
        continue;
      }
      const r = await this.jsonnet.evaluate(path, f, settings, what);
      if (r.kind === 'objects') {
        if (r.text !== '') parts.push(r.text);
      } else if (r.kind === 'no-tool') {
        notEvaluated.push(f);
        reason = r.reason;
        hint = r.hint;
      } else {
        // The error itself is validate's (rules/jsonnet.ts, at the same place): here, that the plan misses what it generates.
        const p = r.problem;
        this.findings.push({
          severity: 'warning',
          code: 'jsonnet-not-followed',
          cluster: where.cluster,
          app: name,
          message: `${p.message} [${p.code}]; the Applications and ApplicationSets it generates are not followed`,
          file: p.file,
          ...(p.line ? { line: p.line } : {}),
          ...(p.line && p.column ? { column: p.column } : {}),
          ...(p.hint !== undefined ? { hint: p.hint } : {}),
        });
      }
    }
    if (notEvaluated.length > 0) {
      const list = notEvaluated.join(', ');
      this.cluster(where.cluster, '', true).notes.push(`not followed: Application ${name} reads ${list} (Jsonnet, which Argo CD evaluates): ${reason}; the Applications and ApplicationSets it generates are missing from this plan`);
      this.findings.push({
        severity: 'warning',
        code: 'jsonnet-not-followed',
        cluster: where.cluster,
        app: name,
        message: `${what}: ${list} not evaluated: ${reason}; the Applications and ApplicationSets it generates are not followed`,
        file: notEvaluated[0]!,
        hint: hint ?? 'install Jsonnet (apt-get install jsonnet, or go-jsonnet), or point FLEETPLAN_JSONNET at one',
      });
    }
    return parts.join('\n---\n');
  }

  private async tool(): Promise<ClusterBuilder | undefined> {
    if (this.builder || this.builderError) return this.builder;
    try {
      this.builder = await this.tools.builder();
    } catch (e) {
      this.builderError = (e as Error).message;
    }
    return this.builder;
  }

  private async build(dir: string, what: string, file: string | undefined, cluster: string): Promise<string | undefined> {
    const t = await this.tool();
    if (!t) {
      this.findings.push({ severity: 'error', code: 'source-not-built', cluster, message: `${what}: cannot build ${dir}: ${this.builderError ?? 'no kustomize'}`, ...(file ? { file } : {}), hint: 'install kustomize 5 and Helm 3, or pass --kustomize / --helm' });
      return undefined;
    }
    try {
      return await t.build(dir);
    } catch (e) {
      this.findings.push({ severity: 'error', code: 'kustomize-build-failed', cluster, message: `${what}: kustomize build ${dir} fails: ${(e as Error).message.split('\n')[0]}`, file: kustomizationIn(this.fs, dir) ?? file ?? dir, hint: 'fix the kustomization: Argo CD cannot build it either' });
      return undefined;
    }
  }

  private async helm(dir: string, req: { releaseName: string; namespace: string; valueFiles: string[]; values?: unknown; parameters: { name: string; value: string }[] }, what: string, file: string | undefined, cluster: string, guessedRoot = false): Promise<string | undefined> {
    const t = await this.tool();
    if (!t?.helmTemplate) {
      this.findings.push({ severity: 'error', code: 'source-not-built', cluster, message: `${what}: cannot template the chart ${dir}: ${this.builderError ?? 'no Helm'}`, ...(file ? { file } : {}), hint: 'install Helm 3, or pass --helm' });
      return undefined;
    }
    try {
      return await t.helmTemplate({ dir, ...req });
    } catch (e) {
      const why = (e as Error).message.split('\n')[0];
      if (guessedRoot) {
        const message = `${what} is guessed a root (it writes Argo CD objects and nothing in the repository reads it) but helm template ${dir} fails with its own values: ${why}; it is installed with values the repository does not hold, so the objects it writes are not built and not in this plan`;
        this.cluster(cluster, IN_CLUSTER_SERVER, true).notes.push(message);
        this.findings.push({ severity: 'warning', code: 'chart-root-not-built', cluster, message, ...(file ? { file } : {}), hint: `give the values it is installed with in ${dir}/values.yaml (or install it from an Application with helm values) to see what it applies` });
        return undefined;
      }
      this.findings.push({ severity: 'error', code: 'helm-template-failed', cluster, message: `${what}: helm template ${dir} fails: ${(e as Error).message.split('\n')[0]}`, ...(file ? { file } : {}), hint: 'fix the chart or its values: Argo CD cannot render it either' });
      return undefined;
    }
  }

  /**
   * The git generators' repository server, limited to this repository: a git generator whose
   * repoURL is another repository (when the clone's origin says which URL is this one) fails with
   * OtherRepositoryError instead of reading this clone's files as if they were that repository's.
   */
  private ownGit(): GitRepo | undefined {
    const git = this.tools.git;
    const own = this.ownURL;
    if (!git || own === undefined) return git;
    const check = (url: string): void => {
      if (normalizeGitURL(url) !== own) throw new OtherRepositoryError(url);
    };
    return {
      getDirectories: async (url, revision) => (check(url), git.getDirectories(url, revision)),
      getFiles: async (url, revision, pattern, globbing) => (check(url), git.getFiles(url, revision, pattern, globbing)),
    };
  }

  /**
   * Why an ApplicationSet's cluster generators gave nothing, wherever they are nested (matrix,
   * merge): Argo CD's cluster generator yields the registered cluster Secrets its selector matches
   * (the local cluster only without a selector), so with none or no match it yields nothing.
   */
  private noClusterReason(generators: readonly unknown[]): string {
    const selectors: string[] = [];
    const walk = (gs: readonly unknown[]): void => {
      for (const g of gs) {
        if (!isPlainObject(g)) continue;
        // Without a selector the local cluster is always generated: only selectors can match nothing.
        if (isPlainObject(g.clusters) && selectorText(g.clusters.selector) !== 'no selector') selectors.push(selectorText(g.clusters.selector));
        for (const k of ['matrix', 'merge'] as const) {
          const inner = g[k];
          if (isPlainObject(inner) && Array.isArray(inner.generators)) walk(inner.generators);
        }
      }
    };
    walk(generators);
    if (selectors.length === 0) return '';
    const which = [...new Set(selectors)].join('; ');
    return this.secrets.length === 0
      ? `; its cluster generator (${which}) matches no cluster: the repository has no cluster Secret (argocd.argoproj.io/secret-type: cluster) and fleetplan does not invent one: pass --clusters FILE`
      : `; its cluster generator (${which}) matches none of the ${this.secrets.length} cluster Secret${this.secrets.length === 1 ? '' : 's'} (${this.secrets.map((s) => s.data.name ?? s.name).join(', ')}): pass --clusters FILE to add the clusters it selects`;
  }

  /**
   * A cluster generator without a selector, in a repository without cluster Secrets: it generates
   * for the local cluster here, and in Argo CD for every cluster registered there too.
   */
  private localClusterOnly(generators: readonly unknown[]): string {
    if (this.secrets.length > 0) return '';
    const unselected = (gs: readonly unknown[]): boolean =>
      gs.some((g) => isPlainObject(g) && ((isPlainObject(g.clusters) && selectorText(g.clusters.selector) === 'no selector') || (['matrix', 'merge'] as const).some((k) => isPlainObject(g[k]) && Array.isArray((g[k] as Record<string, unknown>).generators) && unselected((g[k] as Record<string, unknown>).generators as unknown[]))));
    return unselected(generators)
      ? '; its cluster generator (no selector) sees only the local cluster: the repository has no cluster Secret (argocd.argoproj.io/secret-type: cluster), and Argo CD also generates for each cluster registered on it: pass --clusters FILE to add them'
      : '';
  }

  /** The Applications an ApplicationSet generates; with `homeName`, the home cluster's notes say why it generates what it does. */
  private async generate(doc: Record<string, unknown>, place: Place, homeName: string | undefined): Promise<Record<string, unknown>[]> {
    const name = String((doc.metadata as Record<string, unknown>).name);
    const file = place.file ?? '';
    const report = homeName !== undefined;
    const home = homeName !== undefined ? this.cluster(homeName, IN_CLUSTER_SERVER, true) : undefined;
    try {
      const loaded = loadApplicationSet(dumpYaml(doc), file);
      const apps: Record<string, unknown>[] = [];
      const git = this.ownGit();
      for (const { appSet } of loaded) {
        const result = await generateApplications(appSet, { clusterSecrets: this.secrets, ...(git ? { git } : {}), fileGlobbing: 'pathspec', ...goTemplateEngine });
        apps.push(...result.applications.map((a) => a.application as unknown as Record<string, unknown>));
        if (report) for (const bad of result.invalid) this.findings.push({ severity: 'error', code: 'appset-invalid-application', message: `ApplicationSet ${name}: ${bad.message}`, ...(file ? { file } : {}) });
      }
      if (home) {
        const generators = Array.isArray(doc.spec && (doc.spec as Record<string, unknown>).generators) ? ((doc.spec as Record<string, unknown>).generators as unknown[]) : [];
        const kinds = generators.flatMap((g) => (isPlainObject(g) ? Object.keys(g) : []));
        home.notes.push(
          apps.length > 0
            ? `ApplicationSet ${name} (${place.via}) generates ${apps.length} Application${apps.length === 1 ? '' : 's'}: ${apps.map((a) => String((a.metadata as Record<string, unknown>).name)).join(', ')}${this.localClusterOnly(generators)}`
            : `ApplicationSet ${name} (${place.via}) generates no Application: its generators (${kinds.join(', ') || 'none'}) give no parameters${this.noClusterReason(generators)}`,
        );
        home.notes.push(...appSetWaveNotes(doc, name, place.via, apps));
      }
      return apps;
    } catch (e) {
      const other = otherRepositoryOf(e);
      if (other !== undefined) {
        // Another repository's files are not here: the ApplicationSet is not read, and the plan says so (ADR 0336).
        if (report) {
          const message = `ApplicationSet ${name} (${place.via}): its git generator reads ${other}, another repository than this clone (${this.tools.origin.url}); fleetplan reads only this repository, so the Applications it generates are not listed`;
          home?.notes.push(message);
          this.findings.push({ severity: 'info', code: 'appset-other-repository', message, ...(file ? { file } : {}), hint: 'clone that repository and run fleetplan appset FILE --repo DIR on it to see its Applications' });
        }
        return [];
      }
      const service = serviceGeneratorOf(e);
      if (service !== undefined) {
        // Valid for Argo CD, which asks the service; fleetplan does not, so it says what the plan lacks (ADR 0368).
        if (report) {
          const field = service.location?.path;
          const message = `not read: ApplicationSet ${name} (${place.via}): its ${service.generator} generator${field ? ` (${field})` : ''} asks ${SERVICE_ASKED[service.generator] ?? 'a service'} when Argo CD runs it, which fleetplan does not do, so the Applications it generates are not in this plan`;
          if (home && !home.notes.includes(message)) home.notes.push(message);
          this.findings.push({ severity: 'warning', code: 'apps-not-read', message, ...(file ? { file } : {}), ...(field ? { path: field } : {}), hint: 'fleetplan appset FILE --explain shows what the other generators give; the Applications this one generates are known only to the Argo CD that runs it' });
        }
        return [];
      }
      if (report) {
        this.findings.push({ severity: 'error', code: 'appset-failed', message: `ApplicationSet ${name}: ${(e as Error).message}`, ...(file ? { file } : {}), hint: (e as { hint?: string }).hint ?? 'fleetplan appset FILE --explain shows the generators\' parameters' });
      }
      return [];
    }
  }
}

/**
 * Whether `b` equals `a` except where `a` and `again` (the same render run twice) differ: those
 * fields change at every render. A multi-line string is compared line by line (a block of Helm
 * values where one line is random). The paths that change are pushed to `changing`.
 */
function sameOutsideChanging(a: unknown, again: unknown, b: unknown, path: string, changing: string[]): boolean {
  if (isPlainObject(a) && isPlainObject(again) && isPlainObject(b)) {
    const keys = Object.keys(a).sort();
    if (canonical(keys) !== canonical(Object.keys(b).sort()) || canonical(keys) !== canonical(Object.keys(again).sort())) return false;
    return keys.every((k) => sameOutsideChanging(a[k], again[k], b[k], path ? `${path}.${k}` : k, changing));
  }
  if (Array.isArray(a) && Array.isArray(again) && Array.isArray(b)) {
    if (a.length !== b.length || a.length !== again.length) return false;
    return a.every((x, i) => sameOutsideChanging(x, again[i], b[i], `${path}[${i}]`, changing));
  }
  if (canonical(a) === canonical(again)) return canonical(a) === canonical(b);
  // Changes between two runs of one render.
  if (typeof a === 'string' && typeof again === 'string' && typeof b === 'string' && a.includes('\n')) {
    const [la, lg, lb] = [a.split('\n'), again.split('\n'), b.split('\n')];
    if (la.length !== lb.length || la.length !== lg.length || la.some((l, i) => l === lg[i] && l !== lb[i])) return false;
  }
  changing.push(path);
  return true;
}

/** The paths where two values differ (a changed scalar, a key one lacks), in document order. */
function differingPaths(a: unknown, b: unknown, path: string): string[] {
  if (isPlainObject(a) && isPlainObject(b)) {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) => differingPaths(a[k], b[k], path ? `${path}.${k}` : k));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((x, i) => differingPaths(x, b[i], `${path}[${i}]`));
  return canonical(a) === canonical(b) ? [] : [path || '(the whole object)'];
}

/**
 * A multi-source Application whose manifests come from more than one source: the app (and so
 * render --leaves and validate) builds only the first (appFromObject); the note names the others.
 */
function unbuiltSources(doc: Record<string, unknown>): string | undefined {
  const spec = isPlainObject(doc.spec) ? doc.spec : {};
  if (!Array.isArray(spec.sources)) return undefined;
  const giving = spec.sources.flatMap((s, i) => (isPlainObject(s) && (s.ref === undefined || s.path !== undefined) ? [{ s, i }] : []));
  if (giving.length < 2) return undefined;
  const text = ({ s, i }: { s: Record<string, unknown>; i: number }): string => {
    const what = s.chart !== undefined ? `chart ${String(s.chart)} of ${String(s.repoURL)}` : `path ${String(s.path ?? '.')}${str(s.repoURL) && !sameRepository(String(s.repoURL), String(giving[0]!.s.repoURL)) ? ` of ${String(s.repoURL)}` : ''}`;
    return `spec.sources[${i}] (${what})`;
  };
  const rest = giving.slice(1).map(text);
  return `Application ${String((doc.metadata as Record<string, unknown>).name)} has ${giving.length} sources that give manifests; render --leaves and validate build only the first, ${text(giving[0]!)}: ${rest.join(', ')} ${rest.length === 1 ? 'is' : 'are'} not built`;
}

function samePlace(a: Place, b: Place): boolean {
  return a.at !== undefined && b.at !== undefined && a.at.file === b.at.file && a.at.line === b.at.line;
}

/** Who applies an object at a place, in words. */
function whoWrites(p: Place): string {
  if (p.parent?.startsWith('appset:')) return `the ApplicationSet controller (${p.via})`;
  if (p.parent?.startsWith('app:')) return `${p.via}'s sync`;
  return p.root !== undefined ? `whoever applies ${p.root} by hand` : 'a person applying the roots by hand';
}

/** A kustomization's helmCharts inflate a chart without a remote `repo` (from its chart home in the repository). */
function localChartInflation(text: string): boolean {
  let doc: unknown;
  try {
    doc = parseYamlAll(text)[0];
  } catch {
    return true; // kustomize reports it; the build says why.
  }
  if (!isPlainObject(doc) || !Array.isArray(doc.helmCharts)) return false;
  return doc.helmCharts.some((c) => !isPlainObject(c) || typeof c.repo !== 'string' || !/^(https?|oci):\/\//.test(c.repo));
}

/** A git generator's repository that is not this clone (ADR 0336). */
class OtherRepositoryError extends Error {
  constructor(readonly repoURL: string) {
    super(`${repoURL} is another repository`);
  }
}

/** The other repository an ApplicationSet failure comes from (through the errors' causes), if any. */
function otherRepositoryOf(e: unknown): string | undefined {
  for (let c: unknown = e, n = 0; c instanceof Error && n < 10; c = c.cause, n++) if (c instanceof OtherRepositoryError) return c.repoURL;
  return undefined;
}

/** A cluster generator's selector as a person writes it: `no selector`, or its labels and expressions. */
function selectorText(selector: unknown): string {
  if (!isPlainObject(selector)) return 'no selector';
  const parts: string[] = [];
  if (isPlainObject(selector.matchLabels)) for (const [k, v] of Object.entries(selector.matchLabels)) parts.push(`${k}=${String(v)}`);
  if (Array.isArray(selector.matchExpressions)) {
    for (const x of selector.matchExpressions) {
      if (!isPlainObject(x)) continue;
      const values = Array.isArray(x.values) ? ` (${x.values.map(String).join(', ')})` : '';
      parts.push(`${String(x.key)} ${String(x.operator)}${values}`);
    }
  }
  return parts.length > 0 ? `selector ${parts.join(', ')}` : 'no selector';
}

/** The error for a --root that holds no Application or ApplicationSet. */
function noArgoObject(raw: string, file: string, what: string): InputError {
  return new InputError(`--root ${raw}: ${what} holds no Argo CD Application or ApplicationSet (argoproj.io), so there is nothing to follow from it`, {
    code: 'root-empty',
    location: { file },
    hint: 'give the file or kustomization directory that applies the root Application(s), as kubectl apply -f would read it; leave --root out to guess the roots',
  });
}
