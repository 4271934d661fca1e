/**
 * The bootstrap of a helmfile + Flux repository as data (built by src/order/helmfile-plan.ts,
 * run by src/apply/helmfile-executor.ts), and the Helm 3 releases port it runs through
 * (src/adapters/helm-release.ts implements it with the real helm binary).
 */
import type { K8sObject } from './k8s.js';

export type ChartRef =
  /** A chart directory, repository-relative. */
  | { kind: 'local'; path: string }
  /** `oci://…`, or a chart of a `repositories:` entry (`--repo URL NAME`). */
  | { kind: 'remote'; ref: string; repo?: string; version?: string };

export interface HelmfileReleaseSpec {
  id: string;
  name: string;
  namespace: string;
  chart: ChartRef;
  /** Values files (repository-relative) and inline maps, in helmfile order (later wins). */
  values: Array<{ file: string } | { inline: Record<string, unknown>; from?: string }>;
  /** Where the release is written. */
  file: string;
  line: number;
}

export type HookAction =
  | { kind: 'apply'; files: string[]; namespace?: string }
  | { kind: 'wait-crds'; crds: string[] };

export type HelmfileStep =
  | { kind: 'crds'; name: string; releases: HelmfileReleaseSpec[] }
  | { kind: 'release'; name: string; release: HelmfileReleaseSpec; needs: string[] }
  | { kind: 'hook'; name: string; release: string; event: 'presync' | 'postsync'; action: HookAction; text: string }
  | { kind: 'flux'; name: string; depth: number; kustomizations: Array<{ namespace: string; name: string; file: string; line: number }> };

export interface HelmfileBootstrapPlan {
  cluster: string;
  environment: string;
  steps: HelmfileStep[];
  /** What the plan cannot carry out, each naming file and line; bootstrap refuses while any is left. */
  problems: string[];
  /** The environment chosen and where it is defined, and the helmfiles it leaves out (helmfile skips them). */
  notes: string[];
}


/** A release as Helm stores it (`helm list`, `helm get manifest`, `helm get values`). */
export interface DeployedRelease {
  /** `deployed`, `failed`, `pending-install`, … */
  status: string;
  /** `name-version`. */
  chart: string;
  revision: number;
  manifest: string;
  /** The user-supplied values. */
  values: Record<string, unknown>;
}

/** What `helm upgrade --install` did or would do. */
export interface ReleasePreview {
  manifest: string;
  chart: string;
}

export interface HelmReleasePort {
  /** The user values fleetplan passes (values files and inline maps merged in order). */
  values(spec: HelmfileReleaseSpec): Record<string, unknown>;
  /** The CustomResourceDefinitions of the release's chart (`helm template --include-crds`). */
  crds(spec: HelmfileReleaseSpec): Promise<K8sObject[]>;
  deployed(spec: HelmfileReleaseSpec): Promise<DeployedRelease | undefined>;
  /** `helm upgrade --install --dry-run=server`. */
  preview(spec: HelmfileReleaseSpec): Promise<ReleasePreview>;
  upgrade(spec: HelmfileReleaseSpec): Promise<ReleasePreview>;
  close(): void;
}
