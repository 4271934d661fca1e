/**
 * Which Argo CD Helm sources are OCI registries (ADR 0301). Argo CD's repo-server pulls a chart
 * from an OCI registry when the repository is declared with `enableOCI: "true"` or when
 * `helm.IsHelmOciRepo(repoURL)` holds: Go's `url.Parse(repoURL)` succeeds and gives no host —
 * a URL written without a scheme (`ghcr.io/acme/charts`, `registry.example.com:5000/charts`,
 * `localhost:5000/charts`). `127.0.0.1:5000/charts` does not parse in Go ("first path segment in
 * URL cannot contain colon"), so Argo CD reads it as OCI only with `enableOCI`.
 */

/** `helm.IsHelmOciRepo` of Argo CD, with Go's `url.Parse` rules for the scheme and host. */
export function isHelmOciRepo(repoURL: string): boolean {
  if (repoURL === '') return false;
  // Go rejects ASCII control characters anywhere in a URL.
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(repoURL)) return false;
  const noFragment = repoURL.split('#')[0]!;
  const scheme = goScheme(noFragment);
  if (scheme === 'error') return false;
  const rest = scheme === undefined ? noFragment : noFragment.slice(scheme.length + 1);
  const path = rest.split('?')[0]!;
  if (scheme !== undefined) {
    // `scheme:opaque` (no slash after the colon) or `scheme:/path` has no host; `scheme://host` has one.
    return !path.startsWith('//') || path.slice(2).split('/')[0] === '';
  }
  if (path.startsWith('//')) return path.slice(2).split('/')[0] === '';
  // Without a scheme a colon in the first path segment is a parse error.
  const first = path.split('/')[0]!;
  return !first.includes(':');
}

/** Go's getScheme: the scheme, undefined when there is none, 'error' for a leading colon. */
function goScheme(raw: string): string | undefined | 'error' {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return undefined;
      continue;
    }
    if (c === ':') return i === 0 ? 'error' : raw.slice(0, i);
    return undefined;
  }
  return undefined;
}

/**
 * Whether Go's `url.Parse` accepts the URL (as far as fleetplan needs it): no control characters,
 * no leading colon, no colon in the first path segment of a URL without a scheme, a numeric port
 * after `//host:`.
 */
export function goUrlParses(raw: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) return false;
  const noFragment = raw.split('#')[0]!;
  const scheme = goScheme(noFragment);
  if (scheme === 'error') return false;
  const rest = (scheme === undefined ? noFragment : noFragment.slice(scheme.length + 1)).split('?')[0]!;
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0]!.replace(/^.*@/, '');
    const port = /^(?:\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(authority)?.[1];
    return port === undefined || /^[0-9]*$/.test(port);
  }
  if (scheme === undefined) return !rest.split('/')[0]!.includes(':');
  return true;
}

/** True when the URL names no scheme at all (`host/path`): never a Helm HTTP repository. */
export function hasNoScheme(repoURL: string): boolean {
  return !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(repoURL);
}

/** The `oci://` reference Helm pulls for an Argo CD OCI source: `oci://<repoURL>/<chart>`. */
export function ociChartReference(repoURL: string, chart: string): string {
  return `oci://${repoURL.replace(/^oci:\/\//, '').replace(/\/+$/, '')}/${chart}`;
}

/** An Argo CD 3.1 native OCI source's repository: `oci://<registry>/<repository>` (ADR 0317). */
export interface OciRepository {
  registry: string;
  repository: string;
}

const OCI_REPOSITORY_NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const OCI_REGISTRY = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]+)?$/;

/**
 * `oci://registry/repository` as oras-go reads it for Argo CD (`remote.NewRepository`): a registry
 * host (with an optional port) and a repository name of the distribution spec (lower case,
 * `/`-separated components joined by `.`, `_`, `__` or dashes). A string: what is wrong with it.
 */
export function parseOciRepoURL(repoURL: string): OciRepository | string {
  if (!repoURL.startsWith('oci://')) return 'it does not start with oci://';
  const rest = repoURL.slice('oci://'.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return 'it names no repository after the registry (oci://registry/repository)';
  const registry = rest.slice(0, slash);
  const repository = rest.slice(slash + 1);
  if (!OCI_REGISTRY.test(registry)) return `the registry "${registry}" is not a host name with an optional port`;
  if (/@/.test(repository)) return 'a digest belongs in targetRevision, not in repoURL';
  if (/:/.test(repository)) return 'a tag belongs in targetRevision, not in repoURL';
  if (!OCI_REPOSITORY_NAME.test(repository)) return `the repository "${repository}" is not a valid OCI repository name (lower-case letters, digits and . _ - separators, components joined by /)`;
  return { registry, repository };
}
