/**
 * `renderLeaves`: the node adapters (processes, file system, cache directory) wired into the leaf
 * rendering pipeline of src/render/leaves (see docs/adr/0050-leaf-rendering.md).
 */
import { join } from 'node:path';
import { createChartArchiveLocator, createDirectoryCache, createManifestWriter, createMemoryCache, defaultCacheDir } from '../adapters/build-cache.js';
import { SYMLINK_HINT, findOutsideLinks } from '../adapters/fs.js';
import { locateHelm } from '../adapters/helm.js';
import { locateJsonnet } from '../adapters/jsonnet.js';
import { createChartFetcher } from '../adapters/chart-fetch.js';
import { createArtifactFetcher } from '../adapters/oci-artifact.js';
import { InputError, OperationError } from '../errors/index.js';
import { locateKustomize } from '../adapters/kustomize.js';
import { Limiter, defaultConcurrency } from '../adapters/process.js';
import { createSourceReader } from '../adapters/source-reader.js';
import { recordLeafFailures } from '../adapters/leaf-objects.js';
import type { HelmTool, JsonnetTool, KustomizeTool } from '../ports/tools.js';
import type { ManifestWriter } from '../ports/build-cache.js';
import type { LeafJob, RenderLeavesResult } from '../render/leaves/index.js';
import { renderLeafJobs } from '../render/leaves/index.js';

export { defaultCacheDir };

export interface RenderLeavesOptions {
  repoRoot: string;
  /** Where `<cluster>/manifests/<app>/…` is written; absent: nothing is written. */
  outDir?: string;
  /** Where the leaf files go instead (`diff --leaves` keeps them in memory); outDir's failure table is still written when outDir is given. */
  writer?: ManifestWriter;
  /**
   * The content cache directory. Default: `$XDG_CACHE_HOME/fleetplan`, else `~/.cache/fleetplan`
   * (from `env`); `false`: cache in memory for this run only.
   */
  cacheDir?: string | false;
  /** `--kustomize`: a path or command name (kustomize or kubectl). */
  kustomize?: string;
  /** `--helm`: a path or command name. */
  helm?: string;
  /** `--jsonnet`: a path or command name (go-jsonnet or the C++ jsonnet), for directory sources with `.jsonnet` files. */
  jsonnet?: string;
  /** The environment: PATH, FLEETPLAN_KUSTOMIZE, FLEETPLAN_HELM, HOME; also passed to the tools. */
  env: Readonly<Record<string, string | undefined>>;
  /** Parallel tool processes (default: the number of cores). */
  concurrency?: number;
  /** Directory that relative `--kustomize`/`--helm` paths are taken from (default: repoRoot). */
  cwd?: string;
  /** Searched for the tools after PATH (default: the package's `.tools/bin`; false: none). */
  bundledDir?: string | false;
  /** Called after each job with the number of jobs done and the total (a progress line). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Nothing is written under `outDir` before this settles (`render --out` writes its own files
   * first, while the builds run): true, the files of the jobs done so far are written and the rest
   * as they come; false or a rejection, nothing is written and no further build starts (a build
   * already running finishes). ADR 0276.
   */
  writeAfter?: Promise<boolean>;
  /**
   * `--fetch` (ADR 0283): remote charts are pulled with `helm pull` into the fetch cache and
   * kustomize may fetch remote bases. Default: offline, such builds are not run and say so.
   */
  fetch?: boolean;
  /** `--registry-config FILE`: OCI registry logins for `helm pull` (the only ones it gets). */
  registryConfig?: string;
  /** Tools looked for since the process started (startLeafTools): used when asked for with the same options. */
  tools?: LeafToolsStart;
}

/** What startLeafTools began: the process limiter and the kustomize lookup (its version check running). */
export interface LeafToolsStart {
  limiter: Limiter;
  kustomize: Promise<KustomizeTool>;
  /** The options it was started with; another set of options (or environment) does not use it. */
  key: string;
  env: RenderLeavesOptions['env'];
}

type ToolStartOptions = Pick<RenderLeavesOptions, 'kustomize' | 'env' | 'concurrency' | 'bundledDir' | 'fetch'> & { cwd: string };

const toolKey = (o: ToolStartOptions): string =>
  JSON.stringify([o.kustomize ?? null, o.cwd, o.bundledDir ?? null, o.fetch === true, o.concurrency ?? null, o.env['PATH'] ?? null, o.env['FLEETPLAN_KUSTOMIZE'] ?? null]);

