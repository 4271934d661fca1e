/**
 * `writeTree` (./output.ts) in a worker thread, for `render --out` of many clusters: the main
 * thread renders the next clusters while the files of the previous ones are written, so that on
 * two cores a fleet is written in about the time its rendering takes instead of after it (writing
 * was ~40% of `render --out` into a fresh directory). Batches are written in the order given, by
 * the same function, with the same results; statistics are summed.
 *
 * The first failure stops the writing and the worker: later `write` calls and `close` reject with
 * it (an Error with the original message and code). At most `MAX_PENDING` chunks of batches wait in
 * the worker, so memory stays bounded when rendering outpaces the disk. The caller ends the worker: `close()`, or
 * `abort()` when it gives up on an error of its own.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { UsageError } from '../errors/index.js';
import type { OutputSession, WriteStats } from './output.js';
import { openOutput, writeTree } from './output.js';

/** One writeTree call: its files' contents are ranges of the chunk's bytes. */
interface Batch {
  files: { path: string; start: number; end: number }[];
  managedDirs: string[];
  managedParents: string[];
}

/**
 * The batches of several `write` calls (about CHUNK_BYTES of files, ~5 clusters) and their
 * contents as one UTF-8 buffer, transferred (not copied): structured-cloning 177 MB of strings and
 * encoding them again in the worker was a third of `render --out` of 1,000 clusters. The worker
 * transfers the buffer back with its reply, and it is filled again: a fleet is written through a
 * few buffers, not one fresh allocation (and its page faults) per cluster.
 */
interface Chunk {
  batches: Batch[];
  bytes: ArrayBuffer;
}

type Message = Chunk | { save: true };
/** A failure crosses the thread as data: a UsageError (a symlink in the output directory) stays one. */
type Reply = { ok: true; stats: WriteStats; bytes: ArrayBuffer } | { ok: true; saved: true } | { ok: false; message: string; code?: string; usage?: { hint?: string; file?: string } };

function failureOf(r: Extract<Reply, { ok: false }>): Error {
  if (r.usage) {
    return new UsageError(r.message, {
      ...(r.code !== undefined ? { code: r.code } : {}),
      ...(r.usage.hint !== undefined ? { hint: r.usage.hint } : {}),
      ...(r.usage.file !== undefined ? { location: { file: r.usage.file } } : {}),
    });
  }
  return Object.assign(new Error(r.message), r.code !== undefined ? { code: r.code } : {});
}

/** A chunk is sent when it holds this many bytes (or at close). */
const CHUNK_BYTES = 1 << 20;
/**
 * At most this many chunks wait in the worker: memory stays bounded (about MAX_PENDING + 1 chunks
 * of files) when rendering outpaces the disk, whatever the fleet's size.
 */
const MAX_PENDING = 4;

export interface TreeWriter {
  /** Queues one `writeTree` call; resolves when the queue has room again. */
  write(files: readonly { path: string; content: string }[], managedDirs: readonly string[], managedParents?: readonly string[]): Promise<void>;
  /** Waits for every queued batch; the summed statistics. */
  close(): Promise<WriteStats>;
  /** Stops the worker without waiting (after an error elsewhere). */
  abort(): Promise<void>;
}

