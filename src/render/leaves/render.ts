/**
 * Leaf rendering, the core: for each job, work out what its build reads, take the raw output from
 * the content cache or build it once (identical builds in flight are shared), substitute the
 * cluster's variables strictly, split into objects and hand deterministic files to the writer.
 *
 * Inputs: jobs with repo-relative paths and the ports (source reader, tools, cache, writer).
 * Output: one result per job, in job order, and the run's build statistics. A failing job carries
 * its error and never stops the others.
 * Cache key: sha256 over the tool and its version, the build flags, the build's own path, and
 * (path, content hash) of every file the build reads (see inputs.ts); Helm sources add release
 * name, namespace and values. A build that reads a remote resource is not cached.
 */
import { createHash } from 'node:crypto';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { FleetplanError, InputError, OperationError, ToolError, UsageError } from '../../errors/index.js';
import type { SourceLocation } from '../../errors/index.js';
import type { BuildCache, ManifestWriter, OutputFile } from '../../ports/build-cache.js';
import type { SourceReader } from '../../ports/source-reader.js';
import type { HelmTemplateRequest, HelmTool, JsonnetTool, KustomizeTool } from '../../ports/tools.js';
import type { BuildInputs } from './inputs.js';
import { appFileName } from '../../model/graphs.js';
import { parseYamlAll, dumpYaml } from '../../yaml/index.js';
import { deepMerge, isPlainObject } from '../../model/merge.js';
import type { SourceIgnore } from '../../model/flux-source-ignore.js';
import type { FluxSubstitution } from './flux.js';
import { FLUX_BUILD_FLAGS, KUSTOMIZATION_NAMES, applyCommonMetadata, createdByHelmController, fluxKustomizationFile, generatedResources, helmReleaseCharts, postRenderReleaseObjects, substituteFluxStream } from './flux.js';
import { InputWalker } from './inputs.js';
import type { ArtifactFetcher, ChartFetcher, RegistryCredentials } from '../../ports/chart-fetch.js';
import type { DirectoryOptions } from './directory.js';
import { directoryFileManifests, selectDirectoryFiles } from './directory.js';
import type { JsonnetSettings } from './jsonnet.js';
import { JSONNET_MAX_OUTPUT_BYTES, JSONNET_TIMEOUT_MS, SKIP_RENDERING_MARKER, jsonnetOutputManifests, jsonnetReads, jsonnetSearchPath } from './jsonnet.js';
import { findVariableReference, objectFileName, parseManifests, placeInNamespace, serializeObject, substituteStream } from './manifests.js';
import { destinationNamespaceWords } from '../../load/kind-scope.js';
import type { OciLeafSource } from './oci.js';
import type { LeafTemplate } from './template.js';
import { buildLeafTemplate, fillLeafTemplate } from './template.js';
import { planOciSource } from './oci.js';
import { localChartDependencies, missingChartDependencies } from './chart-dependencies.js';
import { argoLeftOutNotes, argoSyncedText } from './argocd-hooks.js';

export type LeafSource =
  | { kind: 'kustomize'; path: string }
  /** A directory of plain manifests (Argo CD's directory source type, directory.ts). */
  | ({
      kind: 'directory';
      path: string;
      /** `directory.jsonnet` (jsonnet.ts): for the source's `.jsonnet` files. */
      jsonnet?: JsonnetSettings;
      /** The Application and where it is defined (`Application NAME at file:line`), for the messages of its Jsonnet evaluation. */
      definedAt?: string;
    } & DirectoryOptions)
  | FluxLeafSource
  /** An Argo CD 3.1 native OCI source (oci.ts). */
  | OciLeafSource
  | {
      kind: 'helm';
      /** Synced by Argo CD: the objects no sync creates (test, delete, rollback hooks…) are left out (argocd-hooks.ts, ADR 0419). */
      argoHooks?: true;
      /** A chart directory in the repository. */
      path?: string;
      /** A chart from a repository: `chart` + `repoURL` + `version` (used only when cached locally). */
      chart?: string;
      repoURL?: string;
      version?: string;
      /** An OCI manifest digest the chart is pinned to (Flux OCIRepository `ref.digest`). */
      digest?: string;
      /** Plain HTTP to the OCI registry, as the repository's source declares it (Flux `insecure: true`, Argo CD `insecureOCIForceHttp`; ADR 0301, 0316). */
      plainHttp?: boolean;
      /** HTTPS without certificate verification (Argo CD `insecure` on the repository Secret). */
      insecureSkipVerify?: boolean;
      /** The registry login of the repository's own Secret (ADR 0316); never printed. */
      credentials?: RegistryCredentials;
      /** Why Argo CD cannot fetch this chart at all (the build fails with it, at repoURL). */
      refusal?: string;
      /** Where the Application (or Flux source) names the repository, chart and version: a failed fetch points there. */
      locations?: ChartLocations;
      /** What fleetplan assumed about the source that the repository does not say (printed with the build's notes). */
      assumption?: string;
      releaseName: string;
      namespace: string;
      /** Values files, relative to the chart directory; a leading `/` is the repository root (Argo CD's rule). */
      valueFiles?: string[];
      /** Leave out values files that do not exist (Argo CD's `helm.ignoreMissingValueFiles`); else a missing one fails the job. */
      ignoreMissingValueFiles?: boolean;
      /** `helm.parameters`, build variables already substituted: `--set` (`--set-string` with forceString). */
      parameters?: HelmParameter[];
      values?: unknown;
      /**
       * Flux `valuesFiles` (source-controller, ADR 0418): merged in order, they replace the chart's
       * values.yaml before the values above apply. Paths from the repository root for a chart
       * directory of the repository, from the chart's root for a chart archive.
       */
      chartValuesFiles?: { files: string[]; ignoreMissing: boolean };
      /**
       * `crds`: only the CustomResourceDefinitions of `helm template --include-crds --no-hooks` (a
       * helmfile CRD-phase release, which bootstraps pipe through `select(.kind == "CustomResourceDefinition")`; ADR 0365).
       */
      only?: 'crds';
    };

/** The fields that name a remote chart, for errors about fetching it (ADR 0301). */
export interface ChartLocations {
  repoURL?: SourceLocation;
  chart?: SourceLocation;
  version?: SourceLocation;
}

export interface HelmParameter {
  name: string;
  value: string;
  forceString?: boolean;
}

/** A Flux Kustomization of the repository (flux.ts). */
export interface FluxLeafSource {
  kind: 'flux';
  /** `spec.path`, repo-relative. */
  path: string;
  /** The Kustomization as Flux applies it (after its listing and parent). */
  kustomization: Record<string, unknown>;
  substitution: FluxSubstitution;
  /** substituteFrom sources whose values fleetplan cannot know. */
  unresolved: { source: string; reason: string }[];
  /** A ConfigMap, Secret or Flux source of the repository. */
  lookup(kind: string, name: string, namespace: string): Record<string, unknown> | undefined;
  /** The clusters of the plan this cluster's Flux reaches through `spec.kubeConfig` (`<namespace>/<Secret name>` → cluster; ADR 0369). */
  spokes?: ReadonlyMap<string, string>;
  /** Whether a GitRepository is this repository (a chart's `sourceRef`), by the rule Kustomizations follow (ADR 0380, 0393). */
  thisRepository(name: string, namespace: string): boolean;
  /** What the source's artifact leaves out (defaults, `.sourceignore`, spec.ignore), by repository path; source-controller's defaults when absent. */
  ignore?: SourceIgnore;
}

