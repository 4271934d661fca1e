/**
 * A progress line on stderr for work that takes a while (`render --leaves`: "building 12/57 leaf
 * sources…"; loading a fleet whose clusters are built with kustomize). On a terminal it is one line
 * redrawn in place (`\r` and erase-line), at most every `intervalMs`, and erased when the work ends,
 * so that what is printed after it starts on a clean line. Elsewhere (a pipe, a CI log) it writes
 * nothing: the command's own summary line is the record. Never on stdout.
 */
import type { Palette } from './color.js';

export interface ProgressLine {
  /** Shows `text` (on a terminal), replacing the previous one. */
  update(text: string): void;
  /** Erases the line, if one was drawn. */
  done(): void;
}

export interface ProgressOptions {
  /** Milliseconds since some origin (default: performance.now). */
  now?: () => number;
  /** Minimum time between two redraws; the last update before done() may be skipped. Default 100. */
  intervalMs?: number;
}

const ERASE = '\r\x1b[2K';

export function progressLine(stream: { write(s: string): unknown; isTTY?: boolean; columns?: number }, palette: Palette, options: ProgressOptions = {}): ProgressLine {
  if (stream.isTTY !== true) return { update() {}, done() {} };
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? 100;
  let drawn = false;
  let last = -Infinity;
  return {
    update(text) {
      const t = now();
      if (drawn && t - last < interval) return;
      last = t;
      // A line longer than the terminal would wrap, and `\r` would then redraw only its last row.
      const width = stream.columns !== undefined && stream.columns > 1 ? stream.columns - 1 : undefined;
      const shown = width !== undefined && text.length > width ? text.slice(0, width - 1) + '…' : text;
      stream.write(ERASE + palette.cyan(shown));
      drawn = true;
    },
    done() {
      if (drawn) stream.write(ERASE);
      drawn = false;
    },
  };
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Runs `work`; when it is still running after `delayMs` (default 1 s), shows `text` as the
 * progress line until it ends. Fast work shows nothing.
 */
export async function withStatus<T>(line: ProgressLine, text: string, work: () => Promise<T>, delayMs = 1000, timers: Timers = realTimers): Promise<T> {
  const handle = timers.set(() => line.update(text), delayMs);
  try {
    return await work();
  } finally {
    timers.clear(handle);
    line.done();
  }
}
