/**
 * Layout detection: which kind of repository this is, and the reader that turns it into a Fleet.
 * Every layout becomes the same model, so plan, render and validate work unchanged on all of them.
 */
import { InputError } from '../errors/index.js';
import type { Layout } from '../model/fleet.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { FLEET_FILE } from '../model/constants.js';
import { graphsRule } from './helmfile-flux/rules.js';
import { validatedPatternsRule } from './validated-patterns/rules.js';
import { detectGitopsStandards, loadGitopsStandards } from './gitops-standards/reader.js';
import { detectHelmfileFlux, hasHelmfile, hasKsFiles, hasKsYamlFiles, helmfileFiles, loadHelmfileFlux } from './helmfile-flux/reader.js';
import type { ClusterEntry } from './flux/reader.js';
import { clusterEntries, detectFluxClusters, fluxClustersMarkers, fluxObjectFiles, loadFluxClusters } from './flux/reader.js';
import { APPS_DIR, loadRegionSpecs, regionFiles } from './region-specs/reader.js';
import { rosaLookalike } from './rosa-regional/reader.js';
import { loadRosaRegional } from './rosa-regional/entry.js';
import { detectArgoCd, loadArgoCd, scanOf } from './argocd/reader.js';
import { jsonnetArgoFiles } from './argocd/jsonnet.js';
import type { Finding } from '../model/finding.js';
import type { LayoutReader } from './choose.js';
import type { RuleDefinition } from '../validate/index.js';
import { chooseAmong, shortList } from './choose.js';
import { nativeReader, regionSpecsDetector, rosaRegionalDetector } from './native-choice.js';
import { VP_GLOBAL_FILE, detectValidatedPatterns, groupValuesFile, hubGroupName, loadValidatedPatterns, validatedPatternsMarkers, validatedPatternsMissing } from './validated-patterns/reader.js';

export type { LayoutDetector, LayoutReader, LoadContext } from './choose.js';

export { nativeReader };

export const gitopsStandardsReader: LayoutReader = {
  layout: 'gitops-standards',
  detect: detectGitopsStandards,
  load: loadGitopsStandards,
  rules: [],
};

/** helmfile bootstrap + Flux ks.yaml (seed 003). */
export const helmfileFluxReader: LayoutReader = {
  layout: 'helmfile-flux',
  // A repository whose clusters/<name>/ holds the entry of Flux is the flux layout's when it has no
  // helmfile, or entries of several clusters (helmfile-flux reads one cluster; the flux layout then
  // reads the helmfile releases as each cluster's bootstrap) (docs/adr/0279).
  // With a helmfile and one Flux entry, each layout by its defining files (ADR 0363): the flux layout
  // when the folder the entry syncs is in the repository and there are no ks.yaml files of this layout
  // to read; helmfile-flux otherwise (its ks.yaml files, or an entry whose folder is not in the repository).
  // A helmfile with no Flux object to read beside Argo CD objects is the bootstrap of an Argo CD
  // repository: the argocd layout reads it, and the helmfile is said not read (ADR 0400).
  detect: (fs) => detectHelmfileFlux(fs) && (hasHelmfile(fs) ? helmfileFluxOverFlux(fs) !== undefined && !argoCdOverHelmfile(fs) : !detectFluxClusters(fs)),
  load: loadHelmfileFlux,
  rules: [graphsRule],
  over: (fs, other) => (other === 'flux' ? helmfileFluxOverFlux(fs) : undefined),
  // None where fleet.yaml is: the native layout reads that repository, and its helmfile is not a helmfile-flux marker.
  markers: (fs) => (!fs.exists(FLEET_FILE) && argoCdOverHelmfile(fs) ? helmfileFiles(fs) : []),
  missing: (fs) => (argoCdOverHelmfile(fs) ? 'no Flux object to read (no Flux entry, no ks.yaml under kubernetes/) and the fleet is in Argo CD objects, read as the argocd layout, which does not run helmfile bootstraps' : ''),
};

/** A helmfile bootstrap, no Flux entry or ks.yaml, and Argo CD Applications or ApplicationSets (ADR 0400). */
function argoCdOverHelmfile(fs: RepoFileSystem): boolean {
  return hasHelmfile(fs) && clusterEntries(fs).length === 0 && !hasKsFiles(fs) && detectArgoCd(fs);
}

