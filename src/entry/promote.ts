/** 8 promote: pinning a sector to a commit: `fleetplan promote`. */
export { planPromotion, formatPromotion, setSectorRevision } from '../promote/index.js';
export type { Promotion, PromotionRequest } from '../promote/index.js';
