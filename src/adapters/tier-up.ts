/**
 * V8's tier-up budget for fleetplan's runs, which last a second or a few: raised for every command
 * (docs/adr/0391), first for `render --leaves` (docs/adr/0373). With V8's default (67,584 bytes of
 * bytecode executed per function before Turbofan is asked for) a run of one to two seconds
 * optimises hundreds of functions it then barely uses: ~0.3 s of CPU on V8's background threads,
 * taken from the cores that writing files and the builds need. The raised budget still optimises
 * what is really hot.
 */
import { setFlagsFromString } from 'node:v8';

/** About 15× V8's default: measured flat between 0.5 M and 2 M on the leaf benchmark (ADR 0373). */
export const LEAF_RUN_INTERRUPT_BUDGET = 1_000_000;

/** Whether node was started with its own `--interrupt-budget` (which is then left alone). */
export function budgetSetByUser(execArgv: readonly string[]): boolean {
  return execArgv.some((a) => /^--interrupt[-_]budget(=|$)/.test(a));
}

/** Raises the budget for the rest of the process (all its threads), unless node was given one. */
export function raiseTierUpBudget(budget = LEAF_RUN_INTERRUPT_BUDGET): void {
  if (budgetSetByUser(process.execArgv)) return;
  setFlagsFromString(`--interrupt-budget=${budget}`);
}
