/**
 * Reading a fleet, apart from the registry of every layout reader: the node file system, the
 * symlink walk and the origin wired into the load stage around the chosen reader, and the work a
 * reader leaves for the real tools. ./load-fleet.ts chooses among every reader (`loadFleet`);
 * `loadFleetAsync` here imports them only for a repository without fleet.yaml, so that a command
 * reading a native fleet does not load the other layouts' readers (ADR 0397). Stages never import
 * adapters or layouts; the modules of src/api are where they meet (docs/adr/0180-stage-imports.md).
 */
import { isAbsolute } from 'node:path';
import { InputError } from '../errors/index.js';
import { SYMLINK_HINT } from '../adapters/fs.js';
import { nodeFileSystem } from '../adapters/node-fs.js';
import type { LayoutReader } from '../layouts/choose.js';
import { chooseNativeLayout, nativeReader } from '../layouts/native-choice.js';
import type { LoadResult } from '../load/native.js';
import { fillRepositoryOrigin } from '../load/repository-origin.js';
import { createLocalGitTree, readRepositoryOrigin } from '../adapters/git.js';
import type { LocalGitTree } from '../adapters/git.js';
import { createClusterBuilder } from '../adapters/cluster-build.js';
import type { ClosableClusterBuilder } from '../adapters/cluster-build.js';
import { locateJsonnet } from '../adapters/jsonnet.js';
import type { JsonnetTool } from '../ports/tools.js';
import type { ClusterSecret } from '../appset/types.js';
import type { RepositoryOrigin } from '../ports/git-repo.js';
import type { Layout } from '../model/fleet.js';
import type { Finding } from '../model/finding.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { ClusterBuilder } from '../ports/cluster-build.js';
import type { HelmfileStateValues } from '../load/helmfile-state-values.js';

export interface LoadOptions {
  /** Read through this file system instead of the local disk. */
  fs?: RepoFileSystem;
  /** The repository's origin remote and branch (default: read from the clone at `root` with git). */
  origin?: RepositoryOrigin;
  /** Read with this layout's reader instead of the detected one (e.g. `argocd`, to compare a specific layout with it). */
  layout?: Layout;
  /**
   * The helmfile environment (`-e NAME`, helmfile's `--environment`) whose values a helmfile's
   * templates are rendered with, as `helmfile -e NAME template` renders them (default `default`).
   */
  helmfileEnvironment?: string;
  /**
   * helmfile's `--state-values-file` and `--state-values-set` (readStateValues), merged over the
   * environment values of the top-level helmfiles as `helmfile template` merges them.
   */
  helmfileStateValues?: HelmfileStateValues;
  /**
   * A digest of each local chart's files on its helmfile releases (`chartFiles`), which only diff
   * compares (ADR 0395): plan and render leave it out and read none of those files.
   */
  helmfileChartDigests?: boolean;
  /**
   * The variables a helmfile's `env`/`requiredEnv` read (`--helmfile-env NAME=VALUE`): fleetplan
   * never reads the process environment, so a variable not given here is unset (docs/adr/0413).
   */
  helmfileEnv?: Record<string, string>;
}

/** A layout chosen, with the findings that say why. */
export type LayoutChoice = { reader: LayoutReader; findings: Finding[] };

/** The registry ./load-fleet.ts reads with: every reader, and the choice among them. */
export interface LayoutRegistry {
  readers: readonly LayoutReader[];
  chooseLayout(fs: RepoFileSystem): LayoutChoice;
}

/**
 * Reads the fleet in `fs` with the reader `registry` chooses, or the one `options.layout` names
 * (see ./load-fleet.ts `loadFleet`).
 */
export function loadWith(fs: RepoFileSystem, options: LoadOptions, registry: LayoutRegistry): LoadResult {
  const forced = options.layout ? registry.readers.find((r) => r.layout === options.layout) : undefined;
  if (options.layout && !forced) throw new InputError(`unknown layout ${options.layout}`, { code: 'unknown-layout', hint: `use one of ${registry.readers.map((r) => r.layout).join(', ')}` });
  return finishLoad(startLoad(fs, options), (chosenFs) => (forced ? { reader: forced, findings: [] } : registry.chooseLayout(chosenFs)));
}

