/**
 * Stage 4, order: resolved clusters → a Plan (per cluster: bootstrap steps, then waves in order).
 * Ordering within a wave is by name; waves ascend. The same fleet gives the same plan.
 */
import { formatRef } from '../errors/index.js';
import { bootstrapFor } from '../generate/argocd.js';
import { FLUX_PLAN_NOTE, fluxBootstrapFor } from '../generate/flux.js';
import { planBootstrapOf } from './bootstrap-plan.js';
import { hasHelmfileBootstrap, helmfilePlanStages, planHelmfileBootstrap } from './helmfile-plan.js';
import { planFluxBootstrapOf } from './flux-bootstrap-plan.js';
import { mirrorPlanStages, planMirror } from './mirror-plan.js';
import type { AppliedObject, Fleet } from '../model/fleet.js';
import { clusterDef } from '../model/fleet.js';
import { appPlugins, pluginNote } from '../model/argo-plugin.js';
import type { BootstrapFile, BootstrapPlan } from '../model/bootstrap.js';
import type { ClusterPlan, Plan, PlanBootstrapStep, PlanObject, PlanStage, PlanWait, PlanWave } from '../model/plan.js';
import { provisionPath } from '../model/constants.js';
import { provisionedSpokes } from '../layering/provision-apps.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { LazyResolvedFleet, ResolvedFleet } from '../layering/resolve-fleet.js';

/** The plan of every cluster of a resolved fleet: bootstrap steps and stages, then waves. */
export function planFleet(resolved: ResolvedFleet, options: PlanOptions = {}): Plan {
  const { fleet, clusters, findings } = resolved;
  return { fleet: fleet.name, layout: fleet.layout, clusters: clusters.map((c) => planCluster(fleet, c, options)), findings };
}

/** A Plan whose cluster plans are made one at a time, as `clusters` is iterated (once). */
export type LazyPlan = Omit<Plan, 'clusters'> & { clusters: Iterable<ClusterPlan> };

/**
 * `planFleet` over a fleet resolved one cluster at a time (resolveFleetLazily), each cluster
 * resolved and planned when it is reached: a streamed output (`plan -o json`) then holds one
 * cluster at a time instead of the fleet (at 5,000 clusters × 40 apps, about half the time and a
 * third of the memory: nothing outlives the young generation). `findings` can be read once
 * `clusters` has been iterated (it throws before).
 */
export function planFleetLazily(resolved: LazyResolvedFleet, options: PlanOptions = {}): LazyPlan {
  const { fleet } = resolved;
  function* plans(): Generator<ClusterPlan> {
    for (const c of resolved.clusters) yield planCluster(fleet, c, options);
  }
  return {
    fleet: fleet.name,
    layout: fleet.layout,
    clusters: plans(),
    get findings() {
      return resolved.findings();
    },
  };
}

/** What a plan can be asked for besides the fleet. */
export interface PlanOptions {
  /** The helmfile environment of a helmfile + Flux repository (`plan -e ENV`); default helmfile's `default`. */
  helmfileEnvironment?: string;
}

export function planCluster(fleet: Fleet, c: ResolvedCluster, options: PlanOptions = {}): ClusterPlan {
  if (fleet.engine === 'flux' && fleet.capabilities.bootstrap) return planFluxCluster(fleet, c);
  const own = clusterDef(fleet, c.name)?.ownBootstrap;
  if (own) {
    // The repository bootstraps the cluster itself (ADR 0285): its steps, not fleetplan's.
    return clusterPlanWith(fleet, c, { bootstrap: own.steps.map((s) => ({ ...s, objects: [...s.objects] })), stages: [], bootstrapNotes: [...own.notes] });
  }
  const files = bootstrapFor(fleet, c);
  const boot = planBootstrapOf(fleet, c, files);
  // Layouts that bootstrap themselves get no fleetplan bootstrap steps; helmfile + Flux gets
  // the phases of its own bootstrap (src/order/helmfile-plan.ts); a fleet with gitops.mirror adds
  // phase 2 after the waves.
  return clusterPlanWith(fleet, c, {
    bootstrap: fleet.capabilities.bootstrap ? bootstrapSteps(files, boot) : [],
    ...(fleet.capabilities.bootstrap ? { stages: [...planStages(boot), ...phaseTwoStages(fleet, c)], bootstrapNotes: boot.notes } : helmfileStages(fleet, c, options)),
  });
}

/**
 * A cluster's plan around its bootstrap part. The plan's objects are built with their keys in
 * sorted order, the order `plan -o json` prints them in, so that the printer can hand them to
 * V8's JSON.stringify (yaml/serialize.ts jsonOf, ADR 0290).
 */
function clusterPlanWith(
  fleet: Fleet,
  c: ResolvedCluster,
  boot: Pick<ClusterPlan, 'bootstrap'> & Partial<Pick<ClusterPlan, 'stages' | 'bootstrapNotes'>>,
  notes: string[] = pluginNotes(c),
): ClusterPlan {
  const { waitsFor, provisions, provisioning } = provisioningPlan(fleet, c);
  const plan = { apps: appsOf(c), bootstrap: boot.bootstrap } as ClusterPlan;
  if (boot.bootstrapNotes !== undefined) plan.bootstrapNotes = boot.bootstrapNotes;
  plan.hub = c.hub ?? null;
  plan.name = c.name;
  plan.notes = [...(clusterDef(fleet, c.name)?.notes ?? []), ...notes];
  const objects = clusterDef(fleet, c.name)?.appliedObjects;
  if (objects?.length) plan.objects = objects.map(planObject);
  plan.platform = c.platform;
  if (provisioning !== undefined) plan.provisioning = provisioning;
  plan.provisions = provisions;
  plan.region = c.region ?? null;
  plan.revision = c.revision;
  plan.role = c.role;
  plan.sector = c.sector ?? null;
  if (boot.stages !== undefined) plan.stages = boot.stages;
  plan.waitsFor = waitsFor;
  plan.waves = wavesOf(c);
  return plan;
}

