/** Helpers of the `fleetplan serve` tests: a temporary copy of the lab fleet, a started server. */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServe } from '../../src/index.js';
import type { RunningServe, ServeOptions } from '../../src/index.js';

export const LAB = fileURLToPath(new URL('../../../examples/lab', import.meta.url));

/** A copy of examples/lab in a temporary directory (the tests edit it), removed by `cleanup`. */
export function labCopy(): { dir: string; cleanup(): void } {
  const base = mkdtempSync(join(tmpdir(), 'fleetplan-serve-'));
  const dir = join(base, 'lab');
  cpSync(LAB, dir, { recursive: true });
  return { dir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** A server on a free loopback port over `root`, with a quick debounce for the tests. */
export function serve(root: string, options: Partial<ServeOptions> = {}): Promise<RunningServe> {
  return startServe({ root, port: 0, watch: { debounceMs: 50 }, ...options });
}
