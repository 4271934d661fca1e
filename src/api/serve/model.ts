/**
 * What `fleetplan serve` shows, computed through the library: the fleet as a compact matrix of
 * clusters × apps (the page builds its table from it), each cluster's plan, the findings, the
 * sectors and the clusters that follow each. Computed once per repository change and kept, so
 * that a request is a lookup (docs/adr/0250-fleetplan-serve.md).
 */
import { FleetplanError } from '../../errors/index.js';
import { clusterSelectorLabels } from '../../layering/selector.js';
import { resolveFleet } from '../../layering/resolve-fleet.js';
import type { LoadResult } from '../../load/native.js';
import type { Finding } from '../../model/finding.js';
import { compareFindings } from '../../model/finding.js';
import type { ClusterPlan } from '../../model/plan.js';
import { completeFallbacks } from '../../layouts/gitops-standards/fallback.js';
import { createClusterBuilder } from '../../adapters/cluster-build.js';
import type { ClosableClusterBuilder } from '../../adapters/cluster-build.js';
import { completeLoad, loadFleet, validateFleet } from '../fleet.js';
import { planRepository } from '../plan.js';

/** One cluster in the matrix: its facts and labels (what the filters match). */
export interface ViewCluster {
  name: string;
  role: string;
  hub: string | null;
  region: string | null;
  sector: string | null;
  groups: string[];
  /** The labels a selector sees (built-in `fleetplan.io/*` keys left out: they are the facts above). */
  labels: Record<string, string>;
  revision: string;
  file: string;
  /** Number of error findings about this cluster. */
  errors: number;
}

export interface ViewSector {
  name: string;
  /** The pinned revision, or null when the sector follows the fleet's revision. */
  revision: string | null;
  protected: boolean;
  clusters: string[];
}

/** The fleet as the page's first view needs it; `cells[c]` is `[appIndex, wave, appIndex, wave, ...]` for cluster c. */
export interface FleetView {
  version: number;
  /** When the fleet could be read; false: only `findings` says why not. */
  loaded: boolean;
  fleet: { name: string; layout: string; revision: string; repoURL: string; root: string };
  apps: string[];
  clusters: ViewCluster[];
  cells: number[][];
  sectors: ViewSector[];
  findings: Finding[];
}

export interface ServeModel {
  view: FleetView;
  /** The plan of each cluster, by name. */
  plans: Map<string, ClusterPlan>;
}

export interface ServeModelOptions {
  root: string;
  /** Finishes a fleet whose reader left work for the real tools (default: completeLoad and kustomize fallbacks with the process environment). */
  complete?: (result: LoadResult, root: string) => Promise<void>;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Reads, plans and validates the fleet at `root`; a fleet that cannot be read is a view with the error as its one finding. */
export async function buildServeModel(options: ServeModelOptions, version: number): Promise<ServeModel> {
  try {
    return await readModel(options, version);
  } catch (e) {
    if (!(e instanceof FleetplanError)) throw e;
    const finding: Finding = { severity: 'error', code: e.code, message: e.message };
    if (e.location?.file) finding.file = e.location.file;
    if (e.location?.line !== undefined) finding.line = e.location.line;
    if (e.location?.column !== undefined) finding.column = e.location.column;
    if (e.location?.path) finding.path = e.location.path;
    if (e.hint) finding.hint = e.hint;
    return {
      view: { version, loaded: false, fleet: { name: '', layout: '', revision: '', repoURL: '', root: options.root }, apps: [], clusters: [], cells: [], sectors: [], findings: [finding] },
      plans: new Map(),
    };
  }
}

async function defaultComplete(result: LoadResult, root: string, env: Readonly<Record<string, string | undefined>>): Promise<void> {
  await completeLoad(result, { env });
  if (!result.fallbacks?.length) return;
  let builder: ClosableClusterBuilder | undefined;
  try {
    await completeFallbacks(result, async () => (builder = await createClusterBuilder(root, { env })));
  } finally {
    builder?.close();
  }
}

async function readModel(options: ServeModelOptions, version: number): Promise<ServeModel> {
  const result = loadFleet(options.root);
  if (options.complete) await options.complete(result, options.root);
  else await defaultComplete(result, options.root, options.env ?? process.env);
  const { fleet } = result;
  const resolved = resolveFleet(fleet);
  const plan = await planRepository(resolved);
  const findings = dedupe([...plan.findings, ...validateFleet(resolved)]).sort(compareFindings);
  const plans = new Map(plan.clusters.map((c) => [c.name, c]));
  const apps = [...new Set(plan.clusters.flatMap((c) => c.apps.map((a) => a.name)))].sort();
  const appIndex = new Map(apps.map((a, i) => [a, i]));
  const errorsOf = new Map<string, number>();
  for (const f of findings) if (f.severity === 'error' && f.cluster) errorsOf.set(f.cluster, (errorsOf.get(f.cluster) ?? 0) + 1);
  const clusters: ViewCluster[] = [];
  const cells: number[][] = [];
  // In bootstrap order (hubs before their spokes), as `plan` lists them; clusters the plan left out last.
  const rank = new Map(plan.clusters.map((c, i) => [c.name, i]));
  const defs = [...fleet.clusters].sort((a, b) => (rank.get(a.name) ?? Infinity) - (rank.get(b.name) ?? Infinity));
  for (const def of defs) {
    const p = plans.get(def.name);
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(clusterSelectorLabels(def))) {
      if (k.startsWith('fleetplan.io/') || Array.isArray(v)) continue;
      labels[k] = v;
    }
    clusters.push({
      name: def.name,
      role: def.spec.role,
      hub: def.spec.hub ?? null,
      region: def.spec.region ?? null,
      sector: def.spec.sector ?? null,
      groups: [...new Set(def.spec.groups ?? [])].sort(),
      labels,
      revision: p?.revision ?? fleet.revision,
      file: def.file,
      errors: errorsOf.get(def.name) ?? 0,
    });
    const row: number[] = [];
    for (const a of p?.apps ?? []) row.push(appIndex.get(a.name)!, a.wave);
    cells.push(row);
  }
  const sectors: ViewSector[] = fleet.sectors.map((s) => ({
    name: s.name,
    revision: s.revision ?? null,
    protected: s.protected === true,
    clusters: fleet.clusters.filter((c) => c.spec.sector === s.name).map((c) => c.name),
  }));
  return {
    view: { version, loaded: true, fleet: { name: fleet.name, layout: fleet.layout, revision: fleet.revision, repoURL: fleet.repoURL, root: fleet.root }, apps, clusters, cells, sectors, findings },
    plans,
  };
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.severity, f.code, f.message, f.file, f.line, f.column, f.path, f.cluster, f.app]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
