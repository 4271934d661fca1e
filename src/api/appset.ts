/**
 * ApplicationSets evaluated offline, as the ApplicationSet controller would: the git generators
 * read a local repository through real git (adapters/git.ts), the cluster generator the cluster
 * Secrets given, templates go through the Go-template engine.
 */
import { Worker } from 'node:worker_threads';
import { generateApplications } from '../appset/applications.js';
import type { GeneratedApplication } from '../appset/applications.js';
import { CLUSTER_SECRET_TYPE_LABEL } from '../appset/generators/cluster.js';
import { loadApplicationSet, parseClusterSecrets } from '../appset/load.js';
import type { LoadedApplicationSet } from '../appset/load.js';
import { firstShare, generateOptionsFor, mergeShares, printShare } from './appset-share.js';
import type { GenerateSetup, PrintedShare, ShareWorkerInput } from './appset-share.js';
import type { ClusterSecret, LabelSelector } from '../appset/types.js';
import { compileSelector, isEmptySelector } from '../appset/selector.js';
import { isPlainObject } from '../model/merge.js';
import { FleetplanError, InputError } from '../errors/index.js';

export interface ApplicationSetRunOptions {
  /** Cluster Secrets the cluster generator sees (none: only in-cluster). */
  clusterSecrets?: readonly ClusterSecret[];
  /** The local Git repository every git generator's repoURL maps to. */
  repoDir: string;
  /** Revision for git generators whose revision is empty or HEAD. */
  revision?: string;
  /** Git file generator patterns: git pathspecs (default) or doublestar globs. */
  fileGlobbing?: 'pathspec' | 'doublestar';
  /** The git directory generator also lists directories starting with '.'. */
  includeHiddenDirectories?: boolean;
}

export interface ApplicationSetRun {
  /** Every Application generated, from every ApplicationSet of the file. */
  applications: GeneratedApplication[];
  /** Applications Argo CD would reject (no name, duplicate name), with the generator they came from. */
  rejected: { message: string; generator: string }[];
  /**
   * Cluster generators that select no cluster from the Secrets given (nor in-cluster), per
   * ApplicationSet: an empty output then means "no cluster", not "nothing to deploy".
   */
  unmatched: UnmatchedClusterGenerator[];
}

export interface UnmatchedClusterGenerator {
  appSet: string;
  /** Spec path of the cluster generator, e.g. `spec.generators[0].matrix.generators[0]`. */
  generator: string;
  /** The selector as text (`key=value,key in (a,b)`), empty when it selects every cluster Secret. */
  selector: string;
  /** Where the generator is in the file. */
  location: { file: string; line?: number; column?: number };
}

/** Evaluates every ApplicationSet in a file's text. Errors name the ApplicationSet and its place in the file. */
export async function runApplicationSets(text: string, file: string, options: ApplicationSetRunOptions): Promise<ApplicationSetRun> {
  const loaded = loadApplicationSet(text, file);
  const { generate, close } = generateOptionsFor(options.clusterSecrets ?? [], options);
  const run: ApplicationSetRun = { applications: [], rejected: [], unmatched: [] };
  try {
    for (const { appSet, locate } of loaded) {
      run.unmatched.push(...unmatchedOf({ appSet, locate }, options.clusterSecrets ?? []));
      let result;
      try {
        result = await generateApplications(appSet, generate);
      } catch (e) {
        if (e instanceof FleetplanError && e.location?.path !== undefined && e.location.file === '') {
          throw new InputError(`ApplicationSet ${appSet.metadata.name}: ${e.message}`, { code: e.code, location: locate(e.location.path), hint: e.hint, cause: e });
        }
        if (e instanceof FleetplanError && !e.location) {
          throw new InputError(`ApplicationSet ${appSet.metadata.name}: ${e.message}`, { code: e.code, location: { file }, hint: e.hint, cause: e });
        }
        throw e;
      }
      for (const a of result.applications) run.applications.push(a);
      for (const bad of result.invalid) run.rejected.push({ message: bad.message, generator: bad.generated.generator });
    }
  } finally {
    close();
  }
  return run;
}

function unmatchedOf({ appSet, locate }: Pick<LoadedApplicationSet, 'appSet' | 'locate'>, secrets: readonly ClusterSecret[]): UnmatchedClusterGenerator[] {
  return unmatchedClusterGenerators(appSet.spec as unknown as Record<string, unknown>, secrets).map((u) => ({ appSet: appSet.metadata.name, ...u, location: locate(u.generator) }));
}

/** The second thread of a shared run (ADR 0346): started early, asked for its share once. */
export interface ApplicationSetWorker {
  /** The worker's share, or undefined when it failed or made another one (the main thread then makes it). */
  share(): Promise<PrintedShare | undefined>;
  /** Ends the worker (when its share is not needed). */
  stop(): void;
}

/** The first share's fraction of the Applications and the fewest Applications worth a worker (ADR 0346). */
export const SHARED_RUN = { fraction: 0.5, least: 10_000 } as const;

export interface SharedRunInput {
  text: string;
  file: string;
  /** The cluster Secrets' text and its name (the worker parses them itself). */
  clustersText?: string;
  clustersFile?: string;
  setup: GenerateSetup;
  explain: boolean;
  /** Defaults: SHARED_RUN. */
  fraction?: number;
  least?: number;
}

