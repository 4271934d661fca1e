/** Argo CD config-management-plugin entry points: `fleetplan cmp discover|generate`. */
export { discoverKustomization, generateCmpManifests } from '../render/leaves/cmp.js';
