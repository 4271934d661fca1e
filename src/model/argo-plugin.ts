/**
 * Argo CD config-management plugins (CMP, `source.plugin`) named by an app's own Application.
 * fleetplan never runs a command the repository supplies (docs/adr/0284-config-management-plugins-not-run.md):
 * an app built by a plugin is listed in the plan's notes and `render --leaves` builds nothing for
 * it, instead of building the directory with kustomize or Helm and showing objects Argo CD would
 * not produce. fleetplan's own plugin (`fleetplan cmp`, added by render) is not such a plugin: it
 * is never in the app's own source.
 */
import { isPlainObject } from './merge.js';
import type { ResolvedApp } from './resolved.js';

/** The plugin names of the app's own sources that name `plugin` (`<discovered>` when it has no name). */
export function appPlugins(app: Pick<ResolvedApp, 'manifest' | 'extraSource' | 'extraSpec'>): string[] {
  const sources: unknown[] = [];
  const spec = app.manifest && isPlainObject(app.manifest.spec) ? app.manifest.spec : undefined;
  if (spec) {
    if (spec.source !== undefined) sources.push(spec.source);
    if (Array.isArray(spec.sources)) sources.push(...(spec.sources as unknown[]));
  } else {
    if (app.extraSource) sources.push(app.extraSource);
    if (app.extraSpec && Array.isArray(app.extraSpec.sources)) sources.push(...(app.extraSpec.sources as unknown[]));
  }
  const names: string[] = [];
  for (const s of sources) {
    if (!isPlainObject(s) || s.plugin === undefined || s.plugin === null) continue;
    const p = s.plugin;
    names.push(isPlainObject(p) && typeof p.name === 'string' && p.name !== '' ? p.name : '<discovered>');
  }
  return names;
}

/** The plan's and render's words for an app built by a plugin. */
export function pluginNote(app: string, plugins: readonly string[]): string {
  const which = plugins.map((p) => (p === '<discovered>' ? 'a plugin chosen by discovery (source.plugin without a name)' : `plugin ${p}`)).join(', ');
  return `${app}: built by ${which}: not run (fleetplan never runs commands a repository's plugin configuration supplies; its leaves are not rendered)`;
}
