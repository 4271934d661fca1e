/**
 * Stage 3, generate (phase 2 of seed 000): the self-referencing objects of a cluster whose fleet
 * names an internal Git service (`gitops.mirror`). Pure.
 *
 * In phase 2 Argo CD reads the fleet repository from the mirror: every generated source whose
 * repoURL is the fleet repository reads the mirror's URL instead (sources elsewhere, a Helm chart
 * repository, stay), the AppProjects also permit the mirror, and the root Application reads
 * `<renderedPath>/<cluster>/phase-2` from the mirror. Both trees live in the same commit: the
 * phase-1 root reads `<cluster>/{apps,projects}/*.yaml` only, so it never sees the phase-2 tree
 * (docs/adr/0236-phase-two-tree.md).
 */
import type { Fleet, FleetMirror } from '../model/fleet.js';
import type { K8sObject } from '../model/k8s.js';
import type { ResolvedCluster } from '../model/resolved.js';
import { sameRepository } from '../model/git-url.js';
import { applicationFor, projectsFor, renderedClusterPath, rootApplication } from './argocd.js';
import { selfManaged, selfManagedApplication } from './argocd-self.js';

/** The folder of the phase-2 tree under `<renderedPath>/<cluster>/`. */
export const PHASE_TWO_DIR = 'phase-2';

/** The repository path the phase-2 root Application reads. */
export function phaseTwoPath(fleet: Fleet, cluster: string): string {
  return `${renderedClusterPath(fleet, cluster)}/${PHASE_TWO_DIR}`;
}

/**
 * The branch the cluster's revision is pushed to: the mirror's `branch`, else the revision when
 * it names a branch, else `main` (a commit or HEAD names none).
 */
export function mirrorBranch(mirror: FleetMirror, cluster: ResolvedCluster): string {
  if (mirror.branch) return mirror.branch;
  const rev = cluster.revision.replace(/^refs\/heads\//, '');
  if (rev === 'HEAD' || /^[0-9a-f]{7,40}$/.test(rev) || rev.startsWith('refs/')) return 'main';
  return rev;
}

export interface PhaseTwoObjects {
  /** The root Application reading the phase-2 tree from the mirror. */
  root: K8sObject;
  /** The cluster's Applications as phase 2 has them (every one, switched or not), by app name. */
  applications: Array<{ app: string; object: K8sObject; switched: boolean }>;
  projects: K8sObject[];
  /**
   * Argo CD's own Application (gitops-self, ADR 0240) reading the mirror, when the fleet has it:
   * in the phase-2 tree (else the phase-2 root would prune it) and switched by `fleetplan mirror`
   * with the others (else it moves only when the root syncs).
   */
  self?: K8sObject;
}

export function phaseTwoObjects(fleet: Fleet, mirror: FleetMirror, cluster: ResolvedCluster): PhaseTwoObjects {
  const from = fleet.repoURL;
  const to = mirror.url;
  const base = rootApplication(fleet, cluster);
  const rootSpec = base.spec as { source: Record<string, unknown> };
  const root: K8sObject = { ...base, spec: { ...(base.spec as object), source: { ...rootSpec.source, repoURL: to, path: phaseTwoPath(fleet, cluster.name) } } };
  const applications = cluster.apps.map((app) => {
    const object = applicationFor(cluster, app, fleet.plugin);
    const switched = switchSources(object, from, to);
    return { app: app.name, object: switched ?? object, switched: switched !== undefined };
  });
  const projects = projectsFor(fleet, cluster).map((p) => permitMirror(p, from, to));
  if (!selfManaged(fleet)) return { root, applications, projects };
  const self = selfManagedApplication(fleet, cluster);
  return { root, applications, projects, self: switchSources(self, from, to) ?? self };
}

/** The Application with every source reading `from` reading `to`; undefined when none does. */
export function switchSources(app: K8sObject, from: string, to: string): K8sObject | undefined {
  const spec = app.spec as { source?: { repoURL?: string }; sources?: Array<{ repoURL?: string }> } | undefined;
  if (!spec) return undefined;
  let changed = false;
  const swap = <T extends { repoURL?: string }>(s: T): T => {
    if (s.repoURL !== undefined && sameRepository(s.repoURL, from)) {
      changed = true;
      return { ...s, repoURL: to };
    }
    return s;
  };
  const next: Record<string, unknown> = { ...spec };
  if (spec.source) next.source = swap(spec.source);
  if (Array.isArray(spec.sources)) next.sources = spec.sources.map(swap);
  return changed ? { ...app, spec: next } : undefined;
}

/** An AppProject that permits the fleet repository also permits the mirror (both, so the switch can go either way). */
function permitMirror(project: K8sObject, from: string, to: string): K8sObject {
  const spec = project.spec as { sourceRepos?: string[] } | undefined;
  const repos = spec?.sourceRepos;
  if (!repos || repos.includes('*') || repos.includes(to) || !repos.some((r) => sameRepository(r, from))) return project;
  return { ...project, spec: { ...(spec as object), sourceRepos: [...repos, to] } };
}

