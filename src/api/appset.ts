/**
 * ApplicationSets evaluated offline, as the ApplicationSet controller would: the git generators
 * read a local repository through real git (adapters/git.ts), the cluster generator the cluster
 * Secrets given, templates go through the Go-template engine.
 */
import { createLocalGitTree } from '../adapters/git.js';
import type { LocalGitTree } from '../adapters/git.js';
import { generateApplications } from '../appset/applications.js';
import type { GeneratedApplication, GenerateOptions } from '../appset/applications.js';
import { CLUSTER_SECRET_TYPE_LABEL } from '../appset/generators/cluster.js';
import { goTemplateEngine } from '../appset/go-engine.js';
import { loadApplicationSet, parseClusterSecrets } from '../appset/load.js';
import { createRepoServer } from '../appset/repo-server.js';
import type { ClusterSecret, LabelSelector } from '../appset/types.js';
import { compileSelector, isEmptySelector } from '../appset/selector.js';
import { isPlainObject } from '../model/merge.js';
import { FleetplanError, InputError } from '../errors/index.js';
import type { GitRepo } from '../ports/git-repo.js';

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
  let tree: LocalGitTree | undefined;
  const lazyTree = (): LocalGitTree => (tree ??= createLocalGitTree(options.repoDir));
  const server = createRepoServer(
    {
      listFiles: (u, r) => lazyTree().listFiles(u, r),
      listDirectories: (u, r) => lazyTree().listDirectories(u, r),
      readFiles: (u, r, p) => lazyTree().readFiles(u, r, p),
    },
    { includeHiddenDirectories: options.includeHiddenDirectories === true },
  );
  const mapRevision = (rev: string): string => ((rev === '' || rev === 'HEAD') && options.revision !== undefined ? options.revision : rev);
  const git: GitRepo = {
    getDirectories: (u, r) => server.getDirectories(u, mapRevision(r)),
    getFiles: (u, r, p, g) => server.getFiles(u, mapRevision(r), p, g),
  };
  const generate: GenerateOptions = {
    clusterSecrets: [...(options.clusterSecrets ?? [])],
    git,
    fileGlobbing: options.fileGlobbing ?? 'pathspec',
    ...goTemplateEngine,
  };
  const run: ApplicationSetRun = { applications: [], rejected: [], unmatched: [] };
  try {
    for (const { appSet, locate } of loaded) {
      for (const u of unmatchedClusterGenerators(appSet.spec as unknown as Record<string, unknown>, options.clusterSecrets ?? [])) {
        run.unmatched.push({ appSet: appSet.metadata.name, ...u, location: locate(u.generator) });
      }
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
    tree?.close();
  }
  return run;
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
