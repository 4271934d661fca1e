/** What a change does to each cluster: `fleetplan diff`, `validate --base`, `promote --dry-run`. */
export { diffFleet, diffPromotion, validateAgainstBase } from '../api/diff.js';
export type { DiffOptions, DiffLeavesOptions, PromotionDiffOptions, BaseFindingsOptions } from '../api/diff.js';
export { diffText, diffJson, diffMarkdown, diffHtml, formatDiff, hasChanges, diffFindings, MARKDOWN_LIMIT } from '../diff/index.js';
export type { FleetDiff, ClusterDiff, ClusterStatus, ObjectDiff, FieldChange, OrderChange, LeafDiff, FindingsDelta, DiffRevision, DiffFormat, DiffPalette, ChangeCounts } from '../diff/index.js';
