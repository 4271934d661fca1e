/**
 * Progress of `fleetplan bootstrap`, three ways: a live view on a terminal (one line per
 * cluster: stage, wave, objects ready / total, elapsed, redrawn in place), plain lines when
 * stderr is not a terminal, and one JSON object per line on stdout with `-o json`.
 */
import { formatDuration } from '../entry/bootstrap.js';
import type { BootstrapEvent, Reporter, BootstrapResult } from '../entry/bootstrap.js';

interface Sink {
  write(chunk: string): unknown;
}

export function jsonReporter(out: Sink, now: () => number): Reporter {
  const start = now();
  return {
    event(e) {
      out.write(JSON.stringify({ ...e, elapsedMs: Math.round(now() - start) }) + '\n');
    },
  };
}

/** One line per event that matters to a person; no redrawing. */
export function lineReporter(out: Sink, now: () => number): Reporter {
  const start = now();
  const t = () => `[${formatDuration(now() - start).padStart(6)}]`;
  return {
    event(e) {
      const line = plainLine(e);
      if (line !== undefined) out.write(`${t()} ${e.cluster}: ${line}\n`);
    },
  };
}

function plainLine(e: BootstrapEvent): string | undefined {
  switch (e.type) {
    case 'start':
      return `${e.dryRun ? 'dry run against' : 'bootstrapping on'} context ${e.context} (${e.server}), ${e.stages.length} stages`;
    case 'stage':
      return `stage ${e.index + 1}/${e.total} ${e.stage}${e.objects ? `: ${e.objects} object${e.objects === 1 ? '' : 's'} to apply` : ''}${e.waits ? `${e.objects ? ',' : ':'} ${e.waits} to wait for` : ''}`;
    case 'change':
      return `  ${e.action.padEnd(10)} ${e.ref}${e.reason ? ` (${e.reason})` : ''}`;
    case 'progress':
      return e.ready === e.total ? undefined : `  ${e.stage}: ${e.ready}/${e.total} ready`;
    case 'ready':
      return `  ready      ${e.ref}: ${e.message}`;
    case 'waiting':
      return `  waiting    ${e.ref}: ${e.message}`;
    case 'retry':
      return `  retry ${e.attempt} in ${formatDuration(e.delayMs)}: ${e.what}: ${e.error}`;
    case 'stage-done':
      return `stage ${e.stage} done in ${formatDuration(e.durationMs)}`;
    case 'note':
      return `note: ${e.message}`;
    case 'done':
      return summaryLine(e.result);
    case 'failed':
      return `failed: ${e.message}`;
  }
}

export function summaryLine(r: BootstrapResult): string {
  const count = (a: string) => r.changes.entries.filter((c) => c.action === a).length;
  const verb = r.outcome === 'dry-run' ? 'dry run done' : r.outcome === 'applied' ? 'applied (not waiting for the waves)' : 'converged';
  return `${verb} in ${formatDuration(r.durationMs)}: ${count('created')} created, ${count('configured')} configured, ${count('unchanged')} unchanged${count('skipped') ? `, ${count('skipped')} skipped` : ''}`;
}

interface ClusterLine {
  stage: string;
  index: number;
  total: number;
  wave?: number;
  ready: number;
  waits: number;
  start: number;
  final?: string;
}

/** The live view: permanent lines for changes and stage ends, and a status line per cluster. */
export function liveReporter(out: Sink, now: () => number, setTimer: (fn: () => void) => () => void): Reporter {
  const clusters = new Map<string, ClusterLine>();
  let drawn = 0;
  let stopTimer: (() => void) | undefined;
  const clear = () => {
    if (drawn > 0) out.write(`\x1b[${drawn}A\x1b[J`);
    drawn = 0;
  };
  const draw = () => {
    const lines = [...clusters.entries()].map(([name, c]) => {
      if (c.final) return `${name}: ${c.final}`;
      const what = c.wave !== undefined ? `wave ${c.wave}` : c.stage;
      return `${name}: stage ${c.index + 1}/${c.total} · ${what} · ${c.ready}/${c.waits} ready · ${formatDuration(now() - c.start)}`;
    });
    for (const l of lines) out.write(`\x1b[2K${l}\n`);
    drawn = lines.length;
  };
  const redraw = () => {
    clear();
    draw();
  };
  return {
    event(e) {
      const c = clusters.get(e.cluster);
      let permanent: string | undefined;
      switch (e.type) {
        case 'start':
          clusters.set(e.cluster, { stage: 'connecting', index: 0, total: e.stages.length, ready: 0, waits: 0, start: now() });
          stopTimer ??= setTimer(redraw);
          break;
        case 'stage':
          if (c) Object.assign(c, { stage: e.stage, index: e.index, total: e.total, wave: e.wave, ready: 0, waits: e.waits });
          break;
        case 'progress':
          if (c) Object.assign(c, { ready: e.ready, waits: e.total });
          break;
        case 'change':
          if (e.action !== 'unchanged') permanent = `${e.cluster}: ${e.action.padEnd(10)} ${e.ref}${e.reason ? ` (${e.reason})` : ''}`;
          break;
        case 'retry':
        case 'note':
        case 'stage-done':
          permanent = `${e.cluster}: ${plainLine(e) ?? ''}`;
          break;
        case 'done':
          if (c) c.final = summaryLine(e.result);
          break;
        case 'failed':
          if (c) c.final = `failed: ${e.message}`;
          break;
        case 'ready':
        case 'waiting':
          break;
      }
      clear();
      if (permanent !== undefined) out.write(`${permanent}\n`);
      draw();
      if ([...clusters.values()].every((x) => x.final) && stopTimer) {
        stopTimer();
        stopTimer = undefined;
      }
    },
  };
}
