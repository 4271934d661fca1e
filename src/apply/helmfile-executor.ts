/**
 * Stage 7d, run a helmfile + Flux bootstrap plan (src/order/helmfile-plan.ts) against a cluster:
 * what `helmfile -f crds.yaml template | kubectl apply` and `helmfile sync` do, with readiness
 * instead of hope, then the Flux hand-off.
 *
 * - `crds`: the CRDs of the CRD-phase charts, server-side applied as `fleetplan` (dry-run first;
 *   unchanged ones are not written), each awaited Established.
 * - `release`: a real Helm 3 release (`helm upgrade --install`, same name and namespace as the
 *   helmfile's, which are the Flux HelmRelease's, so helm-controller adopts it). When the deployed
 *   release has the same manifest (server dry-run) and the same user values, nothing is run, so a
 *   second bootstrap adds no Helm revision. Then its Deployments/StatefulSets are awaited
 *   available and its CRDs Established (fleetplan's watches, not `helm --wait`: ADR 0231).
 * - `hook`: `kubectl apply -f FILE` as a server-side apply of the file's objects;
 *   `kubectl wait --for=create crd/NAME` as a wait for the CRD Established.
 * - `flux N`: every Flux Kustomization of that dependsOn depth awaited Ready.
 *
 * One deadline for the run; a timeout names every object of the stage not ready, with its
 * conditions. Every step is idempotent, so a run killed anywhere is finished by the next.
 */
import { OperationError } from '../errors/index.js';
import type { ChangeAction, NotReady, StageTiming, WaitSpec } from '../model/bootstrap.js';
import type { HelmfileBootstrapPlan, HelmfileStep, HelmReleasePort } from '../model/helmfile-bootstrap.js';
import type { K8sObject, ObjectKey } from '../model/k8s.js';
import { refOf } from '../model/k8s.js';
import type { Clock } from '../ports/clock.js';
import type { KubeClient, KubeObject } from '../ports/kube.js';
import { KubeApiError } from '../ports/kube.js';
import { parseYamlAll } from '../yaml/index.js';
import { ChangeSet, type BootstrapResult } from './change-set.js';
import { changeAction } from './changes.js';
import type { Reporter } from './events.js';
import { BootstrapTimeoutError, DEFAULT_TIMEOUT_MS } from './executor.js';
import { LiveObjects } from './live-objects.js';
import { evaluate, watchesFor } from './readiness.js';
import { kustomizationReady } from '../order/flux-levels.js';

export interface HelmfileExecuteOptions {
  clock: Clock;
  reporter: Reporter;
  timeoutMs?: number;
  forceConflicts?: boolean;
  /**
   * Touch nothing: CRDs and hook objects are server-side dry-run (created / configured /
   * unchanged, or skipped when an earlier phase installs their kind or namespace), a release is
   * compared with what Helm has deployed (`unchanged`, or an upgrade or install it would run), and
   * nothing is awaited. The result's outcome is `dry-run`.
   */
  dryRun?: boolean;
  /** Stop between steps and in waits when aborted (a killed run; the next run picks up). */
  signal?: AbortSignal;
}

export interface HelmfilePorts {
  client: KubeClient;
  helm: HelmReleasePort;
  /** A repository file's text (hook files). */
  readFile(path: string): string;
}


/** The objects of a release manifest (`helm get manifest`), namespaced ones in `namespace` unless they say. */
export function manifestObjects(manifest: string): K8sObject[] {
  // As kubectl apply -f reads it (go-yaml v2, ADR 0389).
  return parseYamlAll(manifest, { schema: 'kubernetes' }).filter((o): o is K8sObject => typeof o === 'object' && o !== null && typeof (o as K8sObject).kind === 'string');
}

