/**
 * Repository hygiene: app paths must exist and stay inside the repository, must hold something
 * to apply (a kustomization, a chart or plain YAML), kustomizations must not reference files that
 * are missing or outside the repository, and Application names must be unique per Argo CD namespace.
 */
import type { Finding } from '../../model/finding.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { ROOT_APPLICATION } from '../../generate/argocd.js';
import type { RuleDefinition } from '../engine.js';
import { at, fieldOrigin, normalizeRepoPath, place } from '../context.js';
import { KUSTOMIZATION_FILES } from '../manifests.js';

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
    'resource-escapes-repo': {
      severity: 'error',
      summary: 'kustomization references a path outside the repository',
      help: 'kustomize build fails (or needs --load-restrictor LoadRestrictionsNone and a checkout above the repository). Reference files inside the repository.',
    },
    'missing-resource': {
      severity: 'error',
      summary: 'kustomization references a file or directory that does not exist',
      help: 'kustomize build fails on a missing resource. Fix the reference or add the file.',
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
    const reportedDirs = new Set<string>();
    for (const c of clusters) {
      const names = new Map<string, string>([[ROOT_APPLICATION, 'the root Application fleetplan generates']]);
      for (const app of c.apps) {
        if (app.name === ROOT_APPLICATION) {
          out.push(place(fleet, app.origin, {
            severity: 'error',
            code: 'duplicate-app',
            message: `app "${ROOT_APPLICATION}" has the name of the root Application that fleetplan generates on ${c.name}`,
            hint: 'rename the app',
            cluster: c.name,
            app: app.name,
          }));
        }
        names.set(app.name, `app "${app.name}"`);
      }
      for (const app of c.apps) {
        const path = app.source.path;
        if (path === undefined || app.source.repoURL !== fleet.repoURL || app.source.chart !== undefined) continue;
        const normalized = normalizeRepoPath(path);
        const origin = fieldOrigin(fleet, app, ['path']);
        if (normalized === undefined) {
          out.push(place(fleet, origin, {
            severity: 'error',
            code: 'path-escapes-repo',
            message: `app "${app.name}" path "${path}" leaves the repository`,
            hint: 'use a path relative to the repository root, without leading ../',
            cluster: c.name,
            app: app.name,
          }));
          continue;
        }
        if (!fs.isDirectory(normalized)) {
          out.push(place(fleet, origin, {
            severity: 'error',
            code: 'missing-path',
            message: `app "${app.name}" path "${path}" does not exist in the repository${fs.exists(normalized) ? ' as a directory' : ''}`,
            hint: 'create the directory or fix the path',
            cluster: c.name,
            app: app.name,
          }));
          continue;
        }
        const dir = manifests.directory(normalized);
        // Flux generates a kustomization from every YAML file below a directory that has none.
        if (dir.kind === 'empty' && !(fleet.engine === 'flux' && hasYamlBelow(fs, normalized, 0))) {
          out.push(place(fleet, origin, {
            severity: 'error',
            code: 'empty-source',
            message: `app "${app.name}" path "${path}" has no kustomization, chart or YAML files`,
            hint: 'add a kustomization.yaml listing the resources, or point the app at the right directory',
            cluster: c.name,
            app: app.name,
          }));
        }
        if (!reportedDirs.has(normalized)) {
          reportedDirs.add(normalized);
          for (const p of dir.problems) {
            out.push(at(p.file, p.line, {
              severity: 'error',
              code: p.code,
              message: `${p.message} (read by app "${app.name}")`,
              hint: p.code === 'missing-resource' ? 'fix the reference or add the file' : 'reference files inside the repository',
            }));
          }
        }
        // Applications written as manifests (app-of-apps by hand) share the namespace with generated ones.
        for (const o of ctx.objectsOf(c, app) ?? []) {
          if (o.kind !== 'Application' || o.group !== 'argoproj.io' || !o.name) continue;
          const ns = o.namespace ?? app.destination.namespace;
          if (ns !== c.gitopsNamespace) continue;
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
    // Every other kustomization of the repository: a broken one is broken for whoever uses it next.
    for (const dir of kustomizationDirs(fs, '.', 0, [])) {
      if (reportedDirs.has(dir)) continue;
      for (const p of manifests.directory(dir).problems) {
        out.push(at(p.file, p.line, {
          severity: 'error',
          code: p.code,
          message: p.message,
          hint: p.code === 'missing-resource' ? 'fix the reference or add the file' : 'reference files inside the repository',
        }));
      }
    }
    return out;
  },
};

const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', '.tools']);

/** Directories with a kustomization file, depth-first in name order. */
function kustomizationDirs(fs: RepoFileSystem, dir: string, depth: number, out: string[]): string[] {
  if (depth > 12) return out;
  const entries = fs.list(dir);
  if (dir !== '.' && KUSTOMIZATION_FILES.some((f) => entries.includes(f))) out.push(dir);
  for (const e of entries) {
    if (SKIP_DIRS.has(e)) continue;
    const p = dir === '.' ? e : `${dir}/${e}`;
    if (!e.includes('.') || e.startsWith('.')) {
      if (fs.isDirectory(p)) kustomizationDirs(fs, p, depth + 1, out);
    } else if (!/\.(ya?ml|json|md|txt|sh|tpl|gotmpl|properties|env|lua|py|js|ts)$/.test(e) && fs.isDirectory(p)) {
      kustomizationDirs(fs, p, depth + 1, out);
    }
  }
  return out;
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
