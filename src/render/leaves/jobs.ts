/**
 * Resolved clusters → leaf-rendering jobs: one per Application whose source is in the fleet
 * repository (a kustomize directory, or a local chart when Argo CD builds the source with Helm:
 * the source names `helm`, or the directory has a Chart.yaml and no kustomization), or a chart
 * from a Helm repository. A Helm job carries what the Application gives Helm (value files,
 * `ignoreMissingValueFiles`, parameters with Argo CD's build variables substituted). Each job
 * carries the cluster's variables for substitution, unless the layout's Argo CD substitutes none
 * (FleetCapabilities.leafVariables).
 */
import { FLUX_APPLIES_TO_LABEL } from '../../model/constants.js';
import type { Fleet } from '../../model/fleet.js';
import { locateOrigin } from '../../model/fleet.js';
import { artifactIgnore } from '../../model/flux-source-ignore.js';
import type { ResolvedApp, ResolvedCluster } from '../../model/resolved.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { applicationFor } from '../../generate/argocd.js';
import { SELF_APPLICATION, selfManaged } from '../../generate/argocd-self.js';
import { applicationSource, argoSourceType } from '../../model/argo-source-type.js';
import { isPlainObject } from '../../model/merge.js';
import { appPlugins, pluginNote } from '../../model/argo-plugin.js';
import type { HelmParameter, LeafJob } from './render.js';
import { directoryOptions } from './directory.js';
import { jsonnetSettings } from './jsonnet.js';
import { RepoConfigIndex, fluxBuildScope, fluxVariables, repositoryGitSources, repositoryYamlFiles } from '../../load/flux-variables.js';
import { placeholderRepoURL, sameRepository } from '../../model/git-url.js';
import { normalizeRepoPath } from '../../model/repo-path.js';
import { ociChartReference } from '../../model/helm-oci.js';
import { RepositorySecrets, chartRepositoryIsOci, ociLeafSource, repositoryAccess, sourceLocations } from './jobs-oci.js';
import { located } from '../../yaml/documents.js';
import { parseYamlAll } from '../../yaml/index.js';
import { isFluxKustomization } from '../../model/k8s.js';
import { PHASE_LABEL } from '../../model/constants.js';
import type { ChartLocations } from './render.js';

/**
 * Why an app is not built, in the few words the run's summary counts it under (formatLeafReport);
 * SkippedLeaf.reason says it in full for that app.
 */
export const SKIP_KINDS = {
  plugin: 'config-management plugin',
  'own-output': "fleetplan's own output",
  'other-cluster': 'built under another cluster',
  'other-repository': 'source in another repository',
  placeholder: 'placeholder repoURL',
  'no-source': 'no source path',
  'helmfile-release': 'helmfile release not read',
  'not-a-source': "not one of the Application's sources",
  'value-file': 'value file not readable',
  'helm-values': 'helm.values that helm template rejects',
} as const;
export type SkipKind = keyof typeof SKIP_KINDS;

export interface SkippedLeaf {
  cluster: string;
  app: string;
  kind: SkipKind;
  reason: string;
}

