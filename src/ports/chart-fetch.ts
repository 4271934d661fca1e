/**
 * Remote charts fetched on request (`--fetch`, docs/adr/0283-fetch-remote-sources.md): the port
 * leaf rendering uses; src/adapters/chart-fetch.ts runs `helm pull`.
 */

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