/**
 * `loadFleet` (./load-fleet.ts) with the same result, for a caller that can wait: the readers of
 * the layouts other than the native one are imported only when the repository has no fleet.yaml
 * (or `options.layout` names one), not for every native fleet (ADR 0397).
 */
export async function loadFleetAsync(root: string, options: LoadOptions = {}): Promise<LoadResult> {
  const fs = options.fs ?? nodeFileSystem(root);
  if (options.layout) return loadWith(fs, options, await import('../layouts/index.js'));
  const start = startLoad(fs, options);
  // Asked after the walk, as chooseLayout asks it first: the walk answers it (adapters/node-fs.ts).
  if (nativeReader.detect(fs)) return finishLoad(start, (chosenFs) => chooseNativeLayout(chosenFs)!);
  const { chooseLayout } = await import('../layouts/index.js');
  return finishLoad(start, chooseLayout);
}

/** A load begun: the repository walked for links leaving it, and its origin. */
interface LoadStart {
  fs: RepoFileSystem;
  options: LoadOptions;
  links: { link: string; target: string }[];
  origin: RepositoryOrigin;
}

function startLoad(fs: RepoFileSystem, options: LoadOptions): LoadStart {
  // The symlink check first: its walk of the repository then answers the reader's questions about
  // paths (adapters/node-fs.ts), instead of a walk after loading and system calls per file during it.
  const links = fs.outsideLinks?.() ?? [];
  const origin = options.origin ?? readRepositoryOrigin(fs.root);
  return { fs, options, links, origin };
}

/** Chooses the reader, reads the fleet with it and adds what the load itself finds (the origin, links leaving the repository). */
function finishLoad(start: LoadStart, choose: (fs: RepoFileSystem) => LayoutChoice): LoadResult {
  const { fs, options, links, origin } = start;
  let chosen: LayoutChoice;
  let result: LoadResult;
  try {
    chosen = choose(fs);
    result = chosen.reader.load(fs, { origin, ...(options.helmfileEnvironment !== undefined ? { helmfileEnvironment: options.helmfileEnvironment } : {}), ...(options.helmfileStateValues ? { helmfileStateValues: options.helmfileStateValues } : {}), ...(options.helmfileChartDigests ? { helmfileChartDigests: true } : {}), ...(options.helmfileEnv ? { helmfileEnv: options.helmfileEnv } : {}) });
  } catch (e) {
    // No fleet found, because its own file is a link out of the repository: say so, not "no fleet".
    const first = links[0];
    if (first && e instanceof InputError && (e.code === 'no-fleet' || e.code === 'bad-fleet')) {
      throw new InputError(`${first.link} is a symlink to ${first.target}, outside the repository: fleetplan does not read it (${e.message})`, {
        code: 'symlink-outside-repo',
        location: { file: first.link },
        hint: SYMLINK_HINT,
        cause: e,
      });
    }
    throw e;
  }
  const extra = [...chosen.findings, ...fillRepositoryOrigin(result.fleet, origin)];
  if (result.withClusters) {
    const withClusters = result.withClusters;
    const before = extra;
    result.withClusters = (secrets) => {
      const again = withClusters(secrets);
      const more = [...before.filter((f) => f.code !== 'no-repo-url'), ...fillRepositoryOrigin(again.fleet, origin)];
      for (const f of more) {
        again.findings.push(f);
        if (again.fleet.loadFindings !== again.findings) again.fleet.loadFindings.push(f);
      }
      return again;
    };
  }
  // Argo CD's repo-server refuses a whole repository that holds a symlink leading out of it
  // (docs/adr/0210-paths-stay-inside.md): each one is an error, whichever layout reads the repository.
  for (const l of links) {
    extra.push({
      severity: 'error',
      code: 'symlink-outside-repo',
      message: `${l.link} is a symlink to ${l.target}: ${isAbsolute(l.target) ? 'an absolute link' : 'it leads outside the repository'}; fleetplan does not follow it, and Argo CD refuses the whole repository`,
      file: l.link,
      hint: SYMLINK_HINT,
    });
  }
  for (const f of extra) {
    result.findings.push(f);
    if (result.fleet.loadFindings !== result.findings) result.fleet.loadFindings.push(f);
  }
  if (result.complete) {
    const complete = result.complete;
    result.complete = (tools) => complete({ ...tools, origin: tools.origin.url || tools.origin.branch ? tools.origin : origin });
  }
  return result;
}

