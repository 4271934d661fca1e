/**
 * Stage 4, order (`delivery: applicationset`): the Applications each cluster's root
 * ApplicationSet generates, computed with the offline evaluator (src/appset) over the fleet
 * repository, put into the plan in place of the cluster's app list.
 *
 * The git generator reads the repository at the revision it names: a sector's pinned commit, or
 * the identity Secret's git_revision (the fleet revision). A revision the repository does not
 * have — or a fleet repository that is not a git repository — is read from the working tree
 * instead; the cluster's plan notes say so, and a missing commit is a warning finding
 * (docs/adr/0121-applicationset-delivery.md). Evaluation errors are error findings of the
 * cluster; one failing cluster does not hide the others.
 */
import type { Application, ApplicationSet, ClusterSecret } from '../appset/types.js';
import { FleetplanError } from '../errors/index.js';
import { ROOT_APPLICATIONSET, pinnedRevision, rootApplicationSet } from '../generate/applicationset-delivery.js';
import type { K8sObject } from '../model/k8s.js';
import { clusterSecretFor } from '../generate/cluster-identity.js';
import { SYNC_WAVE_ANNOTATION } from '../model/constants.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { Finding } from '../model/finding.js';
import { cmp, compareFindings } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import { clusterDef } from '../model/fleet.js';
import type { ClusterPlan, Plan, PlanApp, PlanWave } from '../model/plan.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { GitRepo } from '../ports/git-repo.js';
import type { FleetRepoSource, RevisionStatus } from '../ports/fleet-repo.js';

export type { FleetRepoSource, RevisionStatus };
import { planCluster } from './plan.js';
import { bootstrapFileName } from '../model/bootstrap.js';
import { compareSyncOrder } from '../model/sync-order.js';

/** An identity Secret (a generated Secret object) as the cluster generator sees it. */
export function toClusterSecret(secret: K8sObject): ClusterSecret {
  return {
    name: secret.metadata.name,
    ...(secret.metadata.namespace !== undefined ? { namespace: secret.metadata.namespace } : {}),
    labels: { ...secret.metadata.labels },
    annotations: { ...secret.metadata.annotations },
    data: { ...(secret['stringData'] as Record<string, string>) },
  };
}

/** The identity Secrets of the given clusters, as the cluster generator sees them. */
export function fleetClusterSecrets(fleet: Fleet, clusters: readonly ResolvedCluster[]): ClusterSecret[] {
  return clusters.map((c) => toClusterSecret(clusterSecretFor(fleet, c)));
}

export interface ClusterApplications {
  applications: Application[];
  apps: PlanApp[];
  notes: string[];
  findings: Finding[];
}

/** Reads the source at a revision, or the working tree when it cannot, noting why. */
function revisionMapper(source: FleetRepoSource): (revision: string, notes: Set<string>, findings: Map<string, Finding>, cluster: ResolvedCluster) => Promise<string> {
  const status = new Map<string, Promise<RevisionStatus>>();
  return async (revision, notes, findings, cluster) => {
    if (revision === '') return '';
    let p = status.get(revision);
    if (!p) {
      p = source.revisionStatus(revision);
      status.set(revision, p);
    }
    const s = await p;
    if (s === 'found') return revision;
    if (s === 'no-repository') {
      notes.add(`the fleet directory is not the top of a git repository: charts listed from the working tree, not at ${revision}`);
    } else {
      notes.add(`revision ${revision} is not in the fleet repository's history: charts listed from the working tree`);
      findings.set(revision, {
        severity: 'warning',
        code: 'appset-revision-not-found',
        message: `the root ApplicationSet reads revision ${revision}, which is not a commit, branch or tag of the fleet repository`,
        file: cluster.file,
        cluster: cluster.name,
        hint: 'pin the sector to a commit of the repository (git log), or fetch it',
      });
    }
    return '';
  };
}

function planAppOf(app: Application, from: string): PlanApp {
  const spec = app.spec as { project?: string; destination?: { server?: string; namespace?: string; name?: string }; source?: Record<string, unknown>; sources?: Record<string, unknown>[] };
  const sources = spec.sources ?? (spec.source ? [spec.source] : []);
  const chart = sources.find((s) => typeof s['path'] === 'string' || typeof s['chart'] === 'string') ?? sources[0] ?? {};
  const source: PlanApp['source'] = { repoURL: String(chart['repoURL'] ?? ''), targetRevision: String(chart['targetRevision'] ?? 'HEAD') };
  if (typeof chart['path'] === 'string') source.path = chart['path'];
  if (typeof chart['chart'] === 'string') source.chart = chart['chart'];
  const destination: PlanApp['destination'] = { server: spec.destination?.server ?? spec.destination?.name ?? '' };
  if (spec.destination?.namespace !== undefined) destination.namespace = spec.destination.namespace;
  const wave = Number.parseInt(app.metadata.annotations?.[SYNC_WAVE_ANNOTATION] ?? '0', 10);
  return { name: app.metadata.name ?? '', wave: Number.isFinite(wave) ? wave : 0, needs: [], source, destination, project: spec.project ?? 'default', from };
}

