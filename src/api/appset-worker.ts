/**
 * The worker thread of `fleetplan appset` (ADR 0346): makes the second share of the Applications
 * (./appset-share.ts) from the texts the main thread read, and posts it back, its bytes
 * transferred, not copied. Any failure posts `undefined`: the main thread then makes that share
 * itself, and reports the error exactly as the single-threaded path does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadApplicationSet, parseClusterSecrets } from '../appset/load.js';
import type { ShareWorkerInput } from './appset-share.js';
import { printShare, secondShare } from './appset-share.js';

const input = workerData as ShareWorkerInput;
try {
  const loaded = loadApplicationSet(input.text, input.file);
  if (loaded.length !== 1) throw new Error('not one ApplicationSet');
  const secrets = input.clustersText === undefined ? [] : parseClusterSecrets(input.clustersText, input.clustersFile);
  const share = await printShare(loaded[0]!, secrets, input.setup, secondShare(input.fraction, input.least), input.explain);
  const transfer = new Set<ArrayBuffer>();
  for (const c of share.chunks ?? []) transfer.add(c.buffer as ArrayBuffer);
  for (const a of [share.generatorOf, share.order, share.chunkOf, share.ends]) if (a !== undefined) transfer.add(a.buffer as ArrayBuffer);
  parentPort!.postMessage(share, [...transfer]);
} catch {
  parentPort!.postMessage(undefined);
}
