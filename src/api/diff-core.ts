/**
 * What every path of `diff` shares, without the stages (load, layering, render, validate): the
 * options, the revisions of the repository (read through git; loaded with `./fleet.ts` imported
 * when a revision is loaded), how a cluster's two sides are compared (pins), and the records of
 * revisions. `./diff.ts` answers from records with this module alone; `./diff-sides.ts` holds
 * what loads, resolves, renders and validates, imported only when a path needs it
 * (docs/adr/0314-diff-warm-path.md). Decisions: docs/adr/0225-fleetplan-diff.md.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { FleetCheckout, Snapshot } from '../adapters/git-snapshot.js';
import { batchableRevision, branchRef, checkoutSnapshot, currentBranch, fleetCheckout, fleetTree, fleetTreeName, GitAhead, objectIds, originHead, resolveCommit, treeHasLinks } from '../adapters/git-snapshot.js';
import type { TreeFileSystem } from '../adapters/git-tree-fs.js';
import type { ClusterSide } from '../diff/cluster.js';
import type { DiffRevision, ClusterDiff } from '../diff/types.js';
import { countChanges, diffCluster, diffObjects, diffOrder } from '../diff/cluster.js';
import { InputError, UsageError } from '../errors/index.js';
import type { Selector } from '../layering/selector.js';
import type { LoadResult } from '../load/native.js';
import type { Finding } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import type { ClusterSummary } from '../adapters/diff-records.js';
import { fleetplanBuild, recordKey, writeRecord } from '../adapters/diff-records.js';
import type { ReadSet } from './diff-reads.js';
import { emptyReadSet, readSetRecord, recordingFileSystem } from './diff-reads.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { readRepositoryOrigin, repositoryOriginCommands, repositoryOriginOf } from '../adapters/git-origin.js';
import type { RepositoryOrigin } from '../ports/git-repo.js';
import type { RenderLeavesOptions } from './leaves.js';
import type { LoadOptions } from './load-core.js';
import type { HelmfileStateValues } from '../load/helmfile-state-values.js';

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
  /** The helmfile environment each side is read in (`-e`; default `default`). */
  helmfileEnvironment?: string;
  /** helmfile's `--state-values-file`/`--state-values-set`, read once and given to both sides (ADR 0405). */
  helmfileStateValues?: HelmfileStateValues;
  /** The variables a helmfile's `env`/`requiredEnv` read, on both sides (LoadOptions.helmfileEnv). */
  helmfileEnv?: Record<string, string>;
}