export interface CompleteLoadOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  kustomize?: string;
  helm?: string;
  /** Cluster Secrets (--clusters) over the repository's own. */
  clusterSecrets?: readonly ClusterSecret[];
  /**
   * `--root`: the root files or directories (relative to the repository) to follow, read as
   * `kubectl apply -f` reads them, instead of guessing them (ADR 0345). Only a repository read as
   * Argo CD reads it (the argocd layout) takes them; any other is an InputError naming its layout.
   */
  roots?: readonly string[];
  origin?: RepositoryOrigin;
  /** `--jsonnet`: a path or command name; else FLEETPLAN_JSONNET, then PATH (ADR 0303). */
  jsonnet?: string;
}

/**
 * Runs what the layout reader left for the real tools (the argocd layout's app-of-apps follow):
 * kustomize and Helm are located on first use, ApplicationSet git generators read the clone with
 * real git. Does nothing when the reader left nothing.
 */
export async function completeLoad(result: LoadResult, options: CompleteLoadOptions): Promise<void> {
  const complete = result.complete;
  if (options.roots?.length && result.fleet.capabilities.chooseRoots !== true) {
    throw new InputError(`--root ${options.roots[0]!}: this repository is read as the ${result.fleet.layout} layout, which has no Argo CD roots to choose`, {
      code: 'root-not-argocd',
      hint: '--root chooses the root Application(s) of a repository read as Argo CD reads it (the argocd layout); leave it out here',
    });
  }
  if (!complete) return;
  result.complete = undefined;
  // Only a layout that leaves work for the real tools (the argocd layout) needs the repo server's ApplicationSet engine (ADR 0397).
  const { createRepoServer } = await import('../appset/repo-server.js');
  const root = result.fleet.root;
  let builder: ClosableClusterBuilder | undefined;
  let jsonnet: Promise<JsonnetTool> | undefined;
  let tree: LocalGitTree | undefined;
  const lazyTree = (): LocalGitTree => (tree ??= createLocalGitTree(root));
  const git = createRepoServer({
    listFiles: (u, r) => lazyTree().listFiles(u, r === 'HEAD' ? '' : r),
    listDirectories: (u, r) => lazyTree().listDirectories(u, r === 'HEAD' ? '' : r),
    readFiles: (u, r, p) => lazyTree().readFiles(u, r === 'HEAD' ? '' : r, p),
  });
  try {
    await complete({
      builder: async () => (builder ??= await createClusterBuilder(root, { env: options.env, ...(options.cwd ? { cwd: options.cwd } : {}), ...(options.kustomize ? { kustomize: options.kustomize } : {}), ...(options.helm ? { helm: options.helm } : {}) })),
      git,
      origin: options.origin ?? {},
      ...(options.clusterSecrets ? { clusterSecrets: options.clusterSecrets } : {}),
      ...(options.roots?.length ? { roots: options.roots } : {}),
      // Located on first use: only a Jsonnet directory source on the way asks for it (ADR 0318).
      jsonnet: () => (jsonnet ??= locateJsonnet({ explicit: options.jsonnet, env: options.env, ...(options.cwd ? { cwd: options.cwd } : {}) })),
    });
  } finally {
    builder?.close();
    tree?.close();
  }
}

/**
 * Builds the clusters a layout reader could not read exactly (layouts/gitops-standards/fallback.ts,
 * imported only when the result has such clusters); `builder` is created on first use.
 */
export async function completeFallbacks(result: LoadResult, builder: () => Promise<ClusterBuilder>): Promise<void> {
  if (!result.fallbacks?.length) return;
  const { completeFallbacks: complete } = await import('../layouts/gitops-standards/fallback.js');
  await complete(result, builder);
}
