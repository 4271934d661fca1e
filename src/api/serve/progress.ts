/**
 * Live bootstrap progress for `fleetplan serve --progress FILE`: the file is what
 * `fleetplan bootstrap -o json` writes (one BootstrapEvent per line, src/apply/events.ts); serve
 * follows it as it grows and keeps, per cluster, the stage, wave and objects ready
 * (docs/adr/0251-bootstrap-progress-through-a-file.md).
 */
import { closeSync, openSync, readSync, statSync, unwatchFile, watchFile } from 'node:fs';
import type { BootstrapEvent } from '../../apply/events.js';

export interface ClusterProgress {
  cluster: string;
  status: 'running' | 'done' | 'failed';
  dryRun: boolean;
  stages: string[];
  stage: string | null;
  /** 1-based index of the current stage; 0 before the first. */
  index: number;
  total: number;
  wave: number | null;
  ready: number;
  objects: number;
  /** Stages finished. */
  done: string[];
  message: string | null;
  elapsedMs: number;
}

export interface ProgressState {
  file: string | null;
  clusters: ClusterProgress[];
  /** The last lines worth reading (changes, waits, retries, notes), newest last. */
  log: string[];
  /** Lines of the file that were not events (reported, not guessed at). */
  unreadable: number;
}

const LOG_LIMIT = 200;

export function emptyProgress(file: string | null): ProgressState {
  return { file, clusters: [], log: [], unreadable: 0 };
}

/** Applies one event (or an unreadable line) to the state. */
export function applyProgressLine(state: ProgressState, line: string): void {
  if (line.trim() === '') return;
  let e: (BootstrapEvent & { elapsedMs?: number }) | undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { type?: unknown }).type === 'string' && typeof (parsed as { cluster?: unknown }).cluster === 'string') e = parsed as BootstrapEvent;
  } catch {
    e = undefined;
  }
  if (!e) {
    state.unreadable++;
    return;
  }
  let c = state.clusters.find((x) => x.cluster === e.cluster);
  if (!c) {
    c = { cluster: e.cluster, status: 'running', dryRun: false, stages: [], stage: null, index: 0, total: 0, wave: null, ready: 0, objects: 0, done: [], message: null, elapsedMs: 0 };
    state.clusters.push(c);
    state.clusters.sort((a, b) => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0));
  }
  if (typeof e.elapsedMs === 'number') c.elapsedMs = e.elapsedMs;
  const log = (text: string) => {
    state.log.push(`${e.cluster}: ${text}`);
    if (state.log.length > LOG_LIMIT) state.log.splice(0, state.log.length - LOG_LIMIT);
  };
  switch (e.type) {
    case 'start':
      Object.assign(c, { status: 'running', dryRun: e.dryRun, stages: [...e.stages], total: e.stages.length, done: [], index: 0, stage: null, message: null });
      log(`${e.dryRun ? 'dry run against' : 'bootstrapping on'} ${e.context}`);
      break;
    case 'stage':
      Object.assign(c, { stage: e.stage, index: e.index + 1, total: e.total, wave: e.wave ?? null, ready: 0, objects: e.waits });
      break;
    case 'progress':
      Object.assign(c, { stage: e.stage, ready: e.ready, objects: e.total, wave: e.wave ?? c.wave });
      break;
    case 'stage-done':
      if (!c.done.includes(e.stage)) c.done.push(e.stage);
      break;
    case 'change':
      log(`${e.action} ${e.ref}`);
      break;
    case 'waiting':
      log(`waiting for ${e.ref}: ${e.message}`);
      break;
    case 'retry':
      log(`retry ${e.attempt}: ${e.what}: ${e.error}`);
      break;
    case 'note':
      log(`note: ${e.message}`);
      break;
    case 'ready':
      break;
    case 'done':
      Object.assign(c, { status: 'done', message: e.result.outcome });
      log(`done: ${e.result.outcome}`);
      break;
    case 'failed':
      Object.assign(c, { status: 'failed', message: e.message });
      log(`failed: ${e.message}`);
      break;
  }
}

/**
 * Follows `file` (which may not exist yet) and calls `onUpdate` after new complete lines were
 * applied. A file that shrinks (a new run wrote it afresh) starts the state over.
 */
export function followProgress(file: string, state: ProgressState, onUpdate: () => void, intervalMs = 200): { close(): void } {
  let offset = 0;
  let partial = '';
  const read = () => {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return;
    }
    if (size < offset) {
      offset = 0;
      partial = '';
      Object.assign(state, emptyProgress(file));
    }
    if (size === offset) return;
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(size - offset);
      const n = readSync(fd, buf, 0, buf.length, offset);
      offset += n;
      const text = partial + buf.subarray(0, n).toString('utf8');
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) applyProgressLine(state, line);
      if (lines.length) onUpdate();
    } finally {
      closeSync(fd);
    }
  };
  read();
  const listener = () => read();
  watchFile(file, { interval: intervalMs, persistent: false }, listener);
  return { close: () => unwatchFile(file, listener) };
}
