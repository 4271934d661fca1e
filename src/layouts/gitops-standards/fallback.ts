/**
 * The fallback for clusters a layout reader could not read exactly: build the cluster directory
 * with the real kustomize (through the ClusterBuilder port) and take its Applications and
 * AppProjects as they are. Each becomes an app of the cluster's own layer carrying the exact
 * object (AppSpec.manifest), with path, destination, project and wave read from it for plans and
 * rules. The plan says so in the cluster's notes; a failing build is an error finding.
 */
import { isPlainObject } from '../../model/merge.js';
import { appFromApplication } from '../../model/application.js';
import type { Finding } from '../../model/finding.js';
import type { ClusterDef } from '../../model/fleet.js';
import type { AppSpec, ProjectSpec } from '../../model/spec.js';
import type { ClusterBuilder, FallbackRequest } from '../../ports/cluster-build.js';
import type { LoadResult } from '../../load/native.js';
import { parseAll } from '../../yaml/documents.js';
import { addRootObjects, valuesPath } from './reader.js';
import type { SourceFile, YamlPath } from '../../model/source.js';

/**
 * Completes every fallback of a load result in place. `builder` is created on first use (so that
 * a repository without fallbacks never looks for the tools); when it cannot be created (tools
 * missing), each cluster gets an error finding that says why.
 */
export async function completeFallbacks(result: LoadResult, builder: () => Promise<ClusterBuilder>): Promise<void> {
  const requests = result.fallbacks ?? [];
  if (requests.length === 0) return;
  let tool: ClusterBuilder | undefined;
  let toolError: string | undefined;
  try {
    tool = await builder();
  } catch (e) {
    toolError = (e as Error).message + ((e as { hint?: string }).hint ? ` (${(e as { hint?: string }).hint})` : '');
  }
  for (const req of requests) {
    const def = result.fleet.clusters.find((c) => c.name === req.cluster);
    if (!def) continue;
    const why = req.reasons.join('; ');
    if (!tool) {
      // The tool error names the tool that is missing (kustomize or helm): the message must not blame the other.
      addFinding(result, def, req, `cannot build ${req.dir}: ${toolError ?? 'no builder'}`, 'the build needs kustomize 5 and Helm 3: install them, or pass --kustomize / --helm');
      def.notes = [...(def.notes ?? []), `not read: the values alone do not give the Applications (${why}), and the build tools are not available`];
      continue;
    }
    let text: string;
    try {
      text = await tool.build(req.dir);
    } catch (e) {
      addFinding(result, def, req, `kustomize build of ${req.dir} failed: ${(e as Error).message}`, 'fix the kustomization; Argo CD cannot build it either');
      def.notes = [...(def.notes ?? []), `not read: kustomize build of ${req.dir} failed`];
      continue;
    }
    const others = applyBuild(def, text);
    const projects = Object.keys(def.projects ?? {});
    def.notes = [
      ...(def.notes ?? []),
      `Applications read from ${tool.description} of ${req.dir} (fallback: ${why})`,
      projects.length ? `AppProjects: ${projects.join(', ')}` : 'no AppProjects',
    ];
    // The build applies them too; render writes them under objects/ (ADR 0398, 0407, 0412).
    if (others.length > 0) addRootObjects(def, req.dir, others, result.fleet.gitopsNamespace ?? 'openshift-gitops');
    result.fleet.sources.set(def.file, builtView(def, req.values ?? []));
  }
  result.fallbacks = [];
}

/**
 * The cluster's built Applications as the model's layer (`spec.apps`, `spec.projects`), placed in
 * the values file that defines each (the cluster's own, else the group's that comes last); an
 * object no values file defines (a plain resource of the kustomization) is placed at the cluster's
 * file with no key, rather than at a key the file does not hold.
 */
function builtView(def: ClusterDef, values: SourceFile[]): SourceFile {
  const holder = (path: YamlPath): SourceFile | undefined => {
    if (path[0] !== 'spec' || typeof path[2] !== 'string') return undefined;
    const section = path[1] === 'apps' ? 'applications' : path[1] === 'projects' ? 'projects' : undefined;
    if (!section) return undefined;
    return values.find((v) => isPlainObject(v.value) && isPlainObject(v.value[section]) && Object.hasOwn(v.value[section], path[2] as string));
  };
  const own = values.find((v) => v.file === def.file);
  return {
    file: def.file,
    value: { spec: { apps: def.spec.apps ?? {}, projects: def.projects ?? {} } },
    locate: (path) => {
      const h = holder(path);
      return h ? h.locate(valuesPath(path)) : (own?.locate([]) ?? { line: 1, column: 1 });
    },
    displayPath: (path) => (holder(path) ? valuesPath(path) : []),
    fileOf: (path) => holder(path)?.file,
  };
}

function addFinding(result: LoadResult, def: ClusterDef, req: FallbackRequest, message: string, hint: string): void {
  const f: Finding = { severity: 'error', code: 'cluster-build-failed', message, file: def.file, cluster: def.name, hint };
  result.findings.push(f);
  if (result.fleet.loadFindings !== result.findings) result.fleet.loadFindings.push(f);
  void req;
}

/** The Applications and AppProjects of a kustomize build → the cluster's own layer; returns the build's other objects. */
export function applyBuild(def: ClusterDef, text: string): Record<string, unknown>[] {
  const others: Record<string, unknown>[] = [];
  const apps: Record<string, AppSpec> = {};
  const projects: Record<string, ProjectSpec> = {};
  for (const doc of parseAll(text)) {
    if (!isPlainObject(doc) || !isPlainObject(doc.metadata) || typeof doc.metadata.name !== 'string') continue;
    if (doc.apiVersion === 'argoproj.io/v1alpha1' && doc.kind === 'Application') apps[doc.metadata.name] = appFromManifest(doc);
    else if (doc.apiVersion === 'argoproj.io/v1alpha1' && doc.kind === 'AppProject') projects[doc.metadata.name] = { manifest: doc };
    else others.push(doc);
  }
  def.spec.groups = [];
  def.spec.apps = apps;
  def.projects = projects;
  delete def.revisionPin;
  return others;
}

export function appFromManifest(doc: Record<string, unknown>): AppSpec {
  const spec = isPlainObject(doc.spec) ? doc.spec : {};
  const sources = Array.isArray(spec.sources) ? spec.sources : [];
  const source = isPlainObject(spec.source) ? spec.source : isPlainObject(sources[0]) ? sources[0] : {};
  return appFromApplication(doc, source);
}
