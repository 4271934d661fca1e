/**
 * What `fleetplan diff` needs on every run: the diff and its text, JSON and Markdown forms. The
 * HTML report (./diff.ts diffHtml) is imported only for `-o html`, so that a warm diff does not
 * load it (docs/adr/0354-diff-leaves-skip-unchanged.md).
 */
export { diffFleet } from '../api/diff.js';
export type { DiffLeavesOptions } from '../api/diff.js';
export { formatDiff, hasChanges } from '../diff/format.js';
export type { DiffPalette } from '../diff/format.js';
