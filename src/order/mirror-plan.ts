/**
 * Stage 4, order (phase 2 of seed 000): what `fleetplan mirror` does on one cluster, as data.
 * Pure. Run by src/apply/mirror.ts.
 *
 *   mirror-ready   the app that deploys the internal Git service is Synced and Healthy, and the
 *                  push credentials exist (the Secret, or the ExternalSecret Ready and its Secret)
 *   mirror-push    the cluster's revision pushed with real git to the mirror's branch
 *   mirror-switch  server-side apply: the AppProjects (permit the mirror), the root Application
 *                  (reads <renderedPath>/<cluster>/phase-2 from the mirror), every Application whose
 *                  source is the fleet repository (reads the mirror)
 *   mirror-synced  each of those Applications Synced, compared to a source at the mirror's URL
 */
import type { Fleet, FleetMirror } from '../model/fleet.js';
import type { K8sObject } from '../model/k8s.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { PlanStage } from '../model/plan.js';
import { formatRef } from '../errors/index.js';
import { mirrorBranch, phaseTwoObjects, phaseTwoPath } from '../generate/mirror.js';

export interface MirrorPlan {
  cluster: string;
  gitopsNamespace: string;
  /** The URL Argo CD reads in phase 2. */
  url: string;
  /** The URL fleetplan pushes to. */
  pushURL: string;
  branch: string;
  /** The cluster's revision (branch, tag, commit or HEAD) in the fleet repository, pushed as it resolves locally. */
  revision: string;
  /** The app deploying the Git service. */
  app: string;
  credentials: FleetMirror['credentials'];
  /** The repository path of the phase-2 tree; the pushed commit must hold it. */
  phaseTwoPath: string;
  /** Applied in this order: AppProjects, the root Application, the switched Applications. */
  objects: K8sObject[];
  /** Names of the Applications awaited Synced from `url` (the root first). */
  awaited: string[];
  /** Reasons the cluster cannot go to phase 2 (the run stops before anything is pushed). */
  problems: string[];
}

/** The phase-2 plan of a cluster; undefined when its fleet has no mirror. */
export function planMirror(fleet: Fleet, cluster: ResolvedCluster): MirrorPlan | undefined {
  const mirror = fleet.mirror;
  if (!mirror) return undefined;
  const problems: string[] = [];
  if (fleet.engine !== 'argocd' || fleet.delivery !== 'app-of-apps' || !fleet.capabilities.bootstrap) {
    problems.push(`gitops.mirror needs an Argo CD app-of-apps fleet (this one: engine ${fleet.engine}, delivery ${fleet.delivery})`);
  }
  if (!cluster.apps.some((a) => a.name === mirror.app)) {
    problems.push(`gitops.mirror.app "${mirror.app}" is not an app of cluster ${cluster.name}: nothing deploys its internal Git service`);
  }
  const two = phaseTwoObjects(fleet, mirror, cluster);
  // Argo CD's own Application moves with the fleet's (same apply, same field manager), not only when the root syncs.
  const switched = [...two.applications.filter((a) => a.switched).map((a) => a.object), ...(two.self ? [two.self] : [])];
  return {
    cluster: cluster.name,
    gitopsNamespace: cluster.gitopsNamespace,
    url: mirror.url,
    pushURL: mirror.pushURL,
    branch: mirrorBranch(mirror, cluster),
    revision: cluster.revision,
    app: mirror.app,
    credentials: mirror.credentials,
    phaseTwoPath: phaseTwoPath(fleet, cluster.name),
    objects: [...two.projects, two.root, ...switched],
    awaited: [two.root.metadata.name, ...switched.map((o) => o.metadata.name)],
    problems,
  };
}

export function credentialsText(c: FleetMirror['credentials']): string {
  return c.kind === 'Secret' ? `Secret ${c.namespace}/${c.name}` : `ExternalSecret ${c.namespace}/${c.name} (its target Secret)`;
}

/** The phase-2 stages, for plans (`phase: 2`). */
export function mirrorPlanStages(plan: MirrorPlan): PlanStage[] {
  const creds = credentialsText(plan.credentials);
  const push = plan.pushURL === plan.url ? plan.url : `${plan.pushURL} (read in the cluster as ${plan.url})`;
  return [
    {
      name: 'mirror-ready',
      description: `the internal Git service (app ${plan.app}) is up and the push credentials exist`,
      objects: [],
      files: [],
      wait: [`Application ${plan.app} Synced and Healthy`, `${creds} exists${plan.credentials.kind === 'ExternalSecret' ? ' (ExternalSecret Ready)' : ''}`],
      notes: plan.problems,
    },
    {
      name: 'mirror-push',
      description: `git push revision ${plan.revision} to ${push}, branch ${plan.branch} (credentials from ${creds})`,
      objects: [],
      files: [],
      wait: [],
      notes: [`the pushed commit must hold ${plan.phaseTwoPath} (fleetplan render --phase 2 --out ${plan.phaseTwoPath.split('/').slice(0, -2).join('/') || '.'})`],
    },
    {
      name: 'mirror-switch',
      description: `server-side apply: the root Application reads ${plan.phaseTwoPath} and ${plan.awaited.length - 1} Application(s) read ${plan.url}`,
      objects: plan.objects.map((o) => formatRef(o)),
      files: [],
      wait: [],
      notes: [],
    },
    {
      name: 'mirror-synced',
      description: `Argo CD reads ${plan.url}`,
      objects: [],
      files: [],
      wait: plan.awaited.map((n) => `Application ${n} Synced from ${plan.url}`),
      notes: [],
    },
  ].map((s) => ({ ...s, phase: 2 as const }));
}
