/**
 * Stage 6, validate: every finding about a fleet — loading (syntax, schema), resolution (needs,
 * waves, variables, groups, sectors) and the repository rules below. Rules are small functions
 * `(context) → Finding[]`; all run, nothing stops at the first problem.
 */
import type { Finding } from '../model/finding.js';
import { compareFindings } from '../model/finding.js';
import type { Fleet, Origin } from '../model/fleet.js';
import { displayPath, locateOrigin } from '../model/fleet.js';
import type { ResolvedApp, ResolvedCluster } from '../model/resolved.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { mergeFindings, resolveFleet } from '../layering/resolve-fleet.js';
import type { SelectOptions } from '../layering/resolve-fleet.js';
import { ROOT_APPLICATION } from '../generate/argocd.js';
import { formatPath } from '../spec/yaml-source.js';
import { kustomizeReferencesRule } from './kustomize-refs.js';
import { provisionRules } from './provision.js';

export interface RuleContext {
  fleet: Fleet;
  clusters: ResolvedCluster[];
  fs: RepoFileSystem;
}

export type Rule = (ctx: RuleContext) => Finding[];

export interface ValidateOptions extends SelectOptions {
  fs: RepoFileSystem;
}

export function validateFleet(fleet: Fleet, options: ValidateOptions): Finding[] {
  const { clusters, findings } = resolveFleet(fleet, options);
  const ctx: RuleContext = { fleet, clusters, fs: options.fs };
  const all = [...findings];
  for (const rule of rules) all.push(...rule(ctx));
  return mergeFindings(all).sort(compareFindings);
}

function place(fleet: Fleet, origin: Origin, f: Omit<Finding, 'file' | 'line' | 'column' | 'path'>): Finding {
  const loc = locateOrigin(fleet, origin);
  const p = formatPath(displayPath(fleet, origin));
  return { ...f, ...loc, ...(p ? { path: p } : {}) };
}

/** The layer that set `field` last: where a finding about that field belongs. */
export function fieldOrigin(fleet: Fleet, app: ResolvedApp, field: readonly string[]): Origin {
  for (let i = app.layers.length - 1; i >= 0; i--) {
    const o = app.layers[i]!;
    const src = fleet.sources.get(o.file);
    let v: unknown = src?.value;
    for (const seg of [...o.path, ...field]) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[seg] : undefined;
    if (v !== undefined) return { file: o.file, path: [...o.path, ...field] };
  }
  return app.origin;
}

/** App paths must exist and stay inside the repository (only for apps sourced from the fleet repo). */
export const pathRule: Rule = ({ fleet, clusters, fs }) => {
  const out: Finding[] = [];
  for (const c of clusters) {
    for (const app of c.apps) {
      const path = app.source.path;
      if (path === undefined || app.source.repoURL !== fleet.repoURL || app.source.chart !== undefined) continue;
      const normalized = normalizeRepoPath(path);
      // `fleetplan render --out` writes these (provisioning apps); they need not exist yet.
      if (normalized !== undefined && normalized.startsWith(`${fleet.renderedPath}/`)) continue;
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
      } else if (!fs.isDirectory(normalized)) {
        out.push(place(fleet, origin, {
          severity: 'error',
          code: 'missing-path',
          message: `app "${app.name}" path "${path}" does not exist in the repository${fs.exists(normalized) ? ' as a directory' : ''}`,
          hint: nearbyPath(fs, normalized) ?? 'create the directory or fix the path',
          cluster: c.name,
          app: app.name,
        }));
      }
    }
  }
  return out;
};

/** Application names must be unique in a cluster's Argo CD namespace, the root Application included. */
export const duplicateNameRule: Rule = ({ fleet, clusters }) => {
  const out: Finding[] = [];
  for (const c of clusters) {
    const root = c.apps.find((a) => a.name === ROOT_APPLICATION);
    if (root) {
      out.push(place(fleet, root.origin, {
        severity: 'error',
        code: 'duplicate-app',
        message: `app "${ROOT_APPLICATION}" has the name of the root Application that fleetplan generates on ${c.name}`,
        hint: 'rename the app',
        cluster: c.name,
        app: root.name,
      }));
    }
  }
  return out;
};

export const rules: Rule[] = [pathRule, duplicateNameRule, kustomizeReferencesRule, ...provisionRules];

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

/** `a/./b/../c` → `a/c`; undefined when the path leaves the root or is absolute. */
export function normalizeRepoPath(path: string): string | undefined {
  if (path.startsWith('/')) return undefined;
  const parts: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.length ? parts.join('/') : '.';
}
