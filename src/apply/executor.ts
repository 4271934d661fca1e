/**
 * Stage 7b, run a bootstrap plan against a cluster.
 *
 * Per stage: a server-side dry-run of every object (nothing is written when one fails), then
 * server-side apply as field manager `fleetplan` of those that would change, then a watch-based
 * wait for the stage's readiness conditions. The ChangeSet says per object whether it was
 * created, configured or unchanged (dry-run result against the live object, see changes.ts).
 *
 * Contracts:
 * - Idempotent: objects the dry-run shows unchanged are not written, so a second run writes nothing.
 * - Resumable: every object has a fixed name and is applied, never created, so a run killed at any
 *   point is finished by the next one without duplicates.
 * - Conflicts: a field owned by another manager fails the stage naming field and manager, unless
 *   `forceConflicts`. A plain 409 ("the object has been modified") is retried with backoff; 429 and
 *   5xx are retried by the KubeClient, honouring Retry-After.
 * - One deadline for the whole run; when it passes, the error names every object not ready, with
 *   its conditions.
 */
import { OperationError } from '../errors/index.js';
import type { K8sObject } from '../model/k8s.js';
import type { BootstrapPlan, BootstrapStage, ChangeAction, NotReady, ObjectChange, StageTiming, WaitSpec } from '../model/bootstrap.js';
import type { BootstrapResult } from './change-set.js';
import type { Clock } from '../ports/clock.js';
import { FIELD_MANAGER, KubeApiError, type KubeClient, type KubeObject } from '../ports/kube.js';
import { keyOf, refOf } from '../model/k8s.js';
import { changeAction } from './changes.js';
import type { Reporter } from './events.js';
import { LiveObjects } from './live-objects.js';
import { evaluate, watchesFor, type Readiness } from './readiness.js';
import { ChangeSet } from './change-set.js';

export interface ExecuteOptions {
  dryRun?: boolean;
  /** Stop after applying the root Application instead of waiting for the waves. */
  noWait?: boolean;
  forceConflicts?: boolean;
  /** For the whole run. */
  timeoutMs?: number;
  clock: Clock;
  reporter: Reporter;
  /**
   * For a spoke, `client` talks to its hub: called after the `spoke-provisioning` stage, this
   * returns the client for the spoke itself. Without it, the remaining stages run on `client`.
   */
  spokeClient?: () => Promise<KubeClient>;
}

export const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const CONFLICT_RETRIES = 5;
/** Field managers of ACM's policy controllers: what they create on a spoke is theirs to keep. */
export const POLICY_MANAGERS = ['config-policy-controller', 'governance-policy-framework', 'operator-policy-controller'];

