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
 *
 * When the worker's queue is full, the calling thread writes the batch itself instead of waiting
 * (ADR 0330): rendering is cheaper than writing, so on two cores the main thread otherwise sat idle
 * while the worker wrote the second half of a fleet. It does so only for a batch whose top-level
 * directories no batch still queued in the worker touches (each cluster's files are under its own
 * directory), so no two writes of one path or one directory's cleanup can run out of order; what
 * it records in the manifest is sent to the worker ahead of the next chunk and applied in order.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { UsageError } from '../errors/index.js';
import type { OutputSession, WriteStats } from './output.js';
import { openOutput, writeTree } from './output.js';

/** One writeTree call: its `files` are the chunk's next files (paths and contents are ranges of the chunk's). */
interface Batch {
  files: number;
  managedDirs: string[];
  managedParents: string[];
}

/**
 * The batches of several `write` calls (about CHUNK_BYTES of files, ~6 clusters) and their
 * contents as one UTF-8 buffer, transferred (not copied): structured-cloning 177 MB of strings and
 * encoding them again in the worker was a third of `render --out` of 1,000 clusters. The worker
 * transfers the buffer back with its reply, and it is filled again: a fleet is written through a
 * few buffers, not one fresh allocation (and its page faults) per cluster.
 */
interface Chunk {
  batches: Batch[];
  bytes: ArrayBuffer;
  /**
   * Every file's path, and where each file's contents end in `bytes` (they start where the
   * previous file's end): a list of strings and one typed array cross the thread, not an object
   * per file (cloning 46,000 `{ path, start, end }` objects, their keys included, was a seventh of
   * the writer thread's instructions). Paths stay strings of their own: slices of one joined
   * string cost the writer more in flattening than they saved in cloning.
   */
  paths: string[];
  ends: Uint32Array;
  /** What the calling thread's own batches recorded in (`+path`) and removed from (`-path`) the manifest since the last message, in order. */
  log?: string[];
}

/** The first message: where to write (a thread started before the fleet was loaded learns it then). */
type Message = { open: string } | Chunk | { save: true; log?: string[] };
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

/**
 * A chunk is sent when it holds this many bytes, when the worker has nothing queued, or at close.
 * ~6 clusters of the benchmark fleet (~41 KB each): what the worker still has queued when the
 * last cluster is rendered (up to MAX_PENDING + 1 chunks) is written while the calling thread
 * only waits, so a chunk is kept small; 1 MB chunks left up to ~125 clusters of writing after the
 * last one rendered (ADR 0417).
 */
const CHUNK_BYTES = 1 << 18;
/**
 * At most this many chunks wait in the worker: memory stays bounded (about MAX_PENDING + 1 chunks
 * of files) when rendering outpaces the disk, whatever the fleet's size.
 */
const MAX_PENDING = 4;

export interface TreeWriter {
  /** Queues one `writeTree` call (or makes it on this thread when the queue is full, see above); resolves when the queue has room again. */
  write(files: readonly { path: string; content: string }[], managedDirs: readonly string[], managedParents?: readonly string[]): Promise<void>;
  /** Waits for every queued batch; the summed statistics. */
  close(): Promise<WriteStats>;
  /** Stops the worker without waiting (after an error elsewhere). */
  abort(): Promise<void>;
  /** How many batches this thread wrote itself because the worker's queue was full. */
  readonly writtenHere: number;
  /** How many chunks were sent to the worker so far. */
  readonly chunksSent: number;
}

export interface TreeWriterOptions {
  /** At most this many chunks wait in the worker (default 4); tests make it 1 to fill the queue. */
  maxPending?: number;
  /** False: always wait for room in the worker's queue, never write on the calling thread. */
  helpWhenFull?: boolean;
  /** A chunk is sent when it holds this many bytes (default 1 MB); tests make it 1 to send every batch. */
  chunkBytes?: number;
  /** A thread started earlier (startWriterThread), taken instead of starting one now. */
  thread?: WriterThread;
}

