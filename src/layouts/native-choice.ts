/**
 * Choosing the layout of a repository with fleet.yaml without loading the other layouts' readers
 * (docs/adr/0397-render-out-lazy-layout-readers.md). The native layout comes first in detection
 * order, so for such a repository choosing asks the other layouts only for their markers, and
 * whether a layout with markers is there or what it misses. `nativeDetectors` are the layouts of
 * ./index.ts `readers`, in the same order, as they answer for a repository with fleet.yaml: the
 * region-specs and rosa-regional layouts with their own functions (small modules, which ./index.ts
 * uses too), the flux layout with no markers (clusterEntries reads no entry where fleet.yaml is),
 * and the layouts without markers with nothing, since nothing asks them.
 * test/layouts/native-choice.test.ts checks both lists against each other.
 */
import { loadNativeFleet } from '../load/native.js';
import type { Layout } from '../model/fleet.js';
import { FLEET_FILE } from '../model/constants.js';
import type { Finding } from '../model/finding.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { LayoutDetector, LayoutReader } from './choose.js';
import { chooseAmong } from './choose.js';
import { APPS_DIR, detectRegionSpecs, regionFiles } from './region-specs/reader.js';
import { rosaLookalike, rosaMarkers } from './rosa-regional/reader.js';
import { detectRosaRegional } from './rosa-regional/entry.js';

export const nativeReader: LayoutReader = {
  layout: 'native',
  detect: (fs) => fs.exists(FLEET_FILE),
  load: loadNativeFleet,
  rules: [],
};

export const regionSpecsDetector = {
  layout: 'region-specs',
  detect: detectRegionSpecs,
  markers: regionFiles,
  missing: (fs: RepoFileSystem) => (fs.isDirectory(APPS_DIR) ? '' : `no ${APPS_DIR}/ folder (the Applications and ApplicationSets the region specs are generated into)`),
} satisfies LayoutDetector;

/** ROSA Regional Platform (seed 004): config.yaml environments → region deployments, rendered deploy/ ApplicationSets. */
export const rosaRegionalDetector = {
  layout: 'rosa-regional',
  detect: detectRosaRegional,
  markers: rosaMarkers,
  missing: (fs: RepoFileSystem) => rosaLookalike(fs)?.what ?? '',
} satisfies LayoutDetector;

/** A layout that a repository with fleet.yaml never asks (no markers, and the native layout comes first). */
const notAsked = (layout: Layout): LayoutDetector => ({
  layout,
  detect: () => {
    throw new Error(`the ${layout} layout was asked whether it reads a repository with ${FLEET_FILE}: choose among every reader (src/layouts/index.ts)`);
  },
});

/** ./index.ts `readers`, in order, as they answer for a repository with fleet.yaml. */
export const nativeDetectors: readonly LayoutDetector[] = [
  nativeReader,
  notAsked('gitops-standards'),
  regionSpecsDetector,
  // helmfile-flux's markers are a helmfile beside Argo CD objects, and it gives none where fleet.yaml is.
  { ...notAsked('helmfile-flux'), markers: () => [] },
  // The flux layout's markers are its cluster entries, and clusterEntries reads none where fleet.yaml is.
  { ...notAsked('flux'), markers: () => [] },
  // A pattern's markers are none where fleet.yaml is (validatedPatternsMarkers).
  { ...notAsked('validated-patterns'), markers: () => [] },
  rosaRegionalDetector,
  // The argocd reader is the general one: choosing never lists its markers for another layout.
  notAsked('argocd'),
];

/**
 * The native reader and the findings ./index.ts `chooseLayout` gives for a repository with
 * fleet.yaml; undefined for any other repository (then choose among every reader).
 */
export function chooseNativeLayout(fs: RepoFileSystem): { reader: LayoutReader; findings: Finding[] } | undefined {
  if (!nativeReader.detect(fs)) return undefined;
  const chosen = chooseAmong(fs, nativeDetectors);
  return chosen && { reader: nativeReader, findings: chosen.findings };
}