/** The folder a Flux entry syncs (its Kustomization's spec.path), as a repository path. */
function syncedFolder(e: ClusterEntry): string {
  const spec = e.entry.obj.spec;
  const path = spec !== null && typeof spec === 'object' ? (spec as Record<string, unknown>).path : undefined;
  return (typeof path === 'string' ? path : '.').replace(/^\.\//, '').replace(/\/+$/, '') || '.';
}

/** Why helmfile-flux reads a repository that has a helmfile rather than the flux layout; undefined when it does not (ADR 0363). */
function helmfileFluxOverFlux(fs: RepoFileSystem): string | undefined {
  const entries = clusterEntries(fs);
  if (entries.length === 0) return 'there is no Flux entry';
  if (entries.length > 1) return undefined;
  if (hasKsYamlFiles(fs)) return 'it reads the ks.yaml files under kubernetes/';
  const folder = syncedFolder(entries[0]!);
  return fs.isDirectory(folder) ? undefined : `the folder its entry syncs (${folder}) is not in the repository`;
}

/** Flux multi-cluster repositories: clusters/<name>/ with the flux-system Kustomization (flux bootstrap's gotk-sync.yaml). */
export const fluxClustersReader: LayoutReader = {
  layout: 'flux',
  detect: detectFluxClusters,
  load: loadFluxClusters,
  rules: [],
  markers: fluxClustersMarkers,
};

export const regionSpecsReader: LayoutReader = {
  ...regionSpecsDetector,
  load: loadRegionSpecs,
  rules: [],
};

/** Any repository with Argo CD Applications or ApplicationSets, followed as Argo CD does (the fallback). */
export const argoCdReader: LayoutReader = {
  layout: 'argocd',
  detect: detectArgoCd,
  load: loadArgoCd,
  rules: [],
  markers: (fs) => {
    const s = scanOf(fs);
    return [...new Set([...s.objects.map((o) => o.file), ...s.argoCharts.map((c) => `${c}/Chart.yaml`)])].sort();
  },
};

/** Validated Patterns: values-global.yaml + values-<clusterGroup>.yaml for the clustergroup chart. */
export const validatedPatternsReader: LayoutReader = {
  layout: 'validated-patterns',
  detect: detectValidatedPatterns,
  markers: validatedPatternsMarkers,
  missing: validatedPatternsMissing,
  load: loadValidatedPatterns,
  rules: [validatedPatternsRule],
};

/** ROSA Regional Platform (seed 004): config.yaml environments → region deployments, rendered deploy/ ApplicationSets. */
export const rosaRegionalReader: LayoutReader = {
  ...rosaRegionalDetector,
  load: loadRosaRegional,
  rules: [],
};

/**
 * Readers in detection order: the native layout wins when fleet.yaml exists; the specific layouts
 * next; the argocd reader last, for every other repository with Argo CD objects.
 */
export const readers: LayoutReader[] = [nativeReader, gitopsStandardsReader, regionSpecsReader, helmfileFluxReader, fluxClustersReader, validatedPatternsReader, rosaRegionalReader, argoCdReader];

/** The layouts' own rules, every layout's (each checks that the fleet is of its layout). */
export const layoutRules: readonly RuleDefinition[] = readers.flatMap((r) => r.rules);

export function detectLayout(fs: RepoFileSystem): LayoutReader {
  return chooseLayout(fs).reader;
}

/**
 * The layout of a repository and why (docs/adr/0196-honest-layout-detection.md): the first reader
 * in `readers` whose defining files are there, and `info` findings that say which was chosen, which
 * other layouts have markers in the repository and why they were not used. Throws InputError naming
 * what was found and what was expected when no reader takes the repository.
 */
export function chooseLayout(fs: RepoFileSystem): { reader: LayoutReader; findings: Finding[] } {
  const chosen = chooseAmong(fs, readers);
  if (chosen) return chosen;
  const seen = lookalike(fs);
  throw new InputError(`${fs.root} is not a fleet repository${seen ? `: ${seen.what}` : ''}`, {
    code: 'no-fleet',
    hint: `${seen ? `${seen.hint}; ` : ''}no ${FLEET_FILE}, no other known layout and no Argo CD Application or ApplicationSet found; pass --repo DIR or create a fleet with \`fleetplan init\``,
  });
}

/** What a folder that no reader takes looks like, so that the message can say why it is not read. */
function lookalike(fs: RepoFileSystem): { what: string; hint: string } | undefined {
  const regions = regionFiles(fs);
  if (regions.length > 0) {
    return { what: `it has region specs (${shortList(regions)}) but ${regionSpecsReader.missing!(fs)}`, hint: `the region-specs layout reads ${APPS_DIR}/ with the region specs` };
  }
  if (fs.exists(VP_GLOBAL_FILE)) {
    const hub = hubGroupName(fs);
    return hub === undefined
      ? { what: `${VP_GLOBAL_FILE} has no main.clusterGroupName`, hint: 'a Validated Patterns repository names its hub cluster group in main.clusterGroupName' }
      : { what: `${VP_GLOBAL_FILE} names cluster group ${hub}, but ${groupValuesFile(hub)} does not exist`, hint: `add ${groupValuesFile(hub)} with the group's clusterGroup values` };
  }
  const pattern = validatedPatternsMarkers(fs);
  if (pattern.length > 0) {
    return { what: `it has a Validated Pattern's cluster group values (${shortList(pattern)}) but ${validatedPatternsMissing(fs)}`, hint: `a Validated Patterns repository commits ${VP_GLOBAL_FILE} with main.clusterGroupName and values-<group>.yaml` };
  }
  const rosa = rosaLookalike(fs);
  if (rosa) return rosa;
  if (fs.exists('Chart.yaml')) {
    let name = '';
    try {
      const m = /^name:\s*["']?([^"'\s#]+)/m.exec(fs.readText('Chart.yaml'));
      name = m?.[1] ?? '';
    } catch {
      // unreadable: still a chart by its file name
    }
    return {
      what: `it looks like a Helm chart${name ? ` (Chart.yaml: ${name})` : ''}`,
      hint: name === 'clustergroup'
        ? 'the Validated Patterns clustergroup chart is what a pattern repository uses, not a fleet: pass --repo a pattern repository (values-global.yaml + values-<group>.yaml)'
        : 'a chart is an app of a fleet: pass --repo the repository that deploys it'
    };
  }
  const jsonnet = jsonnetArgoFiles(fs);
  if (jsonnet.length > 0) {
    return {
      what: `its Argo CD objects are written in Jsonnet (${shortList(jsonnet)}), and no Application or ApplicationSet in a YAML file evaluates them`,
      hint: 'fleetplan follows Jsonnet that an Application\'s directory source evaluates (ADR 0318), starting from Applications in YAML files; it does not guess which Jsonnet file a person evaluates and applies by hand: apply the root as an Application (a YAML file whose source is the Jsonnet folder)',
    };
  }
  const below = fleetsBelow(fs);
  if (below.length > 0) {
    return {
      what: `its folder${below.length === 1 ? '' : 's'} ${below.map((b) => `${b.dir} (${b.layout})`).join(', ')} ${below.length === 1 ? 'is a fleet repository' : 'are fleet repositories'}`,
      hint: `pass --repo ${fs.root}/${below[0]!.dir}`,
    };
  }
  const flux = fluxObjectFiles(fs);
  if (flux.length > 0) {
    return {
      what: `it has Flux objects (${shortList(flux)}) but no Flux entry: no flux-system Kustomization (flux bootstrap's gotk-sync.yaml), no FluxInstance sync, no clusters/<name>/ with Flux Kustomizations`,
      hint: 'Flux objects without an entry are what a fleet\'s GitRepository or OCIRepository points at (a component or tenant repository): pass --repo the fleet repository that syncs them, or add the flux-system Kustomization that flux bootstrap writes',
    };
  }
  return undefined;
}

/** Direct subfolders that a reader recognizes (e.g. a folder of repository snapshots). */
function fleetsBelow(fs: RepoFileSystem): { dir: string; layout: Layout }[] {
  const out: { dir: string; layout: Layout }[] = [];
  for (const name of fs.list('.')) {
    if (name.startsWith('.') || !fs.isDirectory(name)) continue;
    const sub = subtree(fs, name);
    const r = readers.find((x) => x.detect(sub));
    if (r) out.push({ dir: name, layout: r.layout });
  }
  return out;
}

function subtree(fs: RepoFileSystem, dir: string): RepoFileSystem {
  const p = (path: string) => (path === '.' || path === '' ? dir : `${dir}/${path}`);
  return {
    root: `${fs.root}/${dir}`,
    readText: (path) => fs.readText(p(path)),
    exists: (path) => fs.exists(p(path)),
    isDirectory: (path) => fs.isDirectory(p(path)),
    list: (path) => fs.list(p(path)),
  };
}
