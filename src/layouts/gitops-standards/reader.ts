/**
 * The gitops-standards layout (DESIGN §3, seed 001): `clusters/<c>/kustomization.yaml` +
 * `values.yaml` for the argocd-app-of-app chart (under `.helm-charts/` or `.helm/charts/`),
 * `groups/*` pulled in as kustomize resources or Components, `components/*`, `.bootstrap/*`.
 *
 * Read into the same Fleet as the native layout, so plan, render and validate work unchanged:
 *   - each group's and each cluster's values file is evaluated with the chart's exact semantics
 *     (./gitops-standards/chart.ts) into fully merged apps: the chart renders every values file on
 *     its own, so layers never merge (an app name in two layers fails the real build, and is an error)
 *   - the `cluster-versions` replacement pins every app's targetRevision (ClusterDef.revisionPin)
 *   - the `environment-variables` ConfigMap or the repo-server sidecar's env of `.bootstrap/argocd.yaml`
 *     (else of the ArgoCD file the cluster gets: `argocd_hub.yaml` on the hub) gives the variables the
 *     config-management plugin substitutes; its own `${...}` are filled in when the bootstrap files
 *     are applied: `${cluster_name}` is the cluster's name, the others are kept literally
 *   - generation follows the chart: no computed sync-wave annotations, no metadata.namespace,
 *     exactly the AppProjects the layers define (FleetConventions)
 * A cluster whose kustomization or values use what this reader cannot reproduce exactly is listed
 * in `fallbacks`; ./gitops-standards/fallback.ts builds it with the real kustomize through a port.
 * Pure: reads through the RepoFileSystem port only.
 */
import { basename } from 'node:path';
import { InputError } from '../../errors/index.js';
import type { Finding } from '../../model/finding.js';
import type { ClusterDef, Fleet, GroupDef } from '../../model/fleet.js';
import type { AppSpec, ClusterRole, ProjectSpec } from '../../model/spec.js';
import type { FallbackRequest } from '../../ports/cluster-build.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { LoadResult } from '../../load/native.js';
import { at } from '../../load/native.js';
import type { SourceFile, YamlPath } from '../../model/source.js';
import { parseYamlSource } from '../../yaml/source.js';
import { substitute } from '../../model/substitute.js';
import { getPath, isPlainObject } from '../../model/merge.js';
import type { ChartOutput, ChartVariant } from './chart.js';
import { CHART_NAME, SYNC_WAVE, chartVariant, evaluateChart, templateFingerprint } from './chart.js';
import { Unsupported, coalesceValues } from './helm-values.js';
import type { ChartUse, Layer, ResourceDocsCache } from '../../load/kustomization.js';
import { kustomizationFile, readClusterKustomization } from '../../load/kustomization.js';
import { located } from '../../yaml/documents.js';
import type { LocatedDoc } from '../../yaml/documents.js';
import { ARGOCD_REPOSITORY_CAPABILITIES } from '../../model/fleet.js';
import { emptyFleet } from '../../model/fleet.js';
import { appliedObjectsOf, notArgoObjects } from '../../model/object-list.js';
import { destinationNamespaceWords, inDestinationNamespace } from '../../load/kind-scope.js';
import { parseYamlAll } from '../../yaml/index.js';
import { expandListDocument } from '../../model/k8s-list.js';
import { originURL } from '../../load/repository-origin.js';
import type { BootstrapFileObjects } from './bootstrap-root.js';
import { repositoryBootstrap } from './bootstrap-root.js';

export const CHART_HOMES = ['.helm-charts', '.helm/charts'];
export const BOOTSTRAP_ARGOCD = '.bootstrap/argocd.yaml';
export const ENVIRONMENT_CONFIGMAP = 'environment-variables';


/**
 * The objects applied by hand to bootstrap a cluster (`.bootstrap/**.yaml`: root Application,
 * ArgoCD, ...), sorted. Some repositories keep one bootstrap per kind of cluster in a folder
 * (`.bootstrap/agent/hub-root-application.yaml`): those are the repository's roots too.
 */
