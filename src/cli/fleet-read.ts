/**
 * Reading the fleet in --repo for a command: loading, finishing what the layout reader left to the
 * real tools, choosing clusters, reporting findings. Imported by the actions that read a fleet.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { InputError, UsageError, parseSelector, selectClustersByLabels } from '../entry/core.js';
import type { Finding, Fleet } from '../entry/core.js';
import { hasHelmfileBootstrap, loadFleetAsync, completeLoad, completeFallbacks, findingLine, summaryLine, selectClusters, readStateValues } from '../entry/fleet-plan.js';
import type { HelmfileStateValues, LoadResult } from '../entry/fleet-plan.js';
import type { ClusterSecret } from '../entry/appset.js';
import { readTextFile } from '../adapters/fs.js';
import type { ClosableClusterBuilder } from '../adapters/cluster-build.js';
import { createClusterBuilder } from '../adapters/cluster-build.js';
import type { CommandContext } from './command.js';
import { paintFindingLine } from './color.js';
import { clusterNames, progress, repoRoot, selectorTexts } from './common.js';
import { withStatus } from './progress.js';

/**
 * Loads the fleet in --repo. Clusters a layout reader could not read exactly are built with the
 * real kustomize and Helm (found through the flags, FLEETPLAN_KUSTOMIZE, FLEETPLAN_HELM, PATH,
 * then fleetplan's .tools/bin); those builds can take a while, so a status line shows after 1 s.
 */
export async function load(ctx: CommandContext, options: { clusterSecrets?: boolean } = {}): Promise<LoadResult> {
  const root = repoRoot(ctx);
  const environment = helmfileEnvironment(ctx);
  const stateValues = helmfileStateValues(ctx);
  const env = helmfileEnv(ctx);
  const result = await loadFleetAsync(root, { ...(environment !== undefined ? { helmfileEnvironment: environment } : {}), ...(stateValues ? { helmfileStateValues: stateValues } : {}), ...(env ? { helmfileEnv: env } : {}) });
  await completeRead(ctx, result, root, options);
  return result;
}

/**
 * `-e` and the state values flags on a fleet read without helmfiles are usage errors, for every
 * command that reads a fleet (plan, render, validate, diff and validate --base, through
 * completeRead): they would silently change nothing.
 */
function refuseHelmfileFlags(ctx: CommandContext, result: LoadResult): void {
  // A helmfile repository whose releases are all unread in that environment (say, a requiredEnv) is still one: its findings say why.
  if (result.fleet.capabilities.helmfileEnvironments || hasHelmfileBootstrap(result.fleet)) return;
  if (ctx.values['environment'] !== undefined) throw new UsageError('--environment is the helmfile environment: it applies to helmfile + Flux repositories only', { hint: `this repository is read as the ${result.fleet.layout} layout, which has no helmfile` });
  const given = ['state-values-file', 'state-values-set', 'helmfile-env'].flatMap((name) => (Array.isArray(ctx.values[name]) ? (ctx.values[name] as unknown[]).map((v) => `--${name} ${String(v)}`) : []));
  const first = given[0];
  if (first !== undefined) throw new UsageError(`${first}: ${first.startsWith('--helmfile-env') ? 'the variables of helmfile templates apply' : 'helmfile\'s state values apply'} to helmfile + Flux repositories only`, { hint: `this repository is read as the ${result.fleet.layout} layout, which has no helmfile` });
}

/** `-e NAME` (commands with helmfileEnvironmentOptions), or undefined. */
export function helmfileEnvironment(ctx: CommandContext): string | undefined {
  const e = ctx.values['environment'];
  if (e === undefined) return undefined;
  if (typeof e !== 'string' || e === '') throw new UsageError('--environment must name a helmfile environment', { hint: 'e.g. -e prod; leave it out for helmfile\'s default' });
  return e;
}

/**
 * helmfile's `--state-values-file` and `--state-values-set` (commands with
 * helmfileStateValuesOptions), or undefined when neither is given. Each file is read from the
 * current folder when it is there; the load reads a state's copy from the state's folder where
 * helmfile reads it from there (ADR 0405).
 */
export function helmfileStateValues(ctx: CommandContext): HelmfileStateValues | undefined {
  const list = (name: string) => (Array.isArray(ctx.values[name]) ? (ctx.values[name] as unknown[]).map(String) : []);
  const files = list('state-values-file');
  const set = list('state-values-set');
  if (!files.length && !set.length) return undefined;
  const read = files.map((name) => {
    const abs = resolve(ctx.io.cwd, name);
    return existsSync(abs) ? { name, text: readTextFile(abs, name) } : { name };
  });
  try {
    return readStateValues(read, set);
  } catch (e) {
    if (e instanceof InputError) throw new UsageError(e.message, { ...(e.hint ? { hint: e.hint } : {}), cause: e });
    throw e;
  }
}

/**
 * `--helmfile-env NAME=VALUE` (repeatable; commands with helmfileStateValuesOptions): the variables a
 * helmfile's `env`/`requiredEnv` read, as the shell that runs helmfile sets them; undefined when not given.
 */
