/**
 * CRD before use: a custom resource must be applied after the app that installs its CRD.
 *
 * Providers of an API on a cluster: apps whose manifests hold its CustomResourceDefinition, apps
 * that subscribe to an OLM package (Subscription, or a top-level ACM OperatorPolicy) serving it
 * (catalog/operators.ts), apps whose Helm chart ships it (catalog), and apps that declare it in
 * `provides:`. APIs the platform serves are never findings; APIs no app on the cluster provides
 * are installed outside the fleet and are not judged here.
 *
 * "After" depends on the engine: with Argo CD waves, a lower wave (the app-of-apps waits for each
 * wave to be healthy); with Flux and helmfile, a transitive `dependsOn`/`needs`, or an earlier
 * bootstrap phase.
 */
import type { Finding } from '../../model/finding.js';
import type { ResolvedApp, ResolvedCluster } from '../../model/resolved.js';
import type { RuleDefinition } from '../engine.js';
import type { RuleContext } from '../context.js';
import { fieldOrigin, place } from '../context.js';
import type { ManifestObject } from '../../load/manifests.js';
import { isObj } from '../../load/manifests.js';
import { apiKey, chartName, helmCharts, isPlatformApi, operatorPackages } from '../../model/catalog/operators.js';

import { PHASE_LABEL } from '../../model/constants.js';

export { PHASE_LABEL };
const phaseRank: Record<string, number> = { crds: 0, bootstrap: 1 };
/** Argo CD's own kinds: the Argo CD that syncs an Application serves them. */
const ARGO_CD_KINDS = new Set(['Application', 'ApplicationSet', 'AppProject']);

interface ObjectSummary {
  provides: Set<string>;
  /** API key → the first object using it and every kind used under it. */
  uses: Map<string, { first: ManifestObject; kinds: Set<string> }>;
}

const summaries = new WeakMap<readonly ManifestObject[], ObjectSummary>();

export function summarize(objects: readonly ManifestObject[]): ObjectSummary {
  let s = summaries.get(objects);
  if (s) return s;
  s = { provides: new Set(), uses: new Map() };
  for (const o of objects) {
    const spec = isObj(o.body.spec) ? o.body.spec : {};
    if (o.kind === 'CustomResourceDefinition' && o.group === 'apiextensions.k8s.io') {
      const g = typeof spec.group === 'string' ? spec.group : undefined;
      const names = isObj(spec.names) ? spec.names : {};
      if (g) {
        s.provides.add(g);
        if (typeof names.kind === 'string') s.provides.add(`${g}/${names.kind}`);
      }
    } else if (o.kind === 'Subscription' && o.group === 'operators.coreos.com') {
      for (const a of operatorPackages[String(spec.name)] ?? []) s.provides.add(a);
    } else if (o.kind === 'OperatorPolicy' && o.group === 'policy.open-cluster-management.io') {
      const sub = isObj(spec.subscription) ? spec.subscription : {};
      for (const a of operatorPackages[String(sub.name)] ?? []) s.provides.add(a);
    } else if (o.kind === 'HelmRelease' && o.group === 'helm.toolkit.fluxcd.io') {
      const chart = isObj(spec.chart) && isObj(spec.chart.spec) ? spec.chart.spec.chart : undefined;
      if (typeof chart === 'string') for (const a of helmCharts[chartName(chart)] ?? []) s.provides.add(a);
    } else if (o.kind === 'OCIRepository' && o.group === 'source.toolkit.fluxcd.io') {
      if (typeof spec.url === 'string') for (const a of helmCharts[chartName(spec.url)] ?? []) s.provides.add(a);
    }
    const key = apiKey(o.group, o.kind);
    if (o.group === '') continue;
    const u = s.uses.get(key);
    if (u) u.kinds.add(o.kind);
    else s.uses.set(key, { first: o, kinds: new Set([o.kind]) });
  }
  summaries.set(objects, s);
  return s;
}

interface Provider {
  app: ResolvedApp;
}

