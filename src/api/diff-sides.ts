/**
 * The paths of `diff` that read revisions: load, resolve, plan, render (and with `--leaves` build)
 * and validate each side (docs/adr/0225-fleetplan-diff.md, 0245-incremental-diff.md). Imported by
 * `./diff.ts` only when a diff cannot be answered from records (docs/adr/0314-diff-warm-path.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fleetTree, resolveCommit } from '../adapters/git-snapshot.js';
import { readRecord, recordKey } from '../adapters/diff-records.js';
import { leafObjectsFromDirectory } from '../adapters/leaf-objects.js';
import { MAX_INPUT_BYTES, findOutsideLinks, readTextFile } from '../adapters/fs.js';
import { createSourceReader } from '../adapters/source-reader.js';
import type { LeafJob, RenderLeavesResult } from '../render/leaves/index.js';
import type { SkippedLeaf } from '../render/leaves/jobs.js';
import { leafJobsFor } from '../render/leaves/jobs.js';
import { leafJobKeys } from '../render/leaves/job-key.js';
import { renderLeaves } from './leaves.js';
import { appFileName } from '../model/graphs.js';
import type { ManifestWriter, OutputFile } from '../ports/build-cache.js';
import { parseYamlAll } from '../yaml/index.js';
import { nodeFileSystem } from '../adapters/node-fs.js';
import type { ClusterSide, DiffRevision, FleetDiff, ClusterDiff, FindingsDelta } from '../diff/index.js';
import { diffFindings, helmfileReleaseEntries } from '../diff/index.js';
import { UsageError } from '../errors/index.js';
import { selectClustersByLabels } from '../layering/selector.js';
import { orderedClusters, resolveFleet } from '../layering/resolve-fleet.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { Finding } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import { clusterDef } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { planCluster } from '../order/plan.js';
import { clusterFingerprints } from './diff-inputs.js';
import type { ClusterSummary } from '../adapters/diff-records.js';
import { renderCluster } from '../render/fleet.js';
import { validateFleet } from './fleet.js';
import { planRepository } from './plan.js';
import { renderFleetLeaves } from './render.js';
import type { BaseFindingsOptions, DiffLeavesOptions, DiffOptions, Loaded, PromotionDiffOptions, Side } from './diff-core.js';
import { compareCluster, openRevisions, portable, portableText } from './diff-core.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { recordingFileSystem } from './diff-reads.js';
import type { Revisions } from './diff-core.js';

/** The repository of a side as validation reads it (recording what it reads when the side's reads are kept). */
function sideFs(side: Side): RepoFileSystem {
  const fs = side.fs ?? nodeFileSystem(side.root);
  return side.checks ? recordingFileSystem(fs, side.checks) : fs;
}

/** Selected cluster names of one side: --cluster names it has, then the selectors. */
export function selectedOn(fleet: Fleet, options: DiffOptions): string[] {
  let names = orderedClusters(fleet);
  if (options.clusters?.length) names = names.filter((n) => options.clusters!.includes(n));
  for (const s of options.selectors ?? []) {
    const chosen = new Set(selectClustersByLabels(fleet.clusters, s));
    names = names.filter((n) => chosen.has(n));
  }
  return names;
}

/** A fleet whose sector `sector` (or cluster `cluster`'s own pin) tracks `revision`. */
function tracking(fleet: Fleet, cluster: string, revision: string): Fleet {
  const def = fleet.clusters.find((c) => c.name === cluster);
  if (def?.revisionPin) {
    return { ...fleet, clusters: fleet.clusters.map((c) => (c === def ? { ...c, revisionPin: { ...def.revisionPin!, revision } } : c)) };
  }
  const sector = def?.spec.sector;
  return { ...fleet, sectors: fleet.sectors.map((s) => (s.name === sector ? { ...s, revision } : s)) };
}