/** The bootstrap files with their objects (list documents expanded); a file that does not parse holds none here (validate reports it). */
function bootstrapObjects(fs: RepoFileSystem): BootstrapFileObjects[] {
  return bootstrapFiles(fs).map((file) => {
    try {
      const objects = parseYamlAll(fs.readText(file), { schema: 'kubernetes' }).flatMap((d) => expandListDocument(d)).filter(isPlainObject);
      return { file, objects: objects.filter((o) => typeof o.kind === 'string' && isPlainObject(o.metadata)) };
    } catch {
      return { file, objects: [] };
    }
  });
}

export function bootstrapFiles(fs: RepoFileSystem): string[] {
  const walk = (d: string, depth: number): string[] =>
    !fs.isDirectory(d) || depth > 3 ? [] : fs.list(d).flatMap((f) => (fs.isDirectory(`${d}/${f}`) ? walk(`${d}/${f}`, depth + 1) : /\.ya?ml$/.test(f) ? [`${d}/${f}`] : []));
  return walk(BOOTSTRAP_ARGOCD.slice(0, BOOTSTRAP_ARGOCD.indexOf('/')), 0).sort();
}

/**
 * Whether the repository's Argo CD substitutes variables into what it builds: its bootstrap
 * (`.bootstrap/**`) installs the config-management plugin (`kustomize build | envsub`, a
 * ConfigManagementPlugin or a repo-server sidecar) or the `environment-variables` ConfigMap that
 * is the plugin's environment. Without either, Argo CD builds each kustomization as it is and a
 * `${x}` in a leaf (a shell script's) stays as written (ADR 0392).
 */
