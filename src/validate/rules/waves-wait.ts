/**
 * Waves that do not wait.
 *
 * 1. An app-of-apps only waits for a wave's child Applications to be healthy when its Argo CD has
 *    a health check for Application (removed from the defaults in Argo CD 1.8; argo-cd #3781,
 *    #4577, #5585). fleetplan's own bootstrap always configures it; in other layouts the repo's
 *    ArgoCD CR or argocd-cm is checked.
 * 2. An ApplicationSet's own sync wave orders the ApplicationSet object in its parent's sync,
 *    not the Applications it generates: an ApplicationSet is healthy as soon as it exists. The
 *    waves its template gives its Applications order nothing: they are not children of a sync
 *    (argo-cd #12444). Only a RollingSync strategy orders them. The plan says the same (ADR 0407).
 */
import type { Finding } from '../../model/finding.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { bootstrapFor } from '../../generate/argocd.js';
import type { RuleDefinition } from '../engine.js';
import type { RuleContext } from '../context.js';
import { at } from '../context.js';
import type { ManifestObject } from '../../load/manifests.js';
import { isObj } from '../../load/manifests.js';

const WAVE = 'argocd.argoproj.io/sync-wave';
const HEALTH_KEY = 'resource.customizations.health.argoproj.io_Application';

/** True when an ArgoCD CR or argocd-cm configures the Application health check. */
export function hasApplicationHealth(o: { kind: string; body: Record<string, unknown> }): boolean {
  if (o.kind === 'ConfigMap') {
    const data = isObj(o.body.data) ? o.body.data : {};
    if (typeof data[HEALTH_KEY] === 'string') return true;
    const rc = data['resource.customizations'];
    return typeof rc === 'string' && /argoproj\.io\/Application:\s*\n\s*health\.lua/.test(rc);
  }
  const spec = isObj(o.body.spec) ? o.body.spec : {};
  const checks = Array.isArray(spec.resourceHealthChecks) ? spec.resourceHealthChecks : [];
  if (checks.some((c) => isObj(c) && c.group === 'argoproj.io' && c.kind === 'Application')) return true;
  const custom = spec.resourceCustomizations;
  return typeof custom === 'string' && /argoproj\.io\/Application:\s*\n\s*health\.lua/.test(custom);
}

function isArgoConfig(o: ManifestObject): boolean {
  return (o.kind === 'ArgoCD' && o.group === 'argoproj.io') || (o.kind === 'ConfigMap' && o.group === '' && o.name === 'argocd-cm');
}

/** ArgoCD CRs and argocd-cm ConfigMaps in the repository's bootstrap folders and app manifests. */
function argoConfigs(ctx: RuleContext): ManifestObject[] {
  const found: ManifestObject[] = [];
  for (const dir of ['.bootstrap', 'bootstrap']) {
    if (!ctx.fs.isDirectory(dir)) continue;
    for (const f of ctx.fs.list(dir)) if (/\.ya?ml$/.test(f)) found.push(...ctx.manifests.file(`${dir}/${f}`).filter(isArgoConfig));
  }
  for (const c of ctx.clusters) for (const a of c.apps) for (const o of ctx.objectsOf(c, a) ?? []) if (isArgoConfig(o)) found.push(o);
  return [...new Map(found.map((o) => [`${o.file}:${o.line}`, o])).values()];
}

const appSets = new WeakMap<readonly ManifestObject[], ManifestObject[]>();

/** The ApplicationSets among an app's objects (computed once per directory's object list). */
function appSetsOf(objects: readonly ManifestObject[] | undefined): ManifestObject[] {
  if (!objects) return [];
  let sets = appSets.get(objects);
  if (!sets) appSets.set(objects, (sets = objects.filter((o) => o.kind === 'ApplicationSet' && o.group === 'argoproj.io')));
  return sets;
}

