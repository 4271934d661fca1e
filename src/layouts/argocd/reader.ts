/**
 * The argocd layout: any repository with Argo CD objects, read as Argo CD reads it
 * (docs/adr/0197-argocd-layout.md). It is the fallback for every repository that has
 * Applications or ApplicationSets and no more specific layout; the specific layouts are exact,
 * faster shortcuts of it and must agree with it (test/layouts/argocd-agreement.test.ts).
 *
 * `load` is static and cheap: it finds the objects and fixes the fleet's identity (repoURL and
 * revision from the repository's own Applications). `complete` follows the roots with the real
 * tools (follow.ts) and fills in the clusters; until it has run the fleet has none, and says so.
 */
import type { Finding } from '../../model/finding.js';
import type { Fleet, FleetCapabilities } from '../../model/fleet.js';
import type { Platform } from '../../model/spec.js';
import { emptyFleet } from '../../model/fleet.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { LoadResult, LoadTools } from '../../load/native.js';
import { FLEET_FILE } from '../../model/constants.js';
import { ArgoFollower, sourcesOf } from './follow.js';
import type { AppOrigin } from './follow.js';
import type { YamlPath } from '../../model/source.js';
import type { RepoScan } from './scan.js';
import { scanRepository } from './scan.js';
import { addOciSourceNotes } from './oci-notes.js';
import { isServerURL, placeholderRepoURL, sameRepository } from '../../model/git-url.js';

/**
 * The repository's own Argo CD objects are the configuration, and fleetplan does not bootstrap it:
 * the roots are whatever the repository applies (plan names them), not a root Application of
 * fleetplan's.
 */
// Argo CD substitutes no variables into Applications or into what it builds (ADR 0218's variables
// are fleetplan's own layouts'): neither app fields nor leaves get any here.
export const ARGOCD_CAPABILITIES: FleetCapabilities = { bootstrap: false, renderRepositoryObjects: false, repositoryArgoConfig: true, promote: false, leafVariables: false, appVariables: false, applicationNamesJudged: true, chooseRoots: true, applyTimePaths: true };

const scans = new WeakMap<RepoFileSystem, RepoScan>();

/** The static scan of a repository, once per file system object (detection and loading both ask). */
export function scanOf(fs: RepoFileSystem): RepoScan {
  let s = scans.get(fs);
  if (!s) scans.set(fs, (s = scanRepository(fs)));
  return s;
}

/** Any argoproj.io Application or ApplicationSet in a plain file, or a Helm chart that writes one. */
export function detectArgoCd(fs: RepoFileSystem): boolean {
  if (fs.exists(FLEET_FILE)) return false;
  const s = scanOf(fs);
  return s.objects.length > 0 || s.argoCharts.length > 0;
}

/** The most frequent value (ties: the first seen), or undefined. */
function mostCommon(values: readonly string[]): string | undefined {
  const n = new Map<string, number>();
  for (const v of values) n.set(v, (n.get(v) ?? 0) + 1);
  let best: string | undefined;
  for (const [v, c] of n) if (best === undefined || c > n.get(best)!) best = v;
  return best;
}

/**
 * The platform, as the repository's own Argo CD objects say it (ADR 0306): OpenShift GitOps keeps
 * its Applications in `openshift-gitops`, so a repository whose Applications and ApplicationSets
 * live there (most of them) is OpenShift; any other namespace (upstream Argo CD's `argocd`), or
 * none, is read as Kubernetes. A fleet.yaml-less repository says nothing else about its platform.
 */
function platformOf(objects: readonly { kind: string; namespace: string | undefined }[]): Platform {
  const ns = mostCommon(objects.filter((o) => o.kind === 'Application' || o.kind === 'ApplicationSet').flatMap((o) => (o.namespace ? [o.namespace] : [])));
  return ns === 'openshift-gitops' ? 'openshift' : 'kubernetes';
}

/**
 * Each app's origin at its Application's file and line (ADR 0323): the apps live in the cluster
 * definitions (`spec.apps.<name>` of the cluster's root file), so a view of that file maps each
 * app's path to the file and line where its Application (or the ApplicationSet generating it) is
 * written. A name that two clusters sharing the file place differently, or one with no known
 * place, gets no line (line 0: locateOrigin then names the file only).
 */
