/**
 * `diffFleet`: what a change does to each cluster, offline. Both revisions are read through real
 * git without touching the working tree (adapters/git-snapshot.ts checks a commit out into a
 * temporary clone; the working tree is read where it is), each is loaded by whatever layout
 * reader fits, resolved, planned, rendered and validated exactly as `plan`, `render` and
 * `validate` do, and the pure diff stage compares the two (src/diff). A cluster whose revision is
 * pinned (a sector pin, a layout's per-cluster pin) gets what the repository holds at that pin:
 * when the pin is the same on both sides, the change does not reach it ("no change until
 * promoted"); when the change moves the pin, the cluster's diff is the content at the old pin
 * against the content at the new one. Decisions: docs/adr/0225-fleetplan-diff.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { branchRef, changedUnderFleet, checkoutSnapshot, currentBranch, fleetCheckout, fleetTree, mergeBase, originHead, resolveCommit, treeHasLinks } from '../adapters/git-snapshot.js';
import type { FleetCheckout, Snapshot } from '../adapters/git-snapshot.js';
import type { TreeFileSystem } from '../adapters/git-tree-fs.js';
import { treeFileSystem } from '../adapters/git-tree-fs.js';
import { leafObjectsFromDirectory } from '../adapters/leaf-objects.js';
import { nodeFileSystem } from '../adapters/node-fs.js';
import type { ClusterSide, DiffRevision, FleetDiff } from '../diff/index.js';
import { countChanges, diffCluster, diffFindings, diffObjects, diffOrder } from '../diff/index.js';
import type { ClusterDiff, FindingsDelta } from '../diff/index.js';
import { InputError, UsageError } from '../errors/index.js';
import type { Selector } from '../layering/selector.js';
import { selectClustersByLabels } from '../layering/selector.js';
import { orderedClusters, resolveFleet } from '../layering/resolve-fleet.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { LoadResult } from '../load/native.js';
import type { Finding } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { planCluster } from '../order/plan.js';
import { clusterFingerprints } from './diff-inputs.js';
import type { ClusterSummary, RevisionRecord } from '../adapters/diff-records.js';
import { fleetplanBuild, readRecord, recordKey, writeRecord } from '../adapters/diff-records.js';
import type { ReadSet } from './diff-reads.js';
import { emptyReadSet, readSetOf, readSetRecord, recordingFileSystem, touchedBy } from './diff-reads.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { emptyFleet, NATIVE_CAPABILITIES } from '../model/fleet.js';
import { renderCluster } from '../render/fleet.js';
import { loadFleet, validateFleet } from './fleet.js';
import { readRepositoryOrigin } from '../adapters/git.js';
import type { RepositoryOrigin } from '../ports/git-repo.js';
import { planRepository } from './plan.js';
import { renderFleetLeaves } from './render.js';
import type { RenderLeavesOptions } from './leaves.js';

/** How `--leaves` builds (the options of `render --leaves`, without where to write). */
export type DiffLeavesOptions = Omit<RenderLeavesOptions, 'repoRoot' | 'outDir' | 'onProgress'>;

export interface DiffOptions {
  /** The fleet root (`--repo`). */
  root: string;
  /** The base revision; default: the merge base of the fleet's branch and `to` (or HEAD). */
  from?: string;
  /** The revision the change is; default: the working tree, as it is on disk. */
  to?: string;
  /** `--cluster` names (a name on either side); default: every cluster. */
  clusters?: readonly string[];
  /** `-l` selectors, matched against each side's cluster definitions. */
  selectors?: readonly Selector[];
  /** Build and compare leaf manifests with the real kustomize and Helm. */
  leaves?: DiffLeavesOptions;
  /** Completes a loaded fleet whose reader needs real builds (the CLI's loader). */
  complete?: (result: LoadResult, root: string) => Promise<void>;
  /** A line of progress (stderr). */
  onProgress?: (message: string) => void;
  /**
   * Render every selected cluster on both sides, even those whose inputs are the same
   * (default: only the clusters whose fingerprints differ; docs/adr/0245-incremental-diff.md).
   */
  full?: boolean;
  /**
   * Where the diff keeps its record of each revision it read (`<cacheDir>/diff-v1`, keyed by the
   * fleet's git tree): a later diff whose changes touch nothing a record's revision read answers
   * from it without loading either side (docs/adr/0267-diff-read-sets.md). Default: none.
   */
  cacheDir?: string;
}

