/** ApplicationSets evaluated offline (`fleetplan appset`) without the fleet: what the command loads unless --clusters fleet. */
export { runApplicationSets, readClusterSecrets, CLUSTER_SECRET_TYPE_LABEL } from '../api/appset.js';
export type { ApplicationSetRun, ApplicationSetRunOptions, UnmatchedClusterGenerator } from '../api/appset.js';
export { formatApplications, formatApplicationChunks, formatApplicationBytes } from '../appset/format.js';
export type { GeneratedApplication } from '../appset/applications.js';
export type { OutputFormat } from '../appset/format.js';
export type { ClusterSecret } from '../appset/types.js';
