/**
 * Argo CD Applications written in the repository (not the ones fleetplan generates), per cluster
 * whose Argo CD creates them: the Applications and the list-generator ApplicationSets of the
 * directory a cluster file is a kustomization of (the region-specs hub applies
 * `gitops-applications/`), and of every app the cluster syncs into its own Argo CD. Each
 * ApplicationSet list element gives one Application, its `{{key}}` / `{{.key}}` placeholders
 * filled from the element; other generators are not expanded.
 *
 * Positions are looked up only for the Applications a finding is about (`place`).
 */
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { ResolvedCluster } from '../model/resolved.js';
import type { YamlPath } from '../model/source.js';
import type { LocatedDoc } from '../yaml/documents.js';
import { located } from '../yaml/documents.js';
import type { RuleContext } from './context.js';
import type { ManifestObject } from '../load/manifests.js';
import { KUSTOMIZATION_FILES, isObj } from '../load/manifests.js';

const IN_CLUSTER = 'https://kubernetes.default.svc';

export interface ArgoApplication {
  /** The cluster whose Argo CD creates it. */
  cluster: string;
  name: string;
  /** The ApplicationSet that generates it, if any. */
  appSet?: string;
  file: string;
  kind: 'Application' | 'ApplicationSet';
  /** metadata.name of the document it is written in. */
  docName: string;
  server?: string;
  destinationName?: string;
  path?: string;
  repoURL?: string;
  /** YAML paths in the document where the destination server and the source path are written. */
  serverAt: YamlPath;
  pathAt: YamlPath;
}

/** Fills `{{key}}` and `{{.key}}` from a list element; undefined when a placeholder is left. */
function fill(v: unknown, el: Record<string, unknown>): { text: string; key?: string } | undefined {
  if (typeof v !== 'string') return undefined;
  let key: string | undefined;
  const text = v.replace(/\{\{-?\s*\.?([\w-]+)\s*-?\}\}/g, (m, k: string) => {
    const x = el[k];
    if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') {
      key ??= k;
      return String(x);
    }
    return m;
  });
  if (text.includes('{{')) return undefined;
  return { text, ...(key !== undefined && /^\{\{-?\s*\.?[\w-]+\s*-?\}\}$/.test(v.trim()) ? { key } : {}) };
}

function get(o: unknown, ...path: (string | number)[]): unknown {
  let v = o;
  for (const p of path) v = Array.isArray(v) && typeof p === 'number' ? v[p] : isObj(v) ? v[p as string] : undefined;
  return v;
}

function sourceOf(spec: unknown): { path?: string; repoURL?: string; index?: number } {
  if (isObj(get(spec, 'source'))) return { path: get(spec, 'source', 'path') as string | undefined, repoURL: get(spec, 'source', 'repoURL') as string | undefined };
  const sources = get(spec, 'sources');
  if (Array.isArray(sources)) {
    const i = sources.findIndex((s) => isObj(s) && typeof s.path === 'string');
    if (i >= 0) return { path: get(sources, i, 'path') as string, repoURL: get(sources, i, 'repoURL') as string | undefined, index: i };
  }
  return {};
}