/** One revision of the fleet, loaded. */
interface Side {
  label: DiffRevision;
  root: string;
  load: LoadResult;
  /** What loading this side read; undefined when that is not all it depends on (a reader that ran tools). */
  reads?: ReadSet;
  /** What validating it read (kept with `reads`). */
  checks?: ReadSet;
  /** The repository, when it is not the directory `root` (a revision read from git's objects: Revisions.fromObjects). */
  fs?: RepoFileSystem;
}

/** The repository of a side as validation reads it (recording what it reads when the side's reads are kept). */
function sideFs(side: Side): RepoFileSystem {
  const fs = side.fs ?? nodeFileSystem(side.root);
  return side.checks ? recordingFileSystem(fs, side.checks) : fs;
}

interface Loaded {
  /** The side's fleet revision (what pins are told from). */
  fleet: Pick<Fleet, 'revision'>;
  sides: Map<string, ClusterSide>;
  findings: Finding[];
  notes: Map<string, string[]>;
}

/** Read-only access to revisions of one repository, checked out once each and removed at the end. */
class Revisions {
  private readonly snapshots = new Map<string, Promise<Snapshot>>();
  private readonly loads = new Map<string, Promise<Side>>();
  private readonly trees: TreeFileSystem[] = [];
  private origin: RepositoryOrigin | undefined;

  constructor(
    readonly where: FleetCheckout,
    private readonly options: DiffOptions,
  ) {}

  async commit(revision: string): Promise<string> {
    const sha = await resolveCommit(this.where.top, revision);
    if (sha === undefined) {
      throw new InputError(`revision ${JSON.stringify(revision)} is not a commit of ${this.where.top}`, {
        code: 'unknown-revision',
        hint: 'give a branch, tag or (short) SHA of the local repository; git fetch first for a remote branch',
      });
    }
    return sha;
  }

  /** The fleet at a commit (checked out and loaded once per commit), labelled as asked. */
  async side(label: DiffRevision): Promise<Side> {
    return { ...(await this.loadOnce(label)), label };
  }

  private loadOnce(label: DiffRevision): Promise<Side> {
    const key = label.commit ?? '';
    let p = this.loads.get(key);
    if (!p) {
      p = (async () => {
        let root = this.options.root;
        if (label.commit !== null) {
          let s = this.snapshots.get(label.commit);
          if (!s) this.snapshots.set(label.commit, (s = checkoutSnapshot(this.where, label.commit)));
          root = (await s).root;
        }
        let load: LoadResult;
        const reads = emptyReadSet();
        const fs = recordingFileSystem(nodeFileSystem(root), reads);
        try {
          // A snapshot is a clone whose origin is the local repository: it takes the working
          // repository's origin and branch, so both sides name the same repoURL and revision.
          load = loadFleet(root, label.commit !== null ? { origin: this.repositoryOrigin(), fs } : { fs });
        } catch (e) {
          // A commit from before the fleet existed holds no clusters: everything is added after it.
          if (e instanceof InputError && e.code === 'no-fleet' && label.commit !== null) {
            return { label, root, load: { fleet: emptyFleet(root, 'native', NATIVE_CAPABILITIES), findings: [] } };
          }
          if (e instanceof InputError && label.commit !== null) {
            throw new InputError(`at ${label.revision} (${label.commit.slice(0, 12)}): ${e.message}`, { code: e.code, ...(e.location ? { location: e.location } : {}), ...(e.hint ? { hint: e.hint } : {}), cause: e });
          }
          throw e;
        }
        await this.options.complete?.(load, root);
        // A reader that follows Applications or builds directories with real tools read more than the port saw.
        const complete = load.complete !== undefined || (load.fallbacks?.length ?? 0) > 0;
        return { label, root, load, ...(complete || reads.unknown ? {} : { reads, checks: emptyReadSet() }) };
      })();
      this.loads.set(key, p);
    }
    return p;
  }

