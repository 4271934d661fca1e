/**
 * One share of an ApplicationSet's Applications, generated, sorted and printed as YAML bytes
 * (ADR 0346): the main thread makes the first share while a worker (./appset-worker.ts) makes the
 * second, and `mergeShares` checks the names across both and interleaves the bytes in the order
 * the single-threaded path prints. This module is all the worker loads: the ApplicationSet
 * engine, the git adapter and the printer, nothing of the fleet.
 */
import { createLocalGitTree } from '../adapters/git.js';
import type { LocalGitTree } from '../adapters/git.js';
import { generateApplicationShare, nameProblem, applicationName } from '../appset/applications.js';
import type { GeneratedApplication, GenerateOptions } from '../appset/applications.js';
import { formatApplicationPieces, sortOrder } from '../appset/format.js';
import { goTemplateEngine } from '../appset/go-engine.js';
import type { LoadedApplicationSet } from '../appset/load.js';
import { createRepoServer } from '../appset/repo-server.js';
import type { ClusterSecret } from '../appset/types.js';
import type { GitRepo } from '../ports/git-repo.js';

/** What runs an ApplicationSet offline besides its text (ApplicationSetRunOptions without the Secrets). */
export interface GenerateSetup {
  repoDir: string;
  revision?: string;
  fileGlobbing?: 'pathspec' | 'doublestar';
  includeHiddenDirectories?: boolean;
}

/** The generate options over a lazily opened local git tree; `close` ends its git processes. */
export function generateOptionsFor(secrets: readonly ClusterSecret[], setup: GenerateSetup): { generate: GenerateOptions; close: () => void } {
  let tree: LocalGitTree | undefined;
  const lazyTree = (): LocalGitTree => (tree ??= createLocalGitTree(setup.repoDir));
  const server = createRepoServer(
    {
      listFiles: (u, r) => lazyTree().listFiles(u, r),
      listDirectories: (u, r) => lazyTree().listDirectories(u, r),
      readFiles: (u, r, p) => lazyTree().readFiles(u, r, p),
    },
    { includeHiddenDirectories: setup.includeHiddenDirectories === true },
  );
  const mapRevision = (rev: string): string => ((rev === '' || rev === 'HEAD') && setup.revision !== undefined ? setup.revision : rev);
  const git: GitRepo = {
    getDirectories: (u, r) => server.getDirectories(u, mapRevision(r)),
    getFiles: (u, r, p, g) => server.getFiles(u, mapRevision(r), p, g),
  };
  return {
    generate: { clusterSecrets: [...secrets], git, fileGlobbing: setup.fileGlobbing ?? 'pathspec', ...goTemplateEngine },
    close: () => tree?.close(),
  };
}

/**
 * One share printed: names and generators in generation order (for the name checks), the sorted
 * order, and the bytes of each Application in that order (format.ts ApplicationPieces).
 */
export interface PrintedShare {
  /** Applications the ApplicationSet generates in all, and this share's range of them. */
  total: number;
  from: number;
  to: number;
  /** Per Application of the share, in generation order. */
  names: string[];
  generatorOf: Int32Array;
  generators: string[];
  /** Sorted position → generation position within the share (by name, then position). */
  order: Int32Array;
  chunks: Uint8Array[];
  chunkOf: Int32Array;
  ends: Int32Array;
}

/** Which share a thread makes: the range from the total. */
export type SharePart = (total: number) => { from: number; to: number };

/** The first `fraction` of the Applications, or all of them when there are fewer than `least`. */
export function firstShare(fraction: number, least: number): SharePart {
  return (total) => ({ from: 0, to: total < least ? total : Math.round(total * fraction) });
}

/** The Applications after the first share. */
export function secondShare(fraction: number, least: number): SharePart {
  return (total) => ({ from: total < least ? total : Math.round(total * fraction), to: total });
}