/**
 * The Applications the root ApplicationSet generates on each cluster (its own identity Secret ×
 * the chart directories at its revision). The repo server is shared, so each revision is read once.
 */
export async function applicationSetApps(fleet: Fleet, clusters: readonly ResolvedCluster[], source: FleetRepoSource): Promise<Map<string, ClusterApplications>> {
  // The ApplicationSet engine (and its Go templates) is imported by the fleets that deliver this way, not by every command that may render one (ADR 0397).
  const [{ createRepoServer }, { generateApplications }, { goTemplateEngine }] = await Promise.all([import('../appset/repo-server.js'), import('../appset/applications.js'), import('../appset/go-engine.js')]);
  const server = createRepoServer(source.tree);
  const mapRevision = revisionMapper(source);
  const out = new Map<string, ClusterApplications>();
  for (const c of clusters) {
    const notes = new Set<string>();
    const revisionFindings = new Map<string, Finding>();
    const findings: Finding[] = [];
    const git: GitRepo = {
      getDirectories: async (u, r) => server.getDirectories(u, await mapRevision(r, notes, revisionFindings, c)),
      getFiles: async (u, r, p, g) => server.getFiles(u, await mapRevision(r, notes, revisionFindings, c), p, g),
    };
    const obj = rootApplicationSet(fleet, c);
    const own = clusterDef(fleet, c.name)?.rootApplicationSet;
    const appSet = { metadata: { name: obj.metadata.name || ROOT_APPLICATIONSET, namespace: obj.metadata.namespace ?? c.gitopsNamespace }, spec: obj['spec'] } as ApplicationSet;
    const from = own ? own.file : `${fleet.renderedPath}/${c.name}/bootstrap/${bootstrapFileName('root-applicationset')}`;
    let applications: Application[] = [];
    try {
      const result = await generateApplications(appSet, { clusterSecrets: [toClusterSecret(clusterSecretFor(fleet, c))], git, ...goTemplateEngine });
      applications = result.applications.map((g) => g.application).sort((a, b) => cmp(a.metadata.name ?? '', b.metadata.name ?? ''));
      for (const bad of result.invalid) {
        findings.push({ severity: 'error', code: 'appset-invalid-application', message: `root ApplicationSet: ${bad.message}`, file: c.file, cluster: c.name });
      }
    } catch (e) {
      if (!(e instanceof FleetplanError)) throw e;
      findings.push({
        severity: 'error',
        code: 'appset-evaluation',
        message: `root ApplicationSet: ${e.message}`,
        file: own?.file ?? c.file,
        cluster: c.name,
        hint: e.hint ?? (own ? `fix ${own.file}` : 'applicationset delivery needs the cluster sector and region (labels environment and region_alias)'),
      });
    }
    findings.push(...revisionFindings.values());
    const pin = pinnedRevision(fleet, c);
    if (pin !== undefined) notes.add(`charts pinned to ${pin} (sector ${c.sector ?? '-'}); values follow ${fleet.revision}`);
    const apps = applications.map((a) => planAppOf(a, from)).sort(compareSyncOrder);
    out.set(c.name, { applications, apps, notes: [...notes].sort(), findings });
  }
  return out;
}

function wavesOf(apps: readonly PlanApp[]): PlanWave[] {
  const waves: PlanWave[] = [];
  for (const app of apps) {
    const last = waves[waves.length - 1];
    if (last && last.wave === app.wave) last.apps.push(app.name);
    else waves.push({ wave: app.wave, apps: [app.name] });
  }
  return waves;
}

/** A warning per cluster whose spec lists apps: under applicationset delivery they are not delivered. */
function ignoredAppFindings(c: ResolvedCluster): Finding[] {
  if (c.apps.length === 0) return [];
  return [
    {
      severity: 'warning',
      code: 'apps-not-delivered',
      message: `${c.apps.length} app(s) from defaults, groups or the cluster (${c.apps.map((a) => a.name).join(', ')}) are not delivered: under gitops.delivery: applicationset the root ApplicationSet makes one Application per chart directory`,
      file: c.file,
      cluster: c.name,
      hint: 'move them into chart directories (gitops.applicationset.directories), or use gitops.delivery: app-of-apps',
    },
  ];
}

/** The plan of a `delivery: applicationset` fleet: each cluster's apps are what its root ApplicationSet generates. */
export async function planApplicationSetFleet(resolved: ResolvedFleet, source: FleetRepoSource): Promise<Plan> {
  const { fleet, clusters, findings } = resolved;
  const generated = await applicationSetApps(fleet, clusters, source);
  const all = [...findings];
  const plans: ClusterPlan[] = clusters.map((c) => {
    const g = generated.get(c.name)!;
    all.push(...g.findings, ...ignoredAppFindings(c));
    const base = planCluster(fleet, c);
    return { ...base, apps: g.apps, waves: wavesOf(g.apps), notes: [...base.notes, ...g.notes] };
  });
  return { fleet: fleet.name, layout: fleet.layout, clusters: plans, findings: all.sort(compareFindings) };
}
