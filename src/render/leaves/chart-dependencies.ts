/**
 * Dependencies of a chart of the repository that Argo CD's repo-server fetches before templating
 * it (`helm dependency build`, with the network): those named in Chart.yaml (apiVersion v2) or
 * requirements.yaml (v1) with a remote repository and not vendored in the chart's charts/ folder
 * (`NAME-VERSION.tgz`, or a `NAME/` chart). A `file://` dependency is part of the repository.
 */
import { posix } from 'node:path';
import type { SourceReader } from '../../ports/source-reader.js';
import { parseYamlAll } from '../../yaml/index.js';
import { isPlainObject } from '../../model/merge.js';

export interface ChartDependency {
  name: string;
  version: string;
  repository: string;
}

type ChartReader = Pick<SourceReader, 'kind' | 'readText' | 'listFiles'>;

/** The dependencies Chart.yaml (v2) or requirements.yaml (v1) names that are not vendored in charts/, whose repository matches `which`. */
function unvendoredDependencies(reader: ChartReader, chartDir: string, which: RegExp): ChartDependency[] {
  const deps: ChartDependency[] = [];
  for (const file of ['Chart.yaml', 'requirements.yaml']) {
    const path = posix.join(chartDir, file);
    if (reader.kind(path) !== 'file') continue;
    let doc: unknown;
    try {
      doc = parseYamlAll(reader.readText(path))[0];
    } catch {
      continue; // Helm reports a broken Chart.yaml itself.
    }
    if (!isPlainObject(doc) || !Array.isArray(doc.dependencies)) continue;
    for (const d of doc.dependencies) {
      if (!isPlainObject(d) || typeof d.name !== 'string' || typeof d.repository !== 'string') continue;
      if (!which.test(d.repository)) continue;
      deps.push({ name: d.name, version: d.version === undefined ? '' : String(d.version), repository: d.repository });
    }
  }
  if (deps.length === 0) return [];
  const charts = posix.join(chartDir, 'charts');
  // A version range is vendored as the archive of the version it resolved to: any NAME-<version>.tgz.
  const archives = reader.kind(charts) === 'dir' ? reader.listFiles(charts).map((f) => posix.relative(charts, f)).filter((f) => !f.includes('/') && f.endsWith('.tgz')) : [];
  const vendored = (d: ChartDependency): boolean =>
    reader.kind(posix.join(charts, d.name)) === 'dir' || archives.includes(`${d.name}-${d.version}.tgz`) || (!/^v?\d+\.\d+\.\d+([-+].*)?$/.test(d.version) && archives.some((a) => a.startsWith(`${d.name}-`) && /^\d/.test(a.slice(d.name.length + 1))));
  return deps.filter((d) => !vendored(d));
}

export function missingChartDependencies(reader: ChartReader, chartDir: string): ChartDependency[] {
  return unvendoredDependencies(reader, chartDir, /^(https?|oci):\/\//);
}

/**
 * The `file://` dependencies of a chart that are not in its charts/ folder, as the absolute
 * folders they name. Argo CD's repo-server templates such a chart after `helm dependency build`
 * (it retries on Helm's missing-dependency error), which packages them without the network;
 * render --leaves does the same in a private copy (ADR 0398).
 */
export function localChartDependencies(reader: ChartReader, chartDir: string): string[] {
  return unvendoredDependencies(reader, chartDir, /^file:\/\//).map((d) => posix.resolve(chartDir, d.repository.slice('file://'.length)));
}
