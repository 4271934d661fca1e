/**
 * The argocd-app-of-app chart (gnunn-gitops/argocd-app-of-app-chart, as copied into
 * gitops-standards repositories), evaluated in TypeScript for the two template versions known to
 * fleetplan: one values file (merged over the chart's values.yaml) → the Applications and
 * AppProjects `helm template` prints, as model data. The chart's exact semantics:
 *
 *   enabled                 `hasKey` → the app's value, else default.app.enabled; Go truth
 *   labels, annotations     sprig `merge app default` (the app wins)
 *   finalizers              `uniq (concat app default)`
 *   destination             namespace/server: app value `| default` default.app value; `required`
 *                           (the newer template prints a namespace only when the app gives one)
 *   project                 `projectOverride`, else app `| default` default.app.project
 *   syncPolicy              only when enableAutoSync (hasKey); automated.selfHeal, prune when
 *                           autoSyncPrune (hasKey); retry = merge of syncPolicyRetry maps;
 *                           syncOptions = `uniq (concat app default)` when either has the key
 *   source                  path (`tpl`), repoURL / targetRevision `| default`; newer template:
 *                           `plugin`, per-app `ignoreDifferences`, multi-`sources`
 *   extraSourceFields,      YAML text (`tpl`) merged into source / spec; the app's, else the default's
 *   extraFields
 *   projects                labels, annotations, extraFields, description (`tpl`), sourceRepos
 *                           (newer: `tpl`), roles (or default.project.roles), destinations (`tpl`)
 *
 * What the evaluation cannot reproduce exactly throws Unsupported; the reader then builds that
 * cluster with the real kustomize and Helm.
 */
import { createHash } from 'node:crypto';
import { isPlainObject } from '../../model/merge.js';
import type { AppSpec, ProjectSpec } from '../../model/spec.js';
import type { Values } from './helm-values.js';
import { Unsupported, get, hasKey, orDefault, plainScalar, sprigMerge, tpl, truthy, uniqConcat, yamlList, yamlMap } from './helm-values.js';

export const CHART_NAME = 'argocd-app-of-app';
export const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';

export interface ChartVariant {
  /** `classic`: svitnin-redhat's copy; `sources`: redhat-cop's newer copy (sources, plugin, ignoreDifferences). */
  id: 'classic' | 'sources';
  /** Newer template: destination.namespace only when the app sets one; default.app's is never used. */
  namespaceOnlyWhenGiven: boolean;
  /** Newer template: `plugin`, `ignoreDifferences` and `sources` per app. */
  multiSource: boolean;
  /** Newer template: `tpl (toYaml sourceRepos)`. */
  tplSourceRepos: boolean;
}

/** Fingerprints of templates/applications.yaml + templates/projects.yaml (trailing blanks ignored). */
const VARIANTS: Record<string, ChartVariant> = {
  '22c331d1496b47519240211b9643eaa2606e4269bbd01b80675e065308fb14c6': { id: 'classic', namespaceOnlyWhenGiven: false, multiSource: false, tplSourceRepos: false },
  '5e75b0966e01ab1e500cf2dc71d82934c7db4a1e876b7cfbf8f823410ba85551': { id: 'sources', namespaceOnlyWhenGiven: true, multiSource: true, tplSourceRepos: true },
};

export function templateFingerprint(applications: string, projects: string): string {
  const norm = (t: string) => t.replace(/\r\n/g, '\n').split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/\n+$/, '');
  return createHash('sha256').update(`${norm(applications)}\0${norm(projects)}`).digest('hex');
}

export function chartVariant(fingerprint: string): ChartVariant | undefined {
  return VARIANTS[fingerprint];
}

export interface ChartApp {
  name: string;
  spec: AppSpec;
}

export interface ChartOutput {
  apps: ChartApp[];
  /** Disabled apps, by name (for plan readers: they are in the values but produce nothing). */
  disabled: string[];
  projects: Record<string, ProjectSpec>;
  /** Problems with values that the chart renders anyway (e.g. a sync wave that is not an integer). */
  problems: { path: (string | number)[]; code: string; message: string; hint: string }[];
}

