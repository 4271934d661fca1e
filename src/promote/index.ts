/**
 * Stage 8, promote: revision pins across sectors.
 *
 * `planPromotion` decides (pure, given a RevisionSource): the sector, its old and new revision,
 * and the clusters that move. `setSectorRevision` is the text edit of fleet.yaml that carries it
 * out, leaving every other byte as it was. Reading and writing the file, and asking git, are the
 * caller's (the CLI's adapters).
 */
export { planPromotion, formatPromotion, FULL_SHA } from './plan.js';
export type { Promotion, PromotionRequest } from './plan.js';
export { setSectorRevision } from './edit.js';
