/**
 * Leaf rendering: every Application source of every cluster built with the real kustomize or
 * Helm, substituted strictly with the cluster's variables, written as one file per object under
 * `OUT/<cluster>/manifests/<app>/` (see docs/adr/0050-leaf-rendering.md).
 *
 * `renderLeafJobs` is the pipeline over ports (tools, reader, cache, writer); src/api/leaves.ts
 * wires the node adapters into it.
 */
export type { LeafJob, LeafResult, LeafSource, LeafStats, LeafPorts, RenderLeavesResult } from './render.js';
export { renderLeafJobs, KUSTOMIZE_BUILD_FLAGS } from './render.js';
export { formatLeafReport } from './report.js';
