/** 7 apply: bootstrapping clusters and phase 2, the internal Git service: `fleetplan bootstrap`, `mirror`. */
export { bootstrapHelmfile } from '../api/helmfile-bootstrap.js';
export type { HelmfileBootstrapOptions } from '../api/helmfile-bootstrap.js';
export { formatHelmfileDryRun } from '../apply/helmfile-dry-run.js';
export { ChangeSet } from '../apply/change-set.js';
export { executeBootstrap, BootstrapTimeoutError, DEFAULT_TIMEOUT_MS, formatDuration } from '../apply/executor.js';
export { bootstrapFleet } from '../apply/fleet.js';
export type { BootstrapResult } from '../apply/change-set.js';
export type { BootstrapEvent, Reporter } from '../apply/events.js';
export type { ExecuteOptions } from '../apply/executor.js';
export type { AfterBootstrap, ClusterRun, ClusterOutcome, FleetPorts } from '../apply/fleet.js';
export { planMirror } from '../order/mirror-plan.js';
export type { MirrorPlan } from '../order/mirror-plan.js';
export { runMirror, expectedPhaseTwoFiles, MirrorNotReadyError, MirrorTimeoutError } from '../apply/mirror.js';
export type { MirrorOptions, MirrorResult } from '../apply/mirror.js';
export type { MirrorGit, GitCredentials } from '../ports/mirror-git.js';
