/**
 * Dependency graphs of layouts that order things themselves: helmfile `needs` between releases
 * and Flux Kustomization `dependsOn`. Read by the layout reader, checked by the graph rules.
 * Every node and edge keeps its file, line and column.
 */

export interface GraphRef {
  /** As written: `ns/name` or `name` (helmfile), `name` with an optional namespace (Flux). */
  name: string;
  namespace?: string;
  file: string;
  line: number;
  column: number;
}

export interface HelmfileRelease {
  name: string;
  namespace: string;
  /** `crds`: only rendered with --include-crds and applied (never installed); `apps`: installed. */
  phase: 'crds' | 'apps';
  chart?: string;
  version?: string;
  file: string;
  line: number;
  column: number;
  needs: GraphRef[];
  /** `kubectl wait --for=create crd/<plural>.<group>` in the release's hooks: the API groups it waits for. */
  waitsForGroups: string[];
  /** Repository files its hooks `kubectl apply`. */
  applies: string[];
  /**
   * The state's base path when it is not the folder of `file`: a release written in a `bases:` file
   * of another folder belongs to the including state, whose folder helmfile resolves its chart and
   * values paths from (ADR 0394). Read it through releaseBaseDir.
   */
  baseDir?: string;
  /** `values:` (inherited template values first): files as written (relative to releaseBaseDir), inline maps, in order. */
  values?: HelmfileValues[];
  /** Every hook as written, `{{ .Release.Namespace }}`/`{{ .Release.Name }}` filled in. */
  hooks?: HelmfileHook[];
  /** The helmfile `repositories:` entry a `repo/chart` chart names. */
  repository?: { name: string; url: string; oci: boolean };
  /** What of the release could not be read (a helmfile template not executed, with file:line and why; ADR 0320). */
  notRead?: string[];
  /** `setTemplate:` (rendered) then `set:` entries, as helmfile passes them to helm (`--set`, `--set-file`); values as strings, as helmfile types them. */
  set?: HelmfileSet[];
  /** Its labels as helmfile gives them: the state's commonLabels, then the release's own (templates rendered). */
  labels?: Record<string, string>;
  /** Labels and setTemplate values whose templates were not read (kept as written; they reach neither plan nor render, only diff). */
  fieldsNotRead?: string[];
  /**
   * Its `secrets:` (sops-encrypted values files helm-secrets decrypts when helmfile runs): each path
   * as rendered and a digest of the file's encrypted text (absent: the file is not in the
   * repository), so that a change is told without the values ever being read or shown.
   */
  secrets?: { file: string; digest?: string }[];
  /** A chart in this repository: its folder and a digest of its files, so that diff tells a change of them (ADR 0395). */
  chartFiles?: { folder: string; digest: string };
  /**
   * `false` for a release written `installed: false` (or whose installedTemplate renders false):
   * helmfile uninstalls it. Such a release is never in `FleetGraphs.helmfile` (nothing installs
   * it); only ClusterDef.helmfileReleases carries it, for diff (ADR 0395).
   */
  installed?: false;
}

/** One `set:` entry of a helmfile release (helmfile's SetValue). */
export interface HelmfileSet {
  name: string;
  value?: string;
  file?: string;
  values?: unknown[];
}

/**
 * One `values:` entry: a file name as written, an inline map (`from`: the helmfile template
 * whose output it is, ADR 0320), or the values of the app's Flux HelmRelease (`spec.values`).
 */
export type HelmfileValues = { file: string; /** The file's values when it is a plain YAML file of the repository. */ values?: Record<string, unknown>; /** A file of the repository whose values were not read: a digest of its text (diff tells a change; ADR 0395). */ digest?: string } | { inline: Record<string, unknown>; from?: string } | { helmRelease: string; values: Record<string, unknown> };

export interface HelmfileHook {
  events: string[];
  command: string;
  args: string[];
  line: number;
}

export interface FluxKustomization {
  name: string;
  namespace: string;
  /** The cluster it is applied to, in a repository of several clusters (the flux layout); dependsOn stays inside it. */
  cluster?: string;
  /** Repository path (`spec.path` without the leading `./`). */
  path?: string;
  targetNamespace?: string;
  file: string;
  line: number;
  column: number;
  dependsOn: GraphRef[];
  /** `spec.components`, relative to `path` (in `name`). */
  components: GraphRef[];
}

/** One `environments:` entry of a helmfile, where it is written. */
export interface HelmfileEnvironment {
  name: string;
  /** The file that writes it (the helmfile, one of its `bases:`, or a helmfile whose `helmfiles:` includes it). */
  file: string;
  line: number;
  /** Its `values:`: files as written (relative to `file`), `inline values` for a map. */
  values: string[];
  /**
   * The files of `values` that are not in the repository and that helmfile skips, as its
   * `missingFileHandler` (Warn, Info, Debug) says; the handler is `missingFileHandler`.
   */
  skipped?: string[];
  missingFileHandler?: string;
  /** Its `secrets:` (sops files helmfile decrypts and merges over the values), as written. */
  secrets?: string[];
}

/** The environments a helmfile knows (helmfile: its own documents, its bases, the helmfile that includes it). */
export interface HelmfileEnvironments {
  file: string;
  environments: HelmfileEnvironment[];
}

export interface FleetGraphs {
  helmfile: HelmfileRelease[];
  flux: FluxKustomization[];
  /** Per helmfile, the environments it defines; a helmfile not listed defines none. */
  helmfileEnvironments?: HelmfileEnvironments[];
  /**
   * The helmfile environment whose values the helmfile templates were rendered with (`-e NAME`,
   * helmfile's `--environment`); absent: `default`.
   */
  helmfileEnvironment?: string;
  /** helmfile's `--state-values-file`/`--state-values-set` flags the helmfiles were read with, as given. */
  helmfileStateValues?: string[];
  /** Where the repository runs Flux with `--no-cross-namespace-refs` (absent: it does not). */
  noCrossNamespaceRefs?: { file: string; line: number };
}

/** The folder a release's relative chart and values paths are resolved from (helmfile's basePath). */
export function releaseBaseDir(r: Pick<HelmfileRelease, 'file' | 'baseDir'>): string {
  if (r.baseDir !== undefined) return r.baseDir;
  const i = r.file.lastIndexOf('/');
  return i < 0 ? '.' : r.file.slice(0, i);
}

// A release's id and app name live in ./release-app.ts (the diff's warm path needs them, not this module).
export { releaseApp, releaseId } from './release-app.js';

/** The app name a Flux Kustomization gets in the plan. */
export function kustomizationApp(k: { namespace: string; name: string }): string {
  return `flux:${k.namespace}/${k.name}`;
}

/**
 * A file or directory name for an app name (docs/adr/0190-flux-identity-and-file-names.md).
 * Names that are already safe (`[A-Za-z0-9][A-Za-z0-9._-]*`) are kept; a layout's
 * `<kind>:<namespace>/<name>` becomes `<kind>_<namespace>_<name>`. Kubernetes namespaces and
 * names never contain `_` (DNS-1123), so the mapping is one-to-one for these ids. Any other name
 * gives undefined (the caller says it cannot be a file name).
 */
export function appFileName(app: string): string | undefined {
  if (SAFE_FILE_NAME.test(app)) return app;
  const m = /^([a-z][a-z0-9-]*):([a-z0-9]([a-z0-9.-]*[a-z0-9])?)\/([a-z0-9]([a-z0-9.-]*[a-z0-9])?)$/.exec(app);
  return m ? `${m[1]}_${m[2]}_${m[4]}` : undefined;
}

const SAFE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