/** Readiness that did not come before the deadline; names every object still waiting. */
export class BootstrapTimeoutError extends OperationError {
  constructor(readonly stage: string, readonly timeoutMs: number, readonly notReady: NotReady[]) {
    super(
      `timed out after ${formatDuration(timeoutMs)} in stage "${stage}": ${notReady.length} object${notReady.length === 1 ? '' : 's'} not ready:\n` +
        notReady.map((n) => `  ${n.ref}: ${n.message}${n.conditions.map((c) => `\n      ${c}`).join('')}`).join('\n'),
      { code: 'bootstrap-timeout', hint: 'rerun to resume (applied objects are kept); raise --timeout if they are only slow' },
    );
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - m * 60)).padStart(2, '0')}s`;
}

/** What a wait needs of its run: one deadline, and every wait still open so a timeout names them all. */
export interface WaitState {
  cluster: string;
  deadline: number;
  /** Aborted when the run ends, so that waits still open (gated stages) end too. */
  abort: AbortController;
  /** Every wait still open (a gated stage runs beside the others): a timeout names them all. */
  open: Map<() => NotReady[], (err: Error) => void>;
}

interface RunState extends WaitState {
  changes: ChangeSet;
  timings: StageTiming[];
}

/** The context of `waitFor`: the executor's own, or another run's (phase 2, src/apply/mirror.ts). */
export interface WaitContext {
  options: { clock: Clock };
  state: WaitState;
  timeoutMs: number;
  reporter: Reporter;
  /** The error a timeout throws (default BootstrapTimeoutError). */
  timeoutError?: (stage: string, timeoutMs: number, notReady: NotReady[]) => Error;
}

export async function executeBootstrap(client: KubeClient, plan: BootstrapPlan, options: ExecuteOptions): Promise<BootstrapResult> {
  const { clock, reporter } = options;
  const start = clock.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const state: RunState = { cluster: plan.cluster, changes: new ChangeSet(), timings: [], deadline: start + timeoutMs, abort: new AbortController(), open: new Map() };
  const onRetry = (what: string, err: Error, attempt: number, delayMs: number) =>
    reporter.event({ type: 'retry', cluster: plan.cluster, what, attempt, delayMs, error: err.message });
  let target = client;
  let live = new LiveObjects(target, { onRetry });
  const background: Array<Promise<void>> = [];
  reporter.event({ type: 'start', cluster: plan.cluster, context: client.context, server: client.server, stages: plan.stages.map((s) => s.name), dryRun: options.dryRun === true });
  for (const note of plan.notes) reporter.event({ type: 'note', cluster: plan.cluster, message: note });
  const ctx = { options, state, timeoutMs, reporter };
  try {
    for (const [index, stage] of plan.stages.entries()) {
      const stageStart = clock.now();
      reporter.event({ type: 'stage', cluster: plan.cluster, stage: stage.name, index, total: plan.stages.length, objects: stage.objects.length, waits: stage.waits.length, ...(stage.wave !== undefined ? { wave: stage.wave } : {}) });
      if (stage.kind === 'spoke-provisioning') {
        if (!options.dryRun) await waitFor(ctx, live, stage, stage.waits);
        if (options.spokeClient && !options.dryRun) {
          target = await options.spokeClient();
          await live.stop();
          live = new LiveObjects(target, { onRetry });
        }
      } else if (stage.gate) {
        const task = runGated(ctx, target, live, stage);
        task.catch(() => {});
        background.push(task);
        continue;
      } else if (stage.optional && (options.noWait || options.dryRun)) {
        // Argo CD applies these; fleetplan has nothing to write or (with --no-wait) to wait for.
        continue;
      } else {
        await applyStage(ctx, target, stage);
        if (!options.dryRun) await waitFor(ctx, live, stage, stage.waits);
      }
      finishStage(ctx, stage, stageStart);
    }
    await Promise.all(background);
  } finally {
    state.abort.abort();
    await live.stop();
  }
  const outcome = options.dryRun ? 'dry-run' : options.noWait ? 'applied' : 'converged';
  const result: BootstrapResult = { cluster: plan.cluster, outcome, changes: state.changes, timings: state.timings, durationMs: Math.round(clock.now() - start) };
  reporter.event({ type: 'done', cluster: plan.cluster, result });
  return result;
}

interface Ctx {
  options: ExecuteOptions;
  state: RunState;
  timeoutMs: number;
  reporter: Reporter;
}

function finishStage(ctx: Ctx, stage: BootstrapStage, stageStart: number): void {
  const durationMs = Math.round(ctx.options.clock.now() - stageStart);
  const t: StageTiming = { stage: stage.name, durationMs, ...(stage.wave !== undefined ? { wave: stage.wave } : {}) };
  ctx.state.timings.push(t);
  ctx.reporter.event({ type: 'stage-done', cluster: ctx.state.cluster, ...t });
}

/** A stage applied once its CRD is Established, alongside the stages after it. */
async function runGated(ctx: Ctx, client: KubeClient, live: LiveObjects, stage: BootstrapStage): Promise<void> {
  const stageStart = ctx.options.clock.now();
  const crd = stage.gate!.crd;
  const gateWait: WaitSpec = { object: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: crd }, condition: 'established', text: `CRD ${crd} Established` };
  if (ctx.options.dryRun) {
    if (!(await served(client, stage.objects))) {
      for (const o of stage.objects) ctx.state.changes.add({ ref: refOf(keyOf(o)), stage: stage.name, action: 'skipped', reason: `dry run: CRD ${crd} not Established yet` });
      return;
    }
    await applyStage(ctx, client, stage);
    return;
  }
  if (ctx.options.noWait && !(await served(client, stage.objects))) {
    for (const o of stage.objects) ctx.state.changes.add({ ref: refOf(keyOf(o)), stage: stage.name, action: 'skipped', reason: `CRD ${crd} not Established yet (rerun once it is)` });
    return;
  }
  // The CRD, and what the objects reference (the credentials Secret), before anything is written.
  const before = stage.waits.filter((w) => w.condition === 'exists');
  await waitFor(ctx, live, stage, [gateWait, ...before]);
  await applyStage(ctx, client, stage);
  await waitFor(ctx, live, stage, stage.waits.filter((w) => !before.includes(w)));
  finishStage(ctx, stage, stageStart);
}

async function served(client: KubeClient, objects: K8sObject[]): Promise<boolean> {
  for (const o of objects) if (!(await client.resource(o.apiVersion, o.kind))) return false;
  return true;
}

interface Planned {
  obj: K8sObject;
  ref: string;
  action: ChangeAction;
  reason?: string;
}

/** Dry-run every object of the stage, then write those that change. */
async function applyStage(ctx: Ctx, client: KubeClient, stage: BootstrapStage): Promise<void> {
  const { options } = ctx;
  const planned: Planned[] = [];
  for (const obj of stage.objects) {
    const ref = refOf(keyOf(obj));
    if (options.dryRun && !(await client.resource(obj.apiVersion, obj.kind))) {
      planned.push({ obj, ref, action: 'skipped', reason: `dry run: ${obj.kind} (${obj.apiVersion}) is not served yet; an earlier stage installs it` });
      continue;
    }
    const current = await client.get(keyOf(obj));
    const byOthers = current !== undefined && !managedBy(current, FIELD_MANAGER);
    if (byOthers && ((stage.kind === 'gitops-operator' && obj.kind === 'Subscription') || managers(current).some((m) => POLICY_MANAGERS.includes(m)))) {
      // Installed by someone else (an ACM policy on a spoke, or a person): confirm it, do not fight over it.
      planned.push({ obj, ref, action: 'skipped', reason: `present, installed by ${managers(current).join(', ') || 'another client'}; left as is` });
      continue;
    }
    let dry: KubeObject;
    try {
      dry = await retryConflicts(ctx, ref, () => applyOne(client, obj, ref, { dryRun: true, force: options.forceConflicts === true }));
    } catch (err) {
      // A dry run cannot create the namespace an earlier stage would: say so instead of failing.
      if (options.dryRun && err instanceof KubeApiError && err.status === 404 && obj.metadata.namespace !== undefined) {
        planned.push({ obj, ref, action: 'skipped', reason: `dry run: namespace ${obj.metadata.namespace} does not exist yet; an earlier stage creates it` });
        continue;
      }
      throw err;
    }
    planned.push({ obj, ref, action: changeAction(dry, current) });
  }
  for (const p of planned) {
    if (!options.dryRun && (p.action === 'created' || p.action === 'configured')) {
      await retryConflicts(ctx, p.ref, () => applyOne(client, p.obj, p.ref, { force: options.forceConflicts === true }));
    }
    const change: ObjectChange = { ref: p.ref, stage: stage.name, action: p.action, ...(p.reason ? { reason: p.reason } : {}) };
    ctx.state.changes.add(change);
    ctx.reporter.event({ type: 'change', cluster: ctx.state.cluster, ...change });
  }
}

async function applyOne(client: KubeClient, obj: K8sObject, ref: string, opts: { dryRun?: boolean; force: boolean }): Promise<KubeObject> {
  try {
    return await client.apply(obj as KubeObject, { ...opts, fieldManager: FIELD_MANAGER });
  } catch (err) {
    if (err instanceof KubeApiError && err.isApplyConflict) throw conflictError(ref, err);
    throw err;
  }
}

/** Retries a plain 409 (not a field-manager conflict) with backoff. */
async function retryConflicts<T>(ctx: Ctx, what: string, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof KubeApiError) || err.status !== 409 || err.isApplyConflict || attempt >= CONFLICT_RETRIES) throw err;
      const delayMs = Math.min(200 * 2 ** (attempt - 1), 5000);
      ctx.reporter.event({ type: 'retry', cluster: ctx.state.cluster, what: `apply ${what}`, attempt, delayMs, error: err.message });
      await ctx.options.clock.sleep(delayMs);
    }
  }
}

/** `field .spec.x is owned by "manager"`, for each conflicting field. */
export function conflictError(ref: string, err: KubeApiError): OperationError {
  const owners = err.causes
    .filter((c) => c.reason === 'FieldManagerConflict')
    .map((c) => {
      const m = /conflict with "([^"]+)"/.exec(c.message ?? '');
      const field = c.field === undefined ? '?' : c.field.startsWith('.') ? c.field : `.${c.field}`;
      return `${field} is owned by field manager "${m?.[1] ?? c.message ?? '?'}"`;
    });
  return new OperationError(`${ref}: server-side apply conflict: ${owners.join('; ')}`, {
    code: 'apply-conflict',
    hint: 'rerun with --force-conflicts to take these fields; they then belong to fleetplan',
    cause: err,
  });
}

/** Field managers of the object's spec and metadata (status writers are controllers, not owners). */
function managers(o: KubeObject): string[] {
  const mf = (o.metadata as { managedFields?: Array<{ manager?: string; subresource?: string }> }).managedFields ?? [];
  return [...new Set(mf.filter((m) => m.subresource !== 'status').map((m) => m.manager ?? '').filter((m) => m !== ''))].sort();
}

function managedBy(o: KubeObject, manager: string): boolean {
  return managers(o).includes(manager);
}

/**
 * Resolves once every wait holds, judged on the objects `live` keeps current through watches
 * (no polling); rejects at the deadline naming those that do not, with every other wait still open.
 */
export function waitFor(ctx: WaitContext, live: LiveObjects, stage: Pick<BootstrapStage, 'name' | 'wave'>, waits: WaitSpec[]): Promise<void> {
  if (waits.length === 0) return Promise.resolve();
  const { clock } = ctx.options;
  const cluster = ctx.state.cluster;
  for (const w of waits) for (const k of watchesFor(w)) live.ensure(k);
  return new Promise<void>((resolve, reject) => {
    const readyRefs = new Set<string>();
    const lastMessage = new Map<string, string>();
    let lastReady = -1;
    let settled = false;
    const results = (): Array<{ w: WaitSpec; r: Readiness }> => waits.map((w) => ({ w, r: evaluate(w, (k) => live.get(k)) }));
    const pending = (): NotReady[] => results().filter((x) => !x.r.ready).map(({ w, r }) => ({ ref: refOf(w.object), condition: w.condition, message: r.message, conditions: r.conditions }));
    ctx.state.open.set(pending, (err) => finish(err));
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      off();
      offFailure();
      cancelTimer();
      ctx.state.open.delete(pending);
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    const check = () => {
      if (settled) return;
      const rs = results();
      for (const { w, r } of rs) {
        const ref = refOf(w.object);
        if (r.ready && !readyRefs.has(ref)) {
          readyRefs.add(ref);
          ctx.reporter.event({ type: 'ready', cluster, stage: stage.name, ref, message: r.message });
        } else if (!r.ready && lastMessage.get(ref) !== r.message && live.get(w.object) !== undefined) {
          lastMessage.set(ref, r.message);
          ctx.reporter.event({ type: 'waiting', cluster, stage: stage.name, ref, message: r.message });
        }
      }
      const ready = rs.filter((x) => x.r.ready).length;
      if (ready !== lastReady) {
        lastReady = ready;
        ctx.reporter.event({ type: 'progress', cluster, stage: stage.name, ready, total: waits.length, ...(stage.wave !== undefined ? { wave: stage.wave } : {}) });
      }
      if (ready === waits.length) finish();
    };
    const signal = ctx.state.abort.signal;
    const onAbort = () => finish(new OperationError(`stage ${stage.name} cancelled: the run ended`));
    let off = () => {};
    let offFailure = () => {};
    let cancelTimer = () => {};
    signal.addEventListener('abort', onAbort, { once: true });
    off = live.onChange(check);
    offFailure = live.onFailure((err) => finish(err));
    const remaining = Math.max(0, ctx.state.deadline - clock.now());
    cancelTimer = clock.timer(remaining, () => {
      // The first wait to reach the deadline fails every wait still open with one error naming them all.
      const seen = new Set<string>();
      const notReady = [...ctx.state.open.keys()].flatMap((f) => f()).filter((n) => !seen.has(n.ref) && seen.add(n.ref));
      ctx.reporter.event({ type: 'failed', cluster, message: `timed out in stage ${stage.name}`, notReady });
      const err = ctx.timeoutError ? ctx.timeoutError(stage.name, ctx.timeoutMs, notReady) : new BootstrapTimeoutError(stage.name, ctx.timeoutMs, notReady);
      for (const fail of [...ctx.state.open.values()]) fail(err);
    });
    check();
  });
}