/** Starts the worker that makes the second share of `input`'s Applications. */
export function startApplicationSetWorker(input: SharedRunInput): ApplicationSetWorker {
  const data: ShareWorkerInput = {
    text: input.text,
    file: input.file,
    clustersText: input.clustersText,
    clustersFile: input.clustersFile ?? '',
    setup: input.setup,
    explain: input.explain,
    fraction: input.fraction ?? SHARED_RUN.fraction,
    least: input.least ?? SHARED_RUN.least,
  };
  const worker = new Worker(new URL('./appset-worker.js', import.meta.url), { workerData: data, stdout: true, stderr: true });
  const result = new Promise<PrintedShare | undefined>((done) => {
    worker.once('message', (m: PrintedShare | undefined) => done(m));
    worker.once('error', () => done(undefined));
    worker.once('exit', () => done(undefined));
  });
  return {
    share: () => result,
    stop: () => void worker.terminate(),
  };
}

/** The Applications of a shared run: their bytes in printing order, with what runApplicationSets reports. */
export interface SharedRun {
  rejected: { message: string; generator: string }[];
  unmatched: UnmatchedClusterGenerator[];
  /** Applications printed. */
  count: number;
  /** YAML bytes, to write in turn; a piece may be written over once the next is asked for (write or copy it first). */
  pieces: Iterable<Uint8Array>;
}

/**
 * A file of one ApplicationSet, YAML out, made in two shares (ADR 0346): the first on this thread,
 * the second by `worker` (or here, when the worker fails or is absent), merged by name into the
 * bytes `formatApplicationBytes(runApplicationSets(…).applications)` gives, with the same
 * rejected Applications in the same order. Undefined when the file is not one ApplicationSet or
 * anything fails: the caller then runs runApplicationSets, which gives the exact error.
 */
export async function runApplicationSetShared(input: SharedRunInput, secrets: readonly ClusterSecret[], worker: ApplicationSetWorker | undefined): Promise<SharedRun | undefined> {
  const fraction = input.fraction ?? SHARED_RUN.fraction;
  const least = input.least ?? SHARED_RUN.least;
  let loaded;
  try {
    loaded = loadApplicationSet(input.text, input.file);
  } catch {
    return undefined;
  }
  if (loaded.length !== 1) return undefined;
  const one = loaded[0]!;
  try {
    const first = await printShare(one, secrets, input.setup, firstShare(fraction, least), input.explain, false);
    const shares = [first];
    if (first.to < first.total) {
      let second = worker ? await worker.share() : undefined;
      if (second === undefined || second.total !== first.total || second.from !== first.to || second.to !== first.total) {
        second = await printShare(one, secrets, input.setup, (total) => ({ from: first.to, to: total }), input.explain, false);
        if (second.total !== first.total) return undefined;
      }
      shares.push(second);
    }
    const merged = mergeShares(one.appSet.metadata.name, shares, input.explain);
    return { ...merged, unmatched: unmatchedOf(one, secrets) };
  } catch {
    return undefined;
  }
}

/**
 * The cluster generators of an ApplicationSet (top level and inside matrix/merge) whose literal
 * selector matches none of the Secrets (as the generator does: the secret-type label, then the
 * selector; in-cluster counts only for an empty selector). A templated selector is left out: it
 * depends on the parameters of another generator.
 */
function unmatchedClusterGenerators(spec: Record<string, unknown>, secrets: readonly ClusterSecret[]): { generator: string; selector: string }[] {
  const out: { generator: string; selector: string }[] = [];
  const walk = (gens: unknown, path: string): void => {
    if (!Array.isArray(gens)) return;
    gens.forEach((g: unknown, i) => {
      if (!isPlainObject(g)) return;
      const at = `${path}[${i}]`;
      const clusters = g['clusters'];
      if (isPlainObject(clusters)) {
        const selector = (clusters['selector'] ?? {}) as LabelSelector;
        if (JSON.stringify(selector).includes('{{')) return;
        let matches;
        try {
          matches = compileSelector(selector);
        } catch {
          return; // the evaluation reports a bad selector
        }
        const any = isEmptySelector(selector) || secrets.some((s) => s.labels[CLUSTER_SECRET_TYPE_LABEL] === 'cluster' && matches(s.labels));
        if (!any) out.push({ generator: at, selector: selectorText(selector) });
      }
      for (const k of ['matrix', 'merge']) {
        const nested = g[k];
        if (isPlainObject(nested)) walk(nested['generators'], `${at}.${k}.generators`);
      }
    });
  };
  walk(spec['generators'], 'spec.generators');
  return out;
}

function selectorText(sel: LabelSelector): string {
  const parts = Object.entries(sel.matchLabels ?? {}).map(([k, v]) => `${k}=${String(v)}`);
  for (const e of sel.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',');
    parts.push(e.operator === 'Exists' ? e.key : e.operator === 'DoesNotExist' ? `!${e.key}` : `${e.key} ${e.operator === 'In' ? 'in' : 'notin'} (${values})`);
  }
  return parts.join(',');
}

/** Cluster Secrets from a YAML stream, and the names of those without the cluster secret-type label (the generator ignores them). */
export function readClusterSecrets(text: string, file: string): { secrets: ClusterSecret[]; unlabelled: string[] } {
  const secrets = parseClusterSecrets(text, file);
  return { secrets, unlabelled: secrets.filter((s) => s.labels[CLUSTER_SECRET_TYPE_LABEL] !== 'cluster').map((s) => s.name) };
}

/** The label that makes a Secret a cluster Secret for Argo CD (`argocd.argoproj.io/secret-type: cluster`). */
export { CLUSTER_SECRET_TYPE_LABEL };
