/**
 * Locates Helm 3 and runs `helm template`. Order (src/adapters/tools.ts): the explicit `--helm`
 * value, then `FLEETPLAN_HELM` from the environment passed in, then `helm` on PATH, then the
 * package's `.tools/bin`. Helm 4 is refused: kustomize's helmCharts runs `helm version -c`, a flag
 * Helm 4 removed, so builds would fail later with a worse message.
 */
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import { ToolError } from '../errors/index.js';
import type { HelmTemplateRequest, HelmTool, ToolLocation } from '../ports/tools.js';
import type { Limiter } from './process.js';
import { parseVersion, runTool, sharedLimiter } from './process.js';
import type { ToolCandidate, ToolReport, ToolSearchSpec } from './tools.js';
import { firstUsable, searchTool } from './tools.js';

export const HELM_INSTALL_HINT =
  'install Helm 3 (https://helm.sh/docs/intro/install/; not Helm 4), or point --helm / FLEETPLAN_HELM at one; ' +
  'in a fleetplan checkout `npm ci` puts Helm 3 in .tools/bin';

const HELM: ToolSearchSpec = { tool: 'helm', flag: '--helm', envVar: 'FLEETPLAN_HELM', commands: ['helm'], installHint: HELM_INSTALL_HINT };

export interface LocateHelmOptions extends ToolLocation {
  cwd?: string;
  limiter?: Limiter;
}

export async function locateHelm(options: LocateHelmOptions): Promise<HelmTool> {
  const report = await findHelm(options);
  if (report.tool) return report.tool;
  throw report.error!;
}

/** The Helm the lookup order gives, with the candidates it refused; never throws a ToolError. */
export async function findHelm(options: LocateHelmOptions): Promise<ToolReport<HelmTool>> {
  const { env } = options;
  const search = searchTool(HELM, { explicit: options.explicit, env, cwd: options.cwd, bundledDir: options.bundledDir });
  return firstUsable(search, async (c) => new ProcessHelm(c.binary, await helmVersion(c, env), env, options.limiter ?? sharedLimiter(options.concurrency)));
}

async function helmVersion({ binary, from }: ToolCandidate, env: ToolLocation['env']): Promise<string> {
  const r = await runTool(binary, ['version', '--short'], { env }, HELM_INSTALL_HINT);
  const version = r.code === 0 ? parseVersion(r.stdout) : undefined;
  if (!version) {
    throw new ToolError(`cannot tell the Helm version of ${binary} (from ${from}): ${(r.stderr || r.stdout).trim() || `exit ${r.code}`}`, {
      code: 'tool-version',
      hint: HELM_INSTALL_HINT,
    });
  }
  if (version.major !== 3) {
    const why =
      version.major > 3
        ? `Helm ${version.major} does not work with kustomize's helmCharts (kustomize runs \`helm version -c\`, which Helm 4 removed)`
        : `Helm ${version.major} is too old`;
    throw new ToolError(`helm ${version.text} (${binary}, from ${from}) is not supported: ${why}`, {
      code: 'tool-version',
      hint: HELM_INSTALL_HINT,
    });
  }
  return version.text;
}

class ProcessHelm implements HelmTool {
  constructor(
    readonly binary: string,
    readonly version: string,
    private readonly env: ToolLocation['env'],
    private readonly limiter: Limiter,
  ) {}

  template(req: HelmTemplateRequest): Promise<string> {
    return this.limiter.run(async () => {
      let tmp: string | undefined;
      let chart = req.chart;
      try {
        if (req.dependencyBuild) {
          // Argo CD runs `helm dependency build` on Helm's missing-dependency error; here in a copy.
          tmp = await mkdtemp(join(tmpdir(), 'fleetplan-chart-'));
          for (const d of req.dependencyBuild.dirs) await cp(d, join(tmp, 'repo', relative(req.dependencyBuild.root, d)), { recursive: true });
          chart = join(tmp, 'repo', relative(req.dependencyBuild.root, req.chart));
          const b = await runTool(this.binary, ['dependency', 'build', chart, '--skip-refresh'], { env: this.env }, HELM_INSTALL_HINT);
          if (b.code !== 0) throw new ToolError(b.stderr.trim() || `helm dependency build exited with ${b.code ?? b.signal}`, { code: 'build-failed' });
        }
        if (req.defaultValues) {
          tmp ??= await mkdtemp(join(tmpdir(), 'fleetplan-chart-'));
          chart = await withDefaultValues(chart, req.chart === chart ? join(tmp, 'chart') : undefined, req.defaultValues);
        }
        // The same flags Argo CD's repo-server passes for a Helm source.
        const args = ['template', req.releaseName, chart, '--namespace', req.namespace, '--include-crds'];
        for (const f of req.valueFiles) args.push('--values', f);
        if (req.values !== undefined && req.values !== null) {
          tmp ??= await mkdtemp(join(tmpdir(), 'fleetplan-values-'));
          const file = join(tmp, 'values.json');
          await writeFile(file, JSON.stringify(req.values));
          args.push('--values', file);
        }
        args.push(...setArguments(req.parameters ?? []));
        const r = await runTool(this.binary, args, { env: this.env }, HELM_INSTALL_HINT);
        if (r.code !== 0) throw new ToolError(r.stderr.trim() || `helm exited with ${r.code ?? r.signal}`, { code: 'build-failed' });
        return r.stdout;
      } finally {
        if (tmp) await rm(tmp, { recursive: true, force: true });
      }
    });
  }
}

