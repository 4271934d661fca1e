/** The fleet dashboard: `fleetplan serve`. */
export { startServe, isLoopback } from '../api/serve/server.js';
export type { ServeOptions, RunningServe } from '../api/serve/server.js';