function bootstrapSubstitutes(fs: RepoFileSystem, hasEnvironment: boolean): boolean {
  if (hasEnvironment) return true;
  return bootstrapFiles(fs).some((f) => /\bkind:\s*["']?ConfigManagementPlugin\b|\bsidecarContainers\s*:/.test(fs.readText(f)));
}

export function clusterDirs(fs: RepoFileSystem): string[] {
  return fs.list('clusters').filter((d) => fs.isDirectory(`clusters/${d}`) && kustomizationFile(fs, `clusters/${d}`) !== undefined);
}

export function detectGitopsStandards(fs: RepoFileSystem): boolean {
  if (fs.exists('fleet.yaml')) return false;
  return CHART_HOMES.some((h) => fs.isDirectory(`${h}/${CHART_NAME}`)) && clusterDirs(fs).length > 0;
}

/** Model path (spec.apps.<app>.<field>) → where the chart's values keep it. */
const FIELD_PATHS: Record<string, YamlPath> = {
  path: ['source', 'path'],
  repoURL: ['source', 'repoURL'],
  targetRevision: ['source', 'targetRevision'],
  namespace: ['destination', 'namespace'],
  server: ['destination', 'server'],
  wave: ['annotations', SYNC_WAVE],
  syncPolicy: ['enableAutoSync'],
  extraSource: ['source', 'extraSourceFields'],
  extraSpec: ['extraFields'],
};

export function valuesPath(path: YamlPath): YamlPath {
  if (path[0] !== 'spec') return path;
  if (path[1] === 'apps' && path.length >= 3) {
    const [field, ...rest] = path.slice(3);
    const mapped = typeof field === 'string' && FIELD_PATHS[field] ? [...FIELD_PATHS[field], ...rest] : field === undefined ? [] : [field, ...rest];
    return ['applications', path[2]!, ...mapped];
  }
  if (path[1] === 'projects') return ['projects', ...path.slice(2)];
  return path;
}

/** A values file seen as the model's layer: `value` is `{spec: {apps, projects}}`, positions are the file's. */
export function valuesView(real: SourceFile, apps: Record<string, AppSpec>, projects: Record<string, ProjectSpec>): SourceFile {
  return {
    file: real.file,
    value: { spec: { apps, projects } },
    locate: (path) => real.locate(valuesPath(path)),
    displayPath: valuesPath,
  };
}

interface Layered {
  apps: Record<string, AppSpec>;
  projects: Record<string, ProjectSpec>;
  file: string;
}

export function loadGitopsStandards(fs: RepoFileSystem): LoadResult {
  if (!detectGitopsStandards(fs)) {
    throw new InputError(`${fs.root} is not a gitops-standards repository`, {
      code: 'no-fleet',
      hint: `expected clusters/<name>/kustomization.yaml and the ${CHART_NAME} chart under ${CHART_HOMES.join(' or ')}`,
    });
  }
  const findings: Finding[] = [];
  const real = new Map<string, SourceFile | undefined>();
  const parse = (file: string): SourceFile | undefined => {
    if (real.has(file)) return real.get(file);
    let src: SourceFile | undefined;
    if (fs.exists(file) && !fs.isDirectory(file)) {
      try {
        // Values files: Helm reads them (through kustomize's helmCharts), and lets a key written twice keep its later entry.
        const r = parseYamlSource(file, fs.readText(file), { duplicateKeys: 'later-wins', reader: 'Helm' });
        findings.push(...r.findings);
        src = r.source;
      } catch (e) {
        const err = e as InputError;
        findings.push({ severity: 'error', code: err.code ?? 'unreadable-file', message: err.message, file });
      }
    }
    real.set(file, src);
    return src;
  };

  // Chart variants, by chart directory.
  const variants = new Map<string, ChartVariant | string>();
  const variantOf = (chartDir: string): ChartVariant | string => {
    let v = variants.get(chartDir);
    if (v === undefined) {
      const templates = fs.list(`${chartDir}/templates`);
      if (!fs.isDirectory(chartDir)) v = `chart ${chartDir} does not exist`;
      else if (templates.join(',') !== 'applications.yaml,projects.yaml') v = `chart ${chartDir} has templates ${templates.join(', ') || '(none)'}, not the known ${CHART_NAME} ones`;
      else {
        const known = chartVariant(templateFingerprint(fs.readText(`${chartDir}/templates/applications.yaml`), fs.readText(`${chartDir}/templates/projects.yaml`)));
        v = known ?? `chart ${chartDir} has templates that differ from the ${CHART_NAME} versions fleetplan knows`;
      }
      variants.set(chartDir, v);
    }
    return v;
  };

  // One evaluation per (values file, chart).
  const evaluations = new Map<string, ChartOutput | string>();
  const evaluate = (use: ChartUse): ChartOutput | string => {
    const key = `${use.valuesFile ?? ''}\0${use.chartDir}`;
    let r = evaluations.get(key);
    if (r !== undefined) return r;
    const variant = variantOf(use.chartDir);
    if (typeof variant === 'string') r = variant;
    else if (use.valuesFile !== undefined && !fs.exists(use.valuesFile)) r = `values file ${use.valuesFile} does not exist`;
    else {
      const chartValues = parse(`${use.chartDir}/values.yaml`)?.value;
      const userSrc = use.valuesFile !== undefined ? parse(use.valuesFile) : undefined;
      if (use.valuesFile !== undefined && !userSrc) r = `${use.valuesFile} does not parse`;
      else {
        try {
          const out = evaluateChart(coalesceValues(userSrc?.value, chartValues), variant);
          for (const p of out.problems) {
            findings.push(at(userSrc ?? parse(`${use.chartDir}/values.yaml`)!, p.path, { severity: 'error', code: p.code, message: p.message, hint: p.hint }));
          }
          r = out;
        } catch (e) {
          if (!(e instanceof Unsupported)) throw e;
          r = `${use.valuesFile ?? use.chartDir}: ${e.message}`;
        }
      }
    }
    evaluations.set(key, r);
    return r;
  };

  const layered = (uses: ChartUse[], fallbackFile: string, reasons: string[]): Layered => {
    const l: Layered = { apps: {}, projects: {}, file: uses.find((u) => u.valuesFile)?.valuesFile ?? fallbackFile };
    for (const use of uses) {
      // Read even when the chart cannot be evaluated: a fallback build reads it, and findings point into it.
      if (use.valuesFile !== undefined) parse(use.valuesFile);
      const out = evaluate(use);
      if (typeof out === 'string') {
        reasons.push(out);
        continue;
      }
      for (const a of out.apps) l.apps[a.name] = a.spec;
      Object.assign(l.projects, out.projects);
    }
    return l;
  };

  /**
   * A values file with nothing in it (whitespace only) that a kustomization inflates the chart
   * with: the inflation renders only the chart's defaults. Reported once per file.
   */
  const emptyReported = new Set<string>();
  const reportEmptyValues = (layer: Layer, groupsSoFar: readonly string[]) => {
    for (const use of layer.charts) {
      const file = use.valuesFile;
      if (file === undefined || emptyReported.has(file) || !fs.exists(file) || fs.isDirectory(file)) continue;
      let text: string;
      try {
        text = fs.readText(file);
      } catch {
        continue;
      }
      if (text.trim() !== '') continue;
      emptyReported.add(file);
      const out = evaluate(use);
      const kfile = kustomizationFile(fs, layer.dir) ?? layer.dir;
      const defaults = typeof out === 'string' ? undefined : out;
      const defaultApps = defaults ? defaults.apps.map((a) => a.name).sort() : [];
      const defaultProjects = defaults ? Object.keys(defaults.projects).sort() : [];
      const renders = !defaults
        ? `what the ${CHART_NAME} chart's defaults render`
        : defaultApps.length || defaultProjects.length
          ? `only the chart's default ${[defaultApps.length ? `Applications ${defaultApps.join(', ')}` : '', defaultProjects.length ? `AppProjects ${defaultProjects.join(', ')}` : ''].filter(Boolean).join(' and ')} (from ${use.chartDir}/values.yaml)`
          : `nothing: the chart's defaults (${use.chartDir}/values.yaml) define no application and no project`;
      const gets = layer.kind === 'cluster'
        ? `cluster ${layer.name} gets only the applications of its groups${groupsSoFar.length ? ` (${groupsSoFar.join(', ')})` : ''}`
        : `group ${layer.name} adds no applications of its own`;
      findings.push({
        severity: 'warning',
        code: 'empty-values-file',
        message: `${file} is empty (whitespace only), yet ${kfile} inflates the ${CHART_NAME} chart with it; the inflation renders ${renders}, so ${gets}`,
        file,
        line: 1,
        hint: `remove the helmCharts entry from ${kfile} and delete ${file}, or add the ${layer.kind === 'cluster' ? 'cluster' : 'group'}'s applications to it (\`applications: {}\` says it deliberately has none)`,
        ...(layer.kind === 'cluster' ? { cluster: layer.name } : {}),
      });
    }
  };

  const booted = bootstrapObjects(fs);
  const argocds = argocdBootstraps(fs, booted);
  const vars = argocds.shared ?? argocds.sets[0]?.vars ?? NO_VARIABLES;
  for (const { file, vars: v } of argocds.sets) real.set(file, v.source);
  const substitutes = bootstrapSubstitutes(fs, argocds.sets.length > 0);
  const groups = new Map<string, GroupDef>();
  const groupLayers = new Map<string, { layer: Layered; reasons: string[] }>();
  const clusters: ClusterDef[] = [];
  const fallbacks: FallbackRequest[] = [];
  /** Per cluster: the objects its kustomization builds besides Argo CD's, placed once its root is known. */
  const builtObjects = new Map<ClusterDef, { dir: string; docs: Record<string, unknown>[] }>();
  let chartDir: string | undefined;
  const resourceDocs: ResourceDocsCache = new Map();
  for (const c of clusterDirs(fs)) {
    const dir = `clusters/${c}`;
    const ck = readClusterKustomization(fs, c, dir, parse, resourceDocs);
    const reasons = [...ck.unsupported];
    const groupNames: string[] = [];
    const seen = new Map<string, string>();
    const seenProjects = new Map<string, string>();
    const checkDuplicates = (l: Layered) => {
      for (const [kind, names, map] of [['app', Object.keys(l.apps), seen], ['project', Object.keys(l.projects), seenProjects]] as const) {
        for (const n of names) {
          const first = map.get(n);
          if (first !== undefined && real.get(l.file)) {
            findings.push({
              ...at(real.get(l.file)!, [kind === 'app' ? 'applications' : 'projects', n], {
                severity: 'error',
                code: kind === 'app' ? 'duplicate-app' : 'duplicate-project',
                message: `${kind} "${n}" is also defined in ${first}; kustomize build of ${dir} fails: ${kind === 'app' ? 'Application' : 'AppProject'} ${n} exists twice`,
                hint: 'the chart renders each values file on its own, so layers do not merge: rename or remove one of them',
              }),
              cluster: c,
            });
          } else map.set(n, l.file);
        }
      }
    };
    let own: Layered = { apps: {}, projects: {}, file: ck.file };
    for (const layer of ck.layers) {
      chartDir ??= layer.charts[0]?.chartDir;
      if (layer.kind === 'group') {
        let g = groupLayers.get(layer.name);
        if (!g) {
          const gr: string[] = [];
          g = { layer: layered(layer.charts, kustomizationFile(fs, layer.dir) ?? layer.dir, gr), reasons: gr };
          reportEmptyValues(layer, []);
          groupLayers.set(layer.name, g);
          groups.set(layer.name, { name: layer.name, file: g.layer.file, metadata: { name: layer.name }, spec: { apps: g.layer.apps }, projects: g.layer.projects });
        }
        reasons.push(...g.reasons);
        groupNames.push(layer.name);
        checkDuplicates(g.layer);
      } else {
        own = layered(layer.charts, ck.file, reasons);
        reportEmptyValues(layer, groupNames);
        checkDuplicates(own);
      }
    }
    const def: ClusterDef = {
      name: c,
      file: own.file,
      metadata: { name: c },
      spec: { role: 'standalone', groups: groupNames, apps: own.apps },
      projects: own.projects,
      notes: [],
    };
    const variant = chartDir ? variantOf(chartDir) : undefined;
    if (reasons.length === 0) {
      const files = [...groupNames.map((g) => groups.get(g)!.file), own.file];
      def.notes!.push(`Applications evaluated from the ${CHART_NAME} chart (${typeof variant === 'object' ? variant.id : '?'} templates) with ${files.join(', ')}`);
      const projectNames = [
        ...groupNames.flatMap((g) => Object.keys(groups.get(g)!.projects ?? {}).map((p) => `${p} (${groups.get(g)!.file})`)),
        ...Object.keys(own.projects).map((p) => `${p} (${own.file})`),
      ];
      def.notes!.push(projectNames.length ? `AppProjects: ${projectNames.join(', ')}` : 'no AppProjects');
      if (ck.pin) {
        def.revisionPin = { revision: ck.pin.revision, origin: { file: ck.file, path: ck.pin.path } };
        def.notes!.push(`targetRevision of every Application set to "${ck.pin.revision}" by the replacements in ${ck.file}`);
      }
    } else {
      def.spec.groups = [];
      def.spec.apps = {};
      def.projects = {};
      const valuesFiles = [...new Set(ck.layers.flatMap((l) => l.charts.map((u) => u.valuesFile)).filter((f): f is string => f !== undefined))].reverse();
      const values = valuesFiles.map((f) => real.get(f)).filter((s): s is SourceFile => s !== undefined);
      fallbacks.push({ cluster: c, dir, reasons: [...new Set(reasons)], values });
    }
    if (ck.others.length > 0 && reasons.length === 0) builtObjects.set(def, { dir, docs: ck.others });
    if (!substitutes) def.notes!.push(`no config-management plugin in the repository's bootstrap (${BOOTSTRAP_ARGOCD.slice(0, BOOTSTRAP_ARGOCD.indexOf('/'))}/): Argo CD builds the leaves with kustomize and substitutes no variables, and neither does render --leaves`);
    clusters.push(def);
  }

  // Roles: a cluster named hub (or running ACM) is the hub; the others are its spokes.
  const isHub = (d: ClusterDef) => d.name === 'hub' || Object.keys(d.spec.apps ?? {}).some((a) => a === 'acm-operator' || a === 'advanced-cluster-management');
  const hubs = clusters.filter(isHub);
  for (const d of clusters) {
    const role: ClusterRole = isHub(d) ? 'hub' : hubs.length === 1 ? 'spoke' : 'standalone';
    d.spec.role = role;
    if (role === 'spoke') d.spec.hub = hubs[0]!.name;
  }

  // The ArgoCD file each cluster gets (one per role in some repositories): its variables and its bootstrap step.
  const argocdFile = new Map<ClusterDef, string | undefined>();
  for (const d of clusters) {
    const chosen = argocdFor(argocds, d.spec.role ?? 'standalone');
    d.notes!.push(...chosen.notes);
    const own = chosen.set?.vars ?? vars;
    if (!argocds.shared && chosen.set) d.spec.vars = { ...own.vars };
    if (own.bootstrapOnly.length) d.notes!.push(`set when ${chosen.set?.file ?? BOOTSTRAP_ARGOCD} is applied, shown literally: ${own.bootstrapOnly.join(', ')}`);
    argocdFile.set(d, chosen.file);
  }

  // The repository's own root Application in .bootstrap/ is each cluster's root (ADR 0399).
  const origin = originURL(fs);
  for (const d of clusters) {
    const mine = argocdFile.get(d);
    const others = new Set(argocds.files.filter((f) => mine !== undefined && f !== mine));
    const own = repositoryBootstrap(booted.filter((f) => !others.has(f.file)), d.name, d.spec.role ?? 'standalone', origin);
    if (own) d.ownBootstrap = own;
    const built = builtObjects.get(d);
    if (built) addRootObjects(d, built.dir, built.docs, vars.namespace ?? 'openshift-gitops');
  }

  // Sources: values files as model views, kustomizations as they are, the ConfigMap as fleet vars.
  const sources = new Map<string, SourceFile>();
  for (const [file, src] of real) if (src) sources.set(file, src);
  for (const g of groups.values()) {
    const src = real.get(g.file);
    if (src) sources.set(g.file, valuesView(src, g.spec.apps ?? {}, g.projects ?? {}));
  }
  for (const d of clusters) {
    const src = real.get(d.file);
    if (src) sources.set(d.file, valuesView(src, d.spec.apps ?? {}, d.projects ?? {}));
  }
  for (const { file, vars: v } of argocds.sets) if (v.view) sources.set(file, v.view);

  const chartValues = chartDir ? real.get(`${chartDir}/values.yaml`)?.value : undefined;
  const defaultRepo = isPlainObject(chartValues) ? (chartValues as { default?: { app?: { source?: { repoURL?: unknown } } } }).default?.app?.source?.repoURL : undefined;
  const repoURL = typeof defaultRepo === 'string' ? substitute(defaultRepo, (n) => vars.literal[n]).text : '';
  const fleet: Fleet = {
    ...emptyFleet(fs.root, 'gitops-standards', substitutes ? ARGOCD_REPOSITORY_CAPABILITIES : { ...ARGOCD_REPOSITORY_CAPABILITIES, leafVariables: false }),
    name: basename(fs.root),
    file: vars.view ? vars.view.file : chartDir ? `${chartDir}/values.yaml` : 'clusters',
    repoURL,
    gitopsNamespace: vars.namespace ?? 'openshift-gitops',
    vars: vars.vars,
    clusters,
    groups,
    sources,
    loadFindings: findings,
    conventions: { syncWaveAnnotation: 'as-given', objectNamespace: false, projects: 'from-layers' },
    manifestFiles: bootstrapFiles(fs),
  };
  return { fleet, findings, fallbacks };
}

interface BootstrapVariables {
  /** Fleet variables: the ConfigMap's data, bootstrap-time `${x}` mapped (see below). */
  vars: Record<string, string>;
  /** The ConfigMap's data as written. */
  literal: Record<string, string>;
  /** `NAME=${x}` for variables whose value is only known at bootstrap. */
  bootstrapOnly: string[];
  namespace: string | undefined;
  source: SourceFile | undefined;
  view: SourceFile | undefined;
}

const NO_VARIABLES: BootstrapVariables = { vars: {}, literal: {}, bootstrapOnly: [], namespace: undefined, source: undefined, view: undefined };

interface ArgocdBootstraps {
  /** The bootstrap files holding an ArgoCD (or the plugin's environment ConfigMap), sorted. */
  files: string[];
  /** Those that give the plugin variables, with them. */
  sets: { file: string; vars: BootstrapVariables }[];
  /** The variables when every file gives the same ones (or one file gives them): no choice to make. */
  shared: BootstrapVariables | undefined;
}

/**
 * The ArgoCD objects the bootstrap applies: `.bootstrap/argocd.yaml` when the repository has it,
 * else every bootstrap file holding an ArgoCD or the environment ConfigMap (some repositories keep
 * one per kind of cluster, `argocd_hub.yaml` and `argocd_spoke.yaml`, applied by a script that is
 * told which).
 */
function argocdBootstraps(fs: RepoFileSystem, booted: readonly BootstrapFileObjects[]): ArgocdBootstraps {
  const holds = (o: Record<string, unknown>) => o.kind === 'ArgoCD' || (o.kind === 'ConfigMap' && (o.metadata as { name?: unknown }).name === ENVIRONMENT_CONFIGMAP);
  const files = fs.exists(BOOTSTRAP_ARGOCD) ? [BOOTSTRAP_ARGOCD] : booted.filter((f) => f.objects.some(holds)).map((f) => f.file);
  const sets = files.map((file) => ({ file, vars: bootstrapVariables(fs, file) })).filter((s) => s.vars.source !== undefined);
  const key = (v: BootstrapVariables) => JSON.stringify([v.vars, v.bootstrapOnly, v.namespace ?? null]);
  const shared = sets.length > 0 && sets.every((s) => key(s.vars) === key(sets[0]!.vars)) ? sets[0]!.vars : undefined;
  return { files, sets, shared };
}

/**
 * The ArgoCD file a cluster gets when the bootstrap has several: the one named for the cluster's
 * role (`argocd_spoke.yaml` on a spoke), as fleetplan tells hub from spoke; when none or several
 * are, fleetplan cannot tell and says so (the first file's variables are used).
 */
function argocdFor(a: ArgocdBootstraps, role: string): { file: string | undefined; set: ArgocdBootstraps['sets'][number] | undefined; notes: string[] } {
  if (a.files.length <= 1) return { file: a.files[0], set: a.sets[0], notes: [] };
  const base = (f: string) => f.slice(f.lastIndexOf('/') + 1);
  const named = a.files.filter((f) => base(f).includes(role));
  if (named.length === 1) {
    const file = named[0]!;
    const skipped = a.files.filter((f) => f !== file);
    return { file, set: a.sets.find((s) => s.file === file), notes: [`${file} is the ArgoCD this cluster gets (the file named for its role ${role}): its plugin variables are this cluster's, and ${skipped.join(', ')} ${skipped.length === 1 ? 'is' : 'are'} not applied to it`] };
  }
  const first = a.sets[0];
  const vars = a.shared ? 'they give the same plugin variables' : first ? `the plugin variables are taken from ${first.file}, the first` : 'none gives plugin variables';
  return {
    file: undefined,
    set: first,
    notes: [`the bootstrap holds ArgoCD files ${a.files.join(', ')}: fleetplan cannot tell which of ${a.files.join(', ')} this cluster gets (${named.length === 0 ? `no file is named for its role ${role}` : `several are named for its role ${role}`}), so the plan lists them all and ${vars}; name the files for the roles (argocd_hub.yaml, argocd_spoke.yaml) to tell`],
  };
}

/**
 * The plugin's environment in `.bootstrap/argocd.yaml` (or another bootstrap ArgoCD file): the `environment-variables` ConfigMap, and
 * the `env` of the ArgoCD's repo-server sidecars (`spec.repo.sidecarContainers[].env`), where
 * earlier copies of the template write it; the plugin runs in that container, so an `env` entry
 * wins over the ConfigMap's, as Kubernetes gives `env` over `envFrom`. Its values are themselves
 * filled in by envsubst when the bootstrap files are applied: `${cluster_name}` is the cluster
 * (the root Application reads `clusters/${cluster_name}`), so it becomes `${CLUSTER_NAME}`; any
 * other `${x}` is unknown offline and is kept literally (`$${x}`).
 */
function bootstrapVariables(fs: RepoFileSystem, file: string): BootstrapVariables {
  const none = NO_VARIABLES;
  if (!fs.exists(file)) return none;
  let docs;
  try {
    docs = located(fs.readText(file));
  } catch {
    return none;
  }
  const ofKind = (d: LocatedDoc, kind: string) => (d.value as { kind?: unknown } | null)?.kind === kind;
  const cm = docs.find((d) => ofKind(d, 'ConfigMap') && (d.value as { metadata?: { name?: unknown } }).metadata?.name === ENVIRONMENT_CONFIGMAP);
  // Each variable: its text as written, and where (document and path).
  const written = new Map<string, { raw: string; doc: LocatedDoc; path: YamlPath }>();
  const cmData = cm ? (cm.value as { data?: unknown }).data : undefined;
  for (const [k, raw] of Object.entries(isPlainObject(cmData) ? cmData : {})) written.set(k, { raw: typeof raw === 'string' ? raw : String(raw), doc: cm!, path: ['data', k] });
  let argocd: LocatedDoc | undefined;
  for (const d of docs.filter((x) => ofKind(x, 'ArgoCD'))) {
    const sidecars = getPath(d.value, ['spec', 'repo', 'sidecarContainers']);
    if (!Array.isArray(sidecars)) continue;
    sidecars.forEach((c: unknown, i) => {
      const env = isPlainObject(c) ? c.env : undefined;
      if (!Array.isArray(env)) return;
      env.forEach((e: unknown, j) => {
        if (!isPlainObject(e) || typeof e.name !== 'string' || e.value === undefined || e.value === null || typeof e.value === 'object') return;
        written.set(e.name, { raw: String(e.value as string | number | boolean), doc: d, path: ['spec', 'repo', 'sidecarContainers', i, 'env', j, 'value'] });
        argocd ??= d;
      });
    });
  }
  if (written.size === 0) return none;
  const vars: Record<string, string> = {};
  const literal: Record<string, string> = {};
  const bootstrapOnly: string[] = [];
  for (const [k, { raw: v }] of written) {
    literal[k] = v;
    if (k === 'CLUSTER_NAME' && v === '${cluster_name}') continue; // the built-in, same meaning
    vars[k] = v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, n: string) => {
      if (n === 'cluster_name') return '${CLUSTER_NAME}';
      bootstrapOnly.push(`${k}=\${${n}}`);
      return `$\${${n}}`;
    });
  }
  const home = (cm ?? argocd)!;
  // A path of the ConfigMap (`data.K`) or of the fleet's variables (`spec.vars.K`) to where K is written.
  const toDoc = (p: YamlPath): YamlPath => {
    const k = p[0] === 'spec' && p[1] === 'vars' ? p[2] : p[0] === 'data' ? p[1] : undefined;
    const w = typeof k === 'string' ? written.get(k) : undefined;
    if (!w) return p[0] === 'spec' && p[1] === 'vars' ? ['data', ...p.slice(2)] : p;
    return [...w.path, ...p.slice(p[0] === 'data' ? 2 : 3)];
  };
  const docOf = (p: YamlPath): LocatedDoc => {
    const k = p[0] === 'spec' && p[1] === 'vars' ? p[2] : p[0] === 'data' ? p[1] : undefined;
    return (typeof k === 'string' ? written.get(k)?.doc : undefined) ?? home;
  };
  const source: SourceFile = { file, value: undefined, locate: (p) => docOf(p).locate(toDoc(p)) };
  const view: SourceFile = { file, value: { spec: { vars } }, locate: (p) => docOf(p).locate(toDoc(p)), displayPath: toDoc };
  const ns = getPath(home.value, ['metadata', 'namespace']);
  return { vars, literal, bootstrapOnly: bootstrapOnly.sort(), namespace: typeof ns === 'string' ? ns : undefined, source, view };
}