/** Evaluates the chart for one merged values tree. Throws Unsupported. */
export function evaluateChart(values: Values, variant: ChartVariant): ChartOutput {
  const out: ChartOutput = { apps: [], disabled: [], projects: {}, problems: [] };
  const def = get(values, 'default', 'app');
  const apps = values.applications;
  if (apps !== undefined && apps !== null && !isPlainObject(apps)) throw new Unsupported('`applications` is not a map');
  for (const name of Object.keys(apps ?? {}).sort()) {
    const val = (apps as Values)[name];
    if (!isPlainObject(val)) throw new Unsupported(`applications.${name} is not a map`);
    const enabled = hasKey(val, 'enabled') ? val.enabled : get(def, 'enabled');
    if (!truthy(enabled)) {
      out.disabled.push(name);
      continue;
    }
    out.apps.push({ name, spec: evaluateApp(name, val, values, def, variant, out.problems) });
  }
  const projects = values.projects;
  if (projects !== undefined && projects !== null && !isPlainObject(projects)) throw new Unsupported('`projects` is not a map');
  for (const name of Object.keys(projects ?? {}).sort()) {
    out.projects[name] = evaluateProject(name, (projects as Values)[name], values, variant);
  }
  return out;
}

function stringMap(v: unknown, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(isPlainObject(v) ? v : {})) {
    if (typeof x !== 'string') throw new Unsupported(`${what}.${k} is not a string`);
    out[k] = x;
  }
  return out;
}

function required(v: unknown, message: string): unknown {
  if (v === undefined || v === null || v === '') throw new Unsupported(`the chart fails: ${message}`);
  return v;
}

