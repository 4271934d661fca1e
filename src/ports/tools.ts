/**
 * Ports for the external tools leaf rendering and the config-management plugin run: kustomize
 * (a standalone binary or `kubectl kustomize`) and Helm 3. The adapters in src/adapters/ locate the
 * binaries, check their versions and run them as child processes with bounded parallelism.
 */

/** A located kustomize: either the standalone binary or kubectl's built-in copy. */
export interface KustomizeTool {
  /** Absolute path of the binary that is run. */
  readonly binary: string;
  /** `kustomize` runs `kustomize build DIR`; `kubectl` runs `kubectl kustomize DIR`. */
  readonly flavor: 'kustomize' | 'kubectl';
  /** kustomize's own version, e.g. `5.6.0` (for kubectl: its built-in kustomize). */
  readonly version: string;
  /**
   * Builds the kustomization in `dir` (absolute) with the given flags, e.g.
   * `['--enable-helm', '--load-restrictor', 'LoadRestrictionsNone']`. Resolves to the YAML stream;
   * rejects with a ToolError whose message is kustomize's own stderr.
   */
  build(dir: string, flags: readonly string[]): Promise<string>;
  /**
   * Builds `dir` (absolute, inside `root`) as if its kustomization file were `kustomization` and
   * every other file were as it is: what Flux's kustomize-controller does when it writes its own
   * or an amended kustomization.yaml into its copy of the source. The repository is not modified.
   */
  buildAs?(root: string, dir: string, kustomization: string, flags: readonly string[]): Promise<string>;
}

export interface HelmTemplateRequest {
  /** Absolute path of a chart directory or a chart archive (.tgz). */
  chart: string;
  releaseName: string;
  namespace: string;
  /** Absolute paths of values files, applied in order. */
  valueFiles: readonly string[];
  /** Inline values, applied after the files. */
  values?: unknown;
  /** `--set name=value` (`--set-string` with forceString), after the values; the last of a name wins (Argo CD's helm.parameters). */
  parameters?: readonly { name: string; value: string; forceString?: boolean }[];
  /**
   * The chart's `file://` dependencies are not in its charts/ folder: template it as Argo CD's
   * repo-server does, after `helm dependency build`, run in a private copy of `dirs` (the chart and
   * the dependency folders, absolute, laid out as under `root`) so that the repository stays as it is.
   */
  dependencyBuild?: { root: string; dirs: readonly string[] };
  /**
   * The chart's values.yaml replaced before templating, as source-controller packages a Flux chart
   * with `valuesFiles` (OverwriteChartDefaultValues): by `values`, or by the merge of `chartFiles`,
   * paths inside the chart (`values.yaml` is the chart's own), a missing one an error unless
   * `ignoreMissing`. A chart without a values.yaml is an error, as in source-controller.
   */
  defaultValues?: { values: unknown } | { chartFiles: readonly string[]; ignoreMissing: boolean };
}

/** A located Helm 3. */
export interface HelmTool {
  readonly binary: string;
  /** e.g. `3.18.0` */
  readonly version: string;
  /** `helm template`; rejects with a ToolError carrying Helm's stderr. */
  template(request: HelmTemplateRequest): Promise<string>;
}

/**
 * Where a binary may come from, in order: an explicit path, an environment variable, PATH, the
 * package's own `.tools/bin` (docs/adr/0172-tool-lookup.md).
 */
export interface ToolLocation {
  /** Explicit path or command name (`--kustomize` / `--helm`). */
  explicit?: string;
  /** The environment to read `FLEETPLAN_KUSTOMIZE` / `FLEETPLAN_HELM` and `PATH` from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Child processes run at most this many at once (default: the number of cores). */
  concurrency?: number;
  /** The directory searched after PATH; default: the fleetplan package's `.tools/bin`; false: none. */
  bundledDir?: string | false;
}

export interface JsonnetEvaluateRequest {
  /** Absolute path of the `.jsonnet` file. */
  file: string;
  /** Library search directories (absolute), in Argo CD's order: the last one is searched first. */
  searchPath: readonly string[];
  extVars: readonly { name: string; value: string; code: boolean }[];
  tlas: readonly { name: string; value: string; code: boolean }[];
  /** The evaluation is stopped after this long. */
  timeoutMs: number;
  /** Output above this many bytes stops the evaluation. */
  maxOutputBytes: number;
}

/** A located Jsonnet interpreter (go-jsonnet, which Argo CD embeds, or the C++ one). */
export interface JsonnetTool {
  readonly binary: string;
  /** e.g. `0.18.0` */
  readonly version: string;
  /** `go` (go-jsonnet, what Argo CD runs) or `cpp` (the C++ implementation, Debian's `jsonnet`). */
  readonly flavor: 'go' | 'cpp';
  /** Evaluates the file to JSON text; rejects with a ToolError: `build-failed` (Jsonnet's message), `build-limit` (time or size). */
  evaluate(request: JsonnetEvaluateRequest): Promise<string>;
}