/** The helmfile options every side is loaded with: both revisions read in the same environment and state values. */
function helmfileLoadOptions(options: Pick<DiffOptions, 'helmfileEnvironment' | 'helmfileStateValues' | 'helmfileEnv'>): Pick<LoadOptions, 'helmfileEnvironment' | 'helmfileStateValues' | 'helmfileChartDigests' | 'helmfileEnv'> {
  return {
    // Local charts compared by the digest of their files, which only diff reads (ADR 0395).
    helmfileChartDigests: true,
    ...(options.helmfileEnvironment !== undefined ? { helmfileEnvironment: options.helmfileEnvironment } : {}),
    ...(options.helmfileStateValues ? { helmfileStateValues: options.helmfileStateValues } : {}),
    ...(options.helmfileEnv ? { helmfileEnv: options.helmfileEnv } : {}),
  };
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

export interface BaseFindingsOptions extends Pick<DiffOptions, 'root' | 'clusters' | 'selectors' | 'complete' | 'helmfileEnvironment' | 'helmfileStateValues' | 'helmfileEnv'> {
  /** The revision to compare the working tree with. */
  base: string;
}

/** One revision of the fleet, loaded. */
export interface Side {
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

export interface Loaded {
  /** The side's fleet revision (what pins are told from). */
  fleet: Pick<Fleet, 'revision'>;
  sides: Map<string, ClusterSide>;
  findings: Finding[];
  notes: Map<string, string[]>;
}

/** Read-only access to revisions of one repository, checked out once each and removed at the end. */
export class Revisions {
  private readonly snapshots = new Map<string, Promise<Snapshot>>();
  private readonly loads = new Map<string, Promise<Side>>();
  private readonly trees: TreeFileSystem[] = [];
  private origin: RepositoryOrigin | undefined;

  constructor(
    readonly where: FleetCheckout,
    private readonly options: DiffOptions,
    /** The diff's git shell (../adapters/git-snapshot.ts GitAhead), closed with the revisions. */
    readonly ahead = new GitAhead(),
    /** The repository origin asked of that shell (originAhead), when it answered: repositoryOrigin() then runs no process. */
    origin?: RepositoryOrigin,
    /** Object ids asked ahead (lookAhead), by the name asked. */
    private readonly ids = new Map<string, Promise<string | undefined>>(),
  ) {
    this.origin = origin;
  }

  /**
   * Asks git for the object ids of `names` in one process (../adapters/git-snapshot.ts objectIds),
   * without waiting: commit() and tree() take the answers. A name git does not find is asked again
   * the way those would ask it alone.
   */
  lookAhead(names: readonly string[]): void {
    for (const [name, id] of idsAhead(this.ahead, this.where.top, names.filter((n) => !this.ids.has(n)))) this.ids.set(name, id);
  }

  private async early(name: string): Promise<string | undefined> {
    const id = this.ids.get(name);
    return id !== undefined ? await id : undefined;
  }

  /** The tree of the fleet's directory at `commit` (../adapters/git-snapshot.ts fleetTree), undefined when there is none. */
  async tree(commit: string): Promise<string | undefined> {
    return (await this.early(fleetTreeName(this.where, commit))) ?? fleetTree(this.where, commit, this.ahead);
  }

  async commit(revision: string): Promise<string> {
    // The id cat-file found for `revision^{commit}` is the one resolveCommit's first command prints (batchableRevision).
    const early = batchableRevision(revision) ? await this.early(`${revision}^{commit}`) : undefined;
    const sha = early ?? (await resolveCommit(this.where.top, revision, this.ahead));
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
        // The load stage is imported only on the paths that load a revision (docs/adr/0314-diff-warm-path.md).
        const { loadFleet } = await import('./fleet.js');
        const { nodeFileSystem } = await import('../adapters/node-fs.js');
        let load: LoadResult;
        const reads = emptyReadSet();
        const fs = recordingFileSystem(nodeFileSystem(root), reads);
        try {
          // A snapshot is a clone whose origin is the local repository: it takes the working
          // repository's origin and branch, so both sides name the same repoURL and revision.
          const env = helmfileLoadOptions(this.options);
          load = loadFleet(root, label.commit !== null ? { origin: this.repositoryOrigin(), fs, ...env } : { fs, ...env });
        } catch (e) {
          // A commit from before the fleet existed holds no clusters: everything is added after it.
          if (e instanceof InputError && e.code === 'no-fleet' && label.commit !== null) {
            const { emptyFleet, NATIVE_CAPABILITIES } = await import('../model/fleet.js');
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
  async fromObjects(label: DiffRevision, prefetch: readonly string[]): Promise<{ side: Side; doubt(): string | undefined } | undefined> {
    if (label.commit === null) return undefined;
    const { loadFleet } = await import('./fleet.js');
    const { treeFileSystem } = await import('../adapters/git-tree-fs.js');
    const tree = treeFileSystem(this.where, label.commit, prefetch);
    if (tree === undefined) return undefined;
    this.trees.push(tree);
    const reads = emptyReadSet();
    let load: LoadResult;
    try {
      load = loadFleet(tree.fs.root, { origin: this.repositoryOrigin(), fs: recordingFileSystem(tree.fs, reads), ...helmfileLoadOptions(this.options) });
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
        // A checkout's removal (tens of thousands of files) is left to the shell, which finishes it
        // after the process has exited (docs/adr/0354); removed here when the shell cannot take it.
        const snapshot = await s;
        if (!snapshot.closeLater(this.ahead)) snapshot.close();
      } catch {
        // A checkout that failed removed its own directory.
      }
    }
    this.ahead.close();
  }
}

/**
 * The repository origin (what readRepositoryOrigin reads: the same commands, environment and
 * reading of their outputs) asked of the diff's shell without waiting; undefined when the shell
 * could not answer every command (readRepositoryOrigin then runs them itself).
 */
export function originAhead(ahead: GitAhead, root: string): Promise<RepositoryOrigin | undefined> {
  const run = repositoryOriginCommands(root);
  if (run === undefined) return Promise.resolve({});
  return Promise.all(run.commands.map((args) => ahead.ask(root, args, run.env))).then((answers) =>
    answers.every((a) => a !== undefined) ? repositoryOriginOf(answers.map((a) => (a!.code === 0 && a!.stdout !== '' ? a!.stdout : undefined))) : undefined,
  );
}

/** objectIds of `names` as one promise per name. */
function idsAhead(ahead: GitAhead, top: string, names: readonly string[]): Map<string, Promise<string | undefined>> {
  const ids = objectIds(ahead, top, names);
  return new Map(names.map((n, i) => [n, ids.then((all) => all[i])]));
}

/**
 * The revisions of the repository `root` is in, read through one git shell. `revisions`: the
 * revisions the diff names, looked up (each one's first candidate, batchableRevision) in one
 * process queued in the same round as `rev-parse --show-toplevel` on a guess of the top (the
 * fleet's root when it holds `.git`, the usual `--repo .`), and again once the top is known when
 * the guess was wrong. The origin is asked last: nothing the diff asks next waits for it, so the
 * shell answers it while the diff queues its next commands. `meanwhile` runs while git answers.
 */
export async function openRevisions(options: DiffOptions, revisions: readonly string[] = [], meanwhile?: () => void): Promise<Revisions> {
  const ahead = new GitAhead();
  try {
    const checkout = fleetCheckout(options.root, ahead);
    const names = revisions.filter(batchableRevision).map((r) => `${r}^{commit}`);
    const guess = existsSync(join(options.root, '.git')) ? realpathSync(options.root) : undefined;
    let ids = guess !== undefined ? idsAhead(ahead, guess, names) : undefined;
    const origin = originAhead(ahead, options.root);
    meanwhile?.();
    const where = await checkout;
    if (where.top !== guess) ids = idsAhead(ahead, where.top, names);
    return new Revisions(where, options, ahead, await origin, ids);
  } catch (e) {
    ahead.close();
    throw e;
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
export function portableText(s: string, root: string): string {
  return s.split(`${root}/`).join('').split(root).join('.');
}

/** Messages that name the checkout directory name the repository instead, so the two sides compare. */
export function portable(findings: readonly Finding[], root: string): Finding[] {
  const fix = (s: string) => portableText(s, root);
  return findings.map((f) => ({ ...f, message: fix(f.message), ...(f.hint !== undefined ? { hint: fix(f.hint) } : {}) }));
}

/**
 * Whether a cluster's apps track something other than what the change merges into: not the
 * fleet's revision, HEAD, or the fleet's branch (`main`, `origin/main`) — a commit, a tag or
 * another branch, which the change reaches only when it is moved (promoted).
 */
export function pinned(fleet: Pick<Fleet, 'revision'>, side: ClusterSide | undefined, branch: string | undefined): boolean {
  if (side === undefined) return false;
  const r = side.revision;
  if (r === fleet.revision || r === 'HEAD' || r === '') return false;
  if (branch === undefined) return true;
  const name = branch.replace(/^origin\//, '');
  return ![name, `origin/${name}`, `refs/heads/${name}`, `refs/remotes/origin/${name}`].includes(r);
}

/** A cluster's side at a pin (diff-sides.ts), passed in so that the warm path does not load the stages it needs. */
export type AtPin = (revs: Revisions, name: string, revision: string, options: DiffOptions) => Promise<{ side?: ClusterSide; notes: string[]; note?: string }>;

export async function compareCluster(revs: Revisions, name: string, a: Loaded | undefined, b: Loaded | undefined, options: DiffOptions, atPin: AtPin): Promise<ClusterDiff> {
  const x = a?.sides.get(name);
  const y = b?.sides.get(name);
  const notes = [...new Set([...(a?.notes.get(name) ?? []), ...(b?.notes.get(name) ?? [])])];
  // The fleet's branch is asked of git only when a side tracks something else: pinned() needs it then only.
  const other = (l: Loaded | undefined, s: ClusterSide | undefined) => l !== undefined && s !== undefined && s.revision !== l.fleet.revision && s.revision !== 'HEAD' && s.revision !== '';
  const branch = other(a, x) || other(b, y) ? await revs.branch(b?.fleet ?? a!.fleet) : undefined;
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

/** What a revision's record depends on besides its tree: the repository origin every side takes, and the selection. */
export function recordContext(revs: Revisions, options: DiffOptions): unknown {
  // The checkout's place too: a layout may name the fleet after its directory.
  return { top: revs.where.top, prefix: revs.where.prefix, origin: revs.repositoryOrigin(), clusters: options.clusters ?? [], selectors: options.selectors ?? [], ...helmfileLoadOptions(options) };
}

/**
 * Keeps a committed side's record (../adapters/diff-records.ts): what its load and validation read, and its
 * clusters as its diff against itself reports them. Not for the working tree (no tree id), a side
 * whose reader ran tools, a fleet whose plan reads git (`delivery: applicationset`), or a tree
 * holding a symlink or submodule (a path read through a link is not the path git lists).
 */
export async function keepRecord(revs: Revisions, side: Side, clusters: ClusterSummary[], findings: Finding[], context: unknown, cacheDir: string): Promise<void> {
  const { commit } = side.label;
  if (commit === null || side.reads === undefined || side.checks === undefined || side.reads.unknown || side.checks.unknown || side.load.fleet.delivery === 'applicationset') return;
  const tree = await revs.tree(commit);
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
