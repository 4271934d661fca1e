/**
 * Validation of one side of a `diff`, one rule at a time, so that each rule's read-set (what it
 * read through the RepoFileSystem port) and its own findings can be kept in the revision's record;
 * and, for a revision whose load reads nothing that differs from a recorded one, validation that
 * re-runs only the rules whose recorded reads a change touches and takes the others' findings from
 * the record. Decisions: docs/adr/0296-diff-rule-reads.md.
 *
 * Exactness: a rule is a function of the resolved fleet and of what it reads through the port.
 * Each rule runs with its own rule context (its own ManifestIndex and file-system object, so no
 * parse cached by another rule hides a read from it), so its read-set is complete. Two revisions
 * whose loads read the same content resolve to the same fleet; a rule whose reads are the same on
 * both then reports the same findings on both. A fleet-wide rule (duplicates, shared objects)
 * reads every input it compares, so any change to one of them re-runs it.
 */
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { Finding } from '../model/finding.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { completeFindings, createRuleContext } from '../validate/index.js';
import type { RuleDefinition } from '../validate/index.js';
import type { RuleRecord } from '../adapters/diff-records.js';
import type { ChangedPath, ReadSet } from './diff-reads.js';
import { emptyReadSet, readSetOf, readSetRecord, recordingFileSystem, touchedBy } from './diff-reads.js';
import { rules as allRules } from './fleet.js';

export type { RuleRecord };

export interface SideValidation {
  /** validateFleet's findings for the side (checkout paths not yet made repository-relative). */
  findings: Finding[];
  /** Per rule, for the record; undefined when they cannot be kept (see validateByRule). */
  rules?: RuleRecord[];
  /** How many rules ran (the rest were taken from `reuse`). */
  ran: number;
}

/** The rules validate runs, when their names tell them apart (a record is matched by name and order). */
function ruleSet(): readonly RuleDefinition[] | undefined {
  const names = new Set(allRules.map((r) => r.name));
  return names.size === allRules.length ? allRules : undefined;
}

/** Whether a recorded rule list is for this rule set (same names, same order). */
export function rulesMatch(records: readonly RuleRecord[] | undefined): records is RuleRecord[] {
  const set = ruleSet();
  return set !== undefined && records !== undefined && records.length === set.length && records.every((r, i) => r.rule === set[i]!.name);
}

/**
 * validateFleet of `resolved` (every rule), each rule run with its own context over `fs` recorded
 * into `checks` and into its own read-set. With `reuse` (a recorded revision whose load read the
 * same as this one's) and the paths that differ, a rule whose recorded reads none of them touches
 * is not run: its recorded findings and reads stand for it. Per-rule records are dropped when a
 * finding names the checkout (`root`): a recorded finding must not depend on where it was made.
 */
export function validateByRule(resolved: ResolvedFleet, fs: RepoFileSystem, checks: ReadSet, root: string, reuse?: { rules: readonly RuleRecord[]; changes: readonly ChangedPath[] }): SideValidation {
  const set = ruleSet() ?? allRules;
  const tee = recordingFileSystem(fs, checks);
  const found: Finding[][] = [];
  const records: RuleRecord[] = [];
  let ran = 0;
  let keep = ruleSet() !== undefined;
  set.forEach((rule, i) => {
    const prior = reuse && rulesMatch(reuse.rules) ? reuse.rules[i]! : undefined;
    if (prior !== undefined) {
      const reads = readSetOf(prior.reads);
      if (touchedBy(reads, reuse!.changes) === undefined) {
        merge(checks, reads);
        found.push(prior.findings);
        records.push(prior);
        return;
      }
    }
    const reads = emptyReadSet();
    // A context of its own: no parse another rule cached stands in for a read of this one.
    const ctx = createRuleContext(resolved, { fs: recordingFileSystem(tee, reads), rules: set });
    const out = rule.run(ctx);
    ran++;
    if (reads.unknown || JSON.stringify(out).includes(root)) keep = false;
    found.push(out);
    records.push({ rule: rule.name, reads: readSetRecord(reads), findings: out });
  });
  return { findings: completeFindings(resolved, set, found), ran, ...(keep ? { rules: records } : {}) };
}

/** Adds `from`'s paths to `into`. */
function merge(into: ReadSet, from: ReadSet): void {
  for (const p of from.content) into.content.add(p);
  for (const p of from.kind) into.kind.add(p);
  for (const p of from.list) into.list.add(p);
  into.links ||= from.links;
}
