/**
 * The composition root for reading a fleet: the node file system and every layout reader wired
 * into the load stage (./load-core.ts holds the wiring, and `loadFleetAsync`, which imports the
 * readers other than the native one only when a repository needs them). ./fleet.ts re-exports it
 * with the validate stage's wiring; this part stands alone so that `plan` and `render` do not load
 * the rules (ADR 0351). Stages never import adapters or layouts; the modules of src/api are where
 * they meet (docs/adr/0180-stage-imports.md).
 */
import { nodeFileSystem } from '../adapters/node-fs.js';
import { chooseLayout, readers } from '../layouts/index.js';
import type { LoadResult } from '../load/native.js';
import type { LoadOptions } from './load-core.js';
import { loadWith } from './load-core.js';

export { completeLoad, loadFleetAsync } from './load-core.js';
export type { CompleteLoadOptions, LoadOptions } from './load-core.js';

/**
 * Reads a fleet repository in any layout fleetplan knows. Throws InputError when there is none.
 * The layout's choice is explained in `info` findings when the repository has markers of several;
 * a repoURL or revision the repository does not state comes from the clone's origin remote and
 * branch (load/repository-origin.ts). A reader may leave work for the real tools: run
 * `completeLoad` before using the fleet (the CLI does).
 */
export function loadFleet(root: string, options: LoadOptions = {}): LoadResult {
  return loadWith(options.fs ?? nodeFileSystem(root), options, { readers, chooseLayout });
}