export function leafJobsFor(fleet: Fleet, clusters: readonly ResolvedCluster[], fs: RepoFileSystem): { jobs: LeafJob[]; skipped: SkippedLeaf[] } {
  const jobs: LeafJob[] = [];
  const skipped: SkippedLeaf[] = [];
  const files = new Map<string, boolean>();
  const has = (path: string) => (name: string) => {
    const f = `${path}/${name}`;
    let v = files.get(f);
    if (v === undefined) files.set(f, (v = fs.exists(f)));
    return v;
  };
  const substitutes = fleet.capabilities.leafVariables !== false;
  // Charts an Argo CD syncs: their objects are those a sync creates (ADR 0419).
  const argoHooks = fleet.engine === 'argocd' ? (true as const) : undefined;
  let index: RepoConfigIndex | undefined;
  let thisRepository: ((name: string, namespace: string) => boolean) | undefined;
  // The repository's own Argo CD repository Secrets (ADR 0316), read when a remote source asks.
  const repositories = new RepositorySecrets(fs);
  for (const c of clusters) {
    const variables = substitutes ? c.vars : undefined;
    // Argo CD's own configuration (ADR 0240) reads the bootstrap files render --out writes.
    if (selfManaged(fleet)) skipped.push({ cluster: c.name, app: SELF_APPLICATION, kind: 'own-output', reason: `its objects are fleetplan's own output at ${fleet.renderedPath}/${c.name}/bootstrap` });
    for (const app of c.apps) {
      const src = app.source;
      const m = app.manifest;
      if (isFluxKustomization(m) && app.labels[FLUX_APPLIES_TO_LABEL] !== undefined) {
        // Applied to a spoke through spec.kubeConfig (ADR 0369): its objects are built under that cluster.
        skipped.push({ cluster: c.name, app: app.name, kind: 'other-cluster', reason: `it applies its objects to cluster ${app.labels[FLUX_APPLIES_TO_LABEL]} (spec.kubeConfig): they are built under that cluster` });
        continue;
      }
      if (isFluxKustomization(m)) {
        // A Flux Kustomization of the repository: built as kustomize-controller builds it (flux.ts).
        // The layout may know the cluster's own objects and where a mapped source is (fluxBuildScopes).
        const scope = fluxBuildScope(fleet.root, c.name, m);
        index ??= new RepoConfigIndex(fs, () => repositoryYamlFiles(fs));
        const idx = scope?.lookup ?? index;
        const spec = isPlainObject(m.spec) ? m.spec : {};
        const path = scope?.path ?? (typeof spec.path === 'string' ? spec.path.replace(/^\.\//, '').replace(/\/+$/, '') || '.' : undefined);
        const sref = isPlainObject(spec.sourceRef) ? spec.sourceRef : {};
        if (path === undefined) {
          skipped.push({ cluster: c.name, app: app.name, kind: 'no-source', reason: 'the Kustomization has no spec.path' });
          continue;
        }
        thisRepository ??= repositoryGitSources(fs, index);
        const isThis = scope?.thisRepository ?? thisRepository;
        const meta = isPlainObject(m.metadata) ? m.metadata : {};
        const srefNs = typeof sref.namespace === 'string' ? sref.namespace : typeof meta.namespace === 'string' ? meta.namespace : 'flux-system';
        if (scope?.path === undefined && sref.kind !== undefined && (sref.kind !== 'GitRepository' || !isThis(String(sref.name), srefNs))) {
          skipped.push({ cluster: c.name, app: app.name, kind: 'other-repository', reason: `its source ${String(sref.kind)} ${srefNs}/${String(sref.name)} is not this repository (GitRepository flux-system, or one with its URL and ref)` });
          continue;
        }
        const v = fluxVariables(m, idx);
        jobs.push({
          cluster: c.name,
          app: app.name,
          source: {
            kind: 'flux',
            path,
            kustomization: m,
            substitution: { vars: v.vars, secret: v.secret, active: v.active, ...(scope?.strictSubstitution ? { strict: true } : {}) },
            unresolved: v.unresolved,
            lookup: (kind, name, namespace) => idx.find(kind, name, namespace)[0]?.body,
            ...(scope?.spokes ? { spokes: scope.spokes } : {}),
            thisRepository: isThis,
            // The artifact leaves out what `.sourceignore` files and the GitRepository's spec.ignore name (ADR 0421).
            ...(scope?.ignore ? { ignore: scope.ignore } : scope?.path === undefined ? { ignore: artifactIgnore(fs, sref.kind === 'GitRepository' ? idx.find('GitRepository', String(sref.name), srefNs)[0]?.body : undefined) } : {}),
          },
          variables: {},
        });
        continue;
      }
      const plugins = appPlugins(app);
      if (plugins.length) {
        // A config-management plugin's commands come from the repository's Argo CD: never run (ADR 0284).
        skipped.push({ cluster: c.name, app: app.name, kind: 'plugin', reason: pluginNote(app.name, plugins).slice(app.name.length + 2) });
        continue;
      }
      const namespace = app.destination.namespace ?? c.gitopsNamespace;
      if (src.chart !== undefined && src.repoURL === 'helmfile') {
        // A helmfile release whose chart or values fleetplan could not read, or a local chart (ADR 0320).
        // A local chart that reaches here leaves the repository (one inside it is a path source).
        const reason = /^\.\.?(\/|$)/.test(src.chart) ? `the helmfile release's local chart ${src.chart} is outside the repository, which fleetplan does not read` : `the helmfile release's chart ${src.chart} is not one render --leaves builds (a chart or values whose helmfile template was not read: see helmfile-template-not-read)`;
        skipped.push({ cluster: c.name, app: app.name, kind: 'helmfile-release', reason });
        continue;
      }
      if (fleet.engine === 'argocd' && src.repoURL !== undefined && src.repoURL.startsWith('oci://')) {
        // An Argo CD 3.1 native OCI source (ADR 0317): checked before `chart`, as the repo-server does.
        // Only Argo CD reads an oci:// repoURL as the artifact itself: a Flux or helmfile chart in an OCI
        // repository keeps its chart (`oci://repo/chart`) and is pulled as a chart below.
        const application = applicationFor(c, app) as unknown as Record<string, unknown>;
        const spec = isPlainObject(application.spec) ? application.spec : {};
        const argo = applicationSource(application) ?? (Array.isArray(spec.sources) ? spec.sources.filter(isPlainObject).find((s) => s.repoURL === src.repoURL) : undefined);
        if (!argo) {
          skipped.push({ cluster: c.name, app: app.name, kind: 'not-a-source', reason: `its OCI source ${src.repoURL} is not one of the Application's sources` });
          continue;
        }
        const helm = helmOf(argo, app);
        if (helm.problem !== undefined) {
          skipped.push({ cluster: c.name, app: app.name, kind: 'helm-values', reason: helm.problem });
          continue;
        }
        // `$ref/path` value files of a multi-source Application: this repository's files (`$repo/path`), resolved before substitution as Argo CD does.
        const refs = new Map<string, string>();
        for (const x of Array.isArray(spec.sources) ? spec.sources.filter(isPlainObject) : []) if (typeof x.ref === 'string' && typeof x.repoURL === 'string') refs.set(x.ref, x.repoURL);
        const env = buildEnvironment(argo, app);
        const rawFiles = isPlainObject(argo.helm) && Array.isArray(argo.helm.valueFiles) ? argo.helm.valueFiles.filter((f): f is string => typeof f === 'string') : [];
        const valueFiles = rawFiles.map((f) => {
          const m = /^\$([^/]+)\/(.*)$/.exec(f);
          if (!m) return envsubst(f, env);
          const ref = refs.get(m[1]!);
          if (ref === undefined) return `!value file ${f} names a $${m[1]!} source the Application does not have`;
          if (!sameRepository(ref, fleet.repoURL)) return `!value file ${f} is in another repository (${ref}), which fleetplan does not read`;
          return `$repo/${m[2]!}`;
        });
        const unreadable = valueFiles.find((f) => f.startsWith('!'));
        if (unreadable !== undefined) {
          skipped.push({ cluster: c.name, app: app.name, kind: 'value-file', reason: unreadable.slice(1) });
          continue;
        }
        helm.valueFiles = valueFiles;
        const locations = sourceLocations(fs, app.from, app.name, src.repoURL);
        jobs.push({
          cluster: c.name,
          app: app.name,
          source: ociLeafSource({
            argo,
            releaseName: helm.releaseName ?? app.name,
            namespace,
            helm: { valueFiles: helm.valueFiles, ignoreMissingValueFiles: helm.ignoreMissingValueFiles, parameters: helm.parameters, values: helm.values },
            access: repositoryAccess(repositories.for(src.repoURL, app.project)),
            ...(locations ? { locations } : {}),
          }),
          variables,
        });
        continue;
      }
      if (src.chart !== undefined) {
        // A multi-source Application (a chart with value files from `$ref` sources, e.g. Validated
        // Patterns' `$patternref`): the chart's own source carries what Helm gets (ADR 0283).
        const multi = multiSourceChart(applicationFor(c, app) as unknown as Record<string, unknown>, src.chart, fleet.repoURL);
        if (typeof multi === 'string') {
          skipped.push({ cluster: c.name, app: app.name, kind: 'not-a-source', reason: multi });
          continue;
        }
        const helm = multi ? helmOf(multi.source, app) : undefined;
        if (helm?.problem !== undefined) {
          skipped.push({ cluster: c.name, app: app.name, kind: 'helm-values', reason: helm.problem });
          continue;
        }
        // Argo CD resolves a `$ref/` value file first and substitutes build variables after.
        const rawFiles = multi && isPlainObject(multi.source.helm) && Array.isArray(multi.source.helm.valueFiles) ? multi.source.helm.valueFiles.filter((f): f is string => typeof f === 'string') : [];
        const env = multi ? buildEnvironment(multi.source, app) : new Map<string, string>();
        const valueFiles = rawFiles.map((f) => multi!.files(f)).map((f) => (f.startsWith('!') ? f : envsubst(f, env)));
        const unreadable = valueFiles.find((f) => f.startsWith('!'));
        if (unreadable !== undefined) {
          skipped.push({ cluster: c.name, app: app.name, kind: 'value-file', reason: unreadable.slice(1) });
          continue;
        }
        const values = helm?.values ?? src.helm?.values;
        // An OCI registry (ADR 0301, 0316): Argo CD's IsHelmOciRepo, or enableOCI on the repository's
        // Secret; a URL without a scheme and no Secret saying so is OCI by assumption.
        const repo = src.repoURL !== undefined && !src.chart.startsWith('oci://') ? repositories.for(src.repoURL, app.project) : undefined;
        const decided = src.repoURL !== undefined && !src.chart.startsWith('oci://') ? chartRepositoryIsOci(src.repoURL, repo) : { oci: false };
        const oci = decided.oci;
        const access = repositoryAccess(repo);
        const locations = chartLocations(fs, app.from, app.name, src.chart);
        jobs.push({
          cluster: c.name,
          app: app.name,
          source: {
            kind: 'helm',
            ...(argoHooks ? { argoHooks } : {}),
            chart: oci ? ociChartReference(src.repoURL!, src.chart) : src.chart,
            repoURL: src.repoURL,
            ...(locations ? { locations } : {}),
            ...(decided.assumption !== undefined || access.notes.length ? { assumption: [...access.notes, ...(decided.assumption !== undefined ? [decided.assumption] : [])].join('; ') } : {}),
            ...(decided.refusal !== undefined ? { refusal: decided.refusal } : {}),
            ...(oci && access.plainHttp ? { plainHttp: true } : {}),
            ...(access.insecureSkipVerify ? { insecureSkipVerify: true } : {}),
            ...(access.credentials ? { credentials: access.credentials } : {}),
            version: src.targetRevision,
            releaseName: helm?.releaseName ?? src.helm?.releaseName ?? app.name,
            namespace,
            ...(valueFiles.length ? { valueFiles } : {}),
            ...(helm?.ignoreMissingValueFiles ? { ignoreMissingValueFiles: true } : {}),
            ...(helm?.parameters.length ? { parameters: helm.parameters } : {}),
            ...(values ? { values } : {}),
            // A helmfile CRD-phase release: its bootstrap applies only the chart's CRDs (ADR 0365).
            ...(app.labels[PHASE_LABEL] === 'crds' ? { only: 'crds' as const } : {}),
          },
          variables,
        });
        continue;
      }
      if (src.path === undefined) {
        // Counted with the others, so that the summary's numbers add up to the apps.
        skipped.push({ cluster: c.name, app: app.name, kind: 'no-source', reason: 'its source names neither a path nor a chart' });
        continue;
      }
      if (sameRepository(src.repoURL, fleet.repoURL) && src.path.startsWith(`${fleet.renderedPath}/`)) {
        // A hub's provisioning app: render --out writes its objects itself (DIR/<hub>/provision/<app>).
        skipped.push({ cluster: c.name, app: app.name, kind: 'own-output', reason: `its objects are fleetplan's own output at ${src.path}` });
        continue;
      }
      if (!sameRepository(src.repoURL, fleet.repoURL)) {
        const placeholder = placeholderRepoURL(src.repoURL);
        skipped.push({ cluster: c.name, app: app.name, kind: placeholder !== undefined ? 'placeholder' : 'other-repository', reason: placeholder !== undefined ? `source repoURL "${src.repoURL}" is a placeholder filled in before applying (${placeholder}), not a repository` : `source ${src.repoURL} is another repository` });
        continue;
      }
      const application = applicationFor(c, app) as unknown as Record<string, unknown>;
      // A multi-source Application has no spec.source: its entry of spec.sources carries the settings.
      const multi = applicationSource(application) ? undefined : multiSourcePath(application, src.path, fleet.repoURL);
      const argo = applicationSource(application) ?? (typeof multi === 'object' ? multi.source : {});
      const type = argoSourceType(argo, has(src.path));
      const helm = type === 'helm' ? helmOf(argo, app) : undefined;
      if (helm?.problem !== undefined) {
        skipped.push({ cluster: c.name, app: app.name, kind: 'helm-values', reason: helm.problem });
        continue;
      }
      if (helm && typeof multi === 'object') {
        // Argo CD resolves a `$ref/` value file first and substitutes build variables after.
        const env = buildEnvironment(argo, app);
        const raw = isPlainObject(argo.helm) && Array.isArray(argo.helm.valueFiles) ? argo.helm.valueFiles.filter((f): f is string => typeof f === 'string') : [];
        helm.valueFiles = raw.map((f) => multi.files(f)).map((f) => (f.startsWith('!') ? f : envsubst(f, env)));
        const unreadable = helm.valueFiles.find((f) => f.startsWith('!'));
        if (unreadable !== undefined) {
          skipped.push({ cluster: c.name, app: app.name, kind: 'value-file', reason: unreadable.slice(1) });
          continue;
        }
      }
      if (type === 'directory' && fs.isDirectory(src.path)) {
        // Plain manifests, read as the repo-server reads a directory source (ADR 0287).
        // Its .jsonnet files are evaluated as the repo-server evaluates them (jsonnet.ts, ADR 0303).
        const options = directoryOptions(argo);
        const env = buildEnvironment(argo, app);
        const jsonnet = jsonnetSettings(argo, (v) => envsubst(v, env));
        jobs.push({ cluster: c.name, app: app.name, source: { kind: 'directory', path: src.path, ...options, jsonnet, definedAt: definedAt(fleet, fs, app) }, variables });
        continue;
      }
      jobs.push({
        cluster: c.name,
        app: app.name,
        source: helm
          ? {
              kind: 'helm',
              ...(argoHooks ? { argoHooks } : {}),
              path: src.path,
              releaseName: helm.releaseName ?? app.name,
              namespace,
              ...(helm.valueFiles.length ? { valueFiles: helm.valueFiles } : {}),
              ...(helm.ignoreMissingValueFiles ? { ignoreMissingValueFiles: true } : {}),
              ...(helm.parameters.length ? { parameters: helm.parameters } : {}),
              ...(helm.values !== undefined ? { values: helm.values } : {}),
            }
          : { kind: 'kustomize', path: src.path },
        variables,
      });
    }
  }
  // Argo CD's sync gives namespaced objects without a namespace the destination namespace (ADR 0420).
  if (fleet.engine === 'argocd') {
    const destination = new Map<string, string>();
    for (const c of clusters) {
      for (const app of c.apps) {
        const ns = app.destination.namespace;
        if (ns !== undefined && ns !== '') destination.set(`${c.name}\0${app.name}`, ns);
      }
    }
    for (const j of jobs) {
      const ns = j.source.kind === 'flux' ? undefined : destination.get(`${j.cluster}\0${j.app}`);
      // A destination namespace fleetplan cannot resolve: the objects stay as built, with a note.
      if (ns !== undefined) j[ns.includes('${') ? 'unresolvedNamespace' : 'destinationNamespace'] = ns;
    }
  }
  return { jobs, skipped };
}

/**
 * Where an Application file names a chart source's repoURL, chart and targetRevision (the
 * Application named `app`, or the only one in the file, with `spec.source` or the `spec.sources`
 * entry of that chart). Undefined when the file does not hold it as written (a generated app).
 */
function chartLocations(fs: RepoFileSystem, file: string, app: string, chart: string): ChartLocations | undefined {
  let docs;
  try {
    docs = located(fs.readText(file));
  } catch {
    return undefined;
  }
  const apps = docs.filter((d) => isPlainObject(d.value) && d.value.kind === 'Application');
  const named = apps.filter((d) => isPlainObject((d.value as Record<string, unknown>).metadata) && ((d.value as Record<string, Record<string, unknown>>).metadata!.name === app));
  const doc = named[0] ?? (apps.length === 1 ? apps[0] : undefined);
  if (!doc) return undefined;
  const spec = isPlainObject((doc.value as Record<string, unknown>).spec) ? ((doc.value as Record<string, unknown>).spec as Record<string, unknown>) : {};
  let base: (string | number)[] | undefined;
  if (isPlainObject(spec.source) && spec.source.chart === chart) base = ['spec', 'source'];
  else if (Array.isArray(spec.sources)) {
    const i = spec.sources.findIndex((x) => isPlainObject(x) && x.chart === chart);
    if (i >= 0) base = ['spec', 'sources', i];
  }
  if (!base) return undefined;
  const at = (field: string) => {
    const path = [...base!, field];
    const { line, column } = doc.locate(path);
    return { file, line, column, path: path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('').replace(/\.\[/g, '[') };
  };
  return { repoURL: at('repoURL'), chart: at('chart'), version: at('targetRevision') };
}

/**
 * The chart source of a multi-source Application and how its value files map to this repository:
 * `$ref/path` of a `ref` source that is this repository becomes `/path` (repository root); any
 * other `$ref` (another repository) cannot be read offline. Undefined: a single-source Application.
 * A string: why the chart cannot be built as Argo CD builds it.
 */
function multiSourceChart(application: Record<string, unknown>, chart: string, repoURL: string): { source: Record<string, unknown>; files: (f: string) => string } | string | undefined {
  return multiSource(application, (s) => s.chart === chart, `its chart ${chart}`, repoURL, (f) => `!value file ${f} is inside the remote chart, which fleetplan does not read values from`);
}

/**
 * The path source (a chart, a kustomization, a directory of this repository) of a multi-source
 * Application, as multiSourceChart: a value file without `$ref/` is the chart's own, relative to it.
 */
function multiSourcePath(application: Record<string, unknown>, path: string, repoURL: string): { source: Record<string, unknown>; files: (f: string) => string } | string | undefined {
  const norm = (p: unknown): string | undefined => (typeof p === 'string' ? (normalizeRepoPath(p === '' ? '.' : p) ?? p) : undefined);
  return multiSource(application, (s) => norm(s.path) === norm(path) && typeof s.repoURL === 'string' && sameRepository(s.repoURL, repoURL), `its path ${path}`, repoURL, (f) => f);
}

function multiSource(application: Record<string, unknown>, pick: (s: Record<string, unknown>) => boolean, what: string, repoURL: string, plain: (f: string) => string): { source: Record<string, unknown>; files: (f: string) => string } | string | undefined {
  const spec = isPlainObject(application.spec) ? application.spec : {};
  if (!Array.isArray(spec.sources)) return undefined;
  const sources = spec.sources.filter(isPlainObject);
  const source = sources.find(pick);
  if (!source) return `${what} is not one of the Application's sources`;
  const refs = new Map<string, string>();
  for (const s of sources) if (typeof s.ref === 'string' && typeof s.repoURL === 'string') refs.set(s.ref, s.repoURL);
  const norm = (u: string) => u.replace(/\.git$/, '').replace(/\/+$/, '');
  return {
    source,
    files: (f) => {
      const m = /^\$([^/]+)\/(.*)$/.exec(f);
      if (!m) return plain(f);
      const ref = refs.get(m[1]!);
      if (ref === undefined) return `!value file ${f} names a $${m[1]!} source the Application does not have`;
      if (norm(ref) !== norm(repoURL)) return `!value file ${f} is in another repository (${ref}), which fleetplan does not read`;
      return `/${m[2]!}`;
    },
  };
}

interface HelmSettings {
  releaseName: string | undefined;
  valueFiles: string[];
  ignoreMissingValueFiles: boolean;
  parameters: HelmParameter[];
  values: Record<string, unknown> | undefined;
  /** Why Helm cannot be given these settings (a helm.values that is no map of values). */
  problem?: string;
}

/** What an Application's `source.helm` gives `helm template`, as Argo CD's repo-server passes it. */
function helmOf(source: Record<string, unknown>, app: ResolvedApp): HelmSettings {
  const h = isPlainObject(source.helm) ? source.helm : {};
  const env = buildEnvironment(source, app);
  const parameters: HelmParameter[] = [];
  for (const p of Array.isArray(h.parameters) ? h.parameters : []) {
    if (!isPlainObject(p) || typeof p.name !== 'string') continue;
    const value = p.value === undefined || p.value === null ? '' : String(p.value);
    parameters.push({ name: p.name, value: envsubst(value, env), ...(p.forceString === true ? { forceString: true } : {}) });
  }
  // valuesObject wins over values, a YAML string the repo-server hands to Helm as a values file (read as Argo CD reads it).
  let values = isPlainObject(h.valuesObject) ? h.valuesObject : undefined;
  let problem: string | undefined;
  if (!values && typeof h.values === 'string' && h.values.trim() !== '') {
    try {
      const v = parseYamlAll(h.values, { schema: 'kubernetes' })[0];
      if (isPlainObject(v)) values = v;
      else if (v !== null && v !== undefined) problem = `its helm.values is not a map of values, which helm template rejects`;
    } catch (e) {
      problem = `its helm.values does not parse as YAML, which helm template rejects: ${(e as Error).message.split('\n')[0]}`;
    }
  }
  return {
    releaseName: typeof h.releaseName === 'string' && h.releaseName !== '' ? h.releaseName : undefined,
    valueFiles: (Array.isArray(h.valueFiles) ? h.valueFiles : []).filter((f): f is string => typeof f === 'string').map((f) => envsubst(f, env)),
    ignoreMissingValueFiles: h.ignoreMissingValueFiles === true,
    parameters,
    values,
    ...(problem !== undefined ? { problem } : {}),
  };
}

/**
 * Argo CD's build environment (docs: user-guide/build-environment) as far as it is known offline.
 * ARGOCD_APP_NAMESPACE is the destination namespace. The resolved commit and the Kubernetes
 * version are not known: a reference to them is kept as written, so it shows in the output.
 */
function buildEnvironment(source: Record<string, unknown>, app: ResolvedApp): Map<string, string> {
  return argoBuildEnvironment(source, { name: app.name, namespace: app.destination.namespace ?? '', project: app.project });
}

/** The build environment of one source of the Application `app` (name, destination namespace, project). */
export function argoBuildEnvironment(source: Record<string, unknown>, app: { name: string; namespace: string; project: string }): Map<string, string> {
  const env = new Map<string, string>();
  env.set('ARGOCD_APP_NAME', app.name);
  env.set('ARGOCD_APP_NAMESPACE', app.namespace);
  env.set('ARGOCD_APP_PROJECT_NAME', app.project);
  if (typeof source.path === 'string') env.set('ARGOCD_APP_SOURCE_PATH', source.path);
  if (typeof source.repoURL === 'string') env.set('ARGOCD_APP_SOURCE_REPO_URL', source.repoURL);
  if (typeof source.targetRevision === 'string') env.set('ARGOCD_APP_SOURCE_TARGET_REVISION', source.targetRevision);
  return env;
}

/** Build variables Argo CD sets that are not known offline: kept as written, so the output shows them. */
const UNKNOWN_OFFLINE = new Set(['ARGOCD_APP_REVISION', 'ARGOCD_APP_REVISION_SHORT', 'ARGOCD_APP_REVISION_SHORT_8', 'KUBE_VERSION', 'KUBE_API_VERSIONS']);

/**
 * Argo CD's Env.Envsubst (os.Expand): `$NAME` and `${NAME}` from the build environment, `$$` is
 * `$`, any other name is empty.
 */
export function envsubst(text: string, env: ReadonlyMap<string, string>): string {
  if (!text.includes('$')) return text;
  return text.replace(/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (m, _all: string, braced?: string, bare?: string) => {
    if (m === '$$') return '$';
    const name = braced ?? bare ?? '';
    return env.get(name) ?? (UNKNOWN_OFFLINE.has(name) ? m : '');
  });
}

/**
 * The Application and where it is defined (`Application NAME at file:line`), for messages. A layout
 * that keeps no positions for its Application files (argocd) gets the line of the file's
 * `name: <app>` when there is exactly one; else the Application is named without a place.
 */
function definedAt(fleet: Fleet, fs: RepoFileSystem, app: ResolvedApp): string {
  const at = locateOrigin(fleet, app.origin);
  if (at.line) return `Application ${app.name} at ${at.file}:${at.line}`;
  // Without a position the origin may be the cluster's root file, not the Application's: a place
  // is named only where exactly one line says `name: <app>` (the origin file, else the manifests).
  const name = app.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^\\s*name:\\s*["']?${name}["']?\\s*$`);
  const hits = (file: string, needKind: boolean): string[] => {
    try {
      if (!/\.ya?ml$/.test(file) || !fs.exists(file)) return [];
      const text = fs.readText(file);
      if (needKind && !/^kind:\s*Application\s*$/m.test(text)) return [];
      return text.split('\n').flatMap((l, i) => (re.test(l) ? [`${file}:${i + 1}`] : []));
    } catch {
      return [];
    }
  };
  let found = hits(at.file, false);
  if (found.length === 0) found = (fleet.manifestFiles ?? []).flatMap((f) => hits(f, true));
  return found.length === 1 ? `Application ${app.name} at ${found[0]!}` : `Application ${app.name}`;
}
