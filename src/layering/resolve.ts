/**
 * Stage 2, resolve: a loaded Fleet and a cluster name → exactly what that cluster gets.
 *
 *   layering   fleet `defaults` < groups in the order the cluster lists them < the cluster's `apps`;
 *              maps merge deeply, lists and scalars are replaced; `enabled: false` removes the app
 *   variables  `${NAME}` in every string of an app, from fleet vars < cluster vars < built-ins
 *   sectors    the cluster's sector pins the revision its apps track, else the fleet revision
 *   waves      effective waves from `wave` and `needs` (src/order/waves.ts)
 *
 * Pure. Problems come back as findings placed at the file, line and YAML path that caused them.
 */
import type { Finding } from '../model/finding.js';
import type { Fleet, Origin } from '../model/fleet.js';
import { clusterDef, displayPath, locateOrigin } from '../model/fleet.js';
import type { ResolvedApp, ResolvedCluster } from '../model/resolved.js';
import type { AppSpec, Engine, Platform, ProjectSpec, ProvisionSpec } from '../model/spec.js';
import { computeWaves, formatCycle } from './waves.js';
import { formatPath } from '../model/source.js';
import { deepMerge, getPath, isPlainObject } from '../model/merge.js';
import { provisioningLayers } from './provision-apps.js';
import { mayContainVariable, substitute } from '../model/substitute.js';
import { resolveVariables } from './variables.js';
import { SYNC_WAVE_ANNOTATION, IN_CLUSTER, RESOURCES_FINALIZER } from '../model/constants.js';
import { compareSyncOrder } from '../model/sync-order.js';


export interface ResolveResult {
  cluster: ResolvedCluster;
  findings: Finding[];
}

export function defaultGitopsNamespace(platform: Platform, engine: Engine = 'argocd'): string {
  if (engine === 'flux') return 'flux-system';
  return platform === 'openshift' ? 'openshift-gitops' : 'argocd';
}

interface Layer {
  spec: AppSpec;
  origin: Origin;
}