/** One Application's source on one cluster. Paths are relative to the repository root. */
export interface LeafJob {
  cluster: string;
  app: string;
  source: LeafSource;
  /** The cluster's variables, substituted strictly in the build output; undefined: no substitution (Argo CD's own tools substitute nothing). */
  variables: Record<string, string> | undefined;
  /**
   * An Argo CD Application's destination namespace: the sync gives it to every namespaced object
   * without a namespace, and so do the leaves (ADR 0420). Undefined: objects as built (Flux, or no
   * destination namespace).
   */
  destinationNamespace?: string;
  /** A destination namespace with `${…}` that fleetplan does not resolve: objects as built, with a note. */
  unresolvedNamespace?: string;
}

export interface LeafResult {
  cluster: string;
  app: string;
  /** The repo-relative path (or chart reference) that was built. */
  path: string;
  /** Number of objects written. */
  objects: number;
  /** Written files, relative to the output directory, forward slashes. */
  files: string[];
  /** True when no build ran for this job (content cache, or an identical build in this run). */
  cached: boolean;
  error?: FleetplanError;
  /** What the build fetched (`--fetch`): the chart version a range resolved to, its digest. */
  notes?: string[];
  /** A Flux Kustomization's HelmReleases: each chart rendered, or why not. */
  charts?: { release: string; chart: string; objects: number; problem?: string; cluster?: string }[];
}

export interface LeafStats {
  /** Tool processes run (misses + uncacheable). */
  builds: number;
  /** Jobs served without a build of their own: from the cache directory or an identical build in this run. */
  hits: number;
  /** Jobs whose cacheable build ran. */
  misses: number;
  /** Jobs whose build reads remote resources and so ran without the cache. */
  uncacheable: number;
}

export interface RenderLeavesResult {
  results: LeafResult[];
  stats: LeafStats;
}

export interface LeafPorts {
  reader: SourceReader;
  /** Locates kustomize on first use; rejects with a ToolError saying what to install. */
  kustomize(): Promise<KustomizeTool>;
  helm(): Promise<HelmTool>;
  /** Locates Jsonnet on first use (a directory source with `.jsonnet` files); absent: there is none. */
  jsonnet?(): Promise<JsonnetTool>;
  /** Bounds of one Jsonnet evaluation (default: jsonnet.ts JSONNET_TIMEOUT_MS, JSONNET_MAX_OUTPUT_BYTES). */
  jsonnetLimits?: { timeoutMs?: number; maxOutputBytes?: number };
  cache: BuildCache;
  /** Absent: nothing is written (results still list the file names). */
  writer?: ManifestWriter;
  /** Every write waits for this; false: the job fails without writing (the run was stopped). */
  writeReady?: Promise<boolean>;
  /** A locally cached archive of a remote chart, if any. */
  chartArchive?(chart: string, version: string | undefined): string | undefined;
  /**
   * The directory chartArchive reads first (`<cache dir>/charts`, ADR 0322): where the offline hint
   * tells the user to `helm pull` a chart. Absent: the run has no cache directory.
   */
  chartCacheDir?: string;
  /** Remote charts in the fetch cache (read offline too) and, with `network`, pulled with Helm. */
  charts?: ChartFetcher;
  /** Argo CD native OCI artifacts (oci.ts): a digest in the fetch cache (read offline too) and, with `network`, pulled from the registry. */
  artifacts?: ArtifactFetcher;
  /**
   * `--fetch` (ADR 0283): remote charts are pulled and kustomize may read remote bases and charts.
   * Without it nothing reaches the network: such a build is not run, and says so.
   */
  network?: boolean;
}

/** Flags of every kustomize build (plus `--helm-command` when a chart is inflated). */
export const KUSTOMIZE_BUILD_FLAGS: readonly string[] = ['--enable-helm', '--load-restrictor', 'LoadRestrictionsNone'];

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

interface BuildPlan {
  path: string;
  inputs: BuildInputs;
  /** Undefined when the build is not cacheable. */
  key: string | undefined;
  dedupeKey: string;
  run(): Promise<string>;
  /** What was fetched for this build, for the result's notes. */
  notes?: string[];
}

