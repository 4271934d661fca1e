/**
 * Rendering a fleet into files or one stream: `fleetplan render`. Building leaf manifests with the
 * real kustomize and Helm (`render --leaves`) is ./render-leaves.ts, which the command line imports
 * only when it builds them (docs/adr/0417-render-out-loads-no-leaf-modules.md).
 */
export { writeRenderedFleet, repositoryApplications, canWriteWhileResolving, resolveAndWriteFleet } from '../api/render.js';
export type { WriteRenderedOptions, ResolveAndWriteResult } from '../api/render.js';
export { renderFleet, renderedYamlChunks, renderedJsonChunks } from '../render/fleet.js';
export type { RenderedFile } from '../render/files.js';
export type { RenderResult, GeneratedApplications } from '../render/fleet.js';