function evaluateApp(name: string, val: Values, values: Values, def: unknown, variant: ChartVariant, problems: ChartOutput['problems']): AppSpec {
  plainScalar(name, `application name`);
  for (const k of ['labels', 'annotations', 'destination', 'syncPolicyRetry'] as const) {
    if (val[k] !== undefined && val[k] !== null && !isPlainObject(val[k])) throw new Unsupported(`applications.${name}.${k} is not a map`);
  }
  const spec: AppSpec = {};
  const defLabels = get(def, 'labels');
  if (truthy(val.labels) || truthy(defLabels)) spec.labels = stringMap(sprigMerge(val.labels, defLabels), `applications.${name}.labels`);
  const defAnnotations = get(def, 'annotations');
  let annotations: Record<string, string> = {};
  if (truthy(val.annotations) || truthy(defAnnotations)) annotations = stringMap(sprigMerge(val.annotations, defAnnotations), `applications.${name}.annotations`);
  spec.annotations = annotations;
  const wave = annotations[SYNC_WAVE];
  if (wave !== undefined) {
    if (/^[-+]?\d+$/.test(wave)) spec.wave = Number.parseInt(wave, 10);
    else {
      problems.push({
        path: ['applications', name, 'annotations', SYNC_WAVE],
        code: 'bad-wave',
        message: `sync wave "${wave}" of app "${name}" is not an integer`,
        hint: "write the wave as a quoted integer, e.g. '5'",
      });
    }
  }
  const defFinalizers = get(def, 'finalizers');
  let finalizers: unknown[] = [];
  if (truthy(val.finalizers) || truthy(defFinalizers)) {
    const a = truthy(val.finalizers) ? val.finalizers : [];
    const b = truthy(defFinalizers) ? defFinalizers : [];
    if (!Array.isArray(a) || !Array.isArray(b)) throw new Unsupported(`applications.${name}.finalizers is not a list`);
    finalizers = uniqConcat(a, b);
  }
  if (!finalizers.every((f) => typeof f === 'string')) throw new Unsupported(`applications.${name}.finalizers holds a non-string`);
  spec.finalizers = finalizers as string[];

  // destination
  const appNs = get(val.destination, 'namespace');
  if (!variant.namespaceOnlyWhenGiven || truthy(appNs)) {
    const ns = required(orDefault(appNs, get(def, 'destination', 'namespace')), `No destination.namespace specified for ${name}`);
    spec.namespace = plainScalar(ns, `applications.${name}.destination.namespace`);
  }
  const server = required(orDefault(get(val.destination, 'server'), get(def, 'destination', 'server')), `No destination.server specified for ${name}`);
  spec.server = plainScalar(server, `applications.${name}.destination.server`);

  // project
  const project = truthy(values.projectOverride)
    ? values.projectOverride
    : required(orDefault(val.project, get(def, 'project')), `No project specified for ${name}`);
  spec.project = plainScalar(project, `applications.${name}.project`);

  if (variant.multiSource && truthy(val.ignoreDifferences)) {
    if (!Array.isArray(val.ignoreDifferences) || !val.ignoreDifferences.every(isPlainObject)) {
      throw new Unsupported(`applications.${name}.ignoreDifferences is not a list of maps`);
    }
    spec.ignoreDifferences = val.ignoreDifferences;
  }

  // syncPolicy
  spec.syncOptions = [];
  const autoSync = hasKey(val, 'enableAutoSync') ? val.enableAutoSync : get(def, 'enableAutoSync');
  if (truthy(autoSync)) {
    const prune = hasKey(val, 'autoSyncPrune') ? val.autoSyncPrune : get(def, 'autoSyncPrune');
    const syncPolicy: Record<string, unknown> = { automated: truthy(prune) ? { selfHeal: true, prune: true } : { selfHeal: true } };
    const appRetry = hasKey(val, 'syncPolicyRetry');
    const defRetry = hasKey(def, 'syncPolicyRetry');
    if (appRetry || defRetry) {
      const a = appRetry ? val.syncPolicyRetry : {};
      const b = defRetry ? get(def, 'syncPolicyRetry') : {};
      if (!isPlainObject(a) || !isPlainObject(b)) throw new Unsupported(`applications.${name}.syncPolicyRetry is not a map`);
      syncPolicy.retry = sprigMerge(a, b);
    }
    const appOpts = hasKey(val, 'syncOptions');
    const defOpts = hasKey(def, 'syncOptions');
    if (appOpts || defOpts) {
      const a = appOpts ? val.syncOptions : [];
      const b = defOpts ? get(def, 'syncOptions') : [];
      if (!Array.isArray(a) || !Array.isArray(b)) throw new Unsupported(`applications.${name}.syncOptions is not a list`);
      const opts = uniqConcat(a, b);
      if (opts.length === 0) throw new Unsupported(`applications.${name}: the chart prints an empty syncOptions`);
      if (!opts.every((o) => typeof o === 'string')) throw new Unsupported(`applications.${name}.syncOptions holds a non-string`);
      spec.syncOptions = opts as string[];
    }
    spec.syncPolicy = syncPolicy;
  }

  // source
  if (variant.multiSource && truthy(val.sources)) throw new Unsupported(`applications.${name} has multiple sources`);
  const src = val.source;
  if (src !== undefined && src !== null && !isPlainObject(src)) throw new Unsupported(`applications.${name}.source is not a map`);
  const path = get(src, 'path');
  if (typeof path !== 'string') throw new Unsupported(`the chart fails: applications.${name}.source.path is not a string`);
  spec.path = plainScalar(tpl(path, values), `applications.${name}.source.path`);
  spec.repoURL = plainScalar(
    required(orDefault(get(src, 'repoURL'), get(def, 'source', 'repoURL')), `No source.repoURL specified for ${name}`),
    `applications.${name}.source.repoURL`,
  );
  spec.targetRevision = plainScalar(
    required(orDefault(get(src, 'targetRevision'), get(def, 'source', 'targetRevision')), `No source.targetRevision specified for ${name}`),
    `applications.${name}.source.targetRevision`,
  );
  const extraSource: Record<string, unknown> = {};
  if (variant.multiSource && truthy(get(src, 'plugin'))) extraSource.plugin = get(src, 'plugin');
  const extraSourceText = truthy(get(src, 'extraSourceFields')) ? get(src, 'extraSourceFields') : get(def, 'source', 'extraSourceFields');
  if (truthy(extraSourceText)) {
    if (typeof extraSourceText !== 'string') throw new Unsupported(`applications.${name}.source.extraSourceFields is not a string`);
    for (const [k, v] of Object.entries(yamlMap(tpl(extraSourceText, values), `applications.${name}.source.extraSourceFields`))) {
      if (['path', 'repoURL', 'targetRevision', 'plugin'].includes(k)) throw new Unsupported(`extraSourceFields repeats source.${k}`);
      extraSource[k] = v;
    }
  }
  if (Object.keys(extraSource).length > 0) spec.extraSource = extraSource;
  const extraText = truthy(val.extraFields) ? val.extraFields : get(def, 'extraFields');
  if (truthy(extraText)) {
    if (typeof extraText !== 'string') throw new Unsupported(`applications.${name}.extraFields is not a string`);
    const extra = yamlMap(tpl(extraText, values), `applications.${name}.extraFields`);
    const printed = ['destination', 'project', 'source', ...(spec.syncPolicy ? ['syncPolicy'] : []), ...(spec.ignoreDifferences ? ['ignoreDifferences'] : [])];
    for (const k of Object.keys(extra)) if (printed.includes(k)) throw new Unsupported(`extraFields repeats spec.${k}`);
    if (Object.keys(extra).length > 0) spec.extraSpec = extra;
  }
  return spec;
}

