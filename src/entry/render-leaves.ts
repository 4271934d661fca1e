/** Building a fleet's leaf manifests with the real kustomize and Helm: `fleetplan render --out DIR --leaves`. */
export { renderLeaves, startLeafTools } from '../api/leaves.js';
export type { RenderLeavesOptions } from '../api/leaves.js';
export { writeRenderedFleetWithLeaves, renderFleetLeaves } from '../api/render.js';
export type { FleetLeavesResult } from '../api/render.js';
export { formatLeafReport } from '../render/leaves/index.js';