export function resolveCluster(fleet: Fleet, name: string): ResolveResult {
  const def = clusterDef(fleet, name);
  if (!def) throw new Error(`unknown cluster ${name}`);
  const findings: Finding[] = [];
  const spec = def.spec;
  const place = (origin: Origin, f: Omit<Finding, 'file' | 'line' | 'column' | 'path' | 'cluster'>): Finding => {
    const loc = locateOrigin(fleet, origin);
    const p = formatPath(displayPath(fleet, origin));
    return { ...f, ...loc, ...(p ? { path: p } : {}), cluster: name };
  };

  // Sector → revision.
  let revision = fleet.revision;
  if (spec.sector !== undefined) {
    const sector = fleet.sectors.find((s) => s.name === spec.sector);
    if (!sector) {
      findings.push(place({ file: def.file, path: ['spec', 'sector'] }, {
        severity: 'error',
        code: 'unknown-sector',
        message: `sector "${spec.sector}" is not declared in ${fleet.file}`,
        hint: fleet.sectors.length ? `declared sectors: ${fleet.sectors.map((s) => s.name).join(', ')}` : 'declare it under spec.sectors in fleet.yaml',
      }));
    } else if (sector.revision) {
      revision = sector.revision;
    }
  }

  if (def.revisionPin) revision = def.revisionPin.revision;

  // Hub reference.
  if (spec.hub !== undefined && !clusterDef(fleet, spec.hub)) {
    findings.push(place({ file: def.file, path: ['spec', 'hub'] }, {
      severity: 'error',
      code: 'unknown-hub',
      message: `hub "${spec.hub}" is not a cluster of this fleet`,
      hint: `add clusters/${spec.hub}/cluster.yaml or fix the name`,
    }));
  }

  // Variables.
  const platform = spec.platform ?? fleet.platform;
  const builtins: Record<string, string | undefined> = {
    CLUSTER_NAME: name,
    CLUSTER_ROLE: spec.role,
    CLUSTER_REGION: spec.region,
    CLUSTER_SECTOR: spec.sector,
    HUB_NAME: spec.hub ?? (spec.role === 'hub' ? name : undefined),
    GITOPS_REPO: fleet.repoURL,
  };
  const varResult = resolveVariables(
    [
      { vars: fleet.vars, origin: { file: fleet.file, path: ['spec', 'vars'] } },
      { vars: stringVars(spec.vars), origin: { file: def.file, path: ['spec', 'vars'] } },
    ],
    builtins,
  );
  for (const p of varResult.problems) {
    if (p.kind === 'undefined') {
      findings.push(place(p.origin, {
        severity: 'error',
        code: 'undefined-variable',
        message: `variable ${p.variable} refers to \${${p.name}}, which has no value on cluster ${name}`,
        hint: `define ${p.name} in the cluster's or the fleet's vars, or write \${${p.name}:-default}`,
      }));
    } else if (p.kind === 'cycle') {
      findings.push(place(p.origin, {
        severity: 'error',
        code: 'variable-cycle',
        message: `variables refer to each other in a cycle: ${formatCycle(p.cycle)}`,
        hint: 'give one of them a literal value',
      }));
    } else {
      findings.push(place(p.origin, {
        severity: 'warning',
        code: 'shadowed-variable',
        message: `${p.variable} is a built-in variable; this definition is ignored`,
        hint: 'rename the variable',
      }));
    }
  }
  const vars = varResult.vars;
  const lookup = (n: string) => vars[n];

  // The provision section, with variables substituted like app fields.
  const provision = spec.provision
    ? (substituteDeep(spec.provision, [], lookup, (path, missing) => {
        findings.push(place({ file: def.file, path: ['spec', 'provision', ...path] }, {
          severity: 'error',
          code: 'undefined-variable',
          message: `\${${missing}} has no value on cluster ${name}`,
          hint: `define ${missing} in clusters/${name}/cluster.yaml or fleet.yaml vars, or write \${${missing}:-default}`,
        }));
      }) as ProvisionSpec)
    : undefined;

  // Layers per app.
  const groupNames = spec.groups ?? [];
  const layersByApp = new Map<string, Layer[]>();
  const addLayer = (appName: string, layer: Layer) => {
    let l = layersByApp.get(appName);
    if (!l) layersByApp.set(appName, (l = []));
    l.push(layer);
  };
  // Provisioning apps (a hub's spokes with `provision:`) are the lowest layer of their apps.
  for (const l of provisioningLayers(fleet, name)) addLayer(l.app, { spec: l.spec, origin: l.origin });
  groupNames.forEach((g, i) => {
    const group = fleet.groups.get(g);
    if (!group) {
      findings.push(place({ file: def.file, path: ['spec', 'groups', i] }, {
        severity: 'error',
        code: 'unknown-group',
        message: `group "${g}" does not exist`,
        hint: `create groups/${g}/group.yaml or remove it from the list`,
      }));
      return;
    }
    for (const [appName, app] of Object.entries(group.spec.apps ?? {})) {
      addLayer(appName, { spec: app, origin: { file: group.file, path: ['spec', 'apps', appName] } });
    }
  });
  for (const [appName, app] of Object.entries(spec.apps ?? {})) {
    addLayer(appName, { spec: app, origin: { file: def.file, path: ['spec', 'apps', appName] } });
  }

  const defaultsOrigin: Origin = { file: fleet.file, path: ['spec', 'defaults'] };
  const apps: ResolvedApp[] = [];
  for (const [appName, layers] of [...layersByApp.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let merged: AppSpec = fleet.defaults;
    for (const l of layers) merged = deepMerge(merged, l.spec);
    if (merged.enabled === false) continue;
    if (def.revisionPin) merged = { ...merged, targetRevision: def.revisionPin.revision };
    const allLayers: Layer[] = [{ spec: fleet.defaults, origin: defaultsOrigin }, ...layers];
    const last = layers[layers.length - 1]!;
    // The layer that set a field last: where a problem with that field is reported.
    const fieldOrigin = (path: readonly (string | number)[]): Origin => {
      for (let i = allLayers.length - 1; i >= 0; i--) {
        const l = allLayers[i]!;
        if (getPath(l.spec, path) !== undefined) return { file: l.origin.file, path: [...l.origin.path, ...path] };
      }
      return last.origin;
    };
    // Variables in every string field. The flux layout's manifests are Flux objects as applied: their
    // ${...} are Flux's own post-build variables, never fleetplan's (docs/adr/0279).
    const keepManifest = fleet.layout === 'flux' ? merged.manifest : undefined;
    if (keepManifest !== undefined) merged = { ...merged, manifest: {} };
    // A helmfile release's values are what helmfile gives Helm, verbatim (docs/adr/0320).
    const keepValues = (fleet.layout === 'flux' || fleet.layout === 'helmfile-flux') && merged.repoURL !== undefined && merged.helm?.values !== undefined ? merged.helm.values : undefined;
    if (keepValues !== undefined) merged = { ...merged, helm: { ...merged.helm, values: {} } };
    const substituted = substituteDeep(merged, [], lookup, (path, missing) => {
      findings.push(place(fieldOrigin(path), {
        severity: 'error',
        code: 'undefined-variable',
        message: `\${${missing}} has no value on cluster ${name}`,
        hint: `define ${missing} in clusters/${name}/cluster.yaml or fleet.yaml vars, or write \${${missing}:-default}`,
        app: appName,
      }));
    }) as AppSpec;
    if (keepManifest !== undefined) substituted.manifest = keepManifest;
    if (keepValues !== undefined) substituted.helm = { ...substituted.helm, values: keepValues };
    if (substituted.path === undefined && substituted.chart === undefined) {
      findings.push(place(last.origin, {
        severity: 'error',
        code: 'no-source',
        message: `app "${appName}" has neither path nor chart`,
        hint: 'give it a path to a kustomize directory or a chart with repoURL',
        app: appName,
      }));
    }
    const app = toResolvedApp(appName, substituted, fleet, revision, allLayers.map((l) => l.origin), layers[0]!.origin.file, last.origin);
    // A wave in fleet defaults is the default wave, not an explicit one.
    if (!layers.some((l) => l.spec.wave !== undefined)) app.explicitWave = undefined;
    apps.push(app);
  }

  // Waves.
  const { waves, problems } = computeWaves(
    apps.map((a) => ({ name: a.name, explicit: a.explicitWave, needs: a.needs })),
    fleet.defaults.wave ?? 0,
  );
  const appByName = new Map(apps.map((a) => [a.name, a]));
  const needsOrigin = (app: string, index?: number): Origin => {
    const layers = layersByApp.get(app)!;
    for (let i = layers.length - 1; i >= 0; i--) {
      const l = layers[i]!;
      if (l.spec.needs !== undefined) return { file: l.origin.file, path: [...l.origin.path, 'needs', ...(index === undefined ? [] : [index])] };
    }
    return layers[layers.length - 1]!.origin;
  };
  const waveOrigin = (app: string): Origin => {
    const layers = layersByApp.get(app)!;
    for (let i = layers.length - 1; i >= 0; i--) {
      const l = layers[i]!;
      if (l.spec.wave !== undefined) return { file: l.origin.file, path: [...l.origin.path, 'wave'] };
    }
    return { file: fleet.file, path: ['spec', 'defaults', 'wave'] };
  };
  for (const p of problems) {
    if (p.kind === 'unknown-need') {
      findings.push(place(needsOrigin(p.app, p.index), {
        severity: 'error',
        code: 'unknown-need',
        message: `app "${p.app}" needs "${p.need}", which is not an app on cluster ${name}`,
        hint: `enabled apps on ${name}: ${closestNames(p.need, [...appByName.keys()])}`,
        app: p.app,
      }));
    } else if (p.kind === 'cycle') {
      findings.push(place(needsOrigin(p.cycle[0]!), {
        severity: 'error',
        code: 'needs-cycle',
        message: `needs form a cycle: ${formatCycle(p.cycle)}`,
        hint: 'remove one of the needs so that the apps can be ordered',
        app: p.cycle[0]!,
      }));
    } else {
      findings.push(place(waveOrigin(p.app), {
        severity: 'error',
        code: 'wave-conflict',
        message: `app "${p.app}" has wave ${p.wave} but needs "${p.need}", which is at wave ${p.needWave}`,
        hint: `give "${p.app}" a wave above ${p.needWave}, or drop its explicit wave and let needs place it`,
        app: p.app,
      }));
    }
  }
  const computedWaveAnnotation = fleet.conventions?.syncWaveAnnotation !== 'as-given';
  for (const app of apps) {
    app.wave = waves.get(app.name)!;
    if (computedWaveAnnotation) {
      // Object.assign and a set, not `{ ...annotations, [key]: wave }`, which V8 builds ~20× slower
      // (it was a tenth of resolving 5,000 clusters). An own `__proto__` key keeps the spread.
      const annotations = Object.hasOwn(app.annotations, '__proto__') ? { ...app.annotations } : Object.assign({}, app.annotations);
      annotations[SYNC_WAVE_ANNOTATION] = String(app.wave);
      app.annotations = annotations;
    }
  }
  apps.sort(compareSyncOrder);

  const projects: Record<string, ProjectSpec> = {};
  if (fleet.conventions?.projects === 'from-layers') {
    // Exactly the AppProjects the cluster's layers define, variables substituted like the apps.
    const defined: [string, ProjectSpec, Origin][] = [];
    for (const g of groupNames) {
      const group = fleet.groups.get(g);
      for (const [p, spec] of Object.entries(group?.projects ?? {})) defined.push([p, spec, { file: group!.file, path: ['spec', 'projects', p] }]);
    }
    for (const [p, spec] of Object.entries(def.projects ?? {})) defined.push([p, spec, { file: def.file, path: ['spec', 'projects', p] }]);
    for (const [p, spec, origin] of defined.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      projects[p] = substituteDeep(spec, [], lookup, (path, missing) => {
        findings.push(place({ file: origin.file, path: [...origin.path, ...path] }, {
          severity: 'error',
          code: 'undefined-variable',
          message: `\${${missing}} has no value on cluster ${name}`,
          hint: `define ${missing} where the cluster's variables are defined, or write \${${missing}:-default}`,
        }));
      }) as ProjectSpec;
    }
  } else {
    for (const p of [...new Set(apps.map((a) => a.project))].sort()) {
      if (p !== 'default') projects[p] = fleet.projects[p] ?? {};
    }
  }

  const cluster: ResolvedCluster = {
    name,
    file: def.file,
    role: spec.role,
    hub: spec.hub,
    region: spec.region,
    sector: spec.sector,
    platform,
    server: spec.server,
    labels: spec.labels ?? {},
    groups: groupNames,
    revision,
    gitopsNamespace: fleet.gitopsNamespace ?? defaultGitopsNamespace(platform, fleet.engine),
    vars,
    apps,
    projects,
  };
  if (fleet.conventions && !fleet.conventions.objectNamespace) cluster.objectNamespace = false;
  if (provision) cluster.provision = provision;
  return { cluster, findings };
}

function toResolvedApp(
  name: string,
  a: AppSpec,
  fleet: Fleet,
  revision: string,
  layers: Origin[],
  from: string,
  origin: Origin,
): ResolvedApp {
  const source: ResolvedApp['source'] = {
    repoURL: a.repoURL ?? fleet.repoURL,
    targetRevision: a.targetRevision ?? revision,
  };
  if (a.path !== undefined) source.path = a.path;
  if (a.chart !== undefined) source.chart = a.chart;
  if (a.helm !== undefined) source.helm = a.helm;
  // Keys in sorted order: the plan prints this object as it is (order/plan.ts).
  const server = a.server ?? IN_CLUSTER;
  const destination: ResolvedApp['destination'] = a.namespace !== undefined ? { namespace: a.namespace, server } : { server };
  const app: ResolvedApp = {
    name,
    wave: a.wave ?? 0,
    explicitWave: a.wave,
    needs: a.needs ?? [],
    provides: a.provides ?? [],
    source,
    destination,
    project: a.project ?? 'default',
    syncOptions: a.syncOptions ?? [],
    syncPolicy: a.syncPolicy,
    ignoreDifferences: a.ignoreDifferences,
    annotations: a.annotations ?? {},
    labels: a.labels ?? {},
    finalizers: a.finalizers ?? [RESOURCES_FINALIZER],
    from,
    layers,
    origin,
  };
  if (a.extraSource !== undefined) app.extraSource = a.extraSource;
  if (a.extraSpec !== undefined) app.extraSpec = a.extraSpec;
  if (a.manifest !== undefined) app.manifest = a.manifest;
  return app;
}

/**
 * Substitutes variables in every string (keys included) of a value. Returns the same object when
 * nothing in it changed, so that the common case (no variables) allocates nothing.
 */
function substituteDeep(
  v: unknown,
  path: (string | number)[],
  lookup: (n: string) => string | undefined,
  onMissing: (path: (string | number)[], name: string) => void,
): unknown {
  if (typeof v === 'string') {
    if (!mayContainVariable(v)) return v;
    const r = substitute(v, lookup);
    for (const m of r.missing) onMissing([...path], m.name);
    return r.text;
  }
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      const x = substituteDeep(v[i], path, lookup, onMissing);
      path.pop();
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  if (isPlainObject(v)) {
    let out: Record<string, unknown> | undefined;
    for (const k in v) {
      const x0 = v[k];
      path.push(k);
      const key = mayContainVariable(k) ? (substituteDeep(k, path, lookup, onMissing) as string) : k;
      const x = substituteDeep(x0, path, lookup, onMissing);
      path.pop();
      if (key !== k || x !== x0) {
        if (!out) {
          out = {};
          for (const k2 in v) {
            if (k2 === k) break;
            out[k2] = v[k2];
          }
        }
      }
      if (out) out[key] = x;
    }
    return out ?? v;
  }
  return v;
}

function stringVars(v: Record<string, string | number | boolean> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v ?? {})) out[k] = String(x);
  return out;
}

function closestNames(word: string, names: string[]): string {
  const sorted = [...names].sort();
  const near = sorted.filter((n) => n.includes(word) || word.includes(n) || n.split('-')[0] === word.split('-')[0]);
  const list = near.length ? near : sorted;
  return list.length > 8 ? `${list.slice(0, 8).join(', ')}, ...` : list.join(', ') || '(none)';
}
