/**
 * Stage 7d, phase 2 of seed 000: move a bootstrapped cluster onto its internal Git service.
 *
 *   mirror-ready   wait: the app deploying the Git service Synced and Healthy; the push credentials
 *                  (a Secret, or an ExternalSecret Ready and its target Secret) exist
 *   mirror-push    the cluster's commit (what its root Application synced, else its revision as the
 *                  local clone resolves it) must hold the phase-2 tree exactly as `render --phase 2`
 *                  writes it; it is pushed with real git unless the mirror's branch already is it
 *   mirror-switch  server-side apply (dry-run first; only what changes is written) of the AppProjects,
 *                  the root Application and every Application whose source is the fleet repository
 *   mirror-synced  wait: each of those Applications Synced, compared to a source at the mirror's URL
 *
 * Idempotent: a second run pushes nothing (the branch is the commit) and writes nothing (the dry
 * run shows every object unchanged). Resumable: each step checks the cluster and the mirror
 * first, so a run killed at any point is finished by the next.
 *
 * The switch takes `spec.source.repoURL` from Argo CD's field manager (force): the phase-2 root
 * syncs the same values from the mirror right after (docs/adr/0236-phase-two-tree.md).
 */
import { OperationError } from '../errors/index.js';
import type { K8sObject } from '../model/k8s.js';
import { keyOf, refOf } from '../model/k8s.js';
import type { ObjectChange, StageTiming, WaitSpec } from '../model/bootstrap.js';
import type { Clock } from '../ports/clock.js';
import { FIELD_MANAGER, type KubeClient, type KubeObject } from '../ports/kube.js';
import type { ExpectedFile, GitCredentials, MirrorGit } from '../ports/mirror-git.js';
import type { MirrorPlan } from '../order/mirror-plan.js';
import { credentialsText } from '../order/mirror-plan.js';
import { sameRepo } from '../generate/mirror.js';
import { PHASE_TWO_DIR } from '../generate/mirror.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { renderCluster } from '../render/fleet.js';
import { ChangeSet, type BootstrapResult } from './change-set.js';
import { changeAction } from './changes.js';
import { conflictError } from './executor.js';
import { KubeApiError } from '../ports/kube.js';
import type { Reporter } from './events.js';
import { evaluate, type LiveObject } from './readiness.js';
import { formatDuration, DEFAULT_TIMEOUT_MS } from './executor.js';

export interface MirrorOptions {
  clock: Clock;
  reporter: Reporter;
  /** For the whole phase. */
  timeoutMs?: number;
  /** Replace a mirror branch that has commits the cluster's commit does not (`--force-push`). */
  forcePush?: boolean;
  /** How often the cluster is read while waiting (default 500 ms). */
  pollMs?: number;
}

export interface MirrorResult extends BootstrapResult {
  /** The commit the mirror's branch holds. */
  commit: string;
  /** `pushed`, or `unchanged` when the branch already was the commit. */
  push: 'pushed' | 'unchanged';
}

/** Phase 2 did not get what it waits for before the deadline. */
export class MirrorTimeoutError extends OperationError {
  constructor(stage: string, timeoutMs: number, waiting: Array<{ ref: string; message: string; conditions: string[] }>) {
    super(
      `timed out after ${formatDuration(timeoutMs)} in stage "${stage}": ${waiting.length} not ready:\n` +
        waiting.map((w) => `  ${w.ref}: ${w.message}${w.conditions.map((c) => `\n      ${c}`).join('')}`).join('\n'),
      { code: 'mirror-timeout', hint: 'rerun to resume (what is pushed and applied is kept); raise --timeout if it is only slow' },
    );
  }
}

/**
 * The phase-2 files of a cluster as they must be in the pushed commit (paths from the repository
 * root): `render --phase 2` under the fleet's renderedPath.
 */
export function expectedPhaseTwoFiles(resolved: ResolvedFleet, cluster: ResolvedCluster): ExpectedFile[] {
  const prefix = `${cluster.name}/${PHASE_TWO_DIR}/`;
  return renderCluster(resolved, cluster, undefined, { phase: 2 })
    .filter((f) => f.path.startsWith(prefix))
    .map((f) => ({ path: `${resolved.fleet.renderedPath}/${f.path}`, content: f.content }));
}

