/**
 * Remote charts fetched on request (`--fetch`, docs/adr/0283-fetch-remote-sources.md): the port
 * leaf rendering uses; src/adapters/chart-fetch.ts runs `helm pull`. Argo CD native OCI artifacts
 * (ADR 0317): src/adapters/oci-artifact.ts.
 */
import type { SourceReader } from './source-reader.js';

export interface ChartRequest {
  /** A Helm repository URL (unused for an `oci://` chart). */
  repoURL?: string;
  /** A chart name in the repository, or `oci://host/path/chart`. */
  chart: string;
  /** An exact version, a semver range, or absent (the newest). */
  version?: string;
  /** `sha256:…`: an OCI manifest digest the chart is pinned to (Flux `OCIRepository` `ref.digest`); the pull is by digest and verified. */
  digest?: string;
  /** Plain HTTP to the registry: only where the repository's own source says so (Flux `insecure: true`, ADR 0301). */
  plainHttp?: boolean;
  /** HTTPS without certificate verification (Argo CD `insecure` on the repository Secret). */
  insecureSkipVerify?: boolean;
  /** Registry login from the repository's own Secret (ADR 0316): written to a private registry config for this pull only. */
  credentials?: RegistryCredentials;
}

export interface FetchedChart {
  /** Absolute path of the chart archive. */
  archive: string;
  /** The chart's version (a range resolved by Helm). */
  version: string;
  /** `sha256:…` of the archive. */
  sha256: string;
  /** An OCI registry's manifest digest, as `helm pull` reported it. */
  digest?: string;
  /** True when pulled in this run; false when found in the fetch cache. */
  pulled: boolean;
}

export interface ChartFetcher {
  /** The archive of an exact version already in the fetch cache; never touches the network. */
  cached(req: ChartRequest): FetchedChart | undefined;
  /** `helm pull`: resolves a range against the repository; identical requests in one run pull once. */
  pull(req: ChartRequest): Promise<FetchedChart>;
}

/** Basic credentials for a registry, from a repository Secret of the repository (ADR 0316); never printed. */
export interface RegistryCredentials {
  username: string;
  password: string;
}

/**
 * How an Argo CD 3.1 native OCI source (`repoURL: oci://registry/repository`) is selected
 * (ADR 0317): a digest, a tag, or a semver range resolved against the repository's tags.
 */
export type ArtifactRevision =
  | { kind: 'digest'; digest: string }
  | { kind: 'tag'; tag: string }
  /** `pick` chooses the tag among the registry's tags (Argo CD's versions.MaxVersion); undefined: none matches. */
  | { kind: 'range'; range: string; pick(tags: readonly string[]): string | undefined };

export interface ArtifactRequest {
  /** `registry.example.com:5000` */
  registry: string;
  /** `team/manifests` */
  repository: string;
  revision: ArtifactRevision;
  /** Plain HTTP (Argo CD `insecureOCIForceHttp` on the repository Secret); else HTTPS. */
  plainHttp?: boolean;
  /** HTTPS without certificate verification (Argo CD `insecure`). */
  insecureSkipVerify?: boolean;
  /** From the repository Secret; absent: the `--registry-config` login for the registry, if any. */
  credentials?: RegistryCredentials;
}

export interface FetchedArtifact {
  /** Absolute directory holding the extracted content layer (a Helm chart's own folder, unwrapped, as Argo CD does). */
  dir: string;
  /** The manifest digest. */
  digest: string;
  /** The tag a range or tag resolved to (undefined for a digest). */
  tag?: string;
  /** The layer's media type. */
  mediaType: string;
  /** True when the manifest's config says it is a Helm chart. */
  helmChart: boolean;
  /** True when fetched in this run; false when found in the fetch cache. */
  pulled: boolean;
  /** Reads inside `dir` only (a symlink out of it is refused). */
  reader: SourceReader;
}

export interface ArtifactFetcher {
  /** The artifact of a digest already in the fetch cache; never touches the network. */
  cached(req: ArtifactRequest): FetchedArtifact | undefined;
  /** Resolves the revision with the registry and fetches (or reuses) the content; identical requests in one run run once. */
  pull(req: ArtifactRequest): Promise<FetchedArtifact>;
}