/** What a cluster gets, as the diff compares it: its rendered objects, and its helmfile releases (docs/adr/0395). */
function clusterObjects(resolved: ResolvedFleet, c: ResolvedCluster): ClusterSide['objects'] {
  const rendered = renderCluster(resolved, c).flatMap((f) => f.objects.map((object) => ({ file: f.path, object })));
  const releases = clusterDef(resolved.fleet, c.name)?.helmfileReleases;
  return releases === undefined ? rendered : [...rendered, ...helmfileReleaseEntries(releases)];
}

async function loadClusters(side: Side, fleet: Fleet, names: readonly string[], options: DiffOptions): Promise<Loaded> {
  const resolved = resolveFleet(fleet, { clusters: [...names] });
  const plan = await planRepository(resolved);
  const sides = new Map<string, ClusterSide>();
  const notes = new Map<string, string[]>();
  const leaves = options.leaves ? await buildLeaves(resolved, options.leaves, notes, side.root) : undefined;
  for (const c of resolved.clusters) {
    const p = plan.clusters.find((x) => x.name === c.name)!;
    sides.set(c.name, {
      name: c.name,
      sector: p.sector,
      revision: p.revision,
      objects: clusterObjects(resolved, c),
      apps: p.apps,
      bootstrap: p.bootstrap,
      ...(leaves ? { leaves: leaves.get(c.name) ?? new Map() } : {}),
    });
  }
  const findings = portable(validateFleet(resolved, { fs: nodeFileSystem(side.root) }), side.root);
  return { fleet: resolved.fleet, sides, findings, notes };
}

/** The notes of a leaf run (apps skipped, build notes, failures), and the `cluster\0app` keys of the apps that failed. */
function noteLeafRun(run: RenderLeavesResult, skipped: readonly SkippedLeaf[], note: (cluster: string, text: string) => void): Set<string> {
  for (const s of skipped) note(s.cluster, `leaves of ${s.app} not built: ${s.reason}`);
  const failed = new Set<string>();
  for (const r of run.results) {
    for (const n of r.notes ?? []) note(r.cluster, `leaves of ${r.app}: ${n}`);
    if (r.error) {
      failed.add(`${r.cluster}\0${r.app}`);
      note(r.cluster, `leaves of ${r.app} could not be built: ${r.error.message.split('\n')[0]}`);
    }
  }
  return failed;
}