/**
 * The objects a cluster's kustomization builds besides Argo CD's: the root Application syncs them
 * (ADR 0398, 0407), so they land on the cluster, a namespaced one without a namespace in the root's
 * destination namespace (ADR 0412): the repository's own root's (ADR 0399), else fleetplan's root's,
 * the GitOps namespace. A destination namespace still holding a `${…}` is not known: kept as written.
 */
export function addRootObjects(def: ClusterDef, dir: string, docs: readonly Record<string, unknown>[], gitopsNamespace: string): void {
  const root = def.ownBootstrap?.rootApplication;
  const spec = isPlainObject(root?.spec) ? root.spec : undefined;
  const dest = spec && isPlainObject(spec.destination) ? spec.destination : undefined;
  const namespace = root ? (typeof dest?.namespace === 'string' && dest.namespace !== '' ? dest.namespace : undefined) : gitopsNamespace;
  const whose = root ? 'the root Application\'s' : 'fleetplan\'s root Application\'s';
  let landed: readonly Record<string, unknown>[] = docs;
  let words = '';
  if (namespace !== undefined && !namespace.includes('${')) {
    const r = inDestinationNamespace(docs, namespace);
    landed = r.docs;
    if (r.given > 0) words = `; ${destinationNamespaceWords(namespace, whose, r.unknown)}`;
  } else if (root) {
    words = `; the root Application gives no literal destination namespace (${String(dest?.namespace ?? 'none')}), so namespaced objects without one are kept as written`;
  }
  def.appliedObjects = appliedObjectsOf(landed, `kustomize build ${dir}`, dir);
  def.notes = [...(def.notes ?? []), `kustomize build ${dir} also applies ${notArgoObjects(landed)} (render writes them under objects/; the root Application applies them${words})`];
}