  /**
   * The fleet at a commit loaded from git's objects without a checkout (../adapters/git-tree-fs.ts),
   * `prefetch` read in one batch; with `doubt()`, which the caller asks after validating it: when
   * the objects could not answer as a checkout would, what was read this way must be thrown away
   * (and the revision checked out with side()). Undefined when the tree holds a link or submodule,
   * loading fails, or the reader needs real tools (those take side()'s path).
   */
  fromObjects(label: DiffRevision, prefetch: readonly string[]): { side: Side; doubt(): string | undefined } | undefined {
    if (label.commit === null) return undefined;
    const tree = treeFileSystem(this.where, label.commit, prefetch);
    if (tree === undefined) return undefined;
    this.trees.push(tree);
    const reads = emptyReadSet();
    let load: LoadResult;
    try {
      load = loadFleet(tree.fs.root, { origin: this.repositoryOrigin(), fs: recordingFileSystem(tree.fs, reads) });
    } catch {
      return undefined;
    }
    if (load.complete !== undefined || (load.fallbacks?.length ?? 0) > 0 || reads.unknown || tree.doubt() !== undefined) return undefined;
    return { side: { label, root: tree.fs.root, load, reads, checks: emptyReadSet(), fs: tree.fs }, doubt: tree.doubt };
  }

  /** The working repository's origin and branch (every snapshot takes them: see loadOnce). */
  repositoryOrigin(): RepositoryOrigin {
    return (this.origin ??= readRepositoryOrigin(this.options.root));
  }

  private fleetBranch: Promise<string | undefined> | undefined;

  /** The fleet's branch (see fleetBranch), or undefined when there is none. */
  branch(fleet: Pick<Fleet, 'revision'>): Promise<string | undefined> {
    return (this.fleetBranch ??= fleetBranch(this.where, fleet).catch(() => undefined));
  }

  async close(): Promise<void> {
    for (const t of this.trees) t.close();
    for (const s of this.snapshots.values()) {
      try {
        (await s).close();
      } catch {
        // A checkout that failed removed its own directory.
      }
    }
  }
}

/** The fleet's branch: the branch its revision names (origin's first), else origin/HEAD, else the branch HEAD is on. */
async function fleetBranch(where: FleetCheckout, fleet: Pick<Fleet, 'revision'>): Promise<string> {
  const named = fleet.revision !== '' && fleet.revision !== 'HEAD' ? await branchRef(where.top, fleet.revision) : undefined;
  if (named !== undefined) return named;
  const head = await originHead(where.top);
  if (head !== undefined) return head;
  // A local repository without a remote: the branch it is on.
  const current = await currentBranch(where.top);
  if (current !== undefined) return current;
  throw new UsageError(`cannot tell which branch this change merges into: the fleet revision ${JSON.stringify(fleet.revision)} is not a branch of the repository and it has no origin/HEAD`, {
    code: 'no-base-revision',
    hint: 'pass --from REV (the commit to compare with, e.g. --from main)',
  });
}

/** A message with the checkout directory's paths made repository-relative (the temporary checkout's name changes on every run). */
function portableText(s: string, root: string): string {
  return s.split(`${root}/`).join('').split(root).join('.');
}

