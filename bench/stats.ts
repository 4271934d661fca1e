/**
 * What every benchmark prints: min / median / max over the runs, and ratios against a baseline
 * measured in the same run. The machine is shared, so subject and baseline are interleaved (one
 * round runs each of them once, in an order that rotates from round to round) and a ratio is
 * taken per round (the two ran under the same load), then summarised the same way.
 */
import { availableParallelism, loadavg } from 'node:os';

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('spread of no values');
  const s = [...values].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor((s.length - 1) / 2)]!, max: s[s.length - 1]! };
}

/** Per-round ratios `subject[i] / baseline[i]` (both measured in round i). */
export function pairedRatios(subject: readonly number[], baseline: readonly number[]): Spread {
  if (subject.length !== baseline.length) throw new Error('paired ratios need as many runs of each');
  return spread(subject.map((s, i) => s / baseline[i]!));
}

/**
 * Runs `rounds` rounds; each round runs every subject once, the order rotated by one per round so
 * that no subject always runs first (right after a cleanup) or last. Returns each subject's results
 * in round order.
 */
export async function interleave<T>(rounds: number, subjects: Record<string, () => T | Promise<T>>): Promise<Record<string, T[]>> {
  const names = Object.keys(subjects);
  const out: Record<string, T[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      out[name]!.push(await subjects[name]!());
    }
  }
  return out;
}

export const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

/** `min 1.23 s / median … / max …` (times in ms). */
export function fmtTimes(s: Spread): string {
  return `${fmtMs(s.min)} / ${fmtMs(s.median)} / ${fmtMs(s.max)}`;
}

export function fmtRatio(s: Spread, digits = 2): string {
  return `${s.min.toFixed(digits)}× / ${s.median.toFixed(digits)}× / ${s.max.toFixed(digits)}×`;
}

/** The machine's load, to be printed with every figure: other people share it. */
export function loadLine(): string {
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
  return `load average ${one} (1 min), ${five} (5 min), ${fifteen} (15 min) on ${availableParallelism()} cores`;
}
