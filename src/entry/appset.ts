/** ApplicationSets evaluated offline: `fleetplan appset`. */
export * from './appset-run.js';
export { fleetIdentitySecrets } from '../api/appset-fleet.js';