export function providersOn(ctx: RuleContext, c: ResolvedCluster): Map<string, Provider[]> {
  const map = new Map<string, Provider[]>();
  const add = (key: string, app: ResolvedApp) => {
    let l = map.get(key);
    if (!l) map.set(key, (l = []));
    if (!l.some((p) => p.app === app)) l.push({ app });
  };
  for (const app of c.apps) {
    for (const p of app.provides) add(p, app);
    if (app.source.chart !== undefined) for (const p of helmCharts[chartName(app.source.chart)] ?? []) add(p, app);
    const objs = ctx.objectsOf(c, app);
    if (objs) for (const p of summarize(objs).provides) add(p, app);
  }
  return map;
}

/** True when `provider` is applied, and healthy, before `app` starts. */
export function orderedBefore(ctx: RuleContext, c: ResolvedCluster, provider: ResolvedApp, app: ResolvedApp, closure: (a: ResolvedApp) => Set<string>): boolean {
  const pp = phaseRank[provider.labels[PHASE_LABEL] ?? ''] ?? 2;
  const ap = phaseRank[app.labels[PHASE_LABEL] ?? ''] ?? 2;
  if (pp !== ap) return pp < ap;
  if (ctx.fleet.engine === 'flux' || pp < 2) return closure(app).has(provider.name);
  return provider.wave < app.wave;
}

export function needsClosure(c: ResolvedCluster): (a: ResolvedApp) => Set<string> {
  const byName = new Map(c.apps.map((a) => [a.name, a]));
  const memo = new Map<string, Set<string>>();
  const visit = (a: ResolvedApp, stack: Set<string>): Set<string> => {
    const m = memo.get(a.name);
    if (m) return m;
    const out = new Set<string>();
    stack.add(a.name);
    for (const n of a.needs) {
      out.add(n);
      const na = byName.get(n);
      if (na && !stack.has(n)) for (const x of visit(na, stack)) out.add(x);
    }
    stack.delete(a.name);
    memo.set(a.name, out);
    return out;
  };
  return (a) => visit(a, new Set());
}

/**
 * The dependency path from `from` to `to` through `needs` (names, `from` first), if there is one.
 * Breadth-first, so the shortest path, and in the order the needs are written: deterministic.
 */
export function needsPath(c: ResolvedCluster, from: string, to: string): string[] | undefined {
  const byName = new Map(c.apps.map((a) => [a.name, a]));
  const prev = new Map<string, string>([[from, '']]);
  const queue = [from];
  while (queue.length > 0) {
    const n = queue.shift()!;
    if (n === to) {
      const path = [n];
      for (let p = prev.get(n)!; p !== ''; p = prev.get(p)!) path.unshift(p);
      return path;
    }
    for (const m of byName.get(n)?.needs ?? []) if (!prev.has(m)) { prev.set(m, n); queue.push(m); }
  }
  return undefined;
}