/** Apps whose own Application names a config-management plugin: fleetplan does not run it (ADR 0284). */
function pluginNotes(c: ResolvedCluster): string[] {
  const notes: string[] = [];
  for (const app of c.apps) {
    const plugins = appPlugins(app);
    if (plugins.length) notes.push(pluginNote(app.name, plugins));
  }
  return notes;
}

/** The phases of a helmfile + Flux bootstrap; none for other layouts that bootstrap themselves. */
function helmfileStages(fleet: Fleet, c: ResolvedCluster, options: PlanOptions): Pick<ClusterPlan, 'stages' | 'bootstrapNotes'> {
  if (!hasHelmfileBootstrap(fleet)) return { stages: [], bootstrapNotes: [] };
  const plan = planHelmfileBootstrap(fleet, c.name, options.helmfileEnvironment);
  return { stages: helmfilePlanStages(plan), bootstrapNotes: [...plan.notes, ...plan.problems.map((p) => `fleetplan bootstrap cannot run this: ${p}`)] };
}

/**
 * A cluster of a Flux fleet: its Flux bootstrap files and the stages `bootstrap` runs (Flux's
 * components, the GitRepository and root Kustomization, then every Kustomization Ready by
 * dependsOn: src/order/flux-bootstrap-plan.ts), and a note that waves are Flux dependsOn.
 */
function planFluxCluster(fleet: Fleet, c: ResolvedCluster): ClusterPlan {
  const files = fluxBootstrapFor(fleet, c);
  const boot = planFluxBootstrapOf(fleet, c, files);
  return clusterPlanWith(fleet, c, { bootstrap: bootstrapSteps(files, boot), stages: planStages(boot), bootstrapNotes: boot.notes }, [FLUX_PLAN_NOTE]);
}

/** An object a root or an app-of-apps applies, as the plan lists it (keys in sorted order). */
function planObject(o: AppliedObject): PlanObject {
  const md = o.manifest.metadata as Record<string, unknown>;
  return { kind: String(o.manifest.kind), name: String(md.name), ...(typeof md.namespace === 'string' ? { namespace: md.namespace } : {}), via: o.via, wave: o.wave };
}

function wavesOf(c: ResolvedCluster): PlanWave[] {
  const waves: PlanWave[] = [];
  for (const app of c.apps) {
    const last = waves[waves.length - 1];
    if (last && last.wave === app.wave) last.apps.push(app.name);
    else waves.push({ apps: [app.name], wave: app.wave });
  }
  return waves;
}

function appsOf(c: ResolvedCluster): ClusterPlan['apps'] {
  return c.apps.map((a) => {
    const source = {} as ClusterPlan['apps'][number]['source'];
    if (a.source.chart !== undefined) source.chart = a.source.chart;
    if (a.source.path !== undefined) source.path = a.source.path;
    source.repoURL = a.source.repoURL;
    source.targetRevision = a.source.targetRevision;
    return {
      destination: a.destination,
      from: a.from,
      ...(a.fromLine !== undefined ? { line: a.fromLine } : {}),
      name: a.name,
      needs: a.needs,
      project: a.project,
      source,
      wave: a.wave,
    };
  });
}

/** What a provisioned spoke waits for: its ManagedCluster reporting Available on the hub. */
export function provisioningPlan(fleet: Fleet, c: ResolvedCluster): Pick<ClusterPlan, 'waitsFor' | 'provisioning' | 'provisions'> {
  const provision = c.provision;
  const provisions = provisionedSpokes(fleet, c.name).map((d) => d.name);
  if (!provision || !c.hub || c.hub === c.name) return { waitsFor: [], provisions };
  const wait: PlanWait = {
    apiVersion: 'cluster.open-cluster-management.io/v1',
    cluster: c.hub,
    condition: { status: 'True', type: 'ManagedClusterConditionAvailable' },
    createdBy: c.name,
    description: `ManagedCluster ${c.name} Available on ${c.hub}`,
    kind: 'ManagedCluster',
    name: c.name,
  };
  return {
    waitsFor: [wait],
    provisions,
    provisioning: { app: c.name, hub: c.hub, installer: provision.installer, path: provisionPath(fleet.renderedPath, c.hub, c.name) },
  };
}

/** The bootstrap files, each with the stage that applies it and what that stage waits for. */
function bootstrapSteps(files: readonly BootstrapFile[], boot: BootstrapPlan): PlanBootstrapStep[] {
  return files.map((f) => {
    const step: PlanBootstrapStep = { description: f.description, file: f.name, objects: f.objects.map((o) => formatRef(o)) };
    const stage = boot.stages.find((s) => s.files.includes(f.name));
    if (stage) {
      step.stage = stage.name;
      step.wait = stage.waits.map((w) => w.text);
    }
    return step;
  });
}

/** The stages of the internal Git phase, when the fleet has `gitops.mirror`. */
function phaseTwoStages(fleet: Fleet, c: ResolvedCluster): PlanStage[] {
  const m = planMirror(fleet, c);
  return m ? mirrorPlanStages(m) : [];
}

export function planStages(boot: BootstrapPlan): PlanStage[] {
  return boot.stages.map((s) => {
    const p = { description: s.description, files: s.files } as PlanStage;
    if (s.gate) p.gate = s.gate.crd;
    p.name = s.name;
    p.notes = s.notes;
    p.objects = s.objects.map((o) => formatRef(o));
    p.wait = s.waits.map((w) => w.text);
    if (s.wave !== undefined) p.wave = s.wave;
    return p;
  });
}