/**
 * A writer thread started before the fleet is loaded, so that its start-up (a Node environment
 * and this module, ~50 M instructions) runs on the other core while the main thread loads, not
 * while the first clusters wait to be written (ADR 0371). It does not keep the process alive
 * until a tree writer takes it; `release()` ends it if none did.
 */
export interface WriterThread {
  /** The thread, for one tree writer; undefined once taken, or when it has stopped. */
  take(): Worker | undefined;
  /** Ends the thread unless a tree writer took it (that writer ends it). */
  release(): Promise<void>;
}

const startWorker = (): Worker => new Worker(new URL(import.meta.url), { workerData: { fleetplanTreeWriter: true } });

export function startWriterThread(): WriterThread {
  let worker: Worker | undefined = startWorker();
  worker.unref();
  // A failure before it is taken: the thread is not used (a writer starts its own).
  const drop = () => {
    const w = worker;
    worker = undefined;
    void w?.terminate();
  };
  worker.once('error', drop);
  worker.once('exit', drop);
  return {
    take() {
      const w = worker;
      worker = undefined;
      if (w) {
        w.off('error', drop);
        w.off('exit', drop);
        w.ref();
      }
      return w;
    },
    async release() {
      const w = worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}

/** The top-level directory (or root-level file name) of a relative path: what a batch may touch. */
const topOf = (rel: string): string => {
  const slash = rel.indexOf('/');
  return slash < 0 ? rel : rel.slice(0, slash);
};

/** The top-level names a batch writes or cleans under. */
function topsOf(files: readonly { path: string }[], managedDirs: readonly string[], managedParents: readonly string[]): Set<string> {
  const tops = new Set<string>();
  for (const f of files) tops.add(topOf(f.path));
  for (const d of managedDirs) tops.add(topOf(d));
  for (const d of managedParents) tops.add(topOf(d));
  return tops;
}

/** A session that logs, in order, what it records in and removes from the manifest (it never saves: the worker's session does). */
function loggingSession(s: OutputSession, log: string[]): OutputSession {
  return {
    root: s.root,
    path: (rel) => s.path(rel),
    wrote: (rel) => s.wrote(rel),
    record(rel) {
      log.push(`+${rel}`);
      s.record(rel);
    },
    forget(rel) {
      log.push(`-${rel}`);
      s.forget(rel);
    },
    save() {
      throw new Error('the calling thread of a tree writer does not save the manifest');
    },
    claimNew: (abs) => s.claimNew(abs),
    makeDir: (abs) => s.makeDir(abs),
  };
}

export function createTreeWriter(outDir: string, options: TreeWriterOptions = {}): TreeWriter {
  const maxPending = options.maxPending ?? MAX_PENDING;
  const helpWhenFull = options.helpWhenFull ?? true;
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const worker = options.thread?.take() ?? startWorker();
  worker.postMessage({ open: outDir } satisfies Message);
  const total: WriteStats = { written: 0, unchanged: 0, removed: 0 };
  let pending = 0;
  let failure: Error | undefined;
  /** Buffers the worker gave back, to fill again. */
  const free: Buffer[] = [];
  /** The chunk being filled: its buffer, the bytes used, its batches. */
  let buf: Buffer | undefined;
  let used = 0;
  let batches: Batch[] = [];
  let paths: string[] = [];
  let ends: number[] = [];
  /** The top-level names each chunk sent and not yet answered touches, oldest first (answers come in order), and the chunk being filled. */
  const queued: Set<string>[] = [];
  let filling = new Set<string>();
  /** This thread's own session (opened when it first writes a batch) and its manifest changes not yet sent. */
  let here: OutputSession | undefined;
  const log: string[] = [];
  let writtenHere = 0;
  let chunksSent = 0;
  const takeLog = (): { log?: string[] } => (log.length === 0 ? {} : { log: log.splice(0, log.length) });
  const send = (): void => {
    if (!buf) return;
    const chunk: Chunk = { batches, bytes: buf.buffer as ArrayBuffer, paths, ends: Uint32Array.from(ends), ...takeLog() };
    pending++;
    chunksSent++;
    queued.push(filling);
    filling = new Set();
    worker.postMessage(chunk, [chunk.bytes]);
    buf = undefined;
    used = 0;
    batches = [];
    paths = [];
    ends = [];
  };
  /** A buffer with room for `need` more bytes (the chunk so far is sent first when it has not). */
  const room = (need: number): Buffer => {
    if (buf && buf.length - used >= need) return buf;
    send();
    const reuse = free.pop();
    // Unpooled: its ArrayBuffer is its own, to transfer.
    buf = reuse && reuse.length >= need ? reuse : Buffer.allocUnsafeSlow(Math.max(chunkBytes, need));
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
      queued.shift();
      if (free.length < maxPending) free.push(Buffer.from(r.bytes));
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
  /** Whether a batch touching `tops` may be written here now: the queue is full and no queued batch touches the same top-level names. */
  const mayWriteHere = (tops: Set<string>): boolean => {
    if (!helpWhenFull || pending < maxPending) return false;
    for (const t of tops) {
      if (filling.has(t)) return false;
      for (const q of queued) if (q.has(t)) return false;
    }
    return true;
  };
  return {
    get writtenHere() {
      return writtenHere;
    },
    get chunksSent() {
      return chunksSent;
    },
    async write(files, managedDirs, managedParents = []) {
      if (failure) throw failure;
      const tops = topsOf(files, managedDirs, managedParents);
      if (mayWriteHere(tops)) {
        // The worker has a full queue: this thread writes the batch now instead of waiting (the
        // same writeTree, on its own session; its manifest changes go to the worker in order).
        here ??= loggingSession(openOutput(outDir), log);
        const s = writeTree(outDir, files, managedDirs, managedParents, here);
        total.written += s.written;
        total.unchanged += s.unchanged;
        total.removed += s.removed;
        writtenHere++;
        return;
      }
      for (const t of tops) filling.add(t);
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
      for (const f of files) {
        used += b.write(f.content, used, 'utf8');
        paths.push(f.path);
        ends.push(used);
      }
      batches.push({ files: files.length, managedDirs: [...managedDirs], managedParents: [...managedParents] });
      // An idle worker gets the batch now: the first cluster's files are written while the next
      // ones render, and the worker never waits for a chunk to fill (ADR 0417).
      if (used >= chunkBytes || pending === 0) send();
      if (!helpWhenFull) await waitUntil(() => pending < maxPending);
      // Helping: never more than maxPending + 1 chunks wait (the one being filled is sent when full).
      else await waitUntil(() => pending <= maxPending);
    },
    async close() {
      try {
        if (failure) throw failure;
        // Every batch, then the manifest of what was written.
        send();
        pending++;
        worker.postMessage({ save: true, ...takeLog() } satisfies Message);
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
if (!isMainThread && parentPort && (workerData as { fleetplanTreeWriter?: boolean } | null)?.fleetplanTreeWriter === true) {
  const port = parentPort;
  let outDir = '';
  let failed: Reply | undefined;
  let session: OutputSession | undefined;
  port.on('message', (m: Message) => {
    // Where to write; no answer (the writer counts answers to its chunks and save).
    if ('open' in m) return void (outDir = m.open);
    if (failed) return port.postMessage(failed);
    try {
      session ??= openOutput(outDir);
      // The calling thread's manifest changes, made before this message's batches.
      for (const op of m.log ?? []) {
        if (op.startsWith('+')) session.record(op.slice(1));
        else session.forget(op.slice(1));
      }
      if ('save' in m) {
        session.save();
        port.postMessage({ ok: true, saved: true } satisfies Reply);
      } else {
        const bytes = Buffer.from(m.bytes);
        const { paths, ends } = m;
        const stats: WriteStats = { written: 0, unchanged: 0, removed: 0 };
        let at = 0;
        let start = 0;
        for (const b of m.batches) {
          const files: { path: string; content: Uint8Array }[] = [];
          for (let i = 0; i < b.files; i++, at++) {
            const end = ends[at]!;
            files.push({ path: paths[at]!, content: bytes.subarray(start, end) });
            start = end;
          }
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
