/**
 * fleetplan's library API: the stage functions, in data-flow order, and their types.
 *   loadFleet → resolveFleet → planFleet / planRepository, renderFleet / writeRenderedFleet,
 *   validateFleet → planBootstrap → bootstrapFleet → planPromotion
 *
 * It is the union of the entry points in src/entry/, one per area, which it re-exports. Importing
 * this module evaluates every stage; the command line (src/cli) imports the entry points it needs
 * instead, each when its command runs, and nothing else of the library (scripts/stages.mjs,
 * docs/adr/0288-lazy-command-line.md).
 */
export * from './entry/core.js';
export * from './entry/yaml.js';
export * from './entry/schema.js';
export * from './entry/fleet.js';
export * from './entry/render.js';
export * from './entry/render-leaves.js';
export * from './entry/cmp.js';
export * from './entry/appset.js';
export * from './entry/gotemplate.js';
export * from './entry/diff.js';
export * from './entry/bootstrap.js';
export * from './entry/promote.js';
export * from './entry/serve.js';
