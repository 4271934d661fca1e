/**
 * Time, as a port: the executor measures durations, sleeps between retries and arms deadlines
 * through this, so tests and benchmarks can count or shorten them.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale (only differences mean anything). */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Calls `fn` after `ms`; the returned function cancels it. */
  timer(ms: number, fn: () => void): () => void;
}
