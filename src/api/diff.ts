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
import { changedCommands, changedUnderFleet, fleetTreeName, mergeBase } from '../adapters/git-snapshot.js';
import type { ClusterSide } from '../diff/cluster.js';
import type { DiffRevision, FleetDiff, ClusterDiff } from '../diff/types.js';
// The diff stage's modules, not its index: the index loads the HTML report, which only `-o html` needs.
import { diffFindings } from '../diff/findings.js';
import { UsageError } from '../errors/index.js';
import type { Finding } from '../model/finding.js';
import type { RevisionRecord } from '../adapters/diff-records.js';
import { fleetplanBuild, readRecord, recordKey } from '../adapters/diff-records.js';
import { touchedByRecord } from './diff-reads.js';
import type { BaseFindingsOptions, DiffOptions, Loaded, PromotionDiffOptions, Side } from './diff-core.js';
import { compareCluster, keepRecord, openRevisions, recordContext } from './diff-core.js';
import type { Revisions } from './diff-core.js';

export type { BaseFindingsOptions, DiffLeavesOptions, DiffOptions, PromotionDiffOptions } from './diff-core.js';

// What loads, resolves, renders and validates (./diff-sides.ts) is imported only where a path
// needs it: a diff answered from records loads none of the stages (docs/adr/0314-diff-warm-path.md).

/** A cluster's side at a pin (./diff-sides.ts atPin), its module imported when a pin must be read. */
async function atPinLazily(revs: Revisions, name: string, revision: string, options: DiffOptions): Promise<{ side?: ClusterSide; notes: string[]; note?: string }> {
  return (await import('./diff-sides.js')).atPin(revs, name, revision, options);
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
  // One git shell for the whole diff, the repository origin and the revisions named (each one's
  // first candidate, in one process: the second is asked only when the first fails) asked of it at
  // once, the build keyed while git answers (docs/adr/0334-diff-warm-path-one-shell.md, 0396).
  const named = [options.to, options.from].filter((r) => r !== undefined);
  const records = options.cacheDir !== undefined && options.full !== true;
  const revs = await openRevisions(options, named, () => records && fleetplanBuild());
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
    const { compareSides } = await import('./diff-sides.js');
    // With --leaves the diff is not answered from records, but each side's findings are (and a side validated here gets one).
    const kept = context ?? (options.cacheDir !== undefined && options.full !== true ? recordContext(revs, options) : undefined);
    const { diff, compared } = await compareSides(revs, a, b, { ...options, ...(kept !== undefined && options.leaves !== undefined ? { recordsFor: kept } : {}) }, undefined);
    const { summaries, sideFindings, recorded } = compared;
    if (kept !== undefined && summaries !== undefined && sideFindings !== undefined) {
      if (recorded?.[0] !== true) await keepRecord(revs, a, summaries[0], sideFindings[0], kept, options.cacheDir!);
      if (b.label.commit !== a.label.commit && recorded?.[1] !== true) await keepRecord(revs, b, summaries[1], sideFindings[1], kept, options.cacheDir!);
    }
    return diff;
  } finally {
    await revs.close();
  }
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
  // The trees (both in one git process) and what differs, asked of the shell at once (each git process costs more than its answer).
  const commits = [...new Set([from.commit, ...(to.commit !== null ? [to.commit] : [])])];
  revs.lookAhead(commits.map((c) => fleetTreeName(revs.where, c)));
  if (to.commit !== null) revs.ahead.queue(revs.where.top, changedCommands(revs.where, from.commit, to.commit));
  const recordOf = async (side: DiffRevision): Promise<{ tree: string; record?: RevisionRecord } | undefined> => {
    if (side.commit === null) return undefined;
    const tree = await revs.tree(side.commit);
    if (tree === undefined) return undefined;
    const record = readRecord(options.cacheDir!, recordKey(tree, context), tree);
    return { tree, ...(record ? { record } : {}) };
  };
  const ra = (await recordOf(from))?.record;
  const rb = from.commit === to.commit ? ra : (await recordOf(to))?.record;
  if (ra === undefined && rb === undefined) return undefined;
  const changes = await changedUnderFleet(revs.where, from.commit, to.commit, revs.ahead);
  if (changes === undefined || changes.some((c) => c.link)) return undefined;
  // The record whose load read nothing that differs: the other side loads the same.
  const base = [ra, rb].find((r) => r !== undefined && touchedByRecord(r.reads, changes) === undefined);
  if (base === undefined) {
    const touched = touchedByRecord((ra ?? rb)!.reads, changes);
    options.onProgress?.(`${touched} differs, and loading the fleet reads it: reading both revisions…`);
    return undefined;
  }
  const names = base.clusters.map((c) => c.name);
  for (const n of options.clusters ?? []) {
    if (!names.includes(n)) throw new UsageError(`unknown cluster "${n}": it is defined at neither ${from.revision} nor ${to.revision}`, { code: 'unknown-cluster' });
  }
  // Each side's findings: its record's, else the other side's when validation read nothing that differs, else validated here.
  const sameChecks = touchedByRecord(base.checks, changes) === undefined;
  const findingsOf = async (label: DiffRevision, record: RevisionRecord | undefined): Promise<Finding[] | undefined> => {
    if (record !== undefined) return record.findings;
    if (sameChecks) return base.findings;
    options.onProgress?.(`validating ${label.revision} (its fleet loads as at the other revision)…`);
    // Validating loads the stages (./diff-sides.ts): only this path and the full one import them.
    const { validateSide } = await import('./diff-sides.js');
    const validate = (side: Side): Finding[] | undefined => validateSide(side, options, { fleet: base.fleet, names });
    // Read from git's objects (no checkout), the files the record says it reads fetched at once; a checkout on any doubt.
    const objects = await revs.fromObjects(label, [...base.reads.content, ...base.checks.content]);
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
    clusters.push(await compareCluster(revs, c.name, loaded, loaded, options, atPinLazily));
  }
  return { fleet: base.fleet.name, layout: base.fleet.layout, from, to, leaves: false, clusters, findings: diffFindings(fa, fb) };
}

/**
 * What a promotion deploys (`promote --dry-run`): each of the sector's clusters as the repository
 * holds it at the revision the sector tracks now, against the commit it will pin, with the
 * sector tracking each; and the findings the promotion brings to those clusters or takes away.
 */
export async function diffPromotion(options: PromotionDiffOptions): Promise<FleetDiff> {
  return (await import('./diff-sides.js')).diffPromotionOf(options);
}

/** `validate --base REV`: the findings the working tree introduces and fixes, compared with REV. */
export async function validateAgainstBase(options: BaseFindingsOptions): Promise<{ base: DiffRevision; introduced: Finding[]; fixed: Finding[] }> {
  return (await import('./diff-sides.js')).findingsAgainstBase(options);
}