export function createTreeWriter(outDir: string): TreeWriter {
  const worker = new Worker(new URL(import.meta.url), { workerData: { fleetplanTreeWriter: outDir } });
  const total: WriteStats = { written: 0, unchanged: 0, removed: 0 };
  let pending = 0;
  let failure: Error | undefined;
  /** Buffers the worker gave back, to fill again. */
  const free: Buffer[] = [];
  /** The chunk being filled: its buffer, the bytes used, its batches. */
  let buf: Buffer | undefined;
  let used = 0;
  let batches: Batch[] = [];
  const send = (): void => {
    if (!buf) return;
    const chunk: Chunk = { batches, bytes: buf.buffer as ArrayBuffer };
    pending++;
    worker.postMessage(chunk, [chunk.bytes]);
    buf = undefined;
    used = 0;
    batches = [];
  };
  /** A buffer with room for `need` more bytes (the chunk so far is sent first when it has not). */
  const room = (need: number): Buffer => {
    if (buf && buf.length - used >= need) return buf;
    send();
    const reuse = free.pop();
    // Unpooled: its ArrayBuffer is its own, to transfer.
    buf = reuse && reuse.length >= need ? reuse : Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, need));
    return buf;
  };
  let wake: (() => void) | undefined;
  const settle = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  worker.on('message', (r: Reply) => {
    pending--;
    if (r.ok && 'saved' in r) {
      // the manifest is written
    } else if (r.ok) {
      if (free.length < MAX_PENDING) free.push(Buffer.from(r.bytes));
      total.written += r.stats.written;
      total.unchanged += r.stats.unchanged;
      total.removed += r.stats.removed;
    } else {
      failure ??= failureOf(r);
      // Nothing more will be written: the worker ends now, whatever the caller does next.
      void worker.terminate();
    }
    settle();
  });
  worker.on('error', (e) => {
    failure ??= e;
    settle();
  });
  worker.on('exit', () => {
    failure ??= new Error('the output writer stopped before writing every file');
    settle();
  });
  const waitUntil = async (done: () => boolean): Promise<void> => {
    while (!done() && failure === undefined) await new Promise<void>((r) => (wake = r));
    if (failure) throw failure;
  };
  return {
    async write(files, managedDirs, managedParents = []) {
      if (failure) throw failure;
      // A batch is never split across chunks (its writeTree call cleans its directories knowing
      // all its files). UTF-8 takes at most 3 bytes per UTF-16 unit: the exact size is counted
      // only when the bound does not fit in the chunk's buffer.
      let bound = 0;
      for (const f of files) bound += f.content.length * 3;
      let b = buf && buf.length - used >= bound ? buf : undefined;
      if (!b) {
        let size = 0;
        for (const f of files) size += Buffer.byteLength(f.content, 'utf8');
        b = room(size);
      }
      const entries: Batch['files'] = [];
      for (const f of files) {
        const n = b.write(f.content, used, 'utf8');
        entries.push({ path: f.path, start: used, end: used + n });
        used += n;
      }
      batches.push({ files: entries, managedDirs: [...managedDirs], managedParents: [...managedParents] });
      if (used >= CHUNK_BYTES) send();
      await waitUntil(() => pending < MAX_PENDING);
    },
    async close() {
      try {
        if (failure) throw failure;
        // Every batch, then the manifest of what was written.
        send();
        pending++;
        worker.postMessage({ save: true } satisfies Message);
        await waitUntil(() => pending === 0);
        return total;
      } finally {
        await worker.terminate();
      }
    },
    async abort() {
      await worker.terminate();
    },
  };
}

// The worker: applies each batch in turn; after a failure it only answers.
if (!isMainThread && parentPort && (workerData as { fleetplanTreeWriter?: string } | null)?.fleetplanTreeWriter !== undefined) {
  const outDir = (workerData as { fleetplanTreeWriter: string }).fleetplanTreeWriter;
  const port = parentPort;
  let failed: Reply | undefined;
  let session: OutputSession | undefined;
  port.on('message', (m: Message) => {
    if (failed) return port.postMessage(failed);
    try {
      session ??= openOutput(outDir);
      if ('save' in m) {
        session.save();
        port.postMessage({ ok: true, saved: true } satisfies Reply);
      } else {
        const bytes = Buffer.from(m.bytes);
        const stats: WriteStats = { written: 0, unchanged: 0, removed: 0 };
        for (const b of m.batches) {
          const files = b.files.map((f) => ({ path: f.path, content: bytes.subarray(f.start, f.end) }));
          const s = writeTree(outDir, files, b.managedDirs, b.managedParents, session);
          stats.written += s.written;
          stats.unchanged += s.unchanged;
          stats.removed += s.removed;
        }
        // The buffer goes back to be filled again.
        port.postMessage({ ok: true, stats, bytes: m.bytes } satisfies Reply, [m.bytes]);
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { hint?: string; location?: { file: string } };
      failed = {
        ok: false,
        message: err?.message ?? String(e),
        ...(err?.code !== undefined ? { code: err.code } : {}),
        ...(e instanceof UsageError ? { usage: { ...(err.hint !== undefined ? { hint: err.hint } : {}), ...(err.location ? { file: err.location.file } : {}) } } : {}),
      };
      port.postMessage(failed);
    }
  });
}
