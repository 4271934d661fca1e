/**
 * An Argo CD Application document → the model's app (AppSpec), carrying the exact object in
 * `manifest`. The layout readers that read Applications from a repository (gitops-standards'
 * built clusters, the argocd layout) choose which of its sources is the app's and share the rest.
 */
import { SYNC_WAVE_ANNOTATION } from './constants.js';
import { parseSyncWave } from './sync-order.js';
import { isPlainObject } from './merge.js';
import type { AppSpec } from './spec.js';

function strings(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) out[k] = String(x);
  return out;
}

/** The app of Application `doc` whose source is `source` (one of its spec.source/spec.sources). */
export function appFromApplication(doc: Record<string, unknown>, source: Record<string, unknown>): AppSpec {
  const md = isPlainObject(doc.metadata) ? doc.metadata : {};
  const spec = isPlainObject(doc.spec) ? doc.spec : {};
  const dest = isPlainObject(spec.destination) ? spec.destination : {};
  const app: AppSpec = { manifest: doc };
  if (typeof source.path === 'string') app.path = source.path;
  if (typeof source.chart === 'string') app.chart = source.chart;
  if (typeof source.repoURL === 'string') app.repoURL = source.repoURL;
  if (typeof source.targetRevision === 'string') app.targetRevision = source.targetRevision;
  if (typeof dest.namespace === 'string') app.namespace = dest.namespace;
  if (typeof dest.server === 'string') app.server = dest.server;
  else if (typeof dest.name === 'string') app.server = dest.name;
  if (typeof spec.project === 'string') app.project = spec.project;
  const annotations = strings(md.annotations);
  if (annotations) app.annotations = annotations;
  const labels = strings(md.labels);
  if (labels) app.labels = labels;
  app.finalizers = Array.isArray(md.finalizers) ? md.finalizers.map(String) : [];
  // gitops-engine reads the wave with strconv.Atoi: digits with an optional sign, no spaces.
  const wave = annotations?.[SYNC_WAVE_ANNOTATION];
  const parsed = parseSyncWave(wave);
  if (parsed !== undefined) app.wave = parsed;
  return app;
}