function evaluateProject(name: string, val: unknown, values: Values, variant: ChartVariant): ProjectSpec {
  if (!isPlainObject(val)) throw new Unsupported(`projects.${name} is not a map`);
  plainScalar(name, 'project name');
  const metadata: Record<string, unknown> = { name };
  if (truthy(val.labels)) metadata.labels = stringMap(val.labels, `projects.${name}.labels`);
  if (truthy(val.annotations)) metadata.annotations = stringMap(val.annotations, `projects.${name}.annotations`);
  const spec: Record<string, unknown> = {};
  if (truthy(val.extraFields)) {
    if (typeof val.extraFields !== 'string') throw new Unsupported(`projects.${name}.extraFields is not a string`);
    Object.assign(spec, yamlMap(tpl(val.extraFields, values).trim(), `projects.${name}.extraFields`));
  }
  const claim = (k: string, v: unknown) => {
    if (k in spec) throw new Unsupported(`projects.${name}.extraFields repeats spec.${k}`);
    spec[k] = v;
  };
  if (typeof val.description !== 'string') throw new Unsupported(`the chart fails: projects.${name}.description is not a string`);
  claim('description', plainScalar(tpl(val.description, values), `projects.${name}.description`));
  if (!Array.isArray(val.sourceRepos) || val.sourceRepos.length === 0) throw new Unsupported(`projects.${name}.sourceRepos is not a non-empty list`);
  claim('sourceRepos', variant.tplSourceRepos ? val.sourceRepos.map((r, i) => tplListItem(r, values, `projects.${name}.sourceRepos[${i}]`)) : val.sourceRepos);
  const defProject = get(values, 'default', 'project');
  if (truthy(val.roles)) claim('roles', val.roles);
  else if (truthy(get(defProject, 'roles'))) claim('roles', get(defProject, 'roles'));
  let destinations: unknown;
  if (truthy(val.destinations)) destinations = val.destinations;
  else {
    if (!isPlainObject(defProject)) throw new Unsupported(`the chart fails: projects.${name} has no destinations and default.project is empty`);
    destinations = defProject.destinations;
  }
  if (truthy(destinations)) {
    if (typeof destinations !== 'string') throw new Unsupported(`projects.${name}.destinations is not a YAML text`);
    claim('destinations', yamlList(tpl(destinations, values), `projects.${name}.destinations`));
  }
  const manifest = { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata, spec };
  const p: ProjectSpec = { manifest, description: spec.description as string, sourceRepos: spec.sourceRepos as string[] };
  if (metadata.labels) p.labels = metadata.labels as Record<string, string>;
  if (metadata.annotations) p.annotations = metadata.annotations as Record<string, string>;
  if (Array.isArray(spec.destinations)) p.destinations = spec.destinations as Record<string, unknown>[];
  if (Array.isArray(spec.clusterResourceWhitelist)) p.clusterResourceWhitelist = spec.clusterResourceWhitelist as Record<string, unknown>[];
  return p;
}

/** One item of `tpl (toYaml list)`: toYaml single-quotes a string that starts with `{`. */
function tplListItem(item: unknown, values: Values, what: string): unknown {
  if (typeof item !== 'string' || !item.includes('{{')) return item;
  const out = tpl(item, values);
  if (item.startsWith('{') && !/['\n]/.test(out)) return out;
  return plainScalar(out, what);
}