/** Messages that name the checkout directory name the repository instead, so the two sides compare. */
function portable(findings: readonly Finding[], root: string): Finding[] {
  const fix = (s: string) => portableText(s, root);
  return findings.map((f) => ({ ...f, message: fix(f.message), ...(f.hint !== undefined ? { hint: fix(f.hint) } : {}) }));
}

/** Selected cluster names of one side: --cluster names it has, then the selectors. */
function selectedOn(fleet: Fleet, options: DiffOptions): string[] {
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
      objects: renderCluster(resolved, c).flatMap((f) => f.objects.map((object) => ({ file: f.path, object }))),
      apps: p.apps,
      bootstrap: p.bootstrap,
      ...(leaves ? { leaves: leaves.get(c.name) ?? new Map() } : {}),
    });
  }
  const findings = portable(validateFleet(resolved, { fs: nodeFileSystem(side.root) }), side.root);
  return { fleet: resolved.fleet, sides, findings, notes };
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
    for (const s of skipped) note(s.cluster, `leaves of ${s.app} not built: ${s.reason}`);
    const failed = new Set<string>();
    for (const r of run.results) {
      for (const n of r.notes ?? []) note(r.cluster, `leaves of ${r.app}: ${n}`);
      if (r.error) {
        failed.add(`${r.cluster}\0${r.app}`);
        note(r.cluster, `leaves of ${r.app} could not be built: ${r.error.message.split('\n')[0]}`);
      }
    }
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

/** A cluster's side whose revision is pinned: the cluster as the repository holds it at the pin. */
async function atPin(revs: Revisions, name: string, revision: string, options: DiffOptions): Promise<{ side?: ClusterSide; notes: string[]; note?: string }> {
  const sha = await resolveCommit(revs.where.top, revision);
  if (sha === undefined) return { notes: [], note: `it tracks ${revision}, which is not a commit of the local repository (git fetch it to see what it gets)` };
  const side = await revs.side({ revision, commit: sha });
  if (!side.load.fleet.clusters.some((c) => c.name === name)) return { notes: [], note: `it tracks ${revision}, where the cluster is not defined` };
  const loaded = await loadClusters(side, tracking(side.load.fleet, name, revision), [name], options);
  return { side: loaded.sides.get(name)!, notes: loaded.notes.get(name) ?? [] };
}

/**
 * Whether a cluster's apps track something other than what the change merges into: not the
 * fleet's revision, HEAD, or the fleet's branch (`main`, `origin/main`) — a commit, a tag or
 * another branch, which the change reaches only when it is moved (promoted).
 */
