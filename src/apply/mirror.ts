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
 * Waits go through watches (src/apply/live-objects.ts), as the phase-1 executor's do, with its
 * retries bounded by the one deadline of the run (ADR 0221): no object is polled.
 *
 * `dryRun`: nothing is pushed or written; the run says which commit would be pushed where (and
 * what the branch holds now, when the mirror can be read), dry-runs the switch on the server
 * (each object's action and its repoURL change) and lists what would be awaited. `noWait`: the
 * mirror must already be ready (it is checked, not awaited); push and switch, then return
 * without waiting for Argo CD (the result lists what was not awaited).
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
import { PHASE_TWO_DIR } from '../generate/mirror.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { renderCluster } from '../render/fleet.js';
import { ChangeSet, type BootstrapResult } from './change-set.js';
import { changeAction } from './changes.js';
import { conflictError } from './executor.js';
import { KubeApiError } from '../ports/kube.js';
import type { Reporter } from './events.js';
import { evaluate, watchesFor, type LiveObject } from './readiness.js';
import { formatDuration, DEFAULT_TIMEOUT_MS, waitFor, type WaitContext } from './executor.js';
import { LiveObjects } from './live-objects.js';
import type { NotReady } from '../model/bootstrap.js';

export interface MirrorOptions {
  clock: Clock;
  reporter: Reporter;
  /** For the whole phase. */
  timeoutMs?: number;
  /** Replace a mirror branch that has commits the cluster's commit does not (`--force-push`). */
  forcePush?: boolean;
  /** Push nothing, write nothing: say what would be pushed, switched and awaited. */
  dryRun?: boolean;
  /** Push and switch without waiting for Argo CD to sync from the mirror (the mirror must be ready). */
  noWait?: boolean;
}

export interface MirrorResult extends BootstrapResult {
  /** The commit the mirror's branch holds (dry run: would hold). */
  commit: string;
  /** `pushed`; `unchanged` when the branch already was the commit; `dry-run` when nothing was pushed on purpose. */
  push: 'pushed' | 'unchanged' | 'dry-run';
  /** Where: the push URL and branch, and what the branch held before (undefined: absent; `unknown`: not readable in a dry run). */
  remote: { url: string; branch: string; revision: string; before: string | undefined | 'unknown'; why?: string };
  /** What was not awaited (dry run, `noWait`), each with its state when the run looked. */
  notAwaited: Array<{ text: string; now: string }>;
}

/** Phase 2 did not get what it waits for before the deadline. */
export class MirrorTimeoutError extends OperationError {
  constructor(readonly stage: string, readonly timeoutMs: number, readonly waiting: Array<{ ref: string; message: string; conditions: string[] }>) {
    super(
      `timed out after ${formatDuration(timeoutMs)} in stage "${stage}": ${waiting.length} not ready:\n` +
        waiting.map((w) => `  ${w.ref}: ${w.message}${w.conditions.map((c) => `\n      ${c}`).join('')}`).join('\n'),
      { code: 'mirror-timeout', hint: 'rerun to resume (what is pushed and applied is kept); raise --timeout if it is only slow' },
    );
  }
}

/** `noWait`: the internal Git service (or the credentials) is not ready, and the run does not wait for it. */
export class MirrorNotReadyError extends OperationError {
  constructor(readonly cluster: string, readonly notReady: Array<{ text: string; now: string }>) {
    super(`the internal Git service of ${cluster} is not ready, and --no-wait does not wait for it: ${notReady.map((n) => `${n.text} (now: ${n.now})`).join('; ')}`, {
      code: 'mirror-not-ready',
      hint: `rerun once it is, or run fleetplan mirror --cluster ${cluster} without --no-wait to wait for it`,
    });
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
const ES_VERSIONS = ['external-secrets.io/v1', 'external-secrets.io/v1beta1'];

export async function runMirror(client: KubeClient, git: MirrorGit, plan: MirrorPlan, expected: readonly ExpectedFile[], options: MirrorOptions): Promise<MirrorResult> {
  const { clock, reporter } = options;
  const cluster = plan.cluster;
  if (plan.problems.length) {
    throw new OperationError(`cluster ${cluster} cannot move to its internal Git: ${plan.problems.join('; ')}`, { code: 'mirror-plan', hint: 'fix gitops.mirror in fleet.yaml' });
  }
  const dryRun = options.dryRun === true;
  const noWait = options.noWait === true && !dryRun;
  const start = clock.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const changes = new ChangeSet();
  const timings: StageTiming[] = [];
  const notAwaited: MirrorResult['notAwaited'] = [];
  const ns = plan.gitopsNamespace;
  const stageNames = ['mirror-ready', 'mirror-push', 'mirror-switch', 'mirror-synced'];
  const onRetry = (what: string, err: Error, attempt: number, delayMs: number) => reporter.event({ type: 'retry', cluster, what, attempt, delayMs, error: err.message });
  // The objects awaited, kept current by watches (as in phase 1), and the executor's wait on them.
  const live = new LiveObjects(client, { onRetry });
  const waits: WaitContext = {
    options: { clock },
    state: { cluster, deadline: start + timeoutMs, abort: new AbortController(), open: new Map() },
    timeoutMs,
    reporter,
    timeoutError: (stage, ms, notReady: NotReady[]) => new MirrorTimeoutError(stage, ms, notReady),
  };
  reporter.event({ type: 'start', cluster, context: client.context, server: client.server, stages: stageNames, dryRun });
  let stageStart = clock.now();
  const begin = (index: number, waitCount: number) => {
    stageStart = clock.now();
    reporter.event({ type: 'stage', cluster, stage: stageNames[index]!, index, total: stageNames.length, objects: index === 2 ? plan.objects.length : 0, waits: waitCount });
  };
  const end = (stage: string) => {
    const t = { stage, durationMs: Math.round(clock.now() - stageStart) };
    timings.push(t);
    reporter.event({ type: 'stage-done', cluster, ...t });
  };
  /** A dry run, or noWait, does not wait: it reads the object once (the state now). */
  const look = async (w: WaitSpec): Promise<{ ready: boolean; now: string }> => {
    const o = (await client.get(w.object)) as LiveObject | undefined;
    const r = evaluate(w, () => o);
    return { ready: r.ready, now: r.message };
  };
  const appKey = (name: string) => ({ apiVersion: APPLICATION, kind: 'Application', namespace: ns, name });

  try {
    // mirror-ready: the Git service's app, then the credentials.
    begin(0, 2);
    const argoServed = (await client.resource(APPLICATION, 'Application')) !== undefined;
    if (!argoServed && !dryRun) {
      throw new OperationError(`Application (${APPLICATION}) is not served on cluster ${cluster}: is it bootstrapped (phase 1)?`, {
        code: 'mirror-not-bootstrapped',
        hint: `run fleetplan bootstrap --cluster ${cluster} first (it runs phase 2 itself once the waves converge)`,
      });
    }
    const appWait: WaitSpec = { object: appKey(plan.app), condition: 'synced-healthy', text: `Application ${plan.app} Synced and Healthy` };
    const creds = plan.credentials;
    const credsText = credentialsText(creds);
    let secretName = creds.name;
    let esWait: WaitSpec | undefined;
    let esServed = true;
    if (creds.kind === 'ExternalSecret') {
      let version = await externalSecretVersion(client);
      if (!version && !dryRun && !noWait) {
        // The External Secrets Operator may come with a wave still syncing: its CRD first.
        const crd = 'externalsecrets.external-secrets.io';
        await waitFor(waits, live, { name: 'mirror-ready' }, [{ object: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: crd }, condition: 'established', text: `CRD ${crd} Established` }]);
        version = await externalSecretVersion(client);
      }
      esServed = version !== undefined;
      esWait = { object: { apiVersion: version ?? ES_VERSIONS[0]!, kind: 'ExternalSecret', namespace: creds.namespace, name: creds.name }, condition: 'ready-condition', text: `${credsText} Ready` };
    }
    const ready = [appWait, ...(esWait ? [esWait] : [])];
    let credentials: GitCredentials | undefined;
    let credentialsWhy = '';
    if (dryRun || noWait) {
      const missing: MirrorResult['notAwaited'] = [];
      for (const w of ready) {
        const r = w === appWait && !argoServed ? { ready: false, now: 'Argo CD is not installed yet' }
          : w === esWait && !esServed ? { ready: false, now: 'ExternalSecret is not served yet (External Secrets Operator not installed)' }
          : await look(w);
        if (!r.ready) missing.push({ text: w.text, now: r.now });
      }
      if (esWait && missing.every((m) => m.text !== esWait.text)) secretName = targetSecret(await client.get(esWait.object), creds.name);
      const secretKey = { apiVersion: 'v1', kind: 'Secret', namespace: creds.namespace, name: secretName };
      const secret = await client.get(secretKey);
      if (!secret) missing.push({ text: `Secret ${creds.namespace}/${secretName} exists`, now: 'does not exist' });
      if (noWait && missing.length) throw new MirrorNotReadyError(cluster, missing);
      notAwaited.push(...missing);
      if (secret && missing.length === 0) credentials = readCredentials(secret, creds.usernameKey, creds.passwordKey, secretWhat(creds, secretName));
      else credentialsWhy = missing.map((m) => `${m.text}: ${m.now}`).join('; ');
    } else {
      await waitFor(waits, live, { name: 'mirror-ready' }, ready);
      if (esWait) secretName = targetSecret(live.get(esWait.object), creds.name);
      const secretKey = { apiVersion: 'v1', kind: 'Secret', namespace: creds.namespace, name: secretName };
      const secretWait: WaitSpec = { object: secretKey, condition: 'exists', text: `Secret ${creds.namespace}/${secretName} exists` };
      for (const k of watchesFor(secretWait)) live.ensure(k);
      await waitFor(waits, live, { name: 'mirror-ready' }, [secretWait]);
      credentials = readCredentials(live.get(secretKey) as KubeObject, creds.usernameKey, creds.passwordKey, secretWhat(creds, secretName));
    }
    end('mirror-ready');

    // mirror-push: the commit the cluster runs, checked for the phase-2 tree, then pushed.
    begin(1, 0);
    const root = plan.objects.find((o) => o.kind === 'Application' && o.metadata.name === plan.awaited[0]);
    const liveRoot = root && argoServed ? await client.get(keyOf(root)) : undefined;
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
    const pushRef = `Branch ${plan.branch} of ${plan.pushURL}`;
    let before: MirrorResult['remote']['before'] = 'unknown';
    let why: string | undefined;
    if (credentials) {
      try {
        before = await git.remoteBranch(plan.pushURL, plan.branch, credentials);
      } catch (err) {
        // A dry run says what it cannot know; a real run stops here.
        if (!dryRun || !(err instanceof OperationError)) throw err;
        why = `the mirror cannot be read: ${err.message}`;
      }
    } else {
      why = `the push credentials cannot be read yet (${credentialsWhy})`;
    }
    let push: MirrorResult['push'] = before === commit ? 'unchanged' : 'dry-run';
    if (!dryRun && before !== commit) {
      await git.push(plan.pushURL, commit, plan.branch, credentials!, { force: options.forcePush === true });
      const after = await git.remoteBranch(plan.pushURL, plan.branch, credentials!);
      if (after !== commit) throw new OperationError(`pushed ${commit} to ${pushRef}, which then pointed at ${after ?? 'nothing'}`, { code: 'mirror-git' });
      push = 'pushed';
    }
    const pushAction = before === commit ? 'unchanged' : before === undefined ? 'created' : 'configured';
    const pushReason = `${dryRun && before !== commit ? 'would push ' : ''}commit ${commit}${before === 'unknown' ? ` (what the branch holds now is unknown: ${why ?? ''})` : ''}`;
    record(changes, reporter, cluster, { ref: pushRef, stage: 'mirror-push', action: pushAction, reason: pushReason });
    end('mirror-push');

    // mirror-switch: dry run every object, then apply what changes.
    begin(2, 0);
    const planned: Array<{ obj: K8sObject; action: ObjectChange['action']; reason?: string }> = [];
    for (const obj of plan.objects) {
      if (!(await client.resource(obj.apiVersion, obj.kind))) {
        // Only in a dry run (a real run stopped at mirror-ready): phase 1 installs Argo CD first.
        planned.push({ obj, action: 'skipped', reason: `dry run: ${obj.kind} (${obj.apiVersion}) is not served yet; phase 1 installs Argo CD` });
        continue;
      }
      const current = await client.get(keyOf(obj));
      let dry: KubeObject;
      try {
        dry = await applyForced(client, obj, true);
      } catch (err) {
        if (dryRun && err instanceof KubeApiError && err.status === 404 && obj.metadata.namespace !== undefined) {
          planned.push({ obj, action: 'skipped', reason: `dry run: namespace ${obj.metadata.namespace} does not exist yet; phase 1 creates it` });
          continue;
        }
        throw err;
      }
      const action = changeAction(dry, current);
      const reason = action === 'unchanged' ? undefined : switchReason(current, obj);
      planned.push({ obj, action, ...(reason ? { reason } : {}) });
    }
    for (const p of planned) {
      if (!dryRun && (p.action === 'created' || p.action === 'configured')) await applyForced(client, p.obj, false);
      record(changes, reporter, cluster, { ref: refOf(keyOf(p.obj)), stage: 'mirror-switch', action: p.action, ...(p.reason ? { reason: p.reason } : {}) });
    }
    end('mirror-switch');

    // mirror-synced: Argo CD compared each switched Application to the mirror and found it Synced.
    const syncedWaits: WaitSpec[] = plan.awaited.map((name) => ({ object: appKey(name), condition: 'synced-from', repoURL: plan.url, text: `Application ${name} Synced from ${plan.url}` }));
    if (dryRun || noWait) {
      for (const w of syncedWaits) notAwaited.push({ text: w.text, now: argoServed ? (await look(w)).now : 'Argo CD is not installed yet' });
    } else {
      begin(3, syncedWaits.length);
      for (const w of syncedWaits) for (const k of watchesFor(w)) live.ensure(k);
      await waitFor(waits, live, { name: 'mirror-synced' }, syncedWaits);
      end('mirror-synced');
    }

    const outcome: MirrorResult['outcome'] = dryRun ? 'dry-run' : noWait ? 'applied' : 'converged';
    const result: MirrorResult = {
      cluster, outcome, changes, timings, durationMs: Math.round(clock.now() - start), commit, push,
      remote: { url: plan.pushURL, branch: plan.branch, revision: plan.revision, before, ...(why !== undefined && before === 'unknown' ? { why } : {}) },
      notAwaited,
    };
    reporter.event({ type: 'done', cluster, result });
    return result;
  } finally {
    waits.state.abort.abort();
    await live.stop();
  }
}

/** The Secret an ExternalSecret makes: `spec.target.name`, else its own name. */
function targetSecret(es: KubeObject | LiveObject | undefined, fallback: string): string {
  return String((es?.spec as { target?: { name?: string } } | undefined)?.target?.name ?? fallback);
}

function secretWhat(creds: MirrorPlan['credentials'], secretName: string): string {
  return creds.kind === 'Secret' ? credentialsText(creds) : `Secret ${creds.namespace}/${secretName} (target of ${credentialsText(creds)})`;
}

/** The newest ExternalSecret version the server serves (v1, else v1beta1); undefined when none is. */
async function externalSecretVersion(client: KubeClient): Promise<string | undefined> {
  for (const v of ES_VERSIONS) if (await client.resource(v, 'ExternalSecret')) return v;
  return undefined;
}

/** What the switch changes, for people: `repoURL A -> B`, `path P -> Q`, `sourceRepos + B`. */
export function switchReason(current: KubeObject | undefined, next: K8sObject): string | undefined {
  const spec = (o: unknown) => ((o as { spec?: Record<string, any> } | undefined)?.spec ?? {});
  const was = spec(current);
  const now = spec(next);
  if (next.kind === 'AppProject') {
    const had: string[] = Array.isArray(was.sourceRepos) ? was.sourceRepos : [];
    const added = (Array.isArray(now.sourceRepos) ? (now.sourceRepos as string[]) : []).filter((r) => !had.includes(r));
    return added.length ? `sourceRepos + ${added.join(', ')}` : undefined;
  }
  const sources = (s: Record<string, any>): Array<Record<string, any>> => (s.source ? [s.source] : Array.isArray(s.sources) ? s.sources : []);
  const a = sources(was);
  const b = sources(now);
  const parts: string[] = [];
  b.forEach((src, i) => {
    const old = a[i] ?? {};
    for (const field of ['repoURL', 'path']) {
      if (src[field] !== undefined && old[field] !== src[field]) parts.push(`${b.length > 1 ? `sources[${i}].` : ''}${field} ${String(old[field] ?? '(none)')} -> ${String(src[field])}`);
    }
  });
  return parts.length ? parts.join(', ') : undefined;
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
