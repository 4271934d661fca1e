/** Rendering a fleet into files, and building its leaf manifests with the real kustomize and Helm: `fleetplan render`. */
export { renderLeaves, startLeafTools } from '../api/leaves.js';
export type { RenderLeavesOptions } from '../api/leaves.js';
export { writeRenderedFleet, writeRenderedFleetWithLeaves, renderFleetLeaves, repositoryApplications, canWriteWhileResolving, resolveAndWriteFleet } from '../api/render.js';
export type { WriteRenderedOptions, FleetLeavesResult, ResolveAndWriteResult } from '../api/render.js';
export { renderFleet, renderedYamlChunks, renderedJsonChunks } from '../render/fleet.js';
export { formatLeafReport } from '../render/leaves/index.js';
export type { RenderedFile } from '../render/files.js';
export type { RenderResult, GeneratedApplications } from '../render/fleet.js';