function pinned(fleet: Pick<Fleet, 'revision'>, side: ClusterSide | undefined, branch: string | undefined): boolean {
  if (side === undefined) return false;
  const r = side.revision;
  if (r === fleet.revision || r === 'HEAD' || r === '') return false;
  if (branch === undefined) return true;
  const name = branch.replace(/^origin\//, '');
  return ![name, `origin/${name}`, `refs/heads/${name}`, `refs/remotes/origin/${name}`].includes(r);
}

async function compareCluster(revs: Revisions, name: string, a: Loaded | undefined, b: Loaded | undefined, options: DiffOptions): Promise<ClusterDiff> {
  const x = a?.sides.get(name);
  const y = b?.sides.get(name);
  const notes = [...new Set([...(a?.notes.get(name) ?? []), ...(b?.notes.get(name) ?? [])])];
  const branch = await revs.branch(b?.fleet ?? a!.fleet);
  const px = a !== undefined && pinned(a.fleet, x, branch);
  const py = b !== undefined && pinned(b.fleet, y, branch);
  if (!px && !py) return withNotes(diffCluster(x, y), notes);
  if (x && y && px && py && x.revision === y.revision) {
    // Both sides track the same pin: the cluster keeps what the pin holds.
    const d = diffCluster(x, y);
    return withNotes({ ...d, status: 'pinned', objects: [], order: [], ...(d.leaves ? { leaves: [] } : {}), counts: { added: 0, changed: 0, removed: 0 }, pending: countChanges(diffObjects(x.objects, y.objects)), pendingOrder: diffOrder(x, y).length }, notes);
  }
  const from = px && x ? await atPin(revs, name, x.revision, options) : { side: x, notes: [] as string[] };
  const to = py && y ? await atPin(revs, name, y.revision, options) : { side: y, notes: [] as string[] };
  const unreadable = [from, to].filter((s) => 'note' in s && s.note !== undefined) as { note: string }[];
  if (unreadable.length) {
    const base = diffCluster(x, y);
    return withNotes({ ...base, status: 'unreadable', objects: [], order: [], ...(base.leaves ? { leaves: [] } : {}), counts: { added: 0, changed: 0, removed: 0 } }, [...notes, ...unreadable.map((u) => u.note)]);
  }
  return withNotes(diffCluster(from.side, to.side), [...notes, ...from.notes, ...to.notes]);
}

function withNotes(d: ClusterDiff, notes: readonly string[]): ClusterDiff {
  return { ...d, notes: [...new Set([...d.notes, ...notes])] };
}

/** The two revisions the options name, the base defaulting to the merge base with the fleet's branch. */
async function revisionsOf(revs: Revisions, options: DiffOptions): Promise<{ from: DiffRevision; to: DiffRevision }> {
  const to: DiffRevision = options.to !== undefined ? { revision: options.to, commit: await revs.commit(options.to) } : { revision: 'working tree', commit: null };
  if (options.from !== undefined) return { from: { revision: options.from, commit: await revs.commit(options.from) }, to };
  const toSide = await revs.side(to);
  const branch = await revs.branch(toSide.load.fleet);
  const head = to.commit ?? (await revs.commit('HEAD'));
  // No branch to merge into (a local repository whose fleet tracks HEAD): the change is what is
  // not committed yet, as `git diff` shows it; the label says so.
  if (branch === undefined) return { from: { revision: 'HEAD (no fleet branch found)', commit: head }, to };
  const base = await mergeBase(revs.where.top, branch, head);
  if (base === undefined) {
    throw new UsageError(`${branch} and ${to.commit !== null ? options.to : 'HEAD'} have no common commit`, { code: 'no-base-revision', hint: 'pass --from REV' });
  }
  return { from: { revision: `merge base with ${branch}`, commit: base }, to };
}

/** What the change from `from` to `to` does to each selected cluster, and the findings it introduces and fixes. */
export async function diffFleet(options: DiffOptions): Promise<FleetDiff> {
  const revs = new Revisions(await fleetCheckout(options.root), options);
  try {
    const { from, to } = await revisionsOf(revs, options);
    const context = options.cacheDir !== undefined && options.full !== true && options.leaves === undefined ? recordContext(revs, options) : undefined;
    if (context !== undefined) {
      const answer = await fromRecord(revs, from, to, options, context);
      if (answer !== undefined) return answer;
    }
    options.onProgress?.(`reading ${from.revision} and ${to.revision}…`);
    const a = await revs.side(from);
    const b = await revs.side(to);
    const { diff, compared } = await compareSides(revs, a, b, options, undefined);
    const { summaries, sideFindings } = compared;
    if (context !== undefined && summaries !== undefined && sideFindings !== undefined) {
      await keepRecord(revs, a, summaries[0], sideFindings[0], context, options.cacheDir!);
      if (b.label.commit !== a.label.commit) await keepRecord(revs, b, summaries[1], sideFindings[1], context, options.cacheDir!);
    }
    return diff;
  } finally {
    await revs.close();
  }
}

async function compareSides(revs: Revisions, a: Side, b: Side, options: DiffOptions, only: readonly string[] | undefined): Promise<{ diff: FleetDiff; compared: Compared }> {
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

/** What a revision's record depends on besides its tree: the repository origin every side takes, and the selection. */
function recordContext(revs: Revisions, options: DiffOptions): unknown {
  // The checkout's place too: a layout may name the fleet after its directory.
  return { top: revs.where.top, prefix: revs.where.prefix, origin: revs.repositoryOrigin(), clusters: options.clusters ?? [], selectors: options.selectors ?? [] };
}

/**
 * Keeps a committed side's record (../adapters/diff-records.ts): what its load and validation read, and its
 * clusters as its diff against itself reports them. Not for the working tree (no tree id), a side
 * whose reader ran tools, a fleet whose plan reads git (`delivery: applicationset`), or a tree
 * holding a symlink or submodule (a path read through a link is not the path git lists).
 */
async function keepRecord(revs: Revisions, side: Side, clusters: ClusterSummary[], findings: Finding[], context: unknown, cacheDir: string): Promise<void> {
  const { commit } = side.label;
  if (commit === null || side.reads === undefined || side.checks === undefined || side.reads.unknown || side.checks.unknown || side.load.fleet.delivery === 'applicationset') return;
  const tree = await fleetTree(revs.where, commit);
  if (tree === undefined || (await treeHasLinks(revs.where, tree)) !== false) return;
  const { fleet } = side.load;
  writeRecord(cacheDir, {
    format: 'diff-v1',
    build: fleetplanBuild(),
    tree,
    key: recordKey(tree, context),
    reads: readSetRecord(side.reads),
    checks: readSetRecord(side.checks),
    findings,
    fleet: { name: fleet.name, layout: fleet.layout, revision: fleet.revision },
    clusters,
  });
}

/**
 * The diff from the records of the two revisions (../adapters/diff-records.ts), when one shows that nothing
 * its load read differs between them (git lists what differs): both sides then load, resolve,
 * render and plan the same, so every cluster is what its diff against itself is (unchanged, or
 * pinned with nothing pending) and nothing is checked out, loaded or rendered for the clusters.
 * Findings come from each side's record; a side without one is validated (loaded, resolved and
 * validated: no cluster rendered) unless nothing validation read differs either, when its
 * findings are the other side's. Undefined (take the full path) on any doubt.
 * docs/adr/0267-diff-read-sets.md.
 */
async function fromRecord(revs: Revisions, from: DiffRevision, to: DiffRevision, options: DiffOptions, context: unknown): Promise<FleetDiff | undefined> {
  if (from.commit === null) return undefined;
  const recordOf = async (side: DiffRevision): Promise<{ tree: string; record?: RevisionRecord } | undefined> => {
    if (side.commit === null) return undefined;
    const tree = await fleetTree(revs.where, side.commit);
    if (tree === undefined) return undefined;
    const record = readRecord(options.cacheDir!, recordKey(tree, context), tree);
    return { tree, ...(record ? { record } : {}) };
  };
  const ra = (await recordOf(from))?.record;
  const rb = from.commit === to.commit ? ra : (await recordOf(to))?.record;
  if (ra === undefined && rb === undefined) return undefined;
  const changes = await changedUnderFleet(revs.where, from.commit, to.commit);
  if (changes === undefined || changes.some((c) => c.link)) return undefined;
  // The record whose load read nothing that differs: the other side loads the same.
  const base = [ra, rb].find((r) => r !== undefined && touchedBy(readSetOf(r.reads), changes) === undefined);
  if (base === undefined) {
    const touched = touchedBy(readSetOf((ra ?? rb)!.reads), changes);
    options.onProgress?.(`${touched} differs, and loading the fleet reads it: reading both revisions…`);
    return undefined;
  }
  const names = base.clusters.map((c) => c.name);
  for (const n of options.clusters ?? []) {
    if (!names.includes(n)) throw new UsageError(`unknown cluster "${n}": it is defined at neither ${from.revision} nor ${to.revision}`, { code: 'unknown-cluster' });
  }
  // Each side's findings: its record's, else the other side's when validation read nothing that differs, else validated here.
  const sameChecks = touchedBy(readSetOf(base.checks), changes) === undefined;
  const findingsOf = async (label: DiffRevision, record: RevisionRecord | undefined): Promise<Finding[] | undefined> => {
    if (record !== undefined) return record.findings;
    if (sameChecks) return base.findings;
    options.onProgress?.(`validating ${label.revision} (its fleet loads as at the other revision)…`);
    /** The side's findings; undefined when it is not the fleet the record is of (then the full path). */
    const validate = (side: Side): Finding[] | undefined => {
      const fleet = side.load.fleet;
      const selected = selectedOn(fleet, options);
      if (fleet.name !== base.fleet.name || fleet.layout !== base.fleet.layout || fleet.revision !== base.fleet.revision || selected.join('\0') !== names.join('\0')) return undefined;
      return portable(validateFleet(resolveFleet(fleet, { clusters: selected }), { fs: sideFs(side) }), side.root);
    };
    // Read from git's objects (no checkout), the files the record says it reads fetched at once; a checkout on any doubt.
    const objects = revs.fromObjects(label, [...base.reads.content, ...base.checks.content]);
    if (objects !== undefined) {
      let findings: Finding[] | undefined;
      try {
        findings = validate(objects.side);
      } catch (e) {
        // A question the objects could not answer as the checkout would (they throw a plain Error) is a doubt, not a failure.
        if (objects.doubt() === undefined) throw e;
      }
      const doubt = objects.doubt();
      if (doubt === undefined) {
        if (findings === undefined) return undefined;
        options.onProgress?.(`validated ${label.revision} from git's objects (no checkout)`);
        await keepRecord(revs, objects.side, base.clusters, findings, context, options.cacheDir!);
        return findings;
      }
      options.onProgress?.(`${doubt}: not read from git's objects as a checkout would read it; checking ${label.revision} out…`);
    }
    const side = await revs.side(label);
    const findings = validate(side);
    if (findings === undefined) return undefined;
    await keepRecord(revs, side, base.clusters, findings, context, options.cacheDir!);
    return findings;
  };
  const fa = await findingsOf(from, ra);
  const fb = from.commit === to.commit ? fa : await findingsOf(to, rb);
  if (fa === undefined || fb === undefined) return undefined;
  options.onProgress?.(`rendering 0 of ${names.length} clusters whose inputs differ (${changes.length} path${changes.length === 1 ? '' : 's'} differ, none that loading the fleet reads)…`);
  const fleet = { revision: base.fleet.revision };
  const clusters: ClusterDiff[] = [];
  for (const c of base.clusters) {
    const side: ClusterSide = { name: c.name, sector: c.sector, revision: c.revision, objects: [], apps: [], bootstrap: [] };
    const loaded: Loaded = { fleet, sides: new Map([[c.name, side]]), findings: [], notes: new Map() };
    clusters.push(await compareCluster(revs, c.name, loaded, loaded, options));
  }
  return { fleet: base.fleet.name, layout: base.fleet.layout, from, to, leaves: false, clusters, findings: diffFindings(fa, fb) };
}

/**
 * Whether a fleet's clusters can be compared one at a time from their fingerprints: not under
 * `delivery: applicationset`, whose plan evaluates the repository's ApplicationSets across
 * clusters with real git (the whole fleet is then rendered on both sides).
 */
function incrementalFits(fleet: Fleet): boolean {
  return fleet.delivery !== 'applicationset';
}

interface Compared {
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
  for (const n of names) clusters.push(await compareCluster(revs, n, na.includes(n) ? la : undefined, nb.includes(n) ? lb : undefined, options));
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
  let leavesA: Map<string, Map<string, Record<string, unknown>[]>> | undefined;
  let leavesB: Map<string, Map<string, Record<string, unknown>[]>> | undefined;
  if (options.leaves) {
    options.onProgress?.(`building leaves of ${a.label.revision}…`);
    leavesA = await buildLeaves(ra, options.leaves, notesA, a.root);
    options.onProgress?.(`building leaves of ${b.label.revision}…`);
    leavesB = await buildLeaves(rb, options.leaves, notesB, b.root);
  }
  // What each side's diff against itself would say of each cluster (the records of ../adapters/diff-records.ts).
  const seenA = new Map<string, ClusterSummary>();
  const seenB = new Map<string, ClusterSummary>();
  const sideOf = (resolved: ResolvedFleet, c: ResolvedCluster, render: boolean, leaves: Map<string, Map<string, Record<string, unknown>[]>> | undefined): ClusterSide => {
    const p = planCluster(resolved.fleet, c);
    (resolved === ra ? seenA : seenB).set(c.name, { name: c.name, sector: p.sector, revision: p.revision });
    return {
      name: c.name,
      sector: p.sector,
      revision: p.revision,
      objects: render ? renderCluster(resolved, c).flatMap((f) => f.objects.map((object) => ({ file: f.path, object }))) : [],
      apps: render ? p.apps : [],
      bootstrap: render ? p.bootstrap : [],
      ...(leaves ? { leaves: leaves.get(c.name) ?? new Map() } : {}),
    };
  };
  const rendered = names.filter((n) => !same(n)).length;
  options.onProgress?.(`rendering ${rendered} of ${names.length} clusters whose inputs differ…`);
  const clusters: ClusterDiff[] = [];
  for (const n of names) {
    const render = !same(n);
    const x = ca.get(n);
    const y = cb.get(n);
    const one = (resolved: ResolvedFleet, c: ResolvedCluster | undefined, notes: Map<string, string[]>, leaves: typeof leavesA): Loaded | undefined =>
      c === undefined ? undefined : { fleet: resolved.fleet, sides: new Map([[n, sideOf(resolved, c, render, leaves)]]), findings: [], notes };
    clusters.push(await compareCluster(revs, n, one(ra, x, notesA, leavesA), one(rb, y, notesB, leavesB), options));
    leavesA?.delete(n);
    leavesB?.delete(n);
  }
  const fa = portable(validateFleet(ra, { fs: sideFs(a) }), a.root);
  const fb = portable(validateFleet(rb, { fs: sideFs(b) }), b.root);
  const summary = (selected: readonly string[], of: Map<string, ClusterSummary>) => selected.map((n) => of.get(n)!);
  return { clusters, findings: diffFindings(fa, fb), summaries: [summary(na, seenA), summary(nb, seenB)], sideFindings: [fa, fb] };
}

export interface PromotionDiffOptions extends Omit<DiffOptions, 'from' | 'to'> {
  /** The sector that moves. */
  sector: string;
  /** What the sector tracks now, as written (a SHA, branch or tag). */
  fromRevision: string;
  /** The full SHA it will pin. */
  toCommit: string;
  /** Its clusters. */
  clusters: readonly string[];
}

/**
 * What a promotion deploys (`promote --dry-run`): each of the sector's clusters as the repository
 * holds it at the revision the sector tracks now, against the commit it will pin, with the
 * sector tracking each; and the findings the promotion brings to those clusters or takes away.
 */
export async function diffPromotion(options: PromotionDiffOptions): Promise<FleetDiff> {
  const revs = new Revisions(await fleetCheckout(options.root), options);
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

export interface BaseFindingsOptions extends Pick<DiffOptions, 'root' | 'clusters' | 'selectors' | 'complete'> {
  /** The revision to compare the working tree with. */
  base: string;
}

/** `validate --base REV`: the findings the working tree introduces and fixes, compared with REV. */
export async function validateAgainstBase(options: BaseFindingsOptions): Promise<{ base: DiffRevision; introduced: Finding[]; fixed: Finding[] }> {
  const revs = new Revisions(await fleetCheckout(options.root), options);
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