export const wavesWaitRule: RuleDefinition = {
  name: 'waves-wait',
  codes: {
    'no-application-health': {
      severity: 'error',
      summary: 'app-of-apps waves do not wait: Argo CD has no health check for Application',
      help: 'Since Argo CD 1.8 an Application has no health of its own, so a parent app-of-apps moves to the next wave as soon as the children exist (argo-cd #3781, #5585). Add the Application health check to the ArgoCD CR (spec.resourceHealthChecks) or to argocd-cm (resource.customizations.health.argoproj.io_Application).',
    },
    'applicationset-waves': {
      severity: 'warning',
      summary: 'sync waves on ApplicationSets (or their generated Applications) order nothing',
      help: 'An ApplicationSet is healthy as soon as it exists and its Applications are not children of a sync, so sync-wave annotations on them do not order the Applications (argo-cd #12444). Use an app-of-apps with waves, or the RollingSync strategy of progressive syncs.',
    },
  },
  run(ctx) {
    const { fleet } = ctx;
    const out: Finding[] = [];
    if (fleet.engine === 'argocd') {
      const multiWave = ctx.clusters.some((c) => c.apps.some((a) => a.wave !== c.apps[0]!.wave));
      if (!fleet.capabilities.repositoryArgoConfig) {
        // The generated Argo CD configuration depends on the platform only: check one cluster of each.
        const checked = new Map<string, boolean>();
        for (const c of ctx.clusters) {
          if (!c.apps.some((a) => a.wave !== c.apps[0]!.wave)) continue;
          let ok = checked.get(c.platform);
          if (ok === undefined) {
            const objs = bootstrapFor(fleet, c).flatMap((f) => f.objects);
            ok = objs.some((o) => (o.kind === 'ArgoCD' || (o.kind === 'ConfigMap' && o.metadata.name === 'argocd-cm')) && hasApplicationHealth({ kind: o.kind, body: o as Record<string, unknown> }));
            checked.set(c.platform, ok);
          }
          if (!ok) {
            out.push({ severity: 'error', code: 'no-application-health', message: `the bootstrap of cluster ${c.name} configures no Application health check, so its waves do not wait`, file: c.file, cluster: c.name, hint: 'report this: fleetplan always generates the check' });
          }
        }
      } else if (multiWave) {
        const configs = argoConfigs(ctx);
        if (configs.length > 0 && !configs.some(hasApplicationHealth)) {
          for (const o of configs) {
            out.push(at(o.file, o.line, {
              severity: 'error',
              code: 'no-application-health',
              message: `${o.kind} ${o.name ?? ''} has no health check for argoproj.io/Application, so the app-of-apps waves do not wait for child Applications to be healthy`,
              hint: o.kind === 'ArgoCD' ? 'add spec.resourceHealthChecks: [{group: argoproj.io, kind: Application, check: <lua>}]' : `add data."${HEALTH_KEY}"`,
            }));
          }
        }
      }
    }
    // ApplicationSets, wherever an app applies them — and, for layouts whose readers turn
    // ApplicationSets into apps (region specs), wherever they are in the repository.
    const seen = new Set<string>();
    const bySet = new Map<string, { o: ManifestObject; app: string }>();
    if (fleet.capabilities.repositoryArgoConfig) {
      for (const file of yamlFiles(ctx.fs, '.', 0, [])) {
        let text = '';
        try {
          text = ctx.fs.readText(file);
        } catch {
          continue;
        }
        if (!/kind:\s*ApplicationSet\b/.test(text)) continue;
        for (const o of ctx.manifests.file(file)) if (o.kind === 'ApplicationSet' && o.group === 'argoproj.io') bySet.set(`${o.file}:${o.line}`, { o, app: '' });
      }
    }
    for (const c of ctx.clusters) {
      for (const app of c.apps) {
        const sets = appSetsOf(ctx.objectsOf(c, app));
        if (sets.length === 0) continue;
        const waved = sets.filter((o) => isObj(o.body.metadata) && isObj(o.body.metadata.annotations) && o.body.metadata.annotations[WAVE] !== undefined);
        const waves = new Set(waved.map((o) => String((o.body.metadata as { annotations: Record<string, unknown> }).annotations[WAVE])));
        if (waves.size > 1) {
          for (const o of waved) {
            const key = `set:${o.file}:${o.line}`;
            if (seen.has(key)) continue;
            seen.add(key);
            out.push(at(o.file, o.line, {
              severity: 'warning',
              code: 'applicationset-waves',
              message: `ApplicationSet "${o.name ?? '?'}" has a sync wave (${String((o.body.metadata as { annotations: Record<string, unknown> }).annotations[WAVE])}), which orders the ApplicationSet object in app "${app.name}"'s sync, not the Applications it generates: nothing waits for them to be healthy`,
              hint: 'order the Applications with an app-of-apps and waves, or use the RollingSync strategy',
            }));
          }
        }
        for (const o of sets) {
          const key = `tmpl:${o.file}:${o.line}`;
          if (seen.has(key)) continue;
          const finding = templateWave(o);
          if (finding) {
            seen.add(key);
            out.push(finding);
          }
        }
      }
    }
    for (const { o } of bySet.values()) {
      const key = `tmpl:${o.file}:${o.line}`;
      if (seen.has(key)) continue;
      const finding = templateWave(o);
      if (finding) {
        seen.add(key);
        out.push(finding);
      }
    }
    return out;
  },
};

/** A sync wave in an ApplicationSet's template that no RollingSync strategy turns into an order. */
function templateWave(o: ManifestObject): Finding | undefined {
  const spec = isObj(o.body.spec) ? o.body.spec : {};
  const tmpl = isObj(spec.template) && isObj(spec.template.metadata) ? spec.template.metadata : {};
  const ann = isObj(tmpl.annotations) ? tmpl.annotations : {};
  const strategy = isObj(spec.strategy) ? spec.strategy.type : undefined;
  if (ann[WAVE] === undefined || strategy === 'RollingSync') return undefined;
  return at(o.file, o.keyLines.spec ?? o.line, {
    severity: 'warning',
    code: 'applicationset-waves',
    message: `ApplicationSet "${o.name ?? '?'}" gives its Applications a sync wave (${String(ann[WAVE])}), which does not order them: they are not children of a sync`,
    hint: 'use spec.strategy.type: RollingSync with steps, or generate the Applications into an app-of-apps',
  });
}

const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', '.tools']);

/** YAML files of the repository (bounded depth), for layouts that do not say where their ApplicationSets are. */
function yamlFiles(fs: RepoFileSystem, dir: string, depth: number, out: string[]): string[] {
  if (depth > 8) return out;
  for (const e of fs.list(dir)) {
    if (SKIP_DIRS.has(e)) continue;
    const p = dir === '.' ? e : `${dir}/${e}`;
    if (/\.ya?ml$/.test(e)) {
      if (!fs.isDirectory(p)) out.push(p);
    } else if (!/\.[A-Za-z0-9]{1,5}$/.test(e) || e.startsWith('.')) {
      if (fs.isDirectory(p)) yamlFiles(fs, p, depth + 1, out);
    }
  }
  return out;
}
