/**
 * What a bootstrap run reports while it goes, through a Reporter port. The CLI turns these into
 * a live view on a terminal, plain lines elsewhere, or one JSON object per line (`-o json`).
 */
import type { ChangeAction, NotReady } from '../model/bootstrap.js';
import type { BootstrapResult } from './change-set.js';

export type BootstrapEvent =
  | { type: 'start'; cluster: string; context: string; server: string; stages: string[]; dryRun: boolean }
  | { type: 'stage'; cluster: string; stage: string; index: number; total: number; objects: number; waits: number; wave?: number }
  | { type: 'change'; cluster: string; stage: string; ref: string; action: ChangeAction; reason?: string }
  | { type: 'progress'; cluster: string; stage: string; ready: number; total: number; wave?: number }
  | { type: 'ready'; cluster: string; stage: string; ref: string; message: string }
  /** An object not ready yet, each time the reason changes. */
  | { type: 'waiting'; cluster: string; stage: string; ref: string; message: string }
  | { type: 'retry'; cluster: string; what: string; attempt: number; delayMs: number; error: string }
  | { type: 'stage-done'; cluster: string; stage: string; durationMs: number; wave?: number }
  | { type: 'note'; cluster: string; message: string }
  | { type: 'done'; cluster: string; result: BootstrapResult }
  | { type: 'failed'; cluster: string; message: string; notReady?: NotReady[] };

export interface Reporter {
  event(e: BootstrapEvent): void;
}

export const silentReporter: Reporter = { event: () => {} };