/** Leaf objects per cluster and app; apps that were not built or failed get a note and no entry. */
async function buildLeaves(resolved: ResolvedFleet, options: DiffLeavesOptions, notes: Map<string, string[]>, root: string): Promise<Map<string, Map<string, Record<string, unknown>[]>>> {
  const out = new Map<string, Map<string, Record<string, unknown>[]>>();
  // Tool errors name the checkout's (temporary) paths: repository-relative, the report is the same on every run.
  const note = (cluster: string, text: string) => notes.set(cluster, [...(notes.get(cluster) ?? []), portableText(text, root)]);
  if (resolved.clusters.length === 0) return out;
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-diff-leaves-'));
  try {
    const { run, skipped } = await renderFleetLeaves(resolved, { ...options, outDir: dir });
    const failed = noteLeafRun(run, skipped, note);
    const objects = leafObjectsFromDirectory(dir);
    for (const r of run.results) {
      if (failed.has(`${r.cluster}\0${r.app}`)) continue;
      let m = out.get(r.cluster);
      if (!m) out.set(r.cluster, (m = new Map()));
      m.set(r.app, [...(objects.objects(r.cluster, r.app) ?? [])]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** Per cluster and app, the leaf files render would write (`.yaml`/`.yml`, by name), as the incremental path compares them. */
type LeafFiles = Map<string, Map<string, OutputFile[]>>;

/** One side's leaf jobs (as render --leaves plans them) and each one's input key (../render/leaves/job-key.ts). */
interface LeafPlan {
  jobs: LeafJob[];
  skipped: SkippedLeaf[];
  /** Per job, its key; undefined: it cannot be told without building. */
  keys: (string | undefined)[];
}

/** A side's leaf jobs and their keys, without building: none of the keys when a link leaves the repository (every build is then refused). */
function planLeaves(resolved: ResolvedFleet, options: DiffLeavesOptions): LeafPlan {
  const { fleet } = resolved;
  const { jobs, skipped } = leafJobsFor(fleet, resolved.clusters, nodeFileSystem(fleet.root));
  const refused = findOutsideLinks(fleet.root).length > 0;
  const keys = refused ? jobs.map(() => undefined) : leafJobKeys(jobs, { repoRoot: fleet.root, reader: createSourceReader(fleet.root), network: options.fetch === true });
  return { jobs, skipped, keys };
}

/**
 * The clusters whose leaves are the same on both sides without building them: each side has the
 * cluster, the same apps in the same order as leaf jobs, and every job's key is known and equal
 * on both sides (renderLeafJobs then gives each app the same files, or the same failure).
 */
function sameLeafInputs(a: LeafPlan, b: LeafPlan): Set<string> {
  const byCluster = (p: LeafPlan) => {
    const m = new Map<string, string[]>();
    p.jobs.forEach((j, i) => {
      let l = m.get(j.cluster);
      if (!l) m.set(j.cluster, (l = []));
      l.push(`${j.app}\0${p.keys[i] ?? '\0unknown'}`);
    });
    return m;
  };
  const ka = byCluster(a);
  const kb = byCluster(b);
  const out = new Set<string>();
  for (const [n, la] of ka) {
    const lb = kb.get(n);
    if (lb !== undefined && la.length === lb.length && la.every((x, i) => !x.endsWith('\0unknown') && x === lb[i])) out.add(n);
  }
  return out;
}

/**
 * The leaf files of the clusters `build` names (every cluster when it is undefined), kept in
 * memory instead of written to a directory and read back (buildLeaves): what render would write
 * there, file by file. Apps that were not built or failed get the same notes as buildLeaves and no
 * entry; the apps every cluster's plan leaves out are noted for every cluster, built or not.
 * docs/adr/0315-diff-leaves-in-memory.md, 0354.
 */
async function buildLeafFiles(resolved: ResolvedFleet, plan: LeafPlan, build: ((cluster: string) => boolean) | undefined, options: DiffLeavesOptions, notes: Map<string, string[]>, root: string): Promise<{ files: LeafFiles; jobs: number }> {
  const out: LeafFiles = new Map();
  const note = (cluster: string, text: string) => notes.set(cluster, [...(notes.get(cluster) ?? []), portableText(text, root)]);
  if (resolved.clusters.length === 0) return { files: out, jobs: 0 };
  // A directory replaced holds exactly the files given (createManifestWriter into a fresh directory does the same).
  const dirs = new Map<string, readonly OutputFile[]>();
  const writer: ManifestWriter = { replaceDirectory: (relDir, files) => void dirs.set(relDir, files) };
  const jobs = build === undefined ? plan.jobs : plan.jobs.filter((j) => build(j.cluster));
  // What renderFleetLeaves runs (api/render.ts), given the jobs: nothing at all when none is left.
  const run: RenderLeavesResult = jobs.length > 0 ? await renderLeaves(jobs, { ...options, writer, repoRoot: resolved.fleet.root }) : { results: [], stats: { builds: 0, hits: 0, misses: 0, uncacheable: 0 } };
  const failed = noteLeafRun(run, plan.skipped, note);
  for (const r of run.results) {
    if (failed.has(`${r.cluster}\0${r.app}`)) continue;
    let m = out.get(r.cluster);
    if (!m) out.set(r.cluster, (m = new Map()));
    // What leafObjectsFromDirectory reads back: the app's folder, its YAML files in name order.
    const files = (dirs.get(`${r.cluster}/manifests/${appFileName(r.app) ?? r.app}`) ?? []).filter((f) => /\.ya?ml$/.test(f.name));
    m.set(r.app, files.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)));
  }
  return { files: out, jobs: jobs.length };
}

/** The objects of an app's leaf files, as leafObjectsFromDirectory parses them from disk (the same bytes, the same size limit). */
function leafObjects(cluster: string, app: string, files: readonly OutputFile[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const f of files) {
    const bytes = Buffer.from(f.content, 'utf8');
    if (bytes.length > MAX_INPUT_BYTES) {
      // The error reading the file back would give: the same text, from the same reader.
      const dir = mkdtempSync(join(tmpdir(), 'fleetplan-diff-leaf-'));
      try {
        writeFileSync(join(dir, f.name), bytes);
        readTextFile(join(dir, f.name), `${cluster}/manifests/${appFileName(app) ?? app}/${f.name}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    for (const doc of parseYamlAll(bytes.toString('utf8'))) {
      if (doc && typeof doc === 'object' && !Array.isArray(doc)) out.push(doc as Record<string, unknown>);
    }
  }
  return out;
}

const sameFiles = (x: readonly OutputFile[], y: readonly OutputFile[]): boolean => x.length === y.length && x.every((f, i) => f.name === y[i]!.name && f.content === y[i]!.content);

/**
 * A cluster's leaf objects on both sides: an app whose files are byte for byte the same on both
 * gets no objects on either (its objects are equal, so its diff is empty either way) and is not
 * parsed; any other is parsed on each side. An app absent from a side (not built, failed) stays absent.
 * `shortcut` false: every app is parsed on both sides — for a cluster that tracks a pin on a side,
 * whose side at the pin is built there and compared with the other side's objects (docs/adr/0354).
 */
function leafPair(cluster: string, a: Map<string, OutputFile[]> | undefined, b: Map<string, OutputFile[]> | undefined, shortcut = true): [Map<string, Record<string, unknown>[]>, Map<string, Record<string, unknown>[]>] {
  const oa = new Map<string, Record<string, unknown>[]>();
  const ob = new Map<string, Record<string, unknown>[]>();
  for (const [app, fa] of a ?? []) {
    const fb = b?.get(app);
    if (shortcut && fb !== undefined && sameFiles(fa, fb)) {
      oa.set(app, []);
      ob.set(app, []);
    } else oa.set(app, leafObjects(cluster, app, fa));
  }
  for (const [app, fb] of b ?? []) if (!ob.has(app)) ob.set(app, leafObjects(cluster, app, fb));
  return [oa, ob];
}

/** A cluster's side whose revision is pinned: the cluster as the repository holds it at the pin. */
export async function atPin(revs: Revisions, name: string, revision: string, options: DiffOptions): Promise<{ side?: ClusterSide; notes: string[]; note?: string }> {
  const sha = await resolveCommit(revs.where.top, revision);
  if (sha === undefined) return { notes: [], note: `it tracks ${revision}, which is not a commit of the local repository (git fetch it to see what it gets)` };
  const side = await revs.side({ revision, commit: sha });
  if (!side.load.fleet.clusters.some((c) => c.name === name)) return { notes: [], note: `it tracks ${revision}, where the cluster is not defined` };
  const loaded = await loadClusters(side, tracking(side.load.fleet, name, revision), [name], options);
  return { side: loaded.sides.get(name)!, notes: loaded.notes.get(name) ?? [] };
}

/**
 * Whether a fleet's clusters can be compared one at a time from their fingerprints: not under
 * `delivery: applicationset`, whose plan evaluates the repository's ApplicationSets across
 * clusters with real git (the whole fleet is then rendered on both sides).
 */
function incrementalFits(fleet: Fleet): boolean {
  return fleet.delivery !== 'applicationset';
}

/**
 * The findings of a committed side from its record (../adapters/diff-records.ts), for `--leaves`
 * runs given `recordsFor` (the record of the same tree, build and selection holds what
 * validateFleet gives: docs/adr/0315-diff-leaves-in-memory.md); undefined when there is none or the
 * side could not have one (the conditions of keepRecord).
 */
async function recordedFindings(revs: Revisions, side: Side, options: DiffOptions & { recordsFor?: unknown }): Promise<Finding[] | undefined> {
  const { commit } = side.label;
  if (options.recordsFor === undefined || options.cacheDir === undefined || commit === null || side.reads === undefined || side.reads.unknown || side.load.fleet.delivery === 'applicationset') return undefined;
  const tree = await fleetTree(revs.where, commit, revs.ahead);
  if (tree === undefined) return undefined;
  return readRecord(options.cacheDir, recordKey(tree, options.recordsFor), tree)?.findings;
}

export interface Compared {
  /** Per side, whether its findings came from its record (then it is not written again). */
  recorded?: [boolean, boolean];
  clusters: ClusterDiff[];
  findings: FindingsDelta;
  /** Per side (from, to), its selected clusters as its diff against itself reports them; absent from the full path. */
  summaries?: [ClusterSummary[], ClusterSummary[]];
  /** Per side, its findings (with the summaries). */
  sideFindings?: [Finding[], Finding[]];
}

/** Every selected cluster rendered on both sides (`full: true`, and fleets incrementalFits refuses). */
async function compareInFull(revs: Revisions, a: Side, b: Side, na: readonly string[], nb: readonly string[], names: readonly string[], options: DiffOptions): Promise<Compared> {
  options.onProgress?.(`rendering ${a.label.revision}…`);
  const la = await loadClusters(a, a.load.fleet, na, options);
  options.onProgress?.(`rendering ${b.label.revision}…`);
  const lb = await loadClusters(b, b.load.fleet, nb, options);
  const clusters: ClusterDiff[] = [];
  for (const n of names) clusters.push(await compareCluster(revs, n, na.includes(n) ? la : undefined, nb.includes(n) ? lb : undefined, options, atPin));
  return { clusters, findings: diffFindings(la.findings, lb.findings) };
}

/**
 * Both sides resolved in full (validation and the findings delta need every cluster), but only
 * the clusters whose fingerprints differ (diff-inputs.ts) rendered and planned, one cluster at a
 * time, so that no more than one cluster's objects of each side are held; a cluster with equal
 * fingerprints gets exactly what the full comparison would give it: nothing changed. Leaves
 * (`--leaves`) are built for every cluster on both sides through the one content cache.
 */
async function compareIncrementally(revs: Revisions, a: Side, b: Side, na: readonly string[], nb: readonly string[], names: readonly string[], options: DiffOptions): Promise<Compared> {
  options.onProgress?.(`resolving ${a.label.revision} and ${b.label.revision}…`);
  const ra = resolveFleet(a.load.fleet, { clusters: [...na] });
  const rb = resolveFleet(b.load.fleet, { clusters: [...nb] });
  const fpa = clusterFingerprints(ra);
  const fpb = clusterFingerprints(rb);
  const ca = new Map(ra.clusters.map((c) => [c.name, c]));
  const cb = new Map(rb.clusters.map((c) => [c.name, c]));
  const same = (n: string) => fpa.get(n) !== undefined && fpa.get(n) === fpb.get(n);
  const notesA = new Map<string, string[]>();
  const notesB = new Map<string, string[]>();
  let leavesA: LeafFiles | undefined;
  let leavesB: LeafFiles | undefined;
  // With --leaves, a cluster whose fingerprints and leaf job keys are equal on both sides is not
  // built at all: its leaves are the same on both (docs/adr/0354).
  let leafSkipped = new Set<string>();
  if (options.leaves) {
    const pa = planLeaves(ra, options.leaves);
    const pb = planLeaves(rb, options.leaves);
    leafSkipped = new Set([...sameLeafInputs(pa, pb)].filter(same));
    const build = (n: string) => !leafSkipped.has(n);
    const built = names.filter(build).length;
    options.onProgress?.(`building leaves of ${a.label.revision} (${built} of ${names.length} clusters whose leaf inputs differ)…`);
    const la = await buildLeafFiles(ra, pa, build, options.leaves, notesA, a.root);
    options.onProgress?.(`building leaves of ${b.label.revision}…`);
    const lb = await buildLeafFiles(rb, pb, build, options.leaves, notesB, b.root);
    leavesA = la.files;
    leavesB = lb.files;
    options.onProgress?.(`leaves built for ${built} of ${names.length} clusters (${la.jobs} + ${lb.jobs} leaf jobs rendered; ${leafSkipped.size} clusters' leaf inputs are the same on both sides)`);
  }
  // What each side's diff against itself would say of each cluster (the records of ../adapters/diff-records.ts).
  const seenA = new Map<string, ClusterSummary>();
  const seenB = new Map<string, ClusterSummary>();
  const sideOf = (resolved: ResolvedFleet, c: ResolvedCluster, p: ReturnType<typeof planCluster>, render: boolean, leaves: Map<string, Record<string, unknown>[]> | undefined): ClusterSide => {
    (resolved === ra ? seenA : seenB).set(c.name, { name: c.name, sector: p.sector, revision: p.revision });
    return {
      name: c.name,
      sector: p.sector,
      revision: p.revision,
      objects: render ? clusterObjects(resolved, c) : [],
      apps: render ? p.apps : [],
      bootstrap: render ? p.bootstrap : [],
      ...(leaves ? { leaves } : {}),
    };
  };
  const rendered = names.filter((n) => !same(n)).length;
  options.onProgress?.(`rendering ${rendered} of ${names.length} clusters whose inputs differ…`);
  const clusters: ClusterDiff[] = [];
  for (const n of names) {
    const render = !same(n);
    const x = ca.get(n);
    const y = cb.get(n);
    const px = x && planCluster(ra.fleet, x);
    const py = y && planCluster(rb.fleet, y);
    // A side tracking something other than its fleet's revision may be replaced by the cluster at its pin (compareCluster): no shortcut then.
    const other = (fleet: Pick<Fleet, 'revision'>, p: ReturnType<typeof planCluster> | undefined) => p !== undefined && p.revision !== fleet.revision && p.revision !== 'HEAD' && p.revision !== '';
    const [objectsA, objectsB] = options.leaves ? leafPair(n, leavesA!.get(n), leavesB!.get(n), !other(ra.fleet, px) && !other(rb.fleet, py)) : [undefined, undefined];
    const one = (resolved: ResolvedFleet, c: ResolvedCluster | undefined, p: ReturnType<typeof planCluster> | undefined, notes: Map<string, string[]>, leaves: Map<string, Record<string, unknown>[]> | undefined): Loaded | undefined =>
      c === undefined || p === undefined ? undefined : { fleet: resolved.fleet, sides: new Map([[n, sideOf(resolved, c, p, render, leaves)]]), findings: [], notes };
    clusters.push(await compareCluster(revs, n, one(ra, x, px, notesA, objectsA), one(rb, y, py, notesB, objectsB), options, atPin));
    leavesA?.delete(n);
    leavesB?.delete(n);
  }
  // A side's findings: its record's when it has one (`--leaves` with a record cache), else validated here.
  const ka = await recordedFindings(revs, a, options);
  const kb = b.label.commit === a.label.commit ? ka : await recordedFindings(revs, b, options);
  const fa = ka ?? portable(validateFleet(ra, { fs: sideFs(a) }), a.root);
  const fb = kb ?? portable(validateFleet(rb, { fs: sideFs(b) }), b.root);
  const summary = (selected: readonly string[], of: Map<string, ClusterSummary>) => selected.map((n) => of.get(n)!);
  return { clusters, findings: diffFindings(fa, fb), summaries: [summary(na, seenA), summary(nb, seenB)], sideFindings: [fa, fb], recorded: [ka !== undefined, kb !== undefined] };
}

/**
 * What a promotion deploys (`promote --dry-run`): each of the sector's clusters as the repository
 * holds it at the revision the sector tracks now, against the commit it will pin, with the
 * sector tracking each; and the findings the promotion brings to those clusters or takes away.
 */
export async function diffPromotionOf(options: PromotionDiffOptions): Promise<FleetDiff> {
  const revs = await openRevisions(options);
  try {
    const fromCommit = await revs.commit(options.fromRevision);
    const a = await revs.side({ revision: options.fromRevision, commit: fromCommit });
    const b = await revs.side({ revision: options.toCommit, commit: options.toCommit });
    const retrack = (s: Side, revision: string): Side => {
      let fleet = s.load.fleet;
      fleet = { ...fleet, sectors: fleet.sectors.map((x) => (x.name === options.sector ? { ...x, revision } : x)) };
      return { ...s, load: { ...s.load, fleet } };
    };
    // Both sides track their own commit, so nothing compares as pinned to itself.
    const { diff } = await compareSides(revs, retrack(a, options.fromRevision), retrack(b, options.toCommit), { ...options, clusters: [] }, options.clusters);
    return diff;
  } finally {
    await revs.close();
  }
}

/** `validate --base REV`: the findings the working tree introduces and fixes, compared with REV. */
export async function findingsAgainstBase(options: BaseFindingsOptions): Promise<{ base: DiffRevision; introduced: Finding[]; fixed: Finding[] }> {
  const revs = await openRevisions(options);
  try {
    const base: DiffRevision = { revision: options.base, commit: await revs.commit(options.base) };
    const findingsOf = async (label: DiffRevision): Promise<Finding[]> => {
      const side = await revs.side(label);
      const resolved = resolveFleet(side.load.fleet, { clusters: selectedOn(side.load.fleet, options) });
      return portable(validateFleet(resolved, { fs: nodeFileSystem(side.root) }), side.root);
    };
    const before = await findingsOf(base);
    const after = await findingsOf({ revision: 'working tree', commit: null });
    return { base, ...diffFindings(before, after) };
  } finally {
    await revs.close();
  }
}
export async function compareSides(revs: Revisions, a: Side, b: Side, options: DiffOptions, only: readonly string[] | undefined): Promise<{ diff: FleetDiff; compared: Compared }> {
  const fa = a.load.fleet;
  const fb = b.load.fleet;
  const na = only ? selectedOn(fa, options).filter((n) => only.includes(n)) : selectedOn(fa, options);
  const nb = only ? selectedOn(fb, options).filter((n) => only.includes(n)) : selectedOn(fb, options);
  for (const n of options.clusters ?? []) {
    if (!na.includes(n) && !nb.includes(n) && !(only && !only.includes(n))) {
      throw new UsageError(`unknown cluster "${n}": it is defined at neither ${a.label.revision} nor ${b.label.revision}`, { code: 'unknown-cluster' });
    }
  }
  const names = [...nb, ...na.filter((n) => !nb.includes(n))];
  const incremental = options.full !== true && incrementalFits(fa) && incrementalFits(fb);
  // Both sides build through one content cache, so a source that is the same on both is built
  // once; without a cache directory (cacheDir: false) a temporary one serves this run only.
  const scratch = options.leaves?.cacheDir === false ? mkdtempSync(join(tmpdir(), 'fleetplan-diff-cache-')) : undefined;
  const opts: DiffOptions = scratch !== undefined ? { ...options, leaves: { ...options.leaves!, cacheDir: scratch } } : options;
  let compared: Compared;
  try {
    compared = incremental ? await compareIncrementally(revs, a, b, na, nb, names, opts) : await compareInFull(revs, a, b, na, nb, names, opts);
  } finally {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
  const { clusters, findings } = compared;
  const diff: FleetDiff = {
    fleet: fb.name,
    layout: fb.layout,
    from: a.label,
    to: b.label,
    leaves: options.leaves !== undefined,
    clusters,
    findings,
  };
  return { diff, compared };
}


/**
 * A side's findings for the record path (./diff.ts fromRecord): validateFleet of its selection;
 * undefined when it is not the fleet the record `base` is of (name, layout, revision, selection).
 */
export function validateSide(side: Side, options: DiffOptions, base: { fleet: { name: string; layout: string; revision: string }; names: readonly string[] }): Finding[] | undefined {
  const fleet = side.load.fleet;
  const selected = selectedOn(fleet, options);
  if (fleet.name !== base.fleet.name || fleet.layout !== base.fleet.layout || fleet.revision !== base.fleet.revision || selected.join('\0') !== base.names.join('\0')) return undefined;
  return portable(validateFleet(resolveFleet(fleet, { clusters: selected }), { fs: sideFs(side) }), side.root);
}
