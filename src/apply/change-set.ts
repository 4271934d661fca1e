/**
 * What applying a bootstrap did to each object, in apply order (as fluxcd/pkg/ssa's ChangeSet):
 * one entry per object and stage, created, configured, unchanged or skipped. The executor adds
 * entries as it goes; callers read the entries, count them by action, or print them. Serialized
 * (JSON) it is the plain list of entries.
 */
import type { ChangeAction, ObjectChange, StageTiming } from '../model/bootstrap.js';

export class ChangeSet implements Iterable<ObjectChange> {
  readonly entries: ObjectChange[] = [];

  constructor(entries: Iterable<ObjectChange> = []) {
    for (const e of entries) this.entries.push(e);
  }

  add(entry: ObjectChange): void {
    this.entries.push(entry);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Entries with one of these actions. */
  with(...actions: ChangeAction[]): ObjectChange[] {
    return this.entries.filter((e) => actions.includes(e.action));
  }

  /** How many entries have each action. */
  counts(): Record<ChangeAction, number> {
    const out: Record<ChangeAction, number> = { created: 0, configured: 0, unchanged: 0, skipped: 0 };
    for (const e of this.entries) out[e.action]++;
    return out;
  }

  /** True when the run wrote something (an object created or configured). */
  get changed(): boolean {
    return this.entries.some((e) => e.action === 'created' || e.action === 'configured');
  }

  [Symbol.iterator](): Iterator<ObjectChange> {
    return this.entries[Symbol.iterator]();
  }

  toJSON(): ObjectChange[] {
    return this.entries;
  }
}

/** The outcome of bootstrapping one cluster: its ChangeSet and how long each stage took. */
export interface BootstrapResult {
  cluster: string;
  /** `converged`: every stage applied and ready; `applied`: applied without waiting for the waves
   * (`--no-wait`); `dry-run`: nothing written. */
  outcome: 'converged' | 'applied' | 'dry-run';
  /** What the run did to each object; JSON: the list of changes. */
  changes: ChangeSet;
  timings: StageTiming[];
  durationMs: number;
}
