/**
 * Stage diff (after validate): what a change does to each cluster of a fleet.
 *
 * Input: each cluster as it is on the two sides of the change (ClusterSide: the objects it gets,
 * its apps' waves and needs, its bootstrap steps, optionally its leaf manifests), and the
 * findings of each side. Output: a FleetDiff — per cluster added / removed / changed /
 * unchanged / pinned, objects field by field, order changes, leaf unified diffs; the findings
 * introduced and fixed — and its text, JSON, Markdown and HTML forms. Pure: reading the two revisions
 * through git, rendering and building leaves are the caller's (src/api/diff.ts).
 * Decisions: docs/adr/0225-fleetplan-diff.md.
 */
export type { ChangeCounts, ChangeKind, ClusterDiff, ClusterStatus, DiffRevision, FieldChange, FindingsDelta, FleetDiff, LeafDiff, ObjectDiff, OrderChange } from './types.js';
export { diffCluster, diffObjects, diffOrder, diffLeaves, countChanges } from './cluster.js';
export type { ClusterSide } from './cluster.js';
export { diffFields, showField, showValue } from './fields.js';
export { diffFindings } from './findings.js';
export { unifiedDiff } from './lines.js';
export { redactPair, REDACTED, REDACTED_CHANGED } from './redact.js';
export { HELMFILE_API, HELMFILE_CRDS, HELMFILE_RELEASE } from './helmfile.js';
export { helmfileReleaseEntries, helmfileReleaseEntry } from './helmfile-entries.js';
export { diffText, diffJson, diffMarkdown, formatDiff, hasChanges, revisionLabel, MARKDOWN_LIMIT, NO_COLOR } from './format.js';
export type { DiffFormat, DiffPalette, MarkdownOptions } from './format.js';
export { diffHtml, clusterAnchor, escapeHtml } from './html.js';
