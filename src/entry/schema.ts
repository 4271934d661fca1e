/** The JSON Schemas of the fleet's own files (Fleet, Cluster, Group): `fleetplan schema`. */
export { schemas, KINDS } from '../load/schemas.js';
