/**
 * `fleetplan bootstrap` of a helmfile + Flux repository: the plan (src/order/helmfile-plan.ts)
 * run by src/apply/helmfile-executor.ts, with the real Helm 3 (src/adapters/helm-release.ts)
 * reaching the same cluster and credentials as the Kubernetes client.
 * Decisions: docs/adr/0231-helmfile-bootstrap.md.
 */
import { readFileSync } from 'node:fs';
import { locateHelm } from '../adapters/helm.js';
import { kubeconfigForHelm, ProcessHelmReleases } from '../adapters/helm-release.js';
import { connectKube } from '../adapters/kube.js';
import { executeHelmfileBootstrap } from '../apply/helmfile-executor.js';
import type { BootstrapResult } from '../apply/change-set.js';
import type { Reporter } from '../apply/events.js';
import type { Fleet } from '../model/fleet.js';
import type { Clock } from '../ports/clock.js';
import { planHelmfileBootstrap } from '../order/helmfile-plan.js';
import { resolveInside } from '../adapters/fs.js';

export interface HelmfileBootstrapOptions {
  cluster: string;
  /** helmfile environment (`{{ .Environment.Name }}`); default `default`. */
  environment?: string;
  kubeconfig?: string;
  context?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `--helm`; else FLEETPLAN_HELM, PATH, the package's .tools/bin. */
  helm?: string;
  clock: Clock;
  reporter: Reporter;
  timeoutMs: number;
  forceConflicts?: boolean;
  /** Write nothing: server-side dry-runs and Helm's view of its releases only (ADR 0262). */
  dryRun?: boolean;
  signal?: AbortSignal;
}

export async function bootstrapHelmfile(fleet: Fleet, options: HelmfileBootstrapOptions): Promise<BootstrapResult> {
  const plan = planHelmfileBootstrap(fleet, options.cluster, options.environment);
  const conn = { ...(options.kubeconfig !== undefined ? { kubeconfig: options.kubeconfig } : {}), ...(options.context !== undefined ? { context: options.context } : {}), env: options.env };
  const helmTool = await locateHelm({ ...(options.helm !== undefined ? { explicit: options.helm } : {}), env: options.env, cwd: fleet.root });
  const client = await connectKube({ ...conn, deadline: options.clock.now() + options.timeoutMs });
  const helm = new ProcessHelmReleases({ binary: helmTool.binary, root: fleet.root, kubeconfig: await kubeconfigForHelm(conn), env: options.env, timeoutMs: options.timeoutMs });
  try {
    return await executeHelmfileBootstrap(plan, {
      client,
      helm,
      readFile: (path) => readFileSync(resolveInside(fleet.root, path), 'utf8'),
    }, {
      clock: options.clock,
      reporter: options.reporter,
      timeoutMs: options.timeoutMs,
      ...(options.forceConflicts ? { forceConflicts: true } : {}),
      ...(options.dryRun ? { dryRun: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    helm.close();
    client.close();
  }
}
