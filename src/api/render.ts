/**
 * Rendering to a directory: the pure render stage's files written by the output adapter
 * (atomic writes, stale generated files removed), and the leaf builds of `render --leaves`.
 */
import { lstatSync, readdirSync, realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { OUTPUT_MANIFEST, checkOutputDirectory, openOutput, writeTree } from '../adapters/output.js';
import type { OutputSession, WriteStats } from '../adapters/output.js';
import { createTreeWriter } from '../adapters/output-writer.js';
import type { WriterThread } from '../adapters/output-writer.js';
import { nodeFileSystem } from '../adapters/node-fs.js';
import type { ResolvedFleet, SelectOptions } from '../layering/resolve-fleet.js';
import { mergeFindings, selectClusters } from '../layering/resolve-fleet.js';
import { createResolveSession, resolveCluster } from '../layering/resolve.js';
import type { ResolveResult } from '../layering/resolve.js';
import { consumerValueFindings } from '../layering/consumer-values.js';
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { hasErrors } from '../model/finding.js';
import { deliveryFiles, hasDeliveryFiles, renderCluster } from '../render/fleet.js';
import type { GeneratedApplications } from '../render/fleet.js';
import { createTextMemo } from '../render/texts.js';
import { createFleetRepoSource } from '../adapters/fleet-repo.js';
import { applicationSetApps } from '../order/applicationset-apps.js';
import type { Finding } from '../model/finding.js';
import type { K8sObject } from '../model/k8s.js';
import { clusterDef } from '../model/fleet.js';
import type { LeafJob, RenderLeavesResult } from '../render/leaves/index.js';
import type { SkippedLeaf } from '../render/leaves/jobs.js';
import { ToolError } from '../errors/index.js';
import type { FleetplanError } from '../errors/index.js';
import type { RenderLeavesOptions } from './leaves.js';

export interface WriteRenderedOptions {
  /** True when every cluster of the fleet is rendered: only then are stale shared files (delivery: applicationset) removed. */
  wholeFleet: boolean;
  /** Applications the clusters' own ApplicationSets generate (repositoryApplications), written as apps/. */
  generated?: GeneratedApplications;
  /** 2: also the phase-2 tree of a fleet with `gitops.mirror` (render/fleet.ts RenderOptions). */
  phase?: 1 | 2;
  /** Called with each cluster's files (and the shared ones) before they are written. */
  onFiles?: (files: readonly { path: string }[]) => void;
  /** A writer thread started before the fleet was loaded (startWriterThread), used when the files go through a thread; the caller releases it. */
  writerThread?: WriterThread;
  /** `render --leaves`: the apps whose builds are written under `<cluster>/manifests/<app>/` (render/fleet.ts RenderOptions.leafBuilt). */
  leafBuilt?: (cluster: string, app: string) => boolean;
}

/**
 * The Applications each selected cluster's root ApplicationSet generates, for fleets whose
 * ApplicationSets are the repository's own (rosa-regional): what render writes as the cluster's
 * apps/, with the evaluation's findings (the plan's). Undefined for every other fleet: fleetplan's
 * own root ApplicationSet is rendered, not its output (docs/adr/0121).
 */
export async function repositoryApplications(resolved: ResolvedFleet): Promise<{ generated: GeneratedApplications; findings: Finding[] } | undefined> {
  const { fleet } = resolved;
  if (!hasRepositoryApplications(fleet)) return undefined;
  const source = await createFleetRepoSource(fleet.root);
  try {
    const apps = await applicationSetApps(fleet, resolved.clusters, source);
    const byCluster = new Map<string, { from: string; applications: K8sObject[] }>();
    const findings: Finding[] = [];
    for (const [name, a] of apps) {
      byCluster.set(name, { from: a.apps[0]?.from ?? '', applications: a.applications as unknown as K8sObject[] });
      findings.push(...a.findings);
    }
    return { generated: { byCluster }, findings };
  } finally {
    source.close();
  }
}

/** Whether render writes the Applications of the repository's own root ApplicationSets (evaluated over the whole resolved fleet first). */
function hasRepositoryApplications(fleet: Fleet): boolean {
  return fleet.delivery === 'applicationset' && fleet.capabilities.repositoryArgoConfig === true && fleet.engine !== 'flux';
}

/** From this many clusters, files are written through a worker thread (starting one costs ~30 ms). */
const WRITER_MIN_CLUSTERS = 32;

/**
 * Writes the files of every selected cluster under `dir`, a cluster at a time (memory stays per
 * cluster), and removes files an earlier render wrote that are no longer produced. With many
 * clusters a worker writes each cluster's files while the next ones render (on two cores, writing
 * no longer comes on top of rendering).
 */
export async function writeRenderedFleet(resolved: ResolvedFleet, dir: string, options: WriteRenderedOptions): Promise<WriteStats> {
  const { fleet } = resolved;
  checkOutputDirectory(dir, fleet.root, fleetFiles(fleet));
  return writeClusters(resolved, resolved.clusters, resolved.clusters.length, dir, options);
}

const fleetFiles = (fleet: Fleet): string[] => [fleet.file, ...fleet.sources.keys(), ...fleet.clusters.map((c) => c.file)].filter((f) => f !== '');

/** The files of `clusters` (each rendered as it comes) written under `dir`, then the fleet's shared files; `count` clusters in all. */
async function writeClusters(resolved: ResolvedFleet, clusters: Iterable<ResolvedCluster>, count: number, dir: string, options: WriteRenderedOptions): Promise<WriteStats> {
  const total: WriteStats = { written: 0, unchanged: 0, removed: 0 };
  const add = (s: WriteStats) => {
    total.written += s.written;
    total.unchanged += s.unchanged;
    total.removed += s.removed;
  };
  const writer = count >= WRITER_MIN_CLUSTERS ? createTreeWriter(dir, options.writerThread ? { thread: options.writerThread } : {}) : undefined;
  // Objects clusters share are emitted once (ADR 0360).
  const texts = createTextMemo();
  // The output directory's manifest (the files fleetplan wrote there): the worker keeps its own and
  // saves it when closed; the files written here after it read the saved one.
  let session: OutputSession | undefined = writer ? undefined : openOutput(dir);
  try {
    for (const c of clusters) {
      const { leafBuilt } = options;
      const files = renderCluster(resolved, c, options.generated, {
        ...(options.phase !== undefined ? { phase: options.phase } : {}),
        texts,
        ...(leafBuilt ? { leafBuilt: (app: string) => leafBuilt(c.name, app) } : {}),
      });
      // Provisioning directories (DIR/<hub>/provision/<app>) are managed like apps/ and bootstrap/.
      // objects/ too: under --leaves it can be left empty (ADR 0407), and a file an earlier render wrote there must go.
      const managed = new Set([...['apps', 'projects', 'bootstrap', 'objects'].map((d) => `${c.name}/${d}`), ...files.map((f) => f.path.slice(0, f.path.lastIndexOf('/')))]);
      // A spoke removed from the fleet leaves DIR/<hub>/provision/<spoke>: its generated files go too
      // (and a chart app removed from a Flux cluster its DIR/<cluster>/charts/<app>).
      const parents = [`${c.name}/provision`, `${c.name}/clustergroup`, `${c.name}/charts`];
      options.onFiles?.(files);
      if (writer) await writer.write(files, [...managed], parents);
      else add(writeTree(dir, files, [...managed], parents, session));
      // Let other work of this process run between clusters (the leaf builds of `--leaves` start
      // their processes and take their output meanwhile; ADR 0276).
      await new Promise<void>((r) => setImmediate(r));
    }
    if (writer) add(await writer.close());
    // delivery: applicationset — values files and ApplicationSet copies shared by clusters of one
    // sector, region and cluster type; stale ones are removed only when the whole fleet is rendered.
    const shared = deliveryFiles(resolved.fleet, resolved.clusters);
    if (shared.length > 0) {
      const managedShared = options.wholeFleet ? [...new Set(shared.map((f) => f.path.slice(0, f.path.lastIndexOf('/'))))] : [];
      session ??= openOutput(dir);
      options.onFiles?.(shared);
      add(writeTree(dir, shared, managedShared, [], session));
    }
    session?.save();
  } catch (e) {
    await writer?.abort();
    throw e;
  }
  return total;
}

/**
 * Whether `resolveAndWriteFleet` may write while it resolves (ADR 0330): `render --out` (without
 * `--leaves`) into a directory that is absent or empty, which `checkOutputDirectory` accepts, of a
 * fleet whose Applications need no evaluation of the whole resolved fleet first.
 */
export function canWriteWhileResolving(fleet: Fleet, dir: string): boolean {
  if (hasRepositoryApplications(fleet)) return false;
  try {
    checkOutputDirectory(dir, fleet.root, fleetFiles(fleet));
  } catch {
    return false;
  }
  try {
    return readdirSync(dir).length === 0;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

export interface ResolveAndWriteResult {
  /** Every finding of resolving the selected clusters: resolveFleet's, in its order. */
  findings: Finding[];
  /** How many clusters were selected. */
  clusters: number;
  /** What was written; undefined when the findings hold an error or writing failed (everything written was removed again). */
  written?: WriteStats;
  /** Why writing failed (thrown by writing; the findings are complete all the same). */
  failure?: unknown;
}

export interface ClustersInTurn {
  /** The fleet as rendering sees it: `cluster(name)` answers a hub's question about a spoke at any time. */
  resolved: ResolvedFleet;
  /** Resolves the next selected cluster (or takes the result a hub's question made), its findings added. */
  next(name: string): ResolvedCluster;
  /** How many clusters `next` has given. */
  reached(): number;
  /** How many resolved clusters are held now (for the tests: memory stays per cluster). */
  held(): number;
}

/**
 * Each selected cluster resolved in its turn (ADR 0330), each once, with memory per cluster
 * (ADR 0360): a cluster's result is let go once it is given, unless a hub may still ask for it (a
 * spoke with a provision section: its hub's provisioning objects are made from it) — a hub that
 * comes before such a spoke resolves it then, and the spoke's turn takes that result (with its
 * findings). Holding every resolved cluster made the heap grow with the fleet (636 MB peak at
 * 5,000 clusters) and every full garbage collection mark all of it again. `resolved.clusters`
 * stays empty unless the delivery files (`delivery: applicationset`) are made from every cluster.
 */
export function resolveInTurn(fleet: Fleet, selected: readonly string[], findings: Finding[]): ClustersInTurn {
  const session = createResolveSession(fleet);
  const ahead = new Map<string, ResolveResult>();
  const askedFor = (name: string): boolean => clusterDef(fleet, name)?.spec.provision !== undefined;
  const cluster = (name: string): ResolvedCluster => {
    let r = ahead.get(name);
    if (!r) ahead.set(name, (r = resolveCluster(fleet, name, session)));
    return r.cluster;
  };
  const keepAll = hasDeliveryFiles(fleet);
  const clusters: ResolvedCluster[] = [];
  let reached = 0;
  return {
    resolved: { fleet, clusters, findings: [], cluster },
    next(name) {
      let r = ahead.get(name);
      if (!r) {
        r = resolveCluster(fleet, name, session);
        if (askedFor(name)) ahead.set(name, r);
      } else if (!askedFor(name)) {
        ahead.delete(name);
      }
      reached++;
      if (keepAll) clusters.push(r.cluster);
      findings.push(...r.findings, ...consumerValueFindings(fleet, r.cluster));
      return r.cluster;
    },
    reached: () => reached,
    held: () => ahead.size + clusters.length,
  };
}

/**
 * `render --out` of a fresh directory (canWriteWhileResolving), resolving each cluster just
 * before it is rendered, so that its files are written while the next clusters resolve (on two
 * cores resolving no longer comes before all writing). The same clusters, files and findings as
 * resolveFleet followed by writeRenderedFleet. The findings are known only at the end: when they
 * hold an error (or writing failed), every file written is removed again, with the directories this
 * run made, so that nothing is rendered, as when nothing was written. An exception while
 * resolving is thrown after that clean-up.
 */
export async function resolveAndWriteFleet(fleet: Fleet, select: SelectOptions, dir: string, options: Omit<WriteRenderedOptions, 'generated'>): Promise<ResolveAndWriteResult> {
  const selected = selectClusters(fleet, select.clusters);
  // As resolveFleet: a load finding about one cluster belongs to a run that selected it.
  const findings: Finding[] = select.clusters?.length ? fleet.loadFindings.filter((f) => !f.cluster || selected.includes(f.cluster)) : [...fleet.loadFindings];
  const turns = resolveInTurn(fleet, selected, findings);
  const { resolved } = turns;
  function* each(): Generator<ResolvedCluster> {
    for (const name of selected) yield turns.next(name);
  }
  const existed = readdirOrUndefined(dir) !== undefined;
  const paths: string[] = [];
  let written: WriteStats | undefined;
  let failure: unknown;
  let thrown: unknown;
  try {
    written = await writeClusters(resolved, each(), selected.length, dir, { ...options, onFiles: (files) => void paths.push(...files.map((f) => f.path)) });
  } catch (e) {
    failure = e;
    // The findings of the clusters not reached, as resolveFleet would have given them.
    try {
      for (const name of selected.slice(turns.reached())) turns.next(name);
    } catch (e2) {
      thrown = e2;
    }
  }
  const merged = mergeFindings(findings);
  if (failure !== undefined || hasErrors(merged)) {
    removeWritten(dir, paths, existed);
    if (thrown !== undefined) throw thrown;
    return { findings: merged, clusters: selected.length, failure };
  }
  return { findings: merged, clusters: selected.length, ...(written ? { written } : {}) };
}

function readdirOrUndefined(dir: string): string[] | undefined {
  try {
    return readdirSync(dir);
  } catch {
    return undefined;
  }
}

/**
 * Removes what a run into a fresh directory wrote: the files it wrote (created exclusively, so its
 * own), its manifest, and each directory that is then empty, deepest first, the output directory
 * itself when the run made it. A path whose directory is no longer a real directory is left alone:
 * nothing is removed through a link (ADR 0211).
 */
function removeWritten(dir: string, paths: readonly string[], existed: boolean): void {
  let root: string;
  try {
    // The output directory may itself be a link the user chose: below its real path, nothing is followed.
    root = realpathSync.native(resolvePath(dir));
  } catch {
    return; // never made
  }
  const realDir = (abs: string): boolean => {
    try {
      return lstatSync(abs).isDirectory();
    } catch {
      return false;
    }
  };
  const dirs = new Set<string>();
  for (const rel of [...paths, OUTPUT_MANIFEST]) {
    const abs = join(root, ...rel.split('/'));
    for (let d = dirname(abs); d.length > root.length; d = dirname(d)) dirs.add(d);
    let ok = true;
    for (let d = dirname(abs); ok && d.length >= root.length; d = dirname(d)) {
      ok = realDir(d);
      if (d === root) break;
    }
    if (!ok) continue;
    try {
      if (lstatSync(abs).isFile()) unlinkSync(abs);
    } catch {
      // not there (never written, or already gone)
    }
  }
  const order = [...dirs].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  if (!existed) order.push(root);
  for (const d of order) {
    try {
      if (realDir(d)) rmdirSync(d);
    } catch {
      // not empty (someone else's files), or already gone
    }
  }
}

export interface FleetLeavesResult {
  run: RenderLeavesResult;
  /** Apps that have no source fleetplan can build, with the reason. */
  skipped: SkippedLeaf[];
  /** Per built app, what its layout says about how it is built (ClusterDef.leafNotes); `app: ''` for a cluster's shared note (clusterLeafNotes). */
  notes: { cluster: string; app: string; note: string }[];
}

/** Builds every app source of the selected clusters with the real kustomize and Helm (`render --leaves`). */
export async function renderFleetLeaves(
  resolved: ResolvedFleet,
  options: Omit<RenderLeavesOptions, 'repoRoot'> & {
    /** Called before building, with the number of builds and the apps that will not be built. */
    onPlanned?: (jobs: number, skipped: FleetLeavesResult['skipped'], notes: FleetLeavesResult['notes']) => void;
    /** The builds, when the caller has planned them already (leafJobsFor). */
    planned?: { jobs: LeafJob[]; skipped: SkippedLeaf[] };
  },
): Promise<FleetLeavesResult> {
  const { fleet } = resolved;
  // The leaf builds' modules are imported when a run builds leaves: `render --out` alone does not load them (ADR 0417).
  const [{ leafJobsFor }, { renderLeaves }] = await Promise.all([import('../render/leaves/jobs.js'), import('./leaves.js')]);
  const { jobs, skipped } = options.planned ?? leafJobsFor(fleet, resolved.clusters, nodeFileSystem(fleet.root));
  const notes: FleetLeavesResult['notes'] = [];
  const said = new Set<string>();
  for (const j of jobs) {
    const def = clusterDef(fleet, j.cluster);
    const own = def?.leafNotes?.[j.app] ?? [];
    // What every app of the cluster shares is said once, before its first app's notes (app '').
    if (!said.has(j.cluster)) {
      said.add(j.cluster);
      for (const note of def?.clusterLeafNotes ?? []) notes.push({ cluster: j.cluster, app: '', note });
    }
    for (const note of own) notes.push({ cluster: j.cluster, app: j.app, note });
  }
  options.onPlanned?.(jobs.length, skipped, notes);
  const { onPlanned: _onPlanned, planned: _planned, ...leafOptions } = options;
  const run = await renderLeaves(jobs, { ...leafOptions, repoRoot: fleet.root });
  for (const r of run.results) {
    const empty = r.error ? clusterDef(fleet, r.cluster)?.leafEmptyValues : undefined;
    if (r.error && empty) r.error = explainEmptyValues(r.error, empty);
  }
  return { run, skipped, notes };
}

/**
 * A failed build whose tool names a value (`.Values.a.b`) that the layout leaves empty although the
 * cluster has it: the error says which and who sets it, so that it is not read as a defect of the
 * repository (ADR 0386). Other errors are returned as they are.
 */
export function explainEmptyValues(error: FleetplanError, empty: Readonly<Record<string, string>>): FleetplanError {
  const named = new Set<string>();
  for (const m of error.message.matchAll(/\.Values\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)/g)) {
    const path = m[1]!;
    for (const p of Object.keys(empty)) if (path === p || path.startsWith(`${p}.`)) named.add(p);
  }
  if (named.size === 0) return error;
  const why = [...named].sort().map((p) => `${p} is ${empty[p]!} and left empty in this build: on the cluster the chart gets it`).join('; ');
  return new ToolError(error.message, { code: error.code, ...(error.location ? { location: error.location } : {}), hint: error.hint ? `${why}; ${error.hint}` : why, cause: error });
}

/**
 * `render --out DIR --leaves`: the leaf builds start first and run while the clusters' files are
 * rendered and written (the builds are the long pole, and on two cores rendering fills the gaps
 * between them); the leaf files are written only after the clusters' files and their manifest
 * (ADR 0276). If writing the clusters' files fails, no leaf file is written, the builds not yet
 * started are cancelled, and the error is thrown once the running ones have finished.
 * `onWritten` is called with the clusters' write statistics, then `onPlanned` (in that order, as
 * when the two ran one after the other).
 */
export async function writeRenderedFleetWithLeaves(
  resolved: ResolvedFleet,
  dir: string,
  options: WriteRenderedOptions,
  leaves: Omit<RenderLeavesOptions, 'repoRoot' | 'outDir' | 'writeAfter'> & {
    onWritten?: (stats: WriteStats) => void;
    onPlanned?: (jobs: number, skipped: FleetLeavesResult['skipped'], notes: FleetLeavesResult['notes']) => void;
  },
): Promise<{ written: WriteStats; leaves: FleetLeavesResult }> {
  let settle!: (ok: boolean) => void;
  const written = new Promise<boolean>((r) => (settle = r));
  const { onWritten, onPlanned, onProgress, ...rest } = leaves;
  let planned: [number, FleetLeavesResult['skipped'], FleetLeavesResult['notes']] | undefined;
  // Progress is reported from the end of the clusters' writing on (the builds done so far at once).
  let reported = false;
  let progress: [number, number] | undefined;
  // Planned once: the builds, and which apps' builds hold the objects render would write under objects/ (ADR 0407).
  const { leafJobsFor } = await import('../render/leaves/jobs.js');
  const leafPlan = leafJobsFor(resolved.fleet, resolved.clusters, nodeFileSystem(resolved.fleet.root));
  const built = new Set(leafPlan.jobs.map((j) => `${j.cluster}\u0000${j.app}`));
  const building = renderFleetLeaves(resolved, {
    ...rest,
    planned: leafPlan,
    outDir: dir,
    writeAfter: written,
    onPlanned: (jobs, skipped, notes) => void (planned = [jobs, skipped, notes]),
    onProgress: (done, all) => (reported ? onProgress?.(done, all) : void (progress = [done, all])),
  });
  // Its failure is thrown below, after the clusters' files (not an unhandled rejection meanwhile).
  building.catch(() => undefined);
  let stats: WriteStats;
  try {
    stats = await writeRenderedFleet(resolved, dir, { ...options, leafBuilt: (cluster, app) => built.has(`${cluster}\u0000${app}`) });
  } catch (e) {
    settle(false);
    await building.catch(() => undefined);
    throw e;
  }
  onWritten?.(stats);
  if (planned) onPlanned?.(...planned);
  reported = true;
  if (progress) onProgress?.(...progress);
  settle(true);
  return { written: stats, leaves: await building };
}