const APPLICATION = 'argoproj.io/v1alpha1';

export async function runMirror(client: KubeClient, git: MirrorGit, plan: MirrorPlan, expected: readonly ExpectedFile[], options: MirrorOptions): Promise<MirrorResult> {
  const { clock, reporter } = options;
  const cluster = plan.cluster;
  if (plan.problems.length) {
    throw new OperationError(`cluster ${cluster} cannot move to its internal Git: ${plan.problems.join('; ')}`, { code: 'mirror-plan', hint: 'fix gitops.mirror in fleet.yaml' });
  }
  const start = clock.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = start + timeoutMs;
  const pollMs = options.pollMs ?? 500;
  const changes = new ChangeSet();
  const timings: StageTiming[] = [];
  const ns = plan.gitopsNamespace;
  const stageNames = ['mirror-ready', 'mirror-push', 'mirror-switch', 'mirror-synced'];
  reporter.event({ type: 'start', cluster, context: client.context, server: client.server, stages: stageNames, dryRun: false });
  let stageStart = clock.now();
  const begin = (index: number, waits: number) => {
    stageStart = clock.now();
    reporter.event({ type: 'stage', cluster, stage: stageNames[index]!, index, total: stageNames.length, objects: index === 2 ? plan.objects.length : 0, waits });
  };
  const end = (stage: string) => {
    const t = { stage, durationMs: Math.round(clock.now() - stageStart) };
    timings.push(t);
    reporter.event({ type: 'stage-done', cluster, ...t });
  };

  /** Polls until every check holds; at the deadline, fails naming those that do not. */
  async function waitAll(stage: string, checks: Array<{ ref: string; check: () => Promise<{ ready: boolean; message: string; conditions: string[] }> }>): Promise<void> {
    const ready = new Set<string>();
    const said = new Map<string, string>();
    for (;;) {
      const pending: Array<{ ref: string; message: string; conditions: string[] }> = [];
      for (const c of checks) {
        if (ready.has(c.ref)) continue;
        const r = await c.check();
        if (r.ready) {
          ready.add(c.ref);
          reporter.event({ type: 'ready', cluster, stage, ref: c.ref, message: r.message });
        } else {
          pending.push({ ref: c.ref, message: r.message, conditions: r.conditions });
          if (said.get(c.ref) !== r.message) {
            said.set(c.ref, r.message);
            reporter.event({ type: 'waiting', cluster, stage, ref: c.ref, message: r.message });
          }
        }
      }
      reporter.event({ type: 'progress', cluster, stage, ready: ready.size, total: checks.length });
      if (pending.length === 0) return;
      if (clock.now() >= deadline) {
        reporter.event({ type: 'failed', cluster, message: `timed out in stage ${stage}`, notReady: pending.map((p) => ({ ...p, condition: 'exists' })) });
        throw new MirrorTimeoutError(stage, timeoutMs, pending);
      }
      await clock.sleep(Math.min(pollMs, Math.max(1, deadline - clock.now())));
    }
  }

  const appKey = (name: string) => ({ apiVersion: APPLICATION, kind: 'Application', namespace: ns, name });
  const judge = (w: WaitSpec) => async () => {
    if (!(await client.resource(w.object.apiVersion, w.object.kind))) {
      return { ready: false, message: `${w.object.kind} (${w.object.apiVersion}) is not served on this cluster: is it bootstrapped (phase 1)?`, conditions: [] };
    }
    const o = (await client.get(w.object)) as LiveObject | undefined;
    return evaluate(w, () => o);
  };

  // mirror-ready: the Git service's app, then the credentials.
  begin(0, 2);
  const appWait: WaitSpec = { object: appKey(plan.app), condition: 'synced-healthy', text: `Application ${plan.app} Synced and Healthy` };
  const creds = plan.credentials;
  let secretName = creds.name;
  const credChecks = [{ ref: refOf(appWait.object), check: judge(appWait) }];
  if (creds.kind === 'ExternalSecret') {
    const es: WaitSpec = { object: { apiVersion: 'external-secrets.io/v1beta1', kind: 'ExternalSecret', namespace: creds.namespace, name: creds.name }, condition: 'ready-condition', text: '' };
    credChecks.push({
      ref: refOf(es.object),
      check: async () => {
        const o = await getExternalSecret(client, creds.namespace, creds.name);
        if (o) secretName = String((o.spec as { target?: { name?: string } } | undefined)?.target?.name ?? creds.name);
        return evaluate(es, () => o as LiveObject | undefined);
      },
    });
  }
  await waitAll('mirror-ready', credChecks);
  const secretKey = { apiVersion: 'v1', kind: 'Secret', namespace: creds.namespace, name: secretName };
  await waitAll('mirror-ready', [{ ref: refOf(secretKey), check: judge({ object: secretKey, condition: 'exists', text: '' }) }]);
  const credentials = readCredentials((await client.get(secretKey))!, creds.usernameKey, creds.passwordKey, creds.kind === 'Secret' ? credentialsText(creds) : `Secret ${creds.namespace}/${secretName} (target of ${credentialsText(creds)})`);
  end('mirror-ready');

  // mirror-push: the commit the cluster runs, checked for the phase-2 tree, then pushed.
  begin(1, 0);
  const root = plan.objects.find((o) => o.kind === 'Application' && o.metadata.name === plan.awaited[0]);
  const liveRoot = root ? await client.get(keyOf(root)) : undefined;
  const synced = String((liveRoot?.status as { sync?: { revision?: string } } | undefined)?.sync?.revision ?? '');
  let commit: string;
  if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(synced)) {
    // What Argo CD synced in phase 1 is exactly what the cluster runs.
    if (!(await git.hasCommit(synced))) {
      throw new OperationError(`the root Application synced commit ${synced}, which the local clone does not have`, { code: 'mirror-revision', hint: 'git fetch the fleet repository, then rerun' });
    }
    commit = synced;
  } else {
    commit = await git.resolve(plan.revision);
  }
  const diff = await git.compareTree(commit, expected);
  if (diff.missing.length || diff.differ.length) {
    const list = (what: string, xs: string[]) => (xs.length ? `\n  ${what}: ${xs.slice(0, 10).join(', ')}${xs.length > 10 ? `, … (${xs.length})` : ''}` : '');
    throw new OperationError(
      `commit ${commit.slice(0, 12)} (revision ${plan.revision}) does not hold the phase-2 tree of ${cluster} as this checkout renders it${list('missing', diff.missing)}${list('different', diff.differ)}`,
      { code: 'mirror-tree', hint: `run fleetplan render --phase 2 --out ${plan.phaseTwoPath.split('/').slice(0, -2).join('/') || '.'}, commit and push to the fleet repository, then rerun (switching to a tree without it would prune the cluster's Applications)` },
    );
  }
  const before = await git.remoteBranch(plan.pushURL, plan.branch, credentials);
  const pushRef = `Branch ${plan.branch} of ${plan.pushURL}`;
  let push: MirrorResult['push'] = 'unchanged';
  if (before !== commit) {
    await git.push(plan.pushURL, commit, plan.branch, credentials, { force: options.forcePush === true });
    const after = await git.remoteBranch(plan.pushURL, plan.branch, credentials);
    if (after !== commit) throw new OperationError(`pushed ${commit} to ${pushRef}, which then pointed at ${after ?? 'nothing'}`, { code: 'mirror-git' });
    push = 'pushed';
  }
  record(changes, reporter, cluster, { ref: pushRef, stage: 'mirror-push', action: before === commit ? 'unchanged' : before === undefined ? 'created' : 'configured', reason: `commit ${commit}` });
  end('mirror-push');

  // mirror-switch: dry run every object, then apply what changes.
  begin(2, 0);
  const planned: Array<{ obj: K8sObject; action: ObjectChange['action'] }> = [];
  for (const obj of plan.objects) {
    const current = await client.get(keyOf(obj));
    const dry = await applyForced(client, obj, true);
    planned.push({ obj, action: changeAction(dry, current) });
  }
  for (const p of planned) {
    if (p.action === 'created' || p.action === 'configured') await applyForced(client, p.obj, false);
    record(changes, reporter, cluster, { ref: refOf(keyOf(p.obj)), stage: 'mirror-switch', action: p.action });
  }
  end('mirror-switch');

  // mirror-synced: Argo CD compared each switched Application to the mirror and found it Synced.
  begin(3, plan.awaited.length);
  await waitAll('mirror-synced', plan.awaited.map((name) => ({
    ref: refOf(appKey(name)),
    check: async () => syncedFrom(await client.get(appKey(name)), plan.url),
  })));
  end('mirror-synced');

  const result: MirrorResult = { cluster, outcome: 'converged', changes, timings, durationMs: Math.round(clock.now() - start), commit, push };
  reporter.event({ type: 'done', cluster, result });
  return result;
}