/** What to await of a release's objects. */
export function releaseWaits(objects: K8sObject[], namespace: string): WaitSpec[] {
  const out: WaitSpec[] = [];
  for (const o of objects) {
    const name = String(o.metadata?.name ?? '');
    if (o.kind === 'CustomResourceDefinition') {
      out.push({ object: { apiVersion: o.apiVersion, kind: o.kind, name }, condition: 'established', text: `CustomResourceDefinition ${name} Established` });
    } else if ((o.kind === 'Deployment' || o.kind === 'StatefulSet') && String(o.apiVersion).startsWith('apps/')) {
      const ns = (o.metadata?.namespace as string | undefined) ?? namespace;
      out.push({ object: { apiVersion: o.apiVersion, kind: o.kind, namespace: ns, name }, condition: 'available', text: `${o.kind} ${ns}/${name} available` });
    }
  }
  return out;
}

function sameValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValues(x, b[i]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameValues((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

export async function executeHelmfileBootstrap(plan: HelmfileBootstrapPlan, ports: HelmfilePorts, options: HelmfileExecuteOptions): Promise<BootstrapResult> {
  if (plan.problems.length) {
    throw new OperationError(`fleetplan cannot run this helmfile bootstrap:\n${plan.problems.map((p) => `  ${p}`).join('\n')}`, {
      code: 'helmfile-unsupported',
      hint: 'fleetplan plan --cluster C lists them; change the helmfile, or run helmfile yourself',
    });
  }
  const { clock, reporter } = options;
  const { client, helm } = ports;
  const cluster = plan.cluster;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = clock.now();
  const deadline = started + timeoutMs;
  const changes = new ChangeSet();
  const timings: StageTiming[] = [];
  const live = new LiveObjects(client, { onRetry: (what, err, attempt, delayMs) => reporter.event({ type: 'retry', cluster, what, attempt, delayMs, error: err.message }) });
  const dryRun = options.dryRun === true;
  reporter.event({ type: 'start', cluster, context: client.context, server: client.server, stages: plan.steps.map((s) => s.name), dryRun });
  for (const note of plan.notes) reporter.event({ type: 'note', cluster, message: note });

  const record = (stage: string, ref: string, action: ChangeAction, reason?: string) => {
    changes.add({ ref, stage, action, ...(reason ? { reason } : {}) });
    reporter.event({ type: 'change', cluster, stage, ref, action, ...(reason ? { reason } : {}) });
  };
  const checkAbort = () => {
    if (options.signal?.aborted) throw new OperationError('bootstrap stopped: the run was cancelled; run it again to pick up', { code: 'cancelled' });
  };

  const applyObject = async (stage: string, obj: K8sObject): Promise<void> => {
    const key: ObjectKey = { apiVersion: obj.apiVersion, kind: obj.kind, name: String(obj.metadata?.name), ...(obj.metadata?.namespace ? { namespace: String(obj.metadata.namespace) } : {}) };
    const ref = refOf(key);
    if (dryRun && !(await client.resource(obj.apiVersion, obj.kind))) {
      record(stage, ref, 'skipped', `dry run: ${obj.kind} (${obj.apiVersion}) is not served yet; an earlier phase installs its CRD`);
      return;
    }
    const current = await client.get(key);
    let dry: KubeObject;
    try {
      dry = await client.apply(obj as KubeObject, { dryRun: true, force: options.forceConflicts === true });
    } catch (err) {
      if (dryRun && err instanceof KubeApiError && err.status === 404 && key.namespace !== undefined) {
        record(stage, ref, 'skipped', `dry run: namespace ${key.namespace} does not exist yet; this or an earlier phase creates it`);
        return;
      }
      if (err instanceof KubeApiError && err.status === 409 && err.causes.some((c) => c.reason === 'FieldManagerConflict')) {
        throw new OperationError(`${ref}: server-side apply conflict: ${err.causes.map((c) => `${c.field ?? '?'}: ${c.message ?? ''}`).join('; ')}`, { code: 'apply-conflict', hint: 'rerun with --force-conflicts to take these fields (kubectl apply --server-side --force-conflicts, as the helmfile hooks do)', cause: err });
      }
      throw err;
    }
    const action = changeAction(dry, current);
    if (action !== 'unchanged' && !dryRun) await client.apply(obj as KubeObject, { force: options.forceConflicts === true });
    record(stage, ref, action);
  };

  const namespaced = async (o: K8sObject, where: string): Promise<boolean> => {
    const info = await client.resource(o.apiVersion, o.kind);
    if (!info) throw new OperationError(`${where}: ${o.apiVersion} ${o.kind} is not served by the cluster (its CRD is not installed or not Established yet)`, { code: 'kind-not-served', hint: 'install the CRD in an earlier release, or add a kubectl wait --for=create crd/NAME hook before' });
    return info.namespaced;
  };

  const waitFor = (stage: string, waits: WaitSpec[]): Promise<void> => {
    if (waits.length === 0 || dryRun) return Promise.resolve();
    for (const w of waits) for (const k of watchesFor(w)) live.ensure(k);
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const seen = new Map<string, string>();
      const ready = new Set<string>();
      const pending = (): NotReady[] => waits.map((w) => ({ w, r: evaluate(w, (k) => live.get(k)) })).filter((x) => !x.r.ready).map(({ w, r }) => ({ ref: refOf(w.object), condition: w.condition, message: r.message, conditions: r.conditions }));
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        off();
        offFailure();
        cancel();
        options.signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const check = () => {
        if (settled) return;
        let n = 0;
        for (const w of waits) {
          const r = evaluate(w, (k) => live.get(k));
          const ref = refOf(w.object);
          if (r.ready) {
            n++;
            if (!ready.has(ref)) {
              ready.add(ref);
              reporter.event({ type: 'ready', cluster, stage, ref, message: r.message });
            }
          } else if (seen.get(ref) !== r.message) {
            seen.set(ref, r.message);
            reporter.event({ type: 'waiting', cluster, stage, ref, message: r.message });
          }
        }
        reporter.event({ type: 'progress', cluster, stage, ready: n, total: waits.length });
        if (n === waits.length) finish();
      };
      const onAbort = () => finish(new OperationError(`bootstrap stopped in stage ${stage}: the run was cancelled; run it again to pick up`, { code: 'cancelled' }));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const off = live.onChange(check);
      const offFailure = live.onFailure((err) => finish(err));
      const cancel = clock.timer(Math.max(0, deadline - clock.now()), () => {
        const notReady = pending();
        reporter.event({ type: 'failed', cluster, message: `timed out in stage ${stage}`, notReady });
        finish(new BootstrapTimeoutError(stage, timeoutMs, notReady));
      });
      check();
    });
  };

  const runStep = async (step: HelmfileStep): Promise<void> => {
    switch (step.kind) {
      case 'crds': {
        const crds: K8sObject[] = [];
        for (const r of step.releases) crds.push(...(await helm.crds(r)));
        const unique = [...new Map(crds.map((c) => [String(c.metadata?.name), c])).values()];
        for (const c of unique) await applyObject(step.name, c);
        await waitFor(step.name, unique.map((c) => ({ object: { apiVersion: c.apiVersion, kind: c.kind, name: String(c.metadata?.name) }, condition: 'established', text: `CustomResourceDefinition ${String(c.metadata?.name)} Established` })));
        return;
      }
      case 'release': {
        const spec = step.release;
        // helmfile creates the release namespace (createNamespace defaults to true).
        await applyObject(step.name, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: spec.namespace } });
        const deployed = await helm.deployed(spec);
        const ref = `HelmRelease/${spec.namespace}/${spec.name}`;
        let manifest: string;
        if (dryRun && !(deployed && deployed.status === 'deployed')) {
          // Not previewed: a chart whose custom resources need CRDs of an earlier phase cannot be.
          record(step.name, ref, deployed ? 'configured' : 'created', deployed ? `would upgrade: the Helm release is ${deployed.status}` : 'would install a Helm release (helm upgrade --install)');
          return;
        }
        if (deployed && deployed.status === 'deployed') {
          const preview = await helm.preview(spec);
          if (preview.manifest.trim() === deployed.manifest.trim() && preview.chart === deployed.chart && sameValues(helm.values(spec), deployed.values)) {
            record(step.name, ref, 'unchanged', `Helm release revision ${deployed.revision}`);
            manifest = deployed.manifest;
          } else if (dryRun) {
            record(step.name, ref, 'configured', `would upgrade the Helm release from revision ${deployed.revision}`);
            return;
          } else {
            manifest = (await helm.upgrade(spec)).manifest;
            record(step.name, ref, 'configured', `Helm release upgraded from revision ${deployed.revision}`);
          }
        } else {
          manifest = (await helm.upgrade(spec)).manifest;
          record(step.name, ref, deployed ? 'configured' : 'created', deployed ? `Helm release was ${deployed.status}` : 'Helm release installed');
        }
        await waitFor(step.name, releaseWaits(manifestObjects(manifest), spec.namespace));
        return;
      }
      case 'hook': {
        const a = step.action;
        if (a.kind === 'wait-crds') {
          await waitFor(step.name, a.crds.map((name) => ({ object: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name }, condition: 'established', text: `CustomResourceDefinition ${name} Established` })));
          return;
        }
        for (const file of a.files) {
          let text: string;
          try {
            text = ports.readFile(file);
          } catch (err) {
            throw new OperationError(`hook ${step.name} (${step.text}): cannot read ${file}: ${(err as Error).message}`, { code: 'hook-file', hint: 'the file a helmfile hook applies must be in the repository' });
          }
          for (const o of manifestObjects(text)) {
            const obj = JSON.parse(JSON.stringify(o)) as K8sObject;
            obj.metadata = obj.metadata ?? {};
            if (dryRun && !(await client.resource(obj.apiVersion, obj.kind))) {
              record(step.name, `${obj.kind}/${obj.metadata.namespace !== undefined ? `${String(obj.metadata.namespace)}/` : a.namespace !== undefined ? `${a.namespace}/` : ''}${String(obj.metadata.name)}`, 'skipped', `dry run: ${obj.kind} (${obj.apiVersion}) is not served yet; an earlier phase installs its CRD`);
              continue;
            }
            if (obj.metadata.namespace === undefined && (await namespaced(obj, `${file}: ${obj.kind} ${String(obj.metadata.name)}`))) {
              if (a.namespace === undefined) throw new OperationError(`${file}: ${obj.kind} ${String(obj.metadata.name)} has no namespace and the hook gives none (kubectl would use the kubeconfig's)`, { code: 'hook-namespace', hint: 'set metadata.namespace, or --namespace= in the hook' });
              obj.metadata.namespace = a.namespace;
            }
            await applyObject(step.name, obj);
          }
        }
        return;
      }
      case 'flux':
        await waitFor(step.name, step.kustomizations.map((k) => kustomizationReady(k.namespace, k.name)));
        return;
    }
  };

  try {
    for (const [i, step] of plan.steps.entries()) {
      checkAbort();
      const t0 = clock.now();
      reporter.event({ type: 'stage', cluster, stage: step.name, index: i + 1, total: plan.steps.length, objects: 0, waits: 0 });
      await runStep(step);
      const durationMs = clock.now() - t0;
      timings.push({ stage: step.name, durationMs });
      reporter.event({ type: 'stage-done', cluster, stage: step.name, durationMs });
    }
  } finally {
    await live.stop();
  }
  const result: BootstrapResult = { cluster, outcome: dryRun ? 'dry-run' : 'converged', changes, timings, durationMs: clock.now() - started };
  reporter.event({ type: 'done', cluster, result });
  return result;
}