function addAppOrigins(fleet: Fleet, origins: ReadonlyMap<string, ReadonlyMap<string, AppOrigin>>): void {
  const byFile = new Map<string, Map<string, AppOrigin | null>>();
  for (const c of fleet.clusters) {
    let m = byFile.get(c.file);
    if (!m) byFile.set(c.file, (m = new Map()));
    for (const name of Object.keys(c.spec.apps ?? {})) {
      const at = origins.get(c.name)?.get(name);
      const known = m.get(name);
      if (known === undefined) m.set(name, at ?? null);
      else if (known === null || at === undefined || known.file !== at.file || known.line !== at.line) m.set(name, null);
    }
  }
  for (const [file, m] of byFile) {
    if (fleet.sources.has(file)) continue;
    const placeOf = (path: YamlPath): AppOrigin | undefined => (path[0] === 'spec' && path[1] === 'apps' && typeof path[2] === 'string' ? (m.get(path[2]) ?? undefined) : undefined);
    fleet.sources.set(file, {
      file,
      value: undefined,
      locate: (path) => {
        const at = placeOf(path);
        return at ? { line: at.line, column: 1 } : { line: 0, column: 0 };
      },
      displayPath: (path) => (placeOf(path) ? ['metadata', 'name'] : path),
      fileOf: (path) => placeOf(path)?.file,
    });
  }
}

export function loadArgoCd(fs: RepoFileSystem): LoadResult {
  const scan = scanOf(fs);
  const findings: Finding[] = [...scan.findings];
  // The repository's identity as its own Applications state it: the repoURL and targetRevision of
  // the sources whose path exists here (an external chart or repository says nothing about this one).
  const own = scan.objects
    .filter((o) => o.kind === 'Application')
    .flatMap((o) => sourcesOf(o.doc))
    .filter((s) => typeof s.repoURL === 'string' && !s.repoURL.startsWith('oci://') && placeholderRepoURL(s.repoURL) === undefined && s.chart === undefined && typeof s.path === 'string' && s.path !== '' && fs.exists(s.path));
  const platform = platformOf(scan.objects);
  const fleet: Fleet = {
    ...emptyFleet(fs.root, 'argocd', ARGOCD_CAPABILITIES),
    platform,
    name: (fs.root.split('/').filter(Boolean).pop() ?? 'argocd').toLowerCase().replace(/[^a-z0-9-]/g, '-'),
    file: scan.objects[0]?.file ?? scan.argoCharts[0] ?? '',
    repoURL: mostCommon(own.map((s) => String(s.repoURL))) ?? '',
    revision: mostCommon(own.map((s) => (typeof s.targetRevision === 'string' && s.targetRevision !== '' ? s.targetRevision : 'HEAD'))) ?? '',
    gitopsNamespace: undefined,
    clusters: [],
    loadFindings: findings,
    conventions: { syncWaveAnnotation: 'as-given', objectNamespace: true, projects: 'from-layers' },
    manifestFiles: [...new Set(scan.objects.map((o) => o.file))].sort(),
  };
  const result: LoadResult = { fleet, findings };
  result.complete = async (tools: LoadTools) => {
    const follower = new ArgoFollower(fs, scan, tools);
    await follower.follow(fleet);
    for (const f of follower.findings) {
      findings.push(f);
      if (fleet.loadFindings !== findings) fleet.loadFindings.push(f);
    }
    fleet.file = fleet.clusters[0]?.file ?? fleet.file;
    // The follower takes the clone's origin for this repository; when some Application names that
    // URL, the fleet's identity is it too, so render --leaves builds the same sources the plan
    // followed (a fork whose Applications name the upstream and the fork: the fork's sources are here).
    const originURL = tools.origin.url;
    if (isServerURL(originURL) && !sameRepository(fleet.repoURL, originURL)) {
      const atOrigin = own.filter((s) => sameRepository(String(s.repoURL), originURL));
      if (atOrigin.length > 0) {
        fleet.repoURL = mostCommon(atOrigin.map((s) => String(s.repoURL)))!;
        fleet.revision = mostCommon(atOrigin.map((s) => (typeof s.targetRevision === 'string' && s.targetRevision !== '' ? s.targetRevision : 'HEAD')))!;
      }
    }
    addAppOrigins(fleet, follower.origins);
    for (const c of fleet.clusters) {
      const roots = follower.roots.get(c.name);
      // Guessed roots say so and how to choose them: unrelated examples guessed as roots of one
      // Argo CD conflict (duplicate apps, shared objects) although nobody applies them together (ADR 0345).
      const how = follower.rootsGiven ? 'given with --root, applied by hand to this cluster, which runs Argo CD' : 'guessed: the Argo CD objects no other object applies, applied by hand to this cluster, which runs Argo CD; --root FILE chooses them';
      if (roots) c.notes = [`roots (${how}): ${roots.join('; ')}`, ...(c.notes ?? [])];
    }
    addOciSourceNotes(fleet);
    if (fleet.clusters.every((c) => Object.keys(c.spec.apps ?? {}).length === 0)) {
      findings.push({
        severity: 'warning',
        code: 'no-applications',
        message: `no Application reaches any cluster: found ${scan.objects.length} Argo CD object(s) and ${scan.argoCharts.length} chart(s) writing them, and following them from the roots gave none (see the notes and findings for why)`,
        hint: 'check the roots the plan names, the ApplicationSets\' generators, and --clusters',
      });
    }
  };
  return result;
}