/** Generates, sorts and prints one share of one ApplicationSet (throws what generation throws). */
export async function printShare(loaded: LoadedApplicationSet, secrets: readonly ClusterSecret[], setup: GenerateSetup, part: SharePart, explain: boolean): Promise<PrintedShare> {
  const { generate, close } = generateOptionsFor(secrets, setup);
  let share;
  try {
    share = await generateApplicationShare(loaded.appSet, generate, part);
  } finally {
    close();
  }
  const apps = share.generated;
  const n = apps.length;
  const names = new Array<string>(n);
  const generatorOf = new Int32Array(n);
  const generators: string[] = [];
  const generatorIds = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const g = apps[i]!;
    names[i] = applicationName(g);
    let id = generatorIds.get(g.generator);
    if (id === undefined) {
      id = generators.length;
      generators.push(g.generator);
      generatorIds.set(g.generator, id);
    }
    generatorOf[i] = id;
  }
  // The same total order as sortApplications, as positions.
  const order = Int32Array.from(sortOrder(names));
  const sorted = new Array<GeneratedApplication>(n);
  for (let i = 0; i < n; i++) sorted[i] = apps[order[i]!]!;
  const pieces = formatApplicationPieces(sorted, explain);
  return { total: share.total, from: share.from, to: share.to, names, generatorOf, generators, order, ...pieces };
}

/** The merged shares: the rejected Applications in generation order, how many are printed, and the bytes to write in turn. */
export interface MergedShares {
  rejected: { message: string; generator: string }[];
  count: number;
  pieces: Uint8Array[];
}

/**
 * The shares of one ApplicationSet, in generation order, merged: names checked across all of them
 * in generation order (validateApplications' rule and messages), and the printed Applications
 * interleaved by name — what the single-threaded path prints. Within the shares only rejected
 * Applications can share a name, so the kept ones never tie.
 */
export function mergeShares(setName: string, shares: readonly PrintedShare[]): MergedShares {
  const seen = new Set<string>();
  const rejected: { message: string; generator: string }[] = [];
  const kept = shares.map((s) => new Uint8Array(s.names.length));
  let count = 0;
  shares.forEach((s, k) => {
    for (let i = 0; i < s.names.length; i++) {
      const problem = nameProblem(setName, s.names[i]!, seen);
      if (problem !== undefined) rejected.push({ message: problem, generator: s.generators[s.generatorOf[i]!]! });
      else {
        kept[k]![i] = 1;
        count++;
      }
    }
  });
  const pieces: Uint8Array[] = [];
  // The run of bytes being gathered: share, piece, start, end.
  let runShare = -1;
  let runChunk = -1;
  let runStart = 0;
  let runEnd = 0;
  const flush = (): void => {
    if (runShare >= 0 && runEnd > runStart) pieces.push(shares[runShare]!.chunks[runChunk]!.subarray(runStart, runEnd));
    runShare = -1;
  };
  const at = shares.map(() => 0);
  // The next kept sorted position of share k, or -1.
  const next = (k: number): number => {
    const s = shares[k]!;
    let p = at[k]!;
    while (p < s.order.length && kept[k]![s.order[p]!] === 0) p++;
    at[k] = p;
    return p < s.order.length ? p : -1;
  };
  for (;;) {
    let best = -1;
    let bestPos = -1;
    let bestName = '';
    for (let k = 0; k < shares.length; k++) {
      const p = next(k);
      if (p < 0) continue;
      const name = shares[k]!.names[shares[k]!.order[p]!]!;
      if (best < 0 || name < bestName) {
        best = k;
        bestPos = p;
        bestName = name;
      }
    }
    if (best < 0) break;
    const s = shares[best]!;
    const chunk = s.chunkOf[bestPos]!;
    const start = bestPos > 0 && s.chunkOf[bestPos - 1] === chunk ? s.ends[bestPos - 1]! : 0;
    const end = s.ends[bestPos]!;
    if (runShare !== best || runChunk !== chunk || runEnd !== start) {
      flush();
      runShare = best;
      runChunk = chunk;
      runStart = start;
    }
    runEnd = end;
    at[best] = bestPos + 1;
  }
  flush();
  return { rejected, count, pieces };
}

/** What the worker is given: the texts the main thread read, and the share's rule. */
export interface ShareWorkerInput {
  text: string;
  file: string;
  clustersText: string | undefined;
  clustersFile: string;
  setup: GenerateSetup;
  explain: boolean;
  /** The first share's fraction of the Applications, and the fewest Applications worth a second share. */
  fraction: number;
  least: number;
}