function fromObject(cluster: string, o: ManifestObject): ArgoApplication[] {
  if (o.group !== 'argoproj.io') return [];
  const body = o.body;
  const docName = o.name ?? '';
  if (o.kind === 'Application') {
    const src = sourceOf(body.spec);
    const server = get(body, 'spec', 'destination', 'server');
    const destName = get(body, 'spec', 'destination', 'name');
    return [{
      cluster,
      name: docName,
      file: o.file,
      kind: 'Application',
      docName,
      ...(typeof server === 'string' ? { server } : {}),
      ...(typeof destName === 'string' ? { destinationName: destName } : {}),
      ...(typeof src.path === 'string' ? { path: src.path } : {}),
      ...(typeof src.repoURL === 'string' ? { repoURL: src.repoURL } : {}),
      serverAt: ['spec', 'destination', 'server'],
      pathAt: src.index === undefined ? ['spec', 'source', 'path'] : ['spec', 'sources', src.index, 'path'],
    }];
  }
  if (o.kind !== 'ApplicationSet') return [];
  const template = get(body, 'spec', 'template');
  const tspec = get(template, 'spec');
  const src = sourceOf(tspec);
  const out: ArgoApplication[] = [];
  const generators = get(body, 'spec', 'generators');
  if (!Array.isArray(generators)) return [];
  generators.forEach((g, gi) => {
    const elements = get(g, 'list', 'elements');
    if (!Array.isArray(elements)) return;
    elements.forEach((el, ei) => {
      if (!isObj(el)) return;
      const elementAt: YamlPath = ['spec', 'generators', gi, 'list', 'elements', ei];
      const name = fill(get(template, 'metadata', 'name'), el);
      const server = fill(get(tspec, 'destination', 'server'), el);
      const destName = fill(get(tspec, 'destination', 'name'), el);
      const path = fill(src.path, el);
      const repoURL = fill(src.repoURL, el);
      const templatePathAt: YamlPath = src.index === undefined ? ['spec', 'template', 'spec', 'source', 'path'] : ['spec', 'template', 'spec', 'sources', src.index, 'path'];
      out.push({
        cluster,
        name: name?.text ?? `${docName}[${ei}]`,
        appSet: docName,
        file: o.file,
        kind: 'ApplicationSet',
        docName,
        ...(server ? { server: server.text } : {}),
        ...(destName ? { destinationName: destName.text } : {}),
        ...(path ? { path: path.text } : {}),
        ...(repoURL ? { repoURL: repoURL.text } : {}),
        serverAt: server?.key ? [...elementAt, server.key] : ['spec', 'template', 'spec', 'destination', 'server'],
        pathAt: path?.key ? [...elementAt, path.key] : templatePathAt,
      });
    });
  });
  return out;
}

/** The directory of a cluster file that is a kustomization (what that cluster applies itself). */
export function clusterKustomizationDir(file: string): string | undefined {
  const slash = file.lastIndexOf('/');
  const base = slash < 0 ? file : file.slice(slash + 1);
  if (!KUSTOMIZATION_FILES.includes(base)) return undefined;
  return slash < 0 ? '.' : file.slice(0, slash);
}

const cache = new WeakMap<RuleContext['manifests'], ArgoApplication[]>();

/** Every Application written in the repository, with the cluster whose Argo CD creates it (computed once per validation). */
export function argoApplications(ctx: RuleContext): ArgoApplication[] {
  const hit = cache.get(ctx.manifests);
  if (hit) return hit;
  const out: ArgoApplication[] = [];
  const seen = new Set<string>();
  const add = (c: ResolvedCluster, objects: readonly ManifestObject[]) => {
    for (const o of objects) {
      if (o.kind !== 'Application' && o.kind !== 'ApplicationSet') continue;
      const key = `${c.name}\0${o.file}\0${o.line}\0${o.name ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(...fromObject(c.name, o));
    }
  };
  for (const c of ctx.clusters) {
    const dir = clusterKustomizationDir(c.file);
    if (dir !== undefined) {
      const listing = ctx.manifests.directory(dir);
      if (listing.kind === 'kustomize') add(c, listing.objects);
    }
    for (const app of c.apps) {
      if (app.destination.server !== IN_CLUSTER) continue;
      add(c, ctx.objectsOf(c, app) ?? []);
    }
  }
  cache.set(ctx.manifests, out);
  return out;
}

/** Line and column of a YAML path in the document of an Application (files parsed once, on demand). */
export class ArgoLocator {
  private readonly docs = new Map<string, LocatedDoc[]>();

  constructor(private readonly fs: RepoFileSystem) {}

  locate(a: ArgoApplication, path: YamlPath): { line?: number; column?: number } {
    let docs = this.docs.get(a.file);
    if (!docs) {
      try {
        docs = located(this.fs.readText(a.file));
      } catch {
        docs = [];
      }
      this.docs.set(a.file, docs);
    }
    const doc = docs.find((d) => get(d.value, 'kind') === a.kind && get(d.value, 'metadata', 'name') === a.docName);
    if (!doc) return {};
    const pos = doc.locate(path);
    return { line: pos.line, column: pos.column };
  }
}