export function helmfileEnv(ctx: CommandContext): Record<string, string> | undefined {
  const given = ctx.values['helmfile-env'];
  if (!Array.isArray(given) || given.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const arg of given.map(String)) {
    const eq = arg.indexOf('=');
    const name = eq < 0 ? '' : arg.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--helmfile-env ${arg}: not NAME=VALUE`, { hint: 'e.g. --helmfile-env CLUSTER_NAME=prod (repeatable); an empty value is NAME=' });
    out[name] = arg.slice(eq + 1);
  }
  return out;
}

/**
 * The cluster Secrets of `--clusters FILE` (commands with clusterSecretsOptions), or undefined.
 * Only a repository read as Argo CD reads it (the argocd layout) takes them: any other layout's
 * clusters come from its own files, and the flag would silently change nothing.
 */
async function clusterSecretsFile(ctx: CommandContext, result: LoadResult): Promise<ClusterSecret[] | undefined> {
  const file = ctx.values['clusters'];
  if (typeof file !== 'string') return undefined;
  if (!result.complete && !result.withClusters) {
    throw new UsageError(`--clusters ${file}: this repository is read as the ${result.fleet.layout} layout, whose clusters come from its own files`, {
      hint: '--clusters gives cluster Secrets to the ApplicationSets of a repository read as Argo CD reads it (the argocd layout); leave it out here',
    });
  }
  // The ApplicationSet entry only for this flag (ADR 0397).
  const { readClusterSecrets, CLUSTER_SECRET_TYPE_LABEL } = await import('../entry/appset.js');
  const read = readClusterSecrets(readTextFile(resolve(ctx.io.cwd, file), file), file);
  if (read.unlabelled.length > 0) {
    ctx.io.stderr.write(`fleetplan: ${file}: ignoring Secrets without the label ${CLUSTER_SECRET_TYPE_LABEL}: cluster: ${read.unlabelled.join(', ')}\n`);
  }
  return read.secrets;
}

/**
 * The roots of `--root FILE` (repeatable), relative to --repo (ADR 0345); an absolute path inside
 * the repository is made relative to it (one outside stays absolute: the library says it is outside).
 */
function rootFlags(ctx: CommandContext): string[] | undefined {
  const given = ctx.values['root'];
  if (!Array.isArray(given) || given.length === 0) return undefined;
  const repo = repoRoot(ctx);
  return given.map((r) => {
    if (typeof r !== 'string' || !isAbsolute(r)) return String(r);
    const rel = relative(repo, r);
    return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? r : rel.split('\\').join('/');
  });
}

/**
 * Finishes reading a fleet read at `root` (see load): follows the repository's Applications where
 * the layout reader left that to the real tools (the argocd layout), and builds the clusters a
 * layout reader could not read exactly. Refuses the helmfile flags on a fleet without helmfiles first.
 */
export async function completeRead(ctx: CommandContext, result: LoadResult, root: string, options: { clusterSecrets?: boolean } = {}): Promise<void> {
  refuseHelmfileFlags(ctx, result);
  const secrets = options.clusterSecrets === false ? undefined : await clusterSecretsFile(ctx, result);
  // A layout that reads its clusters' identities from --clusters (Validated Patterns' managed clusters): read again with them.
  if (secrets && result.withClusters) {
    const again = result.withClusters(secrets);
    Object.assign(result, again, { withClusters: undefined });
  }
  const roots = rootFlags(ctx);
  // With --root, completeLoad runs on every layout: on one not read as Argo CD it says the flag has no effect there.
  if (result.complete || roots) {
    await withStatus(progress(ctx), 'following the repository\'s Applications…', () =>
      completeLoad(result, { env: ctx.io.env, cwd: ctx.io.cwd, ...(typeof ctx.values.kustomize === 'string' ? { kustomize: ctx.values.kustomize } : {}), ...(typeof ctx.values.helm === 'string' ? { helm: ctx.values.helm } : {}), ...(typeof ctx.values.jsonnet === 'string' ? { jsonnet: ctx.values.jsonnet } : {}), ...(secrets ? { clusterSecrets: secrets } : {}), ...(roots ? { roots } : {}) }),
    );
  }
  if (result.fallbacks?.length) {
    let builder: ClosableClusterBuilder | undefined;
    const n = result.fallbacks.length;
    try {
      await withStatus(progress(ctx), `building ${n} cluster director${n === 1 ? 'y' : 'ies'} with kustomize…`, () =>
        completeFallbacks(result, async () => (builder = await createClusterBuilder(root, { env: ctx.io.env, cwd: ctx.io.cwd }))),
      );
    } finally {
      builder?.close();
    }
  }
}

/**
 * The clusters --cluster and -l/--selector choose, in bootstrap order; [] when neither is given
 * (every cluster). Both given: the named clusters that match. An unknown --cluster name is the
 * usual usage error; a selector that matches nothing is a usage error naming it.
 */
export function selectedClusters(ctx: CommandContext, fleet: Fleet): string[] {
  const names = clusterNames(ctx);
  const selectors = selectorTexts(ctx).map((s) => parseSelector(s));
  if (selectors.length === 0) return names;
  const candidates = selectClusters(fleet, names);
  const defs = candidates.map((n) => fleet.clusters.find((c) => c.name === n)!);
  let chosen = candidates;
  for (const s of selectors) chosen = chosen.filter((n) => selectClustersByLabels(defs, s).includes(n));
  if (chosen.length === 0) {
    const text = selectors.map((s) => s.text).join('" and "');
    throw new UsageError(`no cluster matches the selector "${text}"${names.length ? ` among --cluster ${names.join(', ')}` : ''}`, {
      code: 'no-cluster-selected',
      hint: `clusters: ${candidates.join(', ') || '(none)'}`,
    });
  }
  return chosen;
}

/** Findings to stderr, one line each (severity coloured on a terminal), then a summary. */
export function reportFindings(ctx: CommandContext, findings: readonly Finding[]): void {
  if (findings.length === 0) return;
  for (const f of findings) ctx.io.stderr.write(paintFindingLine(ctx.color.stderr, findingLine(f)) + '\n');
  ctx.io.stderr.write(summaryLine(findings) + '\n');
}