/**
 * Starts looking for kustomize (its `version` process) at once, so that the check overlaps the
 * loading and resolving of the fleet instead of delaying the first build (ADR 0332). A failure is
 * reported where the tool is first needed, as before; a run that never builds just ignores it.
 */
export function startLeafTools(options: ToolStartOptions): LeafToolsStart {
  const limiter = new Limiter(options.concurrency ?? defaultConcurrency());
  const kustomize = locateKustomize({ explicit: options.kustomize, env: options.env, cwd: options.cwd, limiter, bundledDir: options.bundledDir, offline: options.fetch !== true });
  kustomize.catch(() => undefined);
  return { limiter, kustomize, key: toolKey(options), env: options.env };
}

export async function renderLeaves(jobs: readonly LeafJob[], options: RenderLeavesOptions): Promise<RenderLeavesResult> {
  const cwd = options.cwd ?? options.repoRoot;
  const started = options.tools && options.tools.env === options.env && options.tools.key === toolKey({ ...options, cwd }) ? options.tools : undefined;
  const limiter = started?.limiter ?? new Limiter(options.concurrency ?? defaultConcurrency());
  const cacheDir = options.cacheDir === false ? undefined : (options.cacheDir ?? defaultCacheDir(options.env));
  // kustomize and Helm follow symlinks: a link out of the repository would put an outside file into
  // a leaf. Argo CD's repo-server refuses the whole repository for one (docs/adr/0210): every build
  // is refused, with the link named, before any tool runs.
  const links = findOutsideLinks(options.repoRoot);
  const refused =
    links.length > 0
      ? new InputError(`not built: ${links[0]!.link} is a symlink to ${links[0]!.target}, outside the repository${links.length > 1 ? ` (and ${links.length - 1} more)` : ''}`, {
          code: 'symlink-outside-repo',
          location: { file: links[0]!.link },
          hint: SYMLINK_HINT,
        })
      : undefined;
  let kustomize: Promise<KustomizeTool> | undefined = started?.kustomize;
  let helm: Promise<HelmTool> | undefined;
  let jsonnet: Promise<JsonnetTool> | undefined;
  const writer: (ManifestWriter & { close?(): void }) | undefined = options.writer ?? (options.outDir !== undefined ? createManifestWriter(options.outDir) : undefined);
  // Builds start at once; their files wait for the gate. Closed: the builds not yet started are cancelled.
  const writeReady = options.writeAfter?.then(
    (ok) => ok,
    () => false,
  ).then((ok) => {
    if (!ok) limiter.cancel(new OperationError('not built: the output directory was not written', { code: 'cancelled' }));
    return ok;
  });
  const helmTool = () => (refused ? Promise.reject(refused) : (helm ??= locateHelm({ explicit: options.helm, env: options.env, cwd, limiter, bundledDir: options.bundledDir })));
  const charts = createChartFetcher({ cacheDir, helm: helmTool, env: options.env, ...(options.registryConfig !== undefined ? { registryConfig: options.registryConfig } : {}) });
  const artifacts = createArtifactFetcher({ cacheDir, ...(options.registryConfig !== undefined ? { registryConfig: options.registryConfig } : {}) });
  const result = await renderLeafJobs(
    jobs,
    {
      reader: createSourceReader(options.repoRoot),
      kustomize: () => (refused ? Promise.reject(refused) : (kustomize ??= locateKustomize({ explicit: options.kustomize, env: options.env, cwd, limiter, bundledDir: options.bundledDir, offline: options.fetch !== true }))),
      helm: helmTool,
      jsonnet: () => (refused ? Promise.reject(refused) : (jsonnet ??= locateJsonnet({ explicit: options.jsonnet, env: options.env, cwd, limiter, bundledDir: options.bundledDir }))),
      cache: cacheDir ? createDirectoryCache(cacheDir) : createMemoryCache(),
      writer,
      ...(writeReady ? { writeReady } : {}),
      chartArchive: createChartArchiveLocator(cacheDir, options.env),
      ...(cacheDir ? { chartCacheDir: join(cacheDir, 'charts') } : {}),
      charts,
      artifacts,
      network: options.fetch === true,
    },
    { repoRoot: options.repoRoot, ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
  );
  if (writeReady && !(await writeReady)) return result;
  writer?.close?.();
  charts.close();
  artifacts.close();
  // Failed builds are recorded beside the leaves, for `validate --leaves DIR` (ADR 0260).
  if (options.outDir !== undefined) recordLeafFailures(options.outDir, result.results);
  return result;
}