/** Largest chart archive unpacked to replace its values.yaml. */
const MAX_CHART_BYTES = 64 * 1024 * 1024;

/**
 * The chart with its values.yaml replaced, as source-controller packages a Flux chart with
 * `valuesFiles` (OverwriteChartDefaultValues). `copy` is where to put a copy of `chart` (a directory
 * or a .tgz), or undefined when `chart` is already a private copy.
 */
async function withDefaultValues(chart: string, copy: string | undefined, dv: NonNullable<HelmTemplateRequest['defaultValues']>): Promise<string> {
  // Loaded here only: `fleetplan version` and render without --leaves load this adapter for the tool search, not a YAML parser or the OCI reader (test/cli/lazy-loading).
  const [{ extractLayer }, { deepMerge, isPlainObject }, { parseYamlAll }] = await Promise.all([import('./oci-artifact.js'), import('../model/merge.js'), import('../yaml/index.js')]);
  let dir = chart;
  if (copy !== undefined) {
    if ((await stat(chart)).isDirectory()) await cp(chart, copy, { recursive: true });
    else extractLayer(chart, await readFile(chart), 'tar+gzip', copy, true, MAX_CHART_BYTES);
    dir = copy;
  }
  const valuesYaml = join(dir, 'values.yaml');
  const own = await readFile(valuesYaml, 'utf8').catch(() => undefined);
  if (own === undefined) throw new ToolError(`chart ${chart} has no values.yaml: source-controller cannot merge valuesFiles into it ("failed to locate values file: values.yaml")`, { code: 'build-failed' });
  let values: unknown;
  if ('values' in dv) values = dv.values;
  else {
    // mergeChartValues: paths among the chart's files; `values.yaml` is the chart's own values.
    let merged: Record<string, unknown> = {};
    for (const p of dv.chartFiles) {
      const name = posix.normalize(p);
      const own = name === 'values.yaml';
      const isChartFile = own || !(/^(\.\.|\/)/.test(name) || /^(templates|charts)\//.test(name) || name === 'Chart.yaml' || name === 'Chart.lock' || name === 'requirements.yaml' || name === 'requirements.lock');
      const text = isChartFile ? await readFile(join(dir, name), 'utf8').catch(() => undefined) : undefined;
      if (text === undefined) {
        if (dv.ignoreMissing) continue;
        throw new ToolError(`chart ${chart} has no values file ${p}; source-controller fails the chart ("no values file found at path '${p}'")`, { code: 'build-failed' });
      }
      let doc: unknown;
      try {
        doc = parseYamlAll(text, { schema: 'kubernetes' })[0] ?? {};
      } catch (e) {
        throw new ToolError(`values file ${p} of chart ${chart} is not YAML: ${(e as Error).message}`, { code: 'build-failed' });
      }
      if (!isPlainObject(doc)) throw new ToolError(`values file ${p} of chart ${chart} is not a map of values`, { code: 'build-failed' });
      merged = deepMerge(merged, doc);
    }
    values = merged;
  }
  await writeFile(valuesYaml, isPlainObject(values) && Object.keys(values).length === 0 ? '' : JSON.stringify(values));
  return dir;
}

/**
 * Argo CD's helm.parameters as `helm template` flags (util/helm/cmd.go): one entry per name (the
 * last wins), sorted by name; a comma in a value is escaped unless the value is a `{...}` list.
 */
export function setArguments(parameters: readonly { name: string; value: string; forceString?: boolean }[]): string[] {
  const byName = new Map<string, { value: string; forceString: boolean }>();
  for (const p of parameters) byName.set(p.name, { value: p.value, forceString: p.forceString === true });
  const args: string[] = [];
  for (const name of [...byName.keys()].sort()) {
    const p = byName.get(name)!;
    const value = p.value.startsWith('{') && p.value.endsWith('}') ? p.value : p.value.replace(/(?<!\\),/g, '\\,');
    args.push(p.forceString ? '--set-string' : '--set', `${name}=${value}`);
  }
  return args;
}
