/**
 * Values checked as their consumers read them (ADR 0217): Kubernetes object names as the API
 * server validates them (apimachinery `validation.IsDNS1123Label` / `IsDNS1123Subdomain`), sync
 * waves as gitops-engine reads them (`strconv.Atoi` of the annotation, a Go int of 64 bits, and
 * the Helm hook weight or 0 when that fails), and file-name components as file systems take them
 * (255 bytes, ext4/XFS/APFS `NAME_MAX`). Each function returns the problem, or undefined.
 */

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;
/** Bytes in one path component (NAME_MAX). */
export const FILE_NAME_MAX = 255;

const LABEL_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `IsDNS1123Label` (Namespaces, Services, …). */
export function dns1123LabelProblem(name: string): string | undefined {
  if (name.length > DNS1123_LABEL_MAX) return `must be no more than ${DNS1123_LABEL_MAX} characters (it has ${name.length})`;
  if (!LABEL_RE.test(name)) {
    return "must be a lowercase RFC 1123 label: lower case alphanumeric characters or '-', starting and ending with an alphanumeric character";
  }
  return undefined;
}

/** `IsDNS1123Subdomain` (Applications and other custom resources, ConfigMaps, Secrets, …). */
export function dns1123SubdomainProblem(name: string): string | undefined {
  if (name.length > DNS1123_SUBDOMAIN_MAX) return `must be no more than ${DNS1123_SUBDOMAIN_MAX} characters (it has ${name.length})`;
  if (!SUBDOMAIN_RE.test(name)) {
    return "must be a lowercase RFC 1123 subdomain: lower case alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character";
  }
  return undefined;
}

/** The one path component `component` (a file or directory name) is too long for a file system. */
export function fileNameProblem(component: string): string | undefined {
  // A UTF-16 unit is at most 3 bytes of UTF-8: short names need no counting (one per app and cluster).
  if (component.length * 3 <= FILE_NAME_MAX) return undefined;
  const bytes = Buffer.byteLength(component, 'utf8');
  return bytes > FILE_NAME_MAX ? `a file name of ${bytes} bytes exceeds the ${FILE_NAME_MAX}-byte limit of file systems` : undefined;
}

/** Go's int on the 64-bit platforms Argo CD ships for. */
const GO_INT_MAX = 2n ** 63n - 1n;
const GO_INT_MIN = -(2n ** 63n);

/**
 * A wave fleetplan would write that gitops-engine reads differently: not an integer, outside Go's
 * int (strconv.Atoi fails and the wave falls back to 0), or beyond the integers a JavaScript number
 * holds exactly (the written digits would differ from the ones in the file).
 */
export function syncWaveProblem(wave: number): string | undefined {
  // Every safe integer is inside Go's int: the common case needs no BigInt (one per app and cluster).
  if (Number.isSafeInteger(wave)) return undefined;
  if (!Number.isFinite(wave) || !Number.isInteger(wave)) {
    return `${String(wave)} is not an integer; Argo CD reads the sync-wave annotation with strconv.Atoi, fails, and syncs the app in wave 0`;
  }
  const big = BigInt(wave);
  if (big > GO_INT_MAX || big < GO_INT_MIN) {
    return `${String(wave)} is outside Go's int range (${GO_INT_MIN} to ${GO_INT_MAX}); Argo CD's strconv.Atoi fails and the app syncs in wave 0`;
  }
  if (!Number.isSafeInteger(wave)) {
    return `${String(wave)} is beyond ±${Number.MAX_SAFE_INTEGER}, where fleetplan cannot keep every digit; the written wave would not be the one in the file`;
  }
  return undefined;
}
