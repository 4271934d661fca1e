/**
 * Stage 5, render: resolved clusters → deterministic files.
 *
 *   <cluster>/apps/<app>.yaml          one Application per enabled app
 *   <cluster>/projects/<project>.yaml  the AppProjects those apps use
 *   <cluster>/bootstrap/NN-*.yaml      the day-0 manifests, in apply order
 *
 * Returns `{ path, content }` pairs; writing them is the caller's (src/adapters/output.ts).
 */
import type { K8sObject } from '../generate/argocd.js';
import { applicationFor, bootstrapFor, projectsFor } from '../generate/argocd.js';
import type { Finding } from '../model/finding.js';
import type { Fleet } from '../model/fleet.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { SelectOptions } from '../layering/resolve-fleet.js';
import { resolveFleet } from '../layering/resolve-fleet.js';
import { renderProvision } from './provision.js';
import { header, toYaml } from './yaml.js';

export interface RenderedFile {
  /** Path relative to the output directory, forward slashes. */
  path: string;
  content: string;
  cluster: string;
  objects: K8sObject[];
  /** The YAML of each object (the content without its header), in order. */
  documents: string[];
}

export interface RenderResult {
  files: RenderedFile[];
  findings: Finding[];
  clusters: ResolvedCluster[];
}

export function renderFleet(fleet: Fleet, options: SelectOptions = {}): RenderResult {
  const { clusters, findings } = resolveFleet(fleet, options);
  const files: RenderedFile[] = [];
  for (const c of clusters) files.push(...renderCluster(fleet, c));
  return { files, findings, clusters };
}

export function renderCluster(fleet: Fleet, c: ResolvedCluster): RenderedFile[] {
  const files: RenderedFile[] = [];
  const file = (path: string, from: string[], objects: K8sObject[]): RenderedFile => {
    const documents = objects.map((o) => toYaml(o));
    return { path, content: header(from) + documents.join('---\n'), cluster: c.name, objects, documents };
  };
  for (const b of bootstrapFor(fleet, c)) files.push(file(`${c.name}/bootstrap/${b.name}`, [fleet.file, c.file], b.objects));
  for (const p of projectsFor(fleet, c)) files.push(file(`${c.name}/projects/${p.metadata.name}.yaml`, [fleet.file], [p]));
  for (const app of c.apps) {
    files.push(file(`${c.name}/apps/${app.name}.yaml`, [...new Set(app.layers.map((l) => l.file))], [applicationFor(c, app, fleet.plugin)]));
  }
  // The kustomize directories of the hub's provisioning apps (src/render/provision.ts).
  files.push(...renderProvision(fleet, c.name));
  // Apply order: bootstrap steps, then projects, then apps by wave, then provisioning objects.
  return files;
}

/** All files as one multi-document YAML stream, each document preceded by its would-be path. */
export function renderedStream(files: readonly RenderedFile[]): string {
  let s = '';
  for (const f of files) for (const d of f.documents) s += `---\n# Source: ${f.path}\n${d}`;
  return s;
}