/** A Flux Kustomization's own name in a fleetplan app name (`flux:<namespace>/<name>` → `<name>`). */
function shortName(app: string): string {
  return app.replace(/^flux:/, '').replace(/^[^/]*\//, '');
}

/**
 * The Flux hint: add the provider to the dependencies — unless the provider already depends on the
 * app (kustomize-controller then never applies the app on a new cluster, since its dry run fails on
 * the unknown kind, and the provider waits for it for ever; the dependency would close the cycle).
 */
function fluxHint(c: ResolvedCluster, app: ResolvedApp, late: ResolvedApp[], kinds: string): string {
  const cyclic = late.map((p) => ({ p, path: needsPath(c, p.name, app.name) })).filter((x) => x.path !== undefined);
  if (cyclic.length === 0) return `add ${late.map((p) => p.name).join(' or ')} to the dependencies of "${app.name}" (spec.dependsOn), so that it is applied once the CRD exists`;
  const { p, path } = cyclic[0]!;
  return `"${p.name}" depends on "${app.name}" (${path!.map(shortName).join(' → ')}), so on a new cluster "${app.name}" fails its dry run (no CRD for ${kinds}) and "${p.name}" waits for it for ever; adding the dependency would make a cycle: install the CRDs in a Kustomization that "${app.name}" depends on, or move the ${kinds} objects into "${p.name}" or a Kustomization that depends on it`;
}

/**
 * What kustomize-controller makes of a Flux Kustomization applied before the provider of its API
 * (ADR 0370): it dry-runs its objects, fails on the unknown kind and retries every retryInterval
 * (default: its interval); once the provider (reconciled in parallel, nothing holds it) has
 * installed the CRD, a retry applies it: late, but it converges — a warning. When the provider
 * depends on it (a dependsOn path), the provider waits for it for ever: it never converges — an
 * error. A helmfile release of the bootstrap (phase label) is not retried: helmfile fails, an error.
 */
function fluxOutcome(c: ResolvedCluster, app: ResolvedApp, late: readonly ResolvedApp[]): { severity: 'error' | 'warning'; outcome: string } {
  const names = late.map((p) => `"${p.name}"`).join(' or ');
  if (app.labels[PHASE_LABEL] !== undefined || late.some((p) => p.labels[PHASE_LABEL] !== undefined)) {
    return { severity: 'error', outcome: 'the helmfile bootstrap is not retried, so it fails there' };
  }
  const cyclic = late.find((p) => needsPath(c, p.name, app.name) !== undefined);
  if (cyclic) return { severity: 'error', outcome: `"${cyclic.name}" depends on "${app.name}", so on a new cluster neither ever becomes ready (it never converges)` };
  return {
    severity: 'warning',
    outcome: `on a new cluster "${app.name}" fails its dry run ("no matches for kind") until ${names} installs the CRD, and kustomize-controller retries it every retryInterval (default: its interval), so it converges late and is not Ready meanwhile`,
  };
}

/**
 * The repository's own Argo CD Applications (fleetplan's own fleets keep the error: its bootstrap
 * waits on each wave), a custom resource in the same wave as the app installing its CRD (ADR 0392): the
 * app-of-apps syncs the wave's Applications together, so there is no order, only a race. The
 * user's first sync fails ("the server could not find the requested resource") until the provider
 * has installed the CRD; a retry converges: `syncPolicy.retry`, or a person syncing a manual app
 * again — a warning. An automated sync without retry is not attempted again for the same revision,
 * so it stays failed and holds back the later waves — an error. Undefined: not the same wave.
 */
function sameWaveOutcome(app: ResolvedApp, late: readonly ResolvedApp[]): { severity: 'error' | 'warning'; outcome: string } | undefined {
  if (late.some((p) => p.wave !== app.wave)) return undefined;
  const names = late.map((p) => `"${p.name}"`).join(' or ');
  // The repository's own Application says it as written (the model keeps it whole in `manifest`).
  const spec = app.manifest && typeof app.manifest.spec === 'object' && app.manifest.spec !== null ? (app.manifest.spec as Record<string, unknown>) : undefined;
  const written = spec && typeof spec.syncPolicy === 'object' && spec.syncPolicy !== null ? (spec.syncPolicy as Record<string, unknown>) : undefined;
  const policy = written ?? app.syncPolicy ?? {};
  const race = `both are in wave ${app.wave}, which Argo CD syncs together, so on a new cluster the first sync of "${app.name}" fails ("the server could not find the requested resource") until ${names} has installed the CRD`;
  if (policy.automated !== undefined && policy.automated !== null && policy.retry === undefined) {
    return { severity: 'error', outcome: `${race}, and an automated sync without syncPolicy.retry is not attempted again for that revision, so it stays failed and holds back the later waves` };
  }
  const retry = policy.retry !== undefined ? 'syncPolicy.retry syncs it again' : 'it has no automated sync, so a person syncs it again';
  return { severity: 'warning', outcome: `${race}; ${retry} once the CRD is there, so it converges late` };
}

export const crdOrderRule: RuleDefinition = {
  name: 'crd-order',
  codes: {
    'crd-order': {
      severity: 'error',
      summary: 'custom resource applied before the app that installs its CRD',
      help: 'A custom resource synced in a wave earlier than (or equal to) the app that installs its CRD fails with "no matches for kind" until retries outlast the operator install. Put the app in a later wave, or add the provider to its needs. On Flux (ADR 0370) a Kustomization without dependsOn on the provider converges on a later retry (a warning); one the provider depends on never does (an error).',
    },
  },
  run(ctx) {
    const out: Finding[] = [];
    for (const c of ctx.clusters) {
      const providers = providersOn(ctx, c);
      if (providers.size === 0) continue;
      const closure = needsClosure(c);
      for (const app of c.apps) {
        const objs = ctx.objectsOf(c, app);
        if (!objs) continue;
        const s = summarize(objs);
        const byGroup = new Map<string, { key: string; kinds: string[]; late: ResolvedApp[] }>();
        for (const [key, { first: obj, kinds }] of s.uses) {
          if (isPlatformApi(c.platform, key)) continue;
          // The flux layout's Kustomizations are applied by Flux, whose own APIs are there before any of them (ADR 0279).
          if (ctx.fleet.capabilities.engineApisFirst === true && /^([a-z.]+\.)?(toolkit\.fluxcd\.io|fluxcd\.controlplane\.io)\b/.test(key)) continue;
          if (ctx.fleet.capabilities.engineApisFirst === 'after-bootstrap' && app.labels[PHASE_LABEL] === undefined && /^([a-z.]+\.)?toolkit\.fluxcd\.io\b/.test(key)) continue;
          // Argo CD syncs the repository's own Applications, so its own kinds are served before any of them.
          if (ctx.fleet.engine !== 'flux' && ctx.fleet.capabilities.repositoryArgoConfig && key === 'argoproj.io' && [...kinds].every((k) => ARGO_CD_KINDS.has(k))) continue;
          const ps = providers.get(key);
          if (!ps || ps.some((p) => p.app === app)) continue;
          if (ps.some((p) => orderedBefore(ctx, c, p.app, app, closure))) continue;
          const entry = byGroup.get(obj.group) ?? { key, kinds: [], late: [] };
          entry.kinds.push(...kinds);
          for (const p of ps) if (!entry.late.includes(p.app)) entry.late.push(p.app);
          byGroup.set(obj.group, entry);
        }
        for (const [group, e] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : 1))) {
          const provs = e.late.map((p) => (ctx.fleet.engine === 'flux' ? `"${p.name}"` : `"${p.name}" (wave ${p.wave})`)).join(', ');
          const kinds = [...new Set(e.kinds)].sort().join(', ');
          const where = ctx.fleet.engine === 'flux' ? '' : ` at wave ${app.wave}`;
          const flux = ctx.fleet.engine === 'flux' ? fluxOutcome(c, app, e.late) : app.labels[PHASE_LABEL] === undefined && ctx.fleet.capabilities.repositoryArgoConfig ? sameWaveOutcome(app, e.late) : undefined;
          out.push(place(ctx.fleet, app.explicitWave !== undefined ? fieldOrigin(ctx.fleet, app, ['wave']) : app.origin, {
            severity: flux?.severity ?? 'error',
            code: 'crd-order',
            message: `app "${app.name}"${where} applies ${group} (${kinds}) before ${provs}, which installs that API on cluster ${c.name}${flux ? `: ${flux.outcome}` : ''}`,
            hint: ctx.fleet.engine === 'flux'
              ? fluxHint(c, app, e.late, kinds)
              : `give "${app.name}" a wave above ${Math.max(...e.late.map((p) => p.wave))}, or add needs: [${e.late[0]!.name}]`,
            cluster: c.name,
            app: app.name,
          }));
        }
      }
    }
    return out;
  },
};