function record(changes: ChangeSet, reporter: Reporter, cluster: string, change: ObjectChange): void {
  changes.add(change);
  reporter.event({ type: 'change', cluster, ...change });
}

async function applyForced(client: KubeClient, obj: K8sObject, dryRun: boolean): Promise<KubeObject> {
  try {
    return await client.apply(obj as KubeObject, { dryRun, force: true, fieldManager: FIELD_MANAGER });
  } catch (err) {
    if (err instanceof KubeApiError && err.isApplyConflict) throw conflictError(refOf(keyOf(obj)), err);
    throw err;
  }
}

/** The ExternalSecret at the newest version the server serves (v1, else v1beta1). */
async function getExternalSecret(client: KubeClient, namespace: string, name: string): Promise<KubeObject | undefined> {
  for (const v of ['external-secrets.io/v1', 'external-secrets.io/v1beta1']) {
    if (!(await client.resource(v, 'ExternalSecret'))) continue;
    return client.get({ apiVersion: v, kind: 'ExternalSecret', namespace, name });
  }
  return undefined;
}

export function readCredentials(secret: KubeObject, usernameKey: string, passwordKey: string, what: string): GitCredentials {
  const data = (secret.data ?? {}) as Record<string, string>;
  const value = (key: string): string => {
    const b64 = data[key];
    if (b64 === undefined) {
      throw new OperationError(`${what} has no key "${key}" (it has: ${Object.keys(data).sort().join(', ') || 'none'})`, {
        code: 'mirror-credentials',
        hint: 'set gitops.mirror.credentials.usernameKey / passwordKey to the keys the Secret uses',
      });
    }
    return Buffer.from(b64, 'base64').toString('utf8');
  };
  return { username: value(usernameKey), password: value(passwordKey) };
}

/** Synced, and compared to a source at `url` (Argo CD's status.sync.comparedTo). */
export function syncedFrom(app: KubeObject | undefined, url: string): { ready: boolean; message: string; conditions: string[] } {
  if (!app) return { ready: false, message: 'Application does not exist', conditions: [] };
  const status = (app.status ?? {}) as { sync?: { status?: string; comparedTo?: { source?: { repoURL?: string }; sources?: Array<{ repoURL?: string }> } }; health?: { status?: string }; conditions?: Array<{ type?: string; message?: string }> };
  const compared = status.sync?.comparedTo;
  const repos = [compared?.source?.repoURL, ...(compared?.sources ?? []).map((s) => s.repoURL)].filter((r): r is string => typeof r === 'string');
  const conditions = (status.conditions ?? []).map((c) => `${String(c.type)}: ${String(c.message ?? '')}`);
  const sync = status.sync?.status ?? 'Unknown';
  const from = repos.some((r) => sameRepo(r, url));
  if (sync === 'Synced' && from) return { ready: true, message: `Synced from ${url}`, conditions };
  return { ready: false, message: `${sync}, compared to ${repos.join(', ') || 'no source yet'}${from ? '' : ` (not ${url} yet)`}`, conditions };
}
