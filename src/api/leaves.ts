/**
 * `renderLeaves`: the node adapters (processes, file system, cache directory) wired into the leaf
 * rendering pipeline of src/render/leaves (see docs/adr/0050-leaf-rendering.md).
 */
import { createChartArchiveLocator, createDirectoryCache, createManifestWriter, createMemoryCache, defaultCacheDir } from '../adapters/build-cache.js';
import { locateHelm } from '../adapters/helm.js';
import { locateKustomize } from '../adapters/kustomize.js';
import { Limiter, defaultConcurrency } from '../adapters/process.js';
import { createSourceReader } from '../adapters/source-reader.js';
import type { HelmTool, KustomizeTool } from '../ports/tools.js';
import type { LeafJob, RenderLeavesResult } from '../render/leaves/index.js';
import { renderLeafJobs } from '../render/leaves/index.js';

export { defaultCacheDir };

export interface RenderLeavesOptions {
  repoRoot: string;
  /** Where `<cluster>/manifests/<app>/…` is written; absent: nothing is written. */
  outDir?: string;
  /**
   * The content cache directory. Default: `$XDG_CACHE_HOME/fleetplan`, else `~/.cache/fleetplan`
   * (from `env`); `false`: cache in memory for this run only.
   */
  cacheDir?: string | false;
  /** `--kustomize`: a path or command name (kustomize or kubectl). */
  kustomize?: string;
  /** `--helm`: a path or command name. */
  helm?: string;
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
}

export async function renderLeaves(jobs: readonly LeafJob[], options: RenderLeavesOptions): Promise<RenderLeavesResult> {
  const limiter = new Limiter(options.concurrency ?? defaultConcurrency());
  const cwd = options.cwd ?? options.repoRoot;
  const cacheDir = options.cacheDir === false ? undefined : (options.cacheDir ?? defaultCacheDir(options.env));
  let kustomize: Promise<KustomizeTool> | undefined;
  let helm: Promise<HelmTool> | undefined;
  return renderLeafJobs(
    jobs,
    {
      reader: createSourceReader(),
      kustomize: () => (kustomize ??= locateKustomize({ explicit: options.kustomize, env: options.env, cwd, limiter, bundledDir: options.bundledDir })),
      helm: () => (helm ??= locateHelm({ explicit: options.helm, env: options.env, cwd, limiter, bundledDir: options.bundledDir })),
      cache: cacheDir ? createDirectoryCache(cacheDir) : createMemoryCache(),
      writer: options.outDir !== undefined ? createManifestWriter(options.outDir) : undefined,
      chartArchive: createChartArchiveLocator(cacheDir, options.env),
    },
    { repoRoot: options.repoRoot, ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
  );
}