/** A path as one shell word: as it is when it has only safe characters, else single-quoted. */
export function shellWord(p: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

export async function renderLeafJobs(
  jobs: readonly LeafJob[],
  ports: LeafPorts,
  options: { repoRoot: string; onProgress?: (done: number, total: number) => void },
): Promise<RenderLeavesResult> {
  const repoRoot = resolve(options.repoRoot);
  const walker = new InputWalker(ports.reader);
  const stats: LeafStats = { builds: 0, hits: 0, misses: 0, uncacheable: 0 };
  const inflight = new Map<string, Promise<string>>();
  const rel = (abs: string) => relative(repoRoot, abs).split(sep).join('/') || '.';

  // Every cluster that uses a path shares one plan: the walk, hashing and key are per path.
  const kustomizePlans = new Map<string, Promise<BuildPlan>>();
  const planKustomizeOnce = (path: string): Promise<BuildPlan> => {
    let p = kustomizePlans.get(path);
    if (!p) kustomizePlans.set(path, (p = planKustomize(path)));
    return p;
  };

  const planKustomize = async (path: string): Promise<BuildPlan> => {
    const dir = inside(repoRoot, path);
    if (ports.reader.kind(dir) !== 'dir') {
      throw new InputError(`source path "${path}" is not a directory`, { code: 'missing-path', location: { file: path } });
    }
    const inputs = walker.kustomization(dir);
    if (inputs.remote.length > 0 && ports.network !== true) {
      // kustomize would fetch these itself: offline unless the user asked for the network (ADR 0283).
      throw new ToolError(`not built: ${rel(dir)} reads remote resources, not fetched offline: ${inputs.remote.map(redactUrl).join(', ')}`, {
        code: 'remote-not-fetched',
        location: { file: rel(dir) },
        hint: 'pass --fetch to let kustomize fetch them (git and HTTPS, as Argo CD does), or vendor them into the repository',
      });
    }
    const tool = await ports.kustomize();
    const helm = inputs.usesHelm ? await ports.helm() : undefined;
    const flags = helm ? [...KUSTOMIZE_BUILD_FLAGS, '--helm-command', helm.binary] : [...KUSTOMIZE_BUILD_FLAGS];
    const identity = { tool: `kustomize ${tool.version}`, helm: helm ? `helm ${helm.version}` : null, flags: KUSTOMIZE_BUILD_FLAGS };
    const material = { v: 1, kind: 'kustomize', dir: rel(dir), ...identity, ...fileMaterial(inputs) };
    const key = inputs.remote.length > 0 ? undefined : sha256(canonicalJson(material));
    return {
      path: rel(dir),
      inputs,
      key,
      dedupeKey: key ?? `uncacheable:${canonicalJson({ dir: rel(dir), ...identity })}`,
      run: () => tool.build(dir, flags),
    };
  };

  /**
   * Argo CD's directory source: the files it reads, concatenated (cached by their content); its
   * `.jsonnet` files evaluated in their place (jsonnet.ts), with what they import as inputs.
   */
  const planDirectory = async (source: Extract<LeafSource, { kind: 'directory' }>): Promise<BuildPlan> => {
    const dir = inside(repoRoot, source.path);
    if (ports.reader.kind(dir) !== 'dir') {
      throw new InputError(`source path "${source.path}" is not a directory`, { code: 'missing-path', location: { file: source.path } });
    }
    const below = (abs: string) => relative(dir, abs).split(sep).join('/');
    const all = ports.reader.listFiles(dir);
    const picked = new Set(selectDirectoryFiles(all.map(below), source, { jsonnet: true }));
    const isJsonnet = (f: string) => f.endsWith('.jsonnet');
    // Argo CD leaves out a file holding its skip marker.
    const files = all.filter((f) => picked.has(below(f)) && (!isJsonnet(f) || !ports.reader.readText(f).includes(SKIP_RENDERING_MARKER)));
    const jsonnetFiles = files.filter(isJsonnet);
    const app = source.definedAt !== undefined ? ` (the directory source of ${source.definedAt})` : '';
    let jsonnet: { tool: JsonnetTool; searchPath: string[]; settings: JsonnetSettings } | undefined;
    const imported: string[] = [];
    if (jsonnetFiles.length > 0) {
      const settings = source.jsonnet ?? { extVars: [], tlas: [], libs: [] };
      const searchPath = jsonnetSearchPath(repoRoot, dir, settings.libs, source.definedAt ?? rel(dir));
      for (const f of jsonnetFiles) {
        let reads: string[];
        try {
          reads = jsonnetReads(ports.reader, repoRoot, f, searchPath, rel);
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          throw new InputError(`${e.message}${app}`, { code: e.code, location: e.location, ...(e.hint !== undefined ? { hint: e.hint } : {}) });
        }
        for (const r of reads.slice(1)) if (!imported.includes(r)) imported.push(r);
      }
      const needs = `not built: ${rel(jsonnetFiles[0]!)}${jsonnetFiles.length > 1 ? ` (and ${jsonnetFiles.length - 1} more .jsonnet)` : ''} needs Jsonnet`;
      if (!ports.jsonnet) throw new ToolError(`${needs}, which this run has no way to find`, { code: 'tool-missing', location: { file: rel(jsonnetFiles[0]!) } });
      let tool: JsonnetTool;
      try {
        tool = await ports.jsonnet();
      } catch (e) {
        if (!(e instanceof ToolError)) throw e;
        throw new ToolError(`${needs}: ${e.message}`, { code: e.code, location: { file: rel(jsonnetFiles[0]!) }, ...(e.hint !== undefined ? { hint: e.hint } : {}), cause: e });
      }
      jsonnet = { tool, searchPath, settings };
    }
    const inputs: BuildInputs = { files: [...files, ...imported.filter((f) => !files.includes(f))], missing: [], remote: [], usesHelm: false };
    const options = { recurse: source.recurse === true, include: source.include ?? null, exclude: source.exclude ?? null };
    const evaluation = jsonnet ? { jsonnet: `${jsonnet.tool.flavor} ${jsonnet.tool.version}`, ...jsonnet.settings } : {};
    const key = sha256(canonicalJson({ v: 1, kind: 'directory', dir: rel(dir), ...options, ...evaluation, ...fileMaterial(inputs) }));
    const limits = { timeoutMs: ports.jsonnetLimits?.timeoutMs ?? JSONNET_TIMEOUT_MS, maxOutputBytes: ports.jsonnetLimits?.maxOutputBytes ?? JSONNET_MAX_OUTPUT_BYTES };
    const evaluate = async (f: string): Promise<string> => {
      const { tool, searchPath, settings } = jsonnet!;
      let json: string;
      try {
        json = await tool.evaluate({ file: f, searchPath, extVars: settings.extVars, tlas: settings.tlas, ...limits });
      } catch (e) {
        if (!(e instanceof ToolError) || (e.code !== 'build-failed' && e.code !== 'build-limit')) throw e;
        // Jsonnet names files by their absolute path: shown relative to the repository.
        const lines = e.message.split(`${repoRoot}${sep}`).join('').split('\n');
        // Jsonnet's stack trace can run to hundreds of frames: the first ones say where.
        const message = lines.length > 8 ? [...lines.slice(0, 8), `\t… (${lines.length - 8} more lines)`].join('\n') : lines.join('\n');
        throw new ToolError(`jsonnet ${rel(f)}${app}: ${message}`, {
          code: e.code === 'build-limit' ? 'jsonnet-limit' : 'jsonnet-failed',
          location: { file: rel(f) },
          hint: e.code === 'build-limit' ? 'a Jsonnet file of a directory source must produce its manifests quickly (no unbounded recursion or output)' : `fix the Jsonnet file; it is evaluated with ${tool.flavor === 'go' ? 'go-jsonnet' : 'the C++ jsonnet'} ${tool.version}`,
        });
      }
      try {
        return jsonnetOutputManifests(json);
      } catch (e) {
        throw new InputError(`jsonnet ${rel(f)}${app}: ${(e as Error).message}`, {
          code: 'invalid-manifests',
          location: { file: rel(f) },
          hint: 'Argo CD reads the output of a .jsonnet file as one Kubernetes object or an array of them',
        });
      }
    };
    return {
      path: rel(dir),
      inputs,
      key,
      // The same build for two Applications: shared, unless its messages would name the other one.
      dedupeKey: jsonnet ? `${key}\0${source.definedAt ?? ''}` : key,
      run: async () => {
        const parts: string[] = [];
        for (const f of files) {
          if (isJsonnet(f)) {
            const text = await evaluate(f);
            if (text !== '') parts.push(text);
            continue;
          }
          let text: string | undefined;
          try {
            text = directoryFileManifests(ports.reader.readText(f));
          } catch (e) {
            throw new InputError(`${rel(f)} is not valid manifests: ${(e as Error).message.split('\n')[0]}`, {
              code: 'invalid-manifests',
              location: { file: rel(f) },
              hint: 'Argo CD reads every .yaml, .yml and .json file of a directory source; fix the file, or leave it out with spec.source.directory.exclude',
            });
          }
          if (text !== undefined) parts.push(text.endsWith('\n') ? text : `${text}\n`);
        }
        return parts.join('---\n');
      },
    };
  };

  const planHelm = async (source: Extract<LeafSource, { kind: 'helm' }>): Promise<BuildPlan> => {
    let chart: string;
    let inputs: BuildInputs;
    let display: string;
    let valueFiles: string[] = [];
    let dependencyBuild: { root: string; dirs: string[] } | undefined;
    let defaultValues: HelmTemplateRequest['defaultValues'];
    let chartValuesInputs: { files: string[]; missing: string[] } | undefined;
    const fetchNotes: string[] = [];
    if (source.path !== undefined) {
      chart = inside(repoRoot, source.path);
      const kind = ports.reader.kind(chart);
      if (!kind) throw new InputError(`chart path "${source.path}" does not exist`, { code: 'missing-path', location: { file: source.path } });
      const base = kind === 'dir' ? chart : resolve(chart, '..');
      // Argo CD: a values file starting with `/` is relative to the repository root, any other to the chart.
      const named = (source.valueFiles ?? []).map((f) => ({ f, abs: f.startsWith('/') ? inside(repoRoot, `.${f}`) : inside(repoRoot, f, base) }));
      const missing = named.filter((v) => ports.reader.kind(v.abs) !== 'file');
      if (missing.length && !source.ignoreMissingValueFiles) {
        throw new InputError(`values file${missing.length === 1 ? '' : 's'} ${missing.map((v) => `"${v.f}" (${rel(v.abs)})`).join(', ')} of chart ${source.path} do${missing.length === 1 ? 'es' : ''} not exist`, {
          code: 'missing-path',
          location: { file: source.path },
          hint: 'create the file, fix the valueFiles entry, or set helm.ignoreMissingValueFiles: true',
        });
      }
      valueFiles = named.filter((v) => !missing.includes(v)).map((v) => v.abs);
      if (source.chartValuesFiles) {
        const merged = mergeSourceValuesFiles(source.chartValuesFiles, source.path);
        defaultValues = { values: merged.values };
        chartValuesInputs = merged;
      }
      const undelivered = kind === 'dir' ? missingChartDependencies(ports.reader, chart) : [];
      if (undelivered.length > 0) {
        const list = undelivered.map((d) => `${d.name}${d.version ? ` ${d.version}` : ''} from ${redactUrl(d.repository)}`).join(', ');
        throw new ToolError(`not built: chart ${source.path} depends on ${list}, which ${undelivered.length === 1 ? 'is' : 'are'} not in ${rel(chart)}/charts: Argo CD runs \`helm dependency build\` (with the network) before templating it; fleetplan does not, offline or with --fetch`, {
          code: 'chart-dependency-not-vendored',
          location: { file: `${source.path.replace(/\/+$/, '')}/Chart.yaml` },
          hint: `vendor ${undelivered.length === 1 ? 'it' : 'them'}: run \`helm dependency build ${rel(chart)}\` and commit the archives in ${rel(chart)}/charts`,
        });
      }
      inputs = kind === 'dir' ? walker.chart(chart, valueFiles) : { files: [chart, ...valueFiles].sort(), missing: [], remote: [], usesHelm: true };
      // file:// dependencies not in charts/ (in the inputs: InputWalker.chart): built as Argo CD builds them (ADR 0398).
      const local = kind === 'dir' ? localChartDependencies(ports.reader, chart).map((d) => inside(repoRoot, relative(repoRoot, d))) : [];
      if (local.length > 0) dependencyBuild = { root: repoRoot, dirs: [chart, ...local.filter((d) => ports.reader.kind(d) === 'dir')] };
      // A missing values file that appears later changes the build: it is part of the key.
      inputs = { ...inputs, missing: [...inputs.missing, ...missing.map((v) => v.abs)].sort() };
      if (chartValuesInputs) inputs = { ...inputs, files: [...new Set([...inputs.files, ...chartValuesInputs.files])].sort(), missing: [...inputs.missing, ...chartValuesInputs.missing].sort() };
      display = rel(chart);
    } else {
      const name = source.chart ?? '';
      if (source.refusal !== undefined) {
        throw new ToolError(`not built: ${source.refusal}`, {
          code: 'chart-repository-not-oci',
          ...(source.locations?.repoURL ? { location: source.locations.repoURL } : {}),
          hint: 'set enableOCI: "true" on the repository Secret, or write the registry so that Go parses it without a host (a host name, not an IP:port)',
        });
      }
      display = `${redactUrl(source.repoURL ?? '?')} ${name}${source.version ? `@${source.version}` : ''}`;
      // An OCI chart is cached as `<last path segment>-<version>.tgz`, as `helm pull oci://…` writes it.
      const archiveName = name.startsWith('oci://') ? (name.split('/').pop() ?? '') : name;
      if (source.assumption) fetchNotes.push(source.assumption);
      let archive = archiveName ? ports.chartArchive?.(archiveName, source.version) : undefined;
      if (!archive && ports.charts && name) {
        // The fetch cache (an exact version or a digest pulled before), else `helm pull` with --fetch (ADR 0283).
        const req = {
          chart: name,
          ...(source.repoURL !== undefined ? { repoURL: source.repoURL } : {}),
          ...(source.version ? { version: source.version } : {}),
          ...(source.digest ? { digest: source.digest } : {}),
          ...(source.plainHttp ? { plainHttp: true } : {}),
          ...(source.insecureSkipVerify ? { insecureSkipVerify: true } : {}),
          ...(source.credentials ? { credentials: source.credentials } : {}),
        };
        let got;
        try {
          got = ports.charts.cached(req) ?? (ports.network === true ? await ports.charts.pull(req) : undefined);
        } catch (e) {
          throw withNote(locateFetchError(e, source.locations), source.assumption);
        }
        if (got) {
          archive = got.archive;
          const where = name.startsWith('oci://') ? name : `${name} from ${redactUrl(source.repoURL ?? '?')}`;
          const resolved = source.digest
            ? `${got.version} (pinned by digest)`
            : source.version === got.version || source.version === `v${got.version}` ? got.version : `${got.version} (resolved from ${source.version ?? 'no version: the newest'})`;
          fetchNotes.push(`${got.pulled ? 'fetched' : 'from the fetch cache:'} chart ${where} ${resolved}, ${got.digest ? `digest ${got.digest}, ` : ''}archive ${got.sha256}`);
          display = `${redactUrl(source.repoURL ?? '?')} ${name}@${got.version}`;
        }
      }
      if (!archive) {
        const oci = name.startsWith('oci://');
        const wanted = source.digest ? `@${source.digest}` : source.version ? ` ${source.version}` : '';
        throw new ToolError(`remote chart ${name}${wanted}${oci ? '' : ` from ${redactUrl(source.repoURL ?? '?')}`} is not in the local chart cache (not available offline)`, {
          code: 'chart-not-cached',
          ...(source.locations?.chart ?? source.locations?.repoURL ? { location: (source.locations.chart ?? source.locations.repoURL)! } : {}),
          hint: ports.chartCacheDir === undefined
            ? 'pass --fetch to let helm pull it (this run has no cache directory, so a chart pulled by hand is not found; give --cache-dir DIR and helm pull it into DIR/charts)'
            : oci
              ? `pass --fetch to let helm pull it, or run \`helm pull ${name}${source.digest ? `@${source.digest}` : source.version ? ` --version ${source.version}` : ''} --destination ${shellWord(ports.chartCacheDir)}\``
              : `pass --fetch to let helm pull it, or run \`helm pull ${name} --repo ${redactUrl(source.repoURL ?? 'URL')}${source.version ? ` --version ${source.version}` : ''} --destination ${shellWord(ports.chartCacheDir)}\``,
        });
      }
      chart = archive;
      // Value files of a multi-source Application's `$ref` (this repository): repo-root paths.
      const named = (source.valueFiles ?? []).map((f) => ({ f, abs: inside(repoRoot, `.${f.startsWith('/') ? f : `/${f}`}`) }));
      const missing = named.filter((v) => ports.reader.kind(v.abs) !== 'file');
      if (missing.length && !source.ignoreMissingValueFiles) {
        throw new InputError(`values file${missing.length === 1 ? '' : 's'} ${missing.map((v) => `"${v.f}"`).join(', ')} of chart ${name} do${missing.length === 1 ? 'es' : ''} not exist`, {
          code: 'missing-path',
          location: { file: missing[0]!.f.replace(/^\//, '') },
          hint: 'create the file, fix the valueFiles entry, or set helm.ignoreMissingValueFiles: true',
        });
      }
      valueFiles = named.filter((v) => !missing.includes(v)).map((v) => v.abs);
      inputs = { files: [archive, ...valueFiles].sort(), missing: missing.map((v) => v.abs).sort(), remote: [], usesHelm: true };
      // Flux valuesFiles of a chart from a Helm repository are files of the chart archive (the adapter reads them there).
      if (source.chartValuesFiles) defaultValues = { chartFiles: source.chartValuesFiles.files, ignoreMissing: source.chartValuesFiles.ignoreMissing };
    }
    const helm = await ports.helm();
    const material = {
      v: 1,
      kind: 'helm',
      chart: source.path !== undefined ? rel(chart) : display,
      tool: `helm ${helm.version}`,
      releaseName: source.releaseName,
      namespace: source.namespace,
      valueFiles: (source.valueFiles ?? []).slice(),
      ignoreMissingValueFiles: source.ignoreMissingValueFiles === true,
      parameters: source.parameters ?? [],
      values: source.values ?? null,
      ...(source.chartValuesFiles ? { chartValuesFiles: source.chartValuesFiles } : {}),
      ...(source.only ? { only: source.only } : {}),
      ...fileMaterial(inputs, source.path !== undefined ? rel : (f) => (f === chart ? basename(f) : rel(f))),
    };
    const key = sha256(canonicalJson(material));
    return {
      path: display,
      inputs,
      key,
      dedupeKey: key,
      ...(fetchNotes.length ? { notes: fetchNotes } : {}),
      run: () =>
        helm
          .template({
            chart,
            releaseName: source.releaseName,
            namespace: source.namespace,
            valueFiles,
            values: source.values,
            ...(source.parameters?.length ? { parameters: source.parameters } : {}),
            ...(dependencyBuild ? { dependencyBuild } : {}),
            ...(defaultValues ? { defaultValues } : {}),
          })
          .then((text) => (source.only === 'crds' ? onlyCustomResourceDefinitions(text) : text)),
    };
  };

  /**
   * Flux `valuesFiles` of a chart of this repository, as source-controller merges them
   * (mergeFileValues): paths from the source root, later files over earlier (maps merged), a missing
   * file an error unless `ignoreMissing`.
   */
  function mergeSourceValuesFiles(vf: { files: string[]; ignoreMissing: boolean }, chartPath: string): { values: Record<string, unknown>; files: string[]; missing: string[] } {
    let values: Record<string, unknown> = {};
    const files: string[] = [];
    const missing: string[] = [];
    for (const f of vf.files) {
      const abs = inside(repoRoot, f);
      if (ports.reader.kind(abs) !== 'file') {
        missing.push(abs);
        if (vf.ignoreMissing) continue;
        throw new InputError(`values file "${f}" of the Flux chart ${chartPath} does not exist (${rel(abs)}); source-controller fails the chart ("no values file found")`, {
          code: 'missing-path',
          location: { file: chartPath },
          hint: 'fix the valuesFiles entry (a path from the source root), create the file, or set ignoreMissingValuesFiles: true',
        });
      }
      files.push(abs);
      let doc: unknown;
      try {
        doc = parseYamlAll(ports.reader.readText(abs), { schema: 'kubernetes' })[0] ?? {};
      } catch (e) {
        throw new InputError(`values file ${rel(abs)} of the Flux chart ${chartPath} is not YAML: ${(e as Error).message}`, { code: 'parse-error', location: { file: rel(abs) } });
      }
      if (!isPlainObject(doc)) throw new InputError(`values file ${rel(abs)} of the Flux chart ${chartPath} is not a map of values`, { code: 'parse-error', location: { file: rel(abs) } });
      values = deepMerge(values, doc);
    }
    return { values, files, missing };
  }

  function fileMaterial(inputs: BuildInputs, name: (abs: string) => string = rel) {
    return {
      files: inputs.files.map((f) => [name(f), ports.reader.hash(f)]),
      missing: inputs.missing.map(name),
    };
  }

  const obtain = (plan: BuildPlan): Promise<{ text: string; cached: boolean }> => {
    const running = inflight.get(plan.dedupeKey);
    if (running) {
      stats.hits++;
      return running.then((text) => ({ text, cached: true }));
    }
    if (plan.key !== undefined) {
      const hit = ports.cache.get(plan.key);
      if (hit !== undefined) {
        stats.hits++;
        inflight.set(plan.dedupeKey, Promise.resolve(hit));
        return Promise.resolve({ text: hit, cached: true });
      }
      stats.misses++;
    } else {
      stats.uncacheable++;
    }
    stats.builds++;
    const key = plan.key;
    const p = plan.run().then((text) => {
      if (key !== undefined) ports.cache.put(key, text);
      return text;
    });
    inflight.set(plan.dedupeKey, p);
    return p.then((text) => ({ text, cached: false }));
  };

  /** Flux's build of a Kustomization's path (flux.ts): not cached (components and patches are read by kustomize alone). */
  const planFlux = async (source: FluxLeafSource): Promise<BuildPlan> => {
    const dir = inside(repoRoot, source.path);
    if (ports.reader.kind(dir) !== 'dir') {
      throw new InputError(`spec.path "${source.path}" is not a directory`, { code: 'missing-path', location: { file: source.path } });
    }
    const own = KUSTOMIZATION_NAMES.map((n) => resolve(dir, n)).find((f) => ports.reader.kind(f) === 'file');
    let base: Record<string, unknown> | undefined;
    if (own) {
      const doc = parseYamlAll(ports.reader.readText(own), { schema: 'core' })[0];
      base = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
    }
    const generated = own ? undefined : generatedResources(
      ports.reader.listFiles(dir).map((f) => relative(dir, f).split(sep).join('/')),
      source.ignore ? (f) => source.ignore!.ignored(source.path === '.' ? f : `${source.path}/${f}`) : undefined,
    );
    const kus = fluxKustomizationFile(base, generated, source.kustomization, (c) => ports.reader.kind(resolve(dir, c)) !== undefined);
    const tool = await ports.kustomize();
    if (!tool.buildAs) throw new ToolError('this kustomize adapter cannot build a Flux Kustomization', { code: 'build-failed' });
    const buildAs = tool.buildAs.bind(tool);
    const text = dumpYaml(kus);
    return {
      path: rel(dir),
      inputs: { files: own ? [own] : [], missing: [], remote: [], usesHelm: false },
      key: undefined,
      dedupeKey: `flux:${canonicalJson({ dir: rel(dir), text })}`,
      run: () => buildAs(repoRoot, dir, text, FLUX_BUILD_FLAGS),
    };
  };

  /**
   * The charts of a Flux Kustomization's HelmReleases: rendered from a repository path or the local
   * chart cache, or why not. A release with `spec.kubeConfig` is installed by this cluster's
   * helm-controller on the spoke it names (ADR 0369): its chart's objects are that cluster's
   * (`elsewhere`), and a reference to no cluster of the plan is not rendered at all.
   */
  const renderCharts = async (job: LeafJob, source: FluxLeafSource, objects: readonly Record<string, unknown>[]): Promise<{ files: OutputFile[]; elsewhere: Map<string, OutputFile[]>; charts: NonNullable<LeafResult['charts']>; notes: string[] }> => {
    const files: OutputFile[] = [];
    const elsewhere = new Map<string, OutputFile[]>();
    const charts: NonNullable<LeafResult['charts']> = [];
    const notes: string[] = [];
    for (const rc of helmReleaseCharts(objects, source.lookup, (name, namespace) => source.thisRepository(name, namespace))) {
      const entry = { release: rc.release, chart: rc.display, objects: 0 } as NonNullable<LeafResult['charts']>[number];
      charts.push(entry);
      const cluster = rc.kubeConfig === undefined ? job.cluster : source.spokes?.get(rc.kubeConfig);
      if (rc.kubeConfig !== undefined) {
        if (cluster === undefined) rc.problem ??= `it installs its chart on the remote cluster of spec.kubeConfig (Secret ${rc.kubeConfig}), which is not a cluster of this plan; its objects are not this cluster's`;
        else entry.cluster = cluster;
      }
      if (!rc.problem && rc.range && ports.network !== true) {
        // A range is resolved by the controller at reconcile time; only the registry or index can say to what (ADR 0281).
        rc.problem = `chart ${rc.display} is selected by a version range (${rc.version ?? 'no version: the newest'}), resolved only against the repository: pass --fetch to let helm resolve and pull it`;
      }
      if (rc.problem || cluster === undefined) {
        entry.problem = rc.problem;
        continue;
      }
      try {
        const helmSource: Extract<LeafSource, { kind: 'helm' }> = rc.repoPath !== undefined
          ? { kind: 'helm', path: rc.repoPath, releaseName: rc.releaseName, namespace: rc.namespace, values: rc.values, ...(rc.valuesFiles ? { chartValuesFiles: rc.valuesFiles } : {}) }
          : {
              ...(rc.valuesFiles ? { chartValuesFiles: rc.valuesFiles } : {}),
              kind: 'helm',
              chart: rc.chart!,
              ...(rc.repoURL !== undefined ? { repoURL: rc.repoURL } : {}),
              ...(rc.version !== undefined ? { version: rc.version } : {}),
              ...(rc.digest !== undefined ? { digest: rc.digest } : {}),
              ...(rc.plainHttp ? { plainHttp: true } : {}),
              releaseName: rc.releaseName,
              namespace: rc.namespace,
              values: rc.values,
            };
        const plan = await planHelm(helmSource);
        for (const n of plan.notes ?? []) notes.push(`HelmRelease ${rc.release}: ${n}`);
        const built = await obtain(plan);
        const left = { test: 0, disabled: 0, other: 0 };
        // helm-controller's post-renderers (commonMetadata, origin labels) run on hooks too, before they are sorted out.
        const chartObjects = postRenderReleaseObjects(parseManifests(built.text, `${rc.display} (helm template)`), rc).filter((o) => {
          const created = createdByHelmController(o, rc.hooks);
          if (created !== true) left[created]++;
          return created === true;
        });
        if (rc.postRenderers) notes.push(`HelmRelease ${rc.release}: spec.postRenderers not applied (${rc.postRenderers} kustomize post-renderer${rc.postRenderers === 1 ? '' : 's'}): these objects are the chart's before helm-controller patches them`);
        if (left.test) notes.push(`HelmRelease ${rc.release}: ${left.test} helm test hook${left.test === 1 ? '' : 's'} left out: helm-controller runs tests only with spec.test.enable (and spec.test.filters)`);
        if (left.disabled) notes.push(`HelmRelease ${rc.release}: ${left.disabled} install/upgrade hook${left.disabled === 1 ? '' : 's'} left out: spec.install/upgrade.disableHooks`);
        if (left.other) notes.push(`HelmRelease ${rc.release}: ${left.other} delete/rollback hook${left.other === 1 ? '' : 's'} left out: helm-controller runs them only at uninstall or rollback`);
        const prefix = `helm_${rc.release.replace('/', '_')}-`;
        let into = files;
        if (cluster !== job.cluster) {
          if (!SAFE_NAME.test(cluster)) throw new UsageError(`cluster name "${cluster}" cannot be a directory name`, { hint: 'use letters, digits, ".", "_" and "-"' });
          into = elsewhere.get(cluster) ?? [];
          elsewhere.set(cluster, into);
        }
        chartObjects.forEach((o, i) => into.push({ name: prefix + objectFileName(i, chartObjects.length, o), content: serializeObject(o) }));
        entry.objects = chartObjects.length;
      } catch (e) {
        entry.problem = e instanceof ToolError && e.code === 'chart-not-cached'
          ? `chart ${rc.display} is not available offline: it is in neither the local chart cache nor the fetch cache (${ports.chartCacheDir === undefined ? 'pass --fetch to let helm pull it; this run has no cache directory for a chart pulled by hand' : `pass --fetch to let helm pull it, or helm pull it into ${shellWord(ports.chartCacheDir)}`})`
          : (e as Error).message;
      }
    }
    return { files, elsewhere, charts, notes };
  };

  /** The app's directory name, after checking that the cluster and app names can be directory names. */
  const appDirOf = (job: LeafJob): string => {
    if (!SAFE_NAME.test(job.cluster)) {
      throw new UsageError(`cluster name "${job.cluster}" cannot be a directory name`, { hint: 'use letters, digits, ".", "_" and "-"' });
    }
    const appDir = appFileName(job.app);
    if (appDir === undefined) {
      throw new UsageError(`app name "${job.app}" cannot be a directory name`, { hint: 'use letters, digits, ".", "_" and "-"' });
    }
    return appDir;
  };

  /** A failed build, said as the job's tool and path. */
  const buildFailure = (e: unknown, kind: LeafSource['kind'], plan: BuildPlan): unknown => {
    if (e instanceof ToolError && e.code === 'build-failed') {
      const tool = kind === 'kustomize' ? 'kustomize build' : kind === 'oci' ? 'the build' : 'helm template';
      // A remote base's URL may carry a password: never shown (kustomize prints the URL as written).
      return new ToolError(`${tool} of ${plan.path} failed: ${redactUrl(e.message)}`, { code: 'build-failed', location: { file: plan.path }, cause: e });
    }
    return e;
  };

  /**
   * One app's files from its build's text: the template filled in where that is exact (template.ts,
   * ADR 0332), else the general path; with a note on the namespace the sync sets (ADR 0420).
   */
  const filesOf = (job: LeafJob, text: string, plan: BuildPlan): { files: OutputFile[]; note?: string } => {
    const vars = job.variables;
    const ns = job.destinationNamespace;
    const lookup = (name: string) => (vars !== undefined && Object.hasOwn(vars, name) ? vars[name] : undefined);
    const template = templateOf(text, vars !== undefined, `${plan.path} (built)`, ns !== undefined);
    const filled = template && fillLeafTemplate(template, lookup, plainMemo, ns);
    const made = filled ? { files: filled, unknown: template.placed?.unknown ?? [] } : generalFiles(text, vars, plan, job);
    if (job.unresolvedNamespace !== undefined) {
      return { files: made.files, note: `the destination namespace ${job.unresolvedNamespace} is not known to fleetplan: namespaced objects without a namespace are written as built, without the namespace the sync gives them` };
    }
    return made.unknown.length && ns !== undefined ? { files: made.files, note: destinationNamespaceWords(ns, "the Application's", made.unknown) } : { files: made.files };
  };

  const renderOne = async (job: LeafJob): Promise<LeafResult> => {
    if (job.source.kind === 'flux') return renderFluxOne(job, job.source);
    const display = job.source.kind === 'kustomize' || job.source.kind === 'directory' ? job.source.path : job.source.kind === 'oci' ? job.source.repoURL : (job.source.path ?? job.source.chart ?? '?');
    const result: LeafResult = { cluster: job.cluster, app: job.app, path: display, objects: 0, files: [], cached: false };
    try {
      const appDir = appDirOf(job);
      const plan = job.source.kind === 'kustomize' ? await planKustomizeOnce(job.source.path) : job.source.kind === 'directory' ? await planDirectory(job.source) : job.source.kind === 'oci' ? await planOciSource(job.source, { ...ports, repoRoot, repoReader: ports.reader }) : await planHelm(job.source);
      result.path = plan.path;
      if (plan.notes) result.notes = plan.notes;
      let built: { text: string; cached: boolean };
      try {
        built = await obtain(plan);
      } catch (e) {
        throw buildFailure(e, job.source.kind, plan);
      }
      result.cached = built.cached;
      let text = built.text;
      if (job.source.kind === 'helm' && job.source.argoHooks) {
        const synced = argoSyncedText(text);
        text = synced.text;
        const left = argoLeftOutNotes(synced.left);
        if (left.length) result.notes = [...(result.notes ?? []), ...left];
      }
      const { files, note } = filesOf(job, text, plan);
      if (note !== undefined) result.notes = [...(result.notes ?? []), note];
      const relDir = `${job.cluster}/manifests/${appDir}`;
      await ready();
      ports.writer?.replaceDirectory(relDir, files);
      result.objects = files.length;
      result.files = files.map((f) => `${relDir}/${f.name}`);
    } catch (e) {
      result.error = forJob(e, job);
    }
    return result;
  };

  /**
   * The apps of one kustomize directory (ADR 0357): one plan and one build for all of them, then
   * every app's files in one synchronous pass, instead of an async chain per app (the benchmark:
   * 6,000 apps from 40 builds). The same results, messages, statistics and files as renderOne per
   * app: the apps after the first count as hits, as they did when each asked for the shared build.
   */
  const renderKustomizeApps = async (path: string, members: readonly number[], finish: (i: number, r: LeafResult) => void): Promise<void> => {
    const apps: { i: number; job: LeafJob; result: LeafResult; appDir: string }[] = [];
    for (const i of members) {
      const job = jobs[i]!;
      const result: LeafResult = { cluster: job.cluster, app: job.app, path, objects: 0, files: [], cached: false };
      try {
        apps.push({ i, job, result, appDir: appDirOf(job) });
      } catch (e) {
        result.error = forJob(e, job);
        finish(i, result);
      }
    }
    if (apps.length === 0) return;
    const failAll = (e: unknown, from = 0) => {
      for (const a of apps.slice(from)) {
        a.result.error = forJob(e, a.job);
        finish(a.i, a.result);
      }
    };
    let plan: BuildPlan;
    let built: { text: string; cached: boolean };
    try {
      plan = await planKustomizeOnce(path);
    } catch (e) {
      return failAll(e);
    }
    for (const a of apps) {
      a.result.path = plan.path;
      if (plan.notes) a.result.notes = plan.notes;
    }
    try {
      const first = obtain(plan);
      // The other apps share the build in flight (or its cached text): hits, as when each asked.
      stats.hits += apps.length - 1;
      built = await first;
    } catch (e) {
      return failAll(buildFailure(e, 'kustomize', plan));
    }
    const made: (OutputFile[] | undefined)[] = [];
    apps.forEach((a, n) => {
      a.result.cached = n === 0 ? built.cached : true;
      try {
        const { files, note } = filesOf(a.job, built.text, plan);
        if (note !== undefined) a.result.notes = [...(a.result.notes ?? []), note];
        made.push(files);
      } catch (e) {
        made.push(undefined);
        a.result.error = forJob(e, a.job);
      }
    });
    try {
      await ready();
    } catch (e) {
      apps.forEach((a, n) => {
        if (made[n] !== undefined) a.result.error = forJob(e, a.job);
        finish(a.i, a.result);
      });
      return;
    }
    apps.forEach((a, n) => {
      const files = made[n];
      if (files !== undefined) {
        try {
          const relDir = `${a.job.cluster}/manifests/${a.appDir}`;
          ports.writer?.replaceDirectory(relDir, files);
          a.result.objects = files.length;
          a.result.files = files.map((f) => `${relDir}/${f.name}`);
        } catch (e) {
          a.result.error = forJob(e, a.job);
        }
      }
      finish(a.i, a.result);
    });
  };

  /**
   * Per distinct built text: its template, or undefined where the general path must run (with and
   * without substitution, with and without a destination namespace: one template for every
   * namespace, which is a hole of it).
   */
  const templates = [0, 1, 2, 3].map(() => new Map<string, LeafTemplate | undefined>());
  const plainMemo = new Map<string, boolean>();
  const templateOf = (text: string, substitutes: boolean, displayName: string, placed: boolean): LeafTemplate | undefined => {
    const memo = templates[(substitutes ? 1 : 0) + (placed ? 2 : 0)]!;
    if (memo.has(text)) return memo.get(text);
    const t = buildLeafTemplate(text, substitutes, displayName, placed);
    memo.set(text, t);
    return t;
  };

  /** Substitution on the built text, then parsing and dumping every object: the general path. */
  const generalFiles = (builtText: string, vars: Record<string, string> | undefined, plan: BuildPlan, job: LeafJob): { files: OutputFile[]; unknown: string[] } => {
    const text = vars === undefined ? builtText : substituteStream(builtText, {
      lookup: (name) => (Object.hasOwn(vars, name) ? vars[name] : undefined),
      path: plan.path,
      findSource: (name, lineText) => findSource(name, lineText, plan.inputs, ports.reader, rel),
      hint: (names) =>
        `define ${names.join(', ')} in cluster ${job.cluster}'s variables, give a default with \${NAME:-value}, or write $\${NAME} for a literal`,
    });
    const parsed = parseManifests(text, `${plan.path} (built)`);
    const placed = job.destinationNamespace === undefined ? undefined : placeInNamespace(parsed, job.destinationNamespace);
    const objects = placed ? placed.objects : parsed;
    return { files: objects.map((o, i) => ({ name: objectFileName(i, objects.length, o), content: serializeObject(o) })), unknown: placed?.unknown ?? [] };
  };

  const renderFluxOne = async (job: LeafJob, source: FluxLeafSource): Promise<LeafResult> => {
    const result: LeafResult = { cluster: job.cluster, app: job.app, path: source.path, objects: 0, files: [], cached: false };
    try {
      const appDir = appFileName(job.app);
      if (appDir === undefined || !SAFE_NAME.test(job.cluster)) {
        throw new UsageError(`app name "${job.app}" cannot be a directory name`, { hint: 'use letters, digits, ".", "_" and "-"' });
      }
      if (source.unresolved.length) {
        throw new InputError(
          `post-build substitution reads ${source.unresolved.map((u) => `${u.source} (${u.reason})`).join(', ')}: fleetplan cannot know the values Flux substitutes, so it does not render this Kustomization`,
          { code: 'flux-substitution-unresolved', location: { file: source.path }, hint: `commit the ${source.unresolved.map((u) => u.source.split('/')[0]).filter((k, i, a) => a.indexOf(k) === i).join(' or ')} to the repository (a Secret may be SOPS-encrypted) where the Kustomization's namespace gets it, or mark the source optional: true if it may be absent` },
        );
      }
      const plan = await planFlux(source);
      let built: { text: string; cached: boolean };
      try {
        built = await obtain(plan);
      } catch (e) {
        if (e instanceof ToolError && e.code === 'build-failed') {
          throw new ToolError(`kustomize build of ${plan.path} (as Flux builds it) failed: ${e.message}`, { code: 'build-failed', location: { file: plan.path }, cause: e });
        }
        throw e;
      }
      result.cached = built.cached;
      let text: string;
      try {
        text = substituteFluxStream(built.text, source.substitution);
      } catch (e) {
        throw new InputError(`post-build substitution of ${plan.path} fails: ${(e as Error).message}`, {
          code: 'flux-substitution',
          location: { file: plan.path },
          hint: 'Flux fails the same way; write $${...} for a literal, or annotate the object kustomize.toolkit.fluxcd.io/substitute: disabled',
        });
      }
      const objects = parseManifests(text, `${plan.path} (built)`);
      applyCommonMetadata(objects as Record<string, unknown>[], source.kustomization);
      const files: OutputFile[] = objects.map((o, i) => ({ name: objectFileName(i, objects.length, o), content: serializeObject(o) }));
      const charts = await renderCharts(job, source, objects as Record<string, unknown>[]);
      files.push(...charts.files);
      if (charts.charts.length) result.charts = charts.charts;
      if (charts.notes.length) result.notes = charts.notes;
      const relDir = `${job.cluster}/manifests/${appDir}`;
      await ready();
      ports.writer?.replaceDirectory(relDir, files);
      result.objects = files.length;
      result.files = files.map((f) => `${relDir}/${f.name}`);
      // Charts installed on spokes (spec.kubeConfig): under the spoke, in a folder named after this app.
      for (const [cluster, spokeFiles] of [...charts.elsewhere].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const spokeDir = `${cluster}/manifests/${appDir}`;
        ports.writer?.replaceDirectory(spokeDir, spokeFiles);
        result.objects += spokeFiles.length;
        result.files.push(...spokeFiles.map((f) => `${spokeDir}/${f.name}`));
      }
    } catch (e) {
      result.error = forJob(e, job);
    }
    return result;
  };

  const ready = async (): Promise<void> => {
    if (ports.writer && ports.writeReady && !(await ports.writeReady)) throw new OperationError('not written: the run was stopped', { code: 'cancelled' });
  };

  let done = 0;
  const results = new Array<LeafResult>(jobs.length);
  const finish = (i: number, r: LeafResult): void => {
    results[i] = r;
    options.onProgress?.(++done, jobs.length);
  };
  // Kustomize apps by source path, one set per path (renderKustomizeApps); every other job on its own.
  const byPath = new Map<string, number[]>();
  const work: Promise<void>[] = [];
  jobs.forEach((job, i) => {
    if (job.source.kind !== 'kustomize') {
      work.push(renderOne(job).then((r) => finish(i, r)));
      return;
    }
    const members = byPath.get(job.source.path);
    if (members) members.push(i);
    else byPath.set(job.source.path, [i]);
  });
  for (const [path, members] of byPath) work.push(renderKustomizeApps(path, members, finish));
  await Promise.all(work);
  return { results, stats };
}

/** Prefixes an error with the job it belongs to, keeping class, code, location and hint. */
function forJob(e: unknown, job: LeafJob): FleetplanError {
  const prefix = `cluster ${job.cluster}, app ${job.app}: `;
  if (e instanceof FleetplanError) {
    const Cls = e.constructor as new (m: string, d: ConstructorParameters<typeof FleetplanError>[1]) => FleetplanError;
    return new Cls(prefix + e.message, { code: e.code, location: e.location, hint: e.hint, cause: e.cause ?? e });
  }
  return new OperationError(prefix + ((e as Error)?.message ?? String(e)), { code: 'internal', cause: e });
}

function findSource(name: string, lineText: string, inputs: BuildInputs, reader: SourceReader, rel: (abs: string) => string): SourceLocation | undefined {
  const files = inputs.files
    .filter((f) => /\.(ya?ml|json|env|properties|txt|tpl)$/i.test(f) || !/\.[^/]+$/.test(f))
    .map((f) => ({
      path: rel(f),
      text: () => {
        try {
          return reader.readText(f);
        } catch {
          return undefined;
        }
      },
    }));
  return findVariableReference(name, files, lineText);
}

/**
 * A failed fetch, pointed at the field to fix: the version for a tag or version the repository
 * does not have (or a digest that does not match), the repository for a refused login or a
 * registry that sent bad content.
 */
function locateFetchError(e: unknown, at: ChartLocations | undefined): unknown {
  if (!(e instanceof ToolError) || !at || e.location) return e;
  const field = e.code === 'chart-not-found' || e.code === 'chart-digest-mismatch' && /pinned/.test(e.message) ? (at.version ?? at.chart) : (at.repoURL ?? at.chart);
  if (!field) return e;
  return new ToolError(e.message, { code: e.code, location: field, ...(e.hint !== undefined ? { hint: e.hint } : {}), cause: e });
}

/** A failed fetch keeps what was said about the source (its repository Secret, an assumption) in its hint. */
export function withNote(e: unknown, note: string | undefined): unknown {
  if (!(e instanceof ToolError) || !note) return e;
  return new ToolError(e.message, { code: e.code, ...(e.location ? { location: e.location } : {}), hint: e.hint ? `${e.hint}; ${note}` : note, cause: e.cause ?? e });
}

/** Hides `user:password@` of a URL in a message. */
function redactUrl(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/@\s]*@/g, '$1***@');
}

/** Resolves a repo-relative path and refuses one that leaves the repository. */
function inside(root: string, path: string, base = root): string {
  const abs = resolve(base, path);
  const r = relative(root, abs);
  if (r.startsWith('..') || isAbsolute(r)) {
    throw new InputError(`path "${path}" escapes the repository`, { code: 'path-escapes-repo', location: { file: path }, hint: 'use a path inside the repository' });
  }
  return abs;
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** JSON with object keys sorted, so equal values give equal keys. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.keys(v as object)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * The documents of `helm template --include-crds` output that `--no-hooks` keeps and that are
 * CustomResourceDefinitions, as written (ADR 0365): what `helmfile template -q | yq 'select(.kind ==
 * "CustomResourceDefinition")'` of a CRD-phase release gives.
 */
export function onlyCustomResourceDefinitions(text: string): string {
  const kept: string[] = [];
  for (const doc of text.split(/^---[ \t]*$/m)) {
    let value: unknown;
    try {
      value = parseYamlAll(doc, { schema: 'core' })[0];
    } catch {
      continue;
    }
    if (!isPlainObject(value) || value.kind !== 'CustomResourceDefinition') continue;
    const annotations = isPlainObject(value.metadata) && isPlainObject(value.metadata.annotations) ? value.metadata.annotations : {};
    if (annotations['helm.sh/hook'] !== undefined) continue;
    kept.push(doc.replace(/^\n+/, ''));
  }
  return kept.map((d) => `---\n${d}`).join('');
}
