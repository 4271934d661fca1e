/**
 * Repository hygiene: app paths must exist and stay inside the repository, must hold something
 * to apply (a kustomization, a chart or plain YAML), and Application names must be unique per
 * Argo CD namespace. (References inside kustomizations are the kustomize-references rule's.)
 */
import type { Finding } from '../../model/finding.js';
import type { Fleet } from '../../model/fleet.js';
import { locateOrigin } from '../../model/fleet.js';
import type { ResolvedApp } from '../../model/resolved.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { ROOT_APPLICATION } from '../../model/constants.js';
import type { RuleDefinition } from '../engine.js';
import { at, fieldOrigin, normalizeRepoPath, place } from '../context.js';
import type { ResolvedCluster } from '../../model/resolved.js';
import type { ManifestIndex } from '../../load/manifests.js';
import { renderedClusterPath } from '../../generate/argocd.js';
import { isPlainObject } from '../../model/merge.js';
import { sameRepository } from '../../model/git-url.js';
import { applicationFor } from '../../generate/argocd.js';
import { applicationSource } from '../../model/argo-source-type.js';
import { directoryJsonnetFiles, directoryManifestFiles } from '../jsonnet-sources.js';
import { appPlugins } from '../../model/argo-plugin.js';

export const repositoryHygieneRule: RuleDefinition = {
  name: 'repository-hygiene',
  codes: {
    'path-escapes-repo': {
      severity: 'error',
      summary: 'app path leaves the repository',
      help: 'Argo CD refuses source paths outside the repository. Use a path relative to the repository root.',
    },
    'missing-path': {
      severity: 'error',
      summary: 'app path does not exist',
      help: 'The Application would fail with "app path does not exist". Create the directory or fix the path.',
    },
    'empty-source': {
      severity: 'error',
      summary: 'app directory has nothing to apply',
      help: 'The directory has no kustomization, no Chart.yaml and no YAML files; the Application would sync nothing.',
    },
    'plugin-needs-kustomization': {
      severity: 'error',
      summary: 'the config-management plugin gets a directory without a kustomization',
      help: 'The plugin runs `kustomize build` on the app directory, which fails without a kustomization.yaml. Add one listing the files, or render a chart with Helm (give the app `helm:`).',
    },
    'duplicate-app': {
      severity: 'error',
      summary: 'two Applications with one name in one Argo CD namespace',
      help: 'Application names are unique per namespace: the second one overwrites the first. Rename one.',
    },
  },
  run(ctx) {
    const { fleet, clusters, fs, manifests } = ctx;
    const out: Finding[] = [];
    for (const c of clusters) {
      const names = new Map<string, string>([[ROOT_APPLICATION, 'the root Application fleetplan generates']]);
      // An app read from the repository's own Application (the argocd layout's app-of-apps): the
      // parent's build delivers that very manifest, which is the app, not a second Application.
      const ownManifest = new Map<string, string>();
      for (const app of c.apps) if (app.manifest !== undefined) ownManifest.set(app.name, locateOrigin(fleet, app.origin).file);
      for (const app of c.apps) {
        // The root Application managing itself (app-of-apps bootstrap hand-off) is the root, not a second one.
        if (app.name === ROOT_APPLICATION && !rootPaths(fleet, c, manifests).has(normalizeRepoPath(app.source.path ?? '') ?? '')) {
          const roots = [...rootPaths(fleet, c, manifests)].sort();
          out.push(place(fleet, app.origin, {
            severity: 'error',
            code: 'duplicate-app',
            message: `app "${ROOT_APPLICATION}" has the name of the root Application of ${c.name} (which reads ${roots.join(' or ')}) but reads ${app.source.path ?? app.source.chart ?? 'another source'}: syncing it replaces the root`,
            hint: `rename the app, or point it at ${roots.join(' or ')} so that the root manages itself`,
            cluster: c.name,
            app: app.name,
          }));
        }
        names.set(app.name, `app "${app.name}"`);
      }
      for (const app of c.apps) {
        const path = app.source.path;
        if (path === undefined || !sameRepository(app.source.repoURL, fleet.repoURL) || app.source.chart !== undefined) continue;
        const normalized = normalizeRepoPath(path);
        // `fleetplan render --out` writes these (provisioning apps); they need not exist yet.
        if (normalized !== undefined && normalized.startsWith(`${fleet.renderedPath}/`)) continue;
        const origin = () => fieldOrigin(fleet, app, ['path']);
        if (normalized === undefined) {
          out.push(place(fleet, origin(), {
            severity: 'error',
            code: 'path-escapes-repo',
            message: `app "${app.name}" path "${path}" leaves the repository`,
            hint: 'use a path relative to the repository root, without leading ../',
            cluster: c.name,
            app: app.name,
          }));
          continue;
        }
        // One read per directory (cached by the index), however many clusters use it.
        const dir = manifests.directory(normalized);
        // The reader said it is filled in on apply and not followed (not-read): Argo CD gets the substituted path.
        if (dir.kind === 'missing' && fleet.capabilities.applyTimePaths === true && /\$\{?[A-Za-z_]/.test(path)) continue;
        // The reader that followed the Application said so already, in Argo CD's words (argocd layout).
        if (dir.kind === 'missing' && fleet.loadFindings.some((f) => f.code === 'app-path-missing' && f.app === app.name && f.cluster === c.name)) continue;
        if (dir.kind === 'missing') {
          out.push(place(fleet, origin(), {
            severity: 'error',
            code: 'missing-path',
            message: `app "${app.name}" path "${path}" does not exist in the repository${fs.exists(normalized) ? ' as a directory' : ''}`,
            hint: nearbyPath(fs, normalized) ?? 'create the directory or fix the path',
            cluster: c.name,
            app: app.name,
          }));
          continue;
        }
        // Flux generates a kustomization from every YAML file below a directory that has none.
        // Argo CD evaluates the .jsonnet files of a directory source (ADR 0303): such a directory is not empty.
        const source = () => applicationSource(applicationFor(c, app) as unknown as Record<string, unknown>) ?? {};
        const jsonnet = () => fleet.engine !== 'flux' && directoryJsonnetFiles(fs, normalized, source()).length > 0;
        // directory.recurse reads the manifests of the subdirectories too.
        const recursed = () => fleet.engine !== 'flux' && directoryManifestFiles(fs, normalized, source()).length > 0;
        if (dir.kind === 'empty' && !(fleet.engine === 'flux' && hasYamlBelow(fs, normalized, 0)) && !jsonnet() && !recursed() && appPlugins(app).length === 0) {
          out.push(place(fleet, origin(), {
            severity: 'error',
            code: 'empty-source',
            message: `app "${app.name}" path "${path}" has no kustomization, chart or YAML files`,
            hint: 'add a kustomization.yaml listing the resources, or point the app at the right directory',
            cluster: c.name,
            app: app.name,
          }));
        }
        // The plugin builds with kustomize: plain YAML and bare charts fail there, though Argo CD's own tools read them.
        if ((dir.kind === 'plain' || dir.kind === 'chart') && usesPlugin(fleet, app)) {
          out.push(place(fleet, origin(), {
            severity: 'error',
            code: 'plugin-needs-kustomization',
            message: `app "${app.name}" path "${path}" ${dir.kind === 'chart' ? 'is a Helm chart' : 'holds plain YAML'} without a kustomization.yaml, but its Application renders it with the config-management plugin (kustomize build), which fails there`,
            hint: dir.kind === 'chart'
              ? 'give the app `helm:` (values or valueFiles) so Argo CD renders the chart with Helm, or add a kustomization.yaml with a helmCharts entry'
              : `add ${path}/kustomization.yaml listing the YAML files under resources:`,
            cluster: c.name,
            app: app.name,
          }));
        }
        // Applications written as manifests (app-of-apps by hand) share the namespace with generated ones.
        // The argocd layout's follower judged these itself, naming both places (ADR 0367).
        for (const o of fleet.capabilities.applicationNamesJudged === true ? [] : (ctx.objectsOf(c, app) ?? [])) {
          if (o.kind !== 'Application' || o.group !== 'argoproj.io' || !o.name) continue;
          const ns = o.namespace ?? app.destination.namespace;
          if (ns !== c.gitopsNamespace) continue;
          if (ownManifest.get(o.name) === o.file) continue;
          const prev = names.get(o.name);
          const self = `Application ${o.name} in ${o.file}`;
          if (prev === self) continue; // the same manifest through two apps: shared-object says so
          if (prev) {
            out.push(at(o.file, o.line, {
              severity: 'error',
              code: 'duplicate-app',
              message: `Application "${o.name}" in ${ns} on cluster ${c.name} has the name of ${prev}`,
              hint: 'rename one of them',
              cluster: c.name,
              app: app.name,
            }));
          } else names.set(o.name, self);
        }
      }
    }
    return out;
  },
};

/** Whether the app's Application is rendered by a config-management plugin (generated, or as written). */
/**
 * True when fleetplan's own plugin (fleet.yaml `gitops.plugin`: `kustomize build | envsubst`)
 * builds the app. An Application of the repository that names another plugin is built by that
 * plugin's commands, which fleetplan never runs or judges (ADR 0284).
 */
function usesPlugin(fleet: Fleet, app: ResolvedApp): boolean {
  if (fleet.plugin === undefined) return false;
  if (app.manifest) {
    const spec = app.manifest.spec;
    const source = spec && typeof spec === 'object' ? (spec as Record<string, unknown>).source : undefined;
    const plugin = typeof source === 'object' && source !== null ? (source as Record<string, unknown>).plugin : undefined;
    if (plugin === undefined || plugin === null) return false;
    const name = typeof plugin === 'object' ? (plugin as Record<string, unknown>).name : undefined;
    return name === undefined || name === '' || name === fleet.plugin.name;
  }
  return app.source.helm === undefined;
}

function hasYamlBelow(fs: RepoFileSystem, dir: string, depth: number): boolean {
  if (depth > 8) return false;
  for (const e of fs.list(dir)) {
    const p = `${dir}/${e}`;
    if (/\.ya?ml$/.test(e) && !fs.isDirectory(p)) return true;
    if (fs.isDirectory(p) && hasYamlBelow(fs, p, depth + 1)) return true;
  }
  return false;
}

/** A directory that exists where a dangling path was probably meant (one `overlays/` more or less). */
function nearbyPath(fs: RepoFileSystem, path: string): string | undefined {
  const parts = path.split('/');
  const candidates: string[] = [];
  const i = parts.indexOf('overlays');
  if (i >= 0) candidates.push([...parts.slice(0, i), ...parts.slice(i + 1)].join('/'));
  if (parts.length >= 2) candidates.push([...parts.slice(0, -1), 'overlays', parts[parts.length - 1]!].join('/'));
  const found = candidates.find((c) => c !== path && fs.isDirectory(c));
  return found ? `there is a directory ${found}: fix the path to it, or create ${path}` : undefined;
}

/**
 * The paths the cluster's root Application reads: the one fleetplan generates (rendered/<cluster>)
 * and, when the layout bootstraps with its own (gitops-standards `.bootstrap/root-application.yaml`,
 * `path: clusters/${cluster_name}`), that one with the cluster's name filled in.
 */
function rootPaths(fleet: Fleet, c: ResolvedCluster, manifests: ManifestIndex): Set<string> {
  const paths = new Set<string>([renderedClusterPath(fleet, c.name)]);
  for (const file of fleet.manifestFiles ?? []) {
    for (const o of manifests.file(file)) {
      if (o.kind !== 'Application' || o.group !== 'argoproj.io' || o.name !== ROOT_APPLICATION) continue;
      const source = isPlainObject(o.body.spec) && isPlainObject(o.body.spec.source) ? o.body.spec.source : undefined;
      if (typeof source?.path !== 'string') continue;
      const path = normalizeRepoPath(source.path.replace(/\$\{(cluster_name|CLUSTER_NAME)\}/g, c.name));
      if (path !== undefined) paths.add(path);
    }
  }
  return paths;
}
