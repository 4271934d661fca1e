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
import { formatApplicationPieces, RunPrinter, sortOrder } from '../appset/format.js';
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
  /** The names in sorted order (by name, then position). */
  sortedNames: string[];
  /** Sorted position → generation position within the share. */
  order: Int32Array;
  /** Per generation position within the share: its generator, an index into `generators`. */
  generatorOf: Int32Array;
  generators: string[];
  /** The share printed (a worker's): format.ts ApplicationPieces, by sorted position. */
  chunks?: Uint8Array[];
  chunkOf?: Int32Array;
  ends?: Int32Array;
  /** Or the share's Applications in sorted order, printed while merging (this thread's). */
  sorted?: GeneratedApplication[];
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
export async function printShare(
  loaded: LoadedApplicationSet,
  secrets: readonly ClusterSecret[],
  setup: GenerateSetup,
  part: SharePart,
  explain: boolean,
  print = true,
): Promise<PrintedShare> {
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
  const sortedNames = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    sorted[i] = apps[order[i]!]!;
    sortedNames[i] = names[order[i]!]!;
  }
  const done = { total: share.total, from: share.from, to: share.to, sortedNames, order, generatorOf, generators };
  return print ? { ...done, ...formatApplicationPieces(sorted, explain) } : { ...done, sorted };
}

/** The merged shares: the rejected Applications in generation order, how many are printed, and the bytes to write in turn. */
export interface MergedShares {
  rejected: { message: string; generator: string }[];
  count: number;
  /** Each piece may be written over once the next is asked for (RunPrinter): write it, or copy it, first. */
  pieces: Iterable<Uint8Array>;
}

/**
 * The shares of one ApplicationSet, in generation order, merged by name into the printing order
 * (name, then generation position: a share before a later one). Names are checked on the way, as
 * validateApplications checks them in generation order: in that merged order an Application
 * whose name equals the one before it is a later duplicate (rejected), and the first without a
 * name is rejected as such; no set of all the names is built. Rejections are reported in
 * generation order with validateApplications' messages (nameProblem).
 */
export function mergeShares(setName: string, shares: readonly PrintedShare[], explain: boolean): MergedShares {
  const rejectedAt: { at: number; generator: string; name: string }[] = [];
  let count = 0;
  // Runs to write in turn: bytes of a printed share (share, piece, start, end), or sorted
  // positions start to end of a share printed while writing (piece -1).
  const runs: number[] = [];
  let runShare = -1;
  let runChunk = -1;
  let runStart = 0;
  let runEnd = 0;
  const flush = (): void => {
    if (runShare >= 0 && runEnd > runStart) runs.push(runShare, runChunk, runStart, runEnd);
    runShare = -1;
  };
  const at = shares.map(() => 0);
  let previous: string | undefined;
  for (;;) {
    // The next Application in printing order: the least name, the earlier share on a tie.
    let best = -1;
    let bestName = '';
    for (let k = 0; k < shares.length; k++) {
      const p = at[k]!;
      if (p >= shares[k]!.sortedNames.length) continue;
      const name = shares[k]!.sortedNames[p]!;
      if (best < 0 || name < bestName) {
        best = k;
        bestName = name;
      }
    }
    if (best < 0) break;
    const s = shares[best]!;
    const p = at[best]!;
    at[best] = p + 1;
    if (bestName === previous || bestName === '') {
      rejectedAt.push({ at: s.from + s.order[p]!, generator: s.generators[s.generatorOf[s.order[p]!]!]!, name: bestName });
      previous = bestName;
      continue;
    }
    previous = bestName;
    count++;
    let chunk = -1;
    let start = p;
    let end = p + 1;
    if (s.chunkOf !== undefined) {
      chunk = s.chunkOf[p]!;
      start = p > 0 && s.chunkOf[p - 1] === chunk ? s.ends![p - 1]! : 0;
      end = s.ends![p]!;
    }
    if (runShare !== best || runChunk !== chunk || runEnd !== start) {
      flush();
      runShare = best;
      runChunk = chunk;
      runStart = start;
    }
    runEnd = end;
  }
  flush();
  rejectedAt.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  const rejected = rejectedAt.map((r) => {
    // A named one is a duplicate; of those without a name, the first is reported as such.
    if (r.name !== '') seen.add(r.name);
    return { message: nameProblem(setName, r.name, seen)!, generator: r.generator };
  });
  return { rejected, count, pieces: mergedPieces(shares, runs, explain) };
}

function* mergedPieces(shares: readonly PrintedShare[], runs: readonly number[], explain: boolean): Generator<Uint8Array> {
  const printer = new RunPrinter(explain);
  for (let i = 0; i < runs.length; i += 4) {
    const s = shares[runs[i]!]!;
    const chunk = runs[i + 1]!;
    if (chunk >= 0) yield s.chunks![chunk]!.subarray(runs[i + 2]!, runs[i + 3]!);
    else yield* printer.print(s.sorted!, runs[i + 2]!, runs[i + 3]!);
  }
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
