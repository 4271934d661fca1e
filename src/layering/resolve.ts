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
import { clusterDef, displayPath, locateOrigin, placedAt } from '../model/fleet.js';
import type { ResolvedApp, ResolvedCluster } from '../model/resolved.js';
import type { AppSpec, Engine, Platform, ProjectSpec, ProvisionSpec } from '../model/spec.js';
import { computeWaves, formatCycle } from './waves.js';
import { formatPath } from '../model/source.js';
import { deepMerge, getPath, isPlainObject } from '../model/merge.js';
import { provisioningLayers } from './provision-apps.js';
import { mayContainVariable, referencedVariables, substitute } from '../model/substitute.js';
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

/**
 * What the clusters of one run share: each distinct list of groups merged once per app over the
 * fleet defaults (docs/adr/0310). Created by the caller that resolves many clusters of one fleet
 * (resolveFleet, resolveFleetLazily) and passed to resolveCluster explicitly; it lives as long as
 * that run. Entries are keyed by content: the group names in the cluster's order, which name the
 * same group files of this fleet for every cluster.
 */
export interface ResolveSession {
  readonly fleet: Fleet;
  /** Group list (JSON of the names) → that list's layers per app, merged over the defaults. */
  readonly chains: Map<string, GroupChain>;
  /**
   * Whether any string of the fleet defaults (key or value) may hold a variable: with the
   * cluster's own layer it decides whether an app no group defines needs substituting (ADR 0328).
   */
  defaultsMayHoldVariable?: boolean;
}

/** Distinct group lists remembered per session; a fleet with more resolves the rest unshared. */
const MAX_CHAINS = 4096;

export function createResolveSession(fleet: Fleet): ResolveSession {
  return { fleet, chains: new Map() };
}

/** One app's layers from a list of groups, and their merge over the fleet defaults. */
interface ChainApp {
  layers: Layer[];
  /** fleet.defaults < layers, merged. */
  merged: AppSpec;
  /** Whether any string of `merged` (key or value) may hold a variable. */
  mayHaveVariables: boolean;
  /** The origins of [defaults, ...layers]. */
  origins: Origin[];
  /** The names `merged` refers to (keys and values; escaped `$${...}` excluded), once asked for. */
  variables?: string[];
  /** `merged` substituted, by the values of `variables` (JSON) — every one defined. */
  substituted?: Map<string, AppSpec>;
}

/** Substituted copies remembered per app of a group list (one per distinct set of values). */
const MAX_SUBSTITUTED = 256;

/**
 * `merged` of a shared app substituted for one cluster, remembered by the values of the variables
 * it refers to. Only when each of them has a value: then no name is missing, nothing is reported,
 * and substitution depends on those values alone. Undefined otherwise (the caller substitutes).
 */
function sharedSubstitution(app: ChainApp, lookup: (n: string) => string | undefined, substituteNow: () => AppSpec): AppSpec | undefined {
  app.variables ??= [...new Set(variableNames(app.merged, []))].sort();
  const values: string[] = [];
  for (const n of app.variables) {
    const v = lookup(n);
    if (v === undefined) return undefined;
    values.push(v);
  }
  const key = JSON.stringify(values);
  const known = app.substituted?.get(key);
  if (known) return known;
  const out = substituteNow();
  app.substituted ??= new Map();
  if (app.substituted.size < MAX_SUBSTITUTED) app.substituted.set(key, out);
  return out;
}

function variableNames(v: unknown, into: string[]): string[] {
  if (typeof v === 'string') {
    for (const r of referencedVariables(v)) into.push(r.name);
  } else if (Array.isArray(v)) {
    for (const x of v) variableNames(x, into);
  } else if (isPlainObject(v)) {
    for (const k in v) {
      variableNames(k, into);
      variableNames(v[k], into);
    }
  }
  return into;
}

type GroupChain = Map<string, ChainApp>;

function groupChain(fleet: Fleet, groupNames: readonly string[], session: ResolveSession | undefined): GroupChain {
  if (session && session.fleet !== fleet) throw new Error('resolveCluster: the session belongs to another fleet');
  const key = session ? JSON.stringify(groupNames) : '';
  const known = session?.chains.get(key);
  if (known) return known;
  const byApp = new Map<string, Layer[]>();
  for (const g of groupNames) {
    const group = fleet.groups.get(g);
    if (!group) continue;
    for (const [appName, app] of Object.entries(group.spec.apps ?? {})) {
      let l = byApp.get(appName);
      if (!l) byApp.set(appName, (l = []));
      l.push({ spec: app, origin: { file: group.file, path: ['spec', 'apps', appName] } });
    }
  }
  const defaultsOrigin: Origin = { file: fleet.file, path: ['spec', 'defaults'] };
  const chain: GroupChain = new Map();
  for (const [appName, layers] of byApp) {
    let merged: AppSpec = fleet.defaults;
    for (const l of layers) merged = deepMerge(merged, l.spec);
    chain.set(appName, { layers, merged, mayHaveVariables: mayHoldVariable(merged), origins: [defaultsOrigin, ...layers.map((l) => l.origin)] });
  }
  if (session && session.chains.size < MAX_CHAINS) session.chains.set(key, chain);
  return chain;
}

/** True when some string of `v`, key or value, may contain `${`: substituteDeep could change it. */
function mayHoldVariable(v: unknown): boolean {
  if (typeof v === 'string') return mayContainVariable(v);
  if (Array.isArray(v)) {
    for (const x of v) if (mayHoldVariable(x)) return true;
    return false;
  }
  if (isPlainObject(v)) {
    for (const k in v) if (mayContainVariable(k) || mayHoldVariable(v[k])) return true;
  }
  return false;
}

/**
 * Resolves one cluster. Pass a session (createResolveSession) when resolving many clusters of the
 * same fleet: clusters with the same groups then share their merged group layers. The result is
 * the same with or without it.
 */
export function resolveCluster(fleet: Fleet, name: string, session?: ResolveSession): ResolveResult {
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

  // Layers per app: provisioning apps (a hub's spokes with `provision:`) are the lowest layer of
  // their apps, then the groups in the cluster's order (merged once per session), then the cluster.
  const groupNames = spec.groups ?? [];
  groupNames.forEach((g, i) => {
    if (fleet.groups.has(g)) return;
    findings.push(place({ file: def.file, path: ['spec', 'groups', i] }, {
      severity: 'error',
      code: 'unknown-group',
      message: `group "${g}" does not exist`,
      hint: `create groups/${g}/group.yaml or remove it from the list`,
    }));
  });
  const chain = groupChain(fleet, groupNames, session);
  const provisioning = new Map<string, Layer[]>();
  for (const l of provisioningLayers(fleet, name)) {
    let ls = provisioning.get(l.app);
    if (!ls) provisioning.set(l.app, (ls = []));
    ls.push({ spec: l.spec, origin: l.origin });
  }
  const own = new Map<string, Layer>();
  for (const [appName, app] of Object.entries(spec.apps ?? {})) {
    own.set(appName, { spec: app, origin: { file: def.file, path: ['spec', 'apps', appName] } });
  }
  const layersByApp = new Map<string, Layer[]>();
  const layersOf = (appName: string): Layer[] => {
    let l = layersByApp.get(appName);
    if (!l) {
      const fromGroups = chain.get(appName)?.layers ?? [];
      const mine = own.get(appName);
      const provisioned = provisioning.get(appName);
      // An app only the groups define has the group list's own layers (read-only, like the rest of the chain).
      l = !provisioned && !mine ? fromGroups : [...(provisioned ?? []), ...fromGroups, ...(mine ? [mine] : [])];
      layersByApp.set(appName, l);
    }
    return l;
  };
  const appNames = new Set<string>([...provisioning.keys(), ...chain.keys(), ...own.keys()]);

  const defaultsOrigin: Origin = { file: fleet.file, path: ['spec', 'defaults'] };
  const apps: ResolvedApp[] = [];
  for (const appName of [...appNames].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const shared = provisioning.has(appName) ? undefined : chain.get(appName);
    const mine = own.get(appName);
    const layers = layersOf(appName);
    let merged: AppSpec;
    let mayHaveVariables = true;
    if (provisioning.has(appName)) {
      merged = fleet.defaults;
      for (const l of layers) merged = deepMerge(merged, l.spec);
    } else {
      // The same calls as merging every layer in turn: the groups' part is merged once.
      merged = shared ? shared.merged : fleet.defaults;
      if (mine) merged = deepMerge(merged, mine.spec);
      if (shared && session) mayHaveVariables = shared.mayHaveVariables || (mine !== undefined && mayHoldVariable(mine.spec));
      // An app only the cluster defines: its strings are the defaults' and its own (ADR 0328).
      else if (session && mine) mayHaveVariables = (session.defaultsMayHoldVariable ??= mayHoldVariable(fleet.defaults)) || mayHoldVariable(mine.spec);
    }
    if (merged.enabled === false) continue;
    if (def.revisionPin) {
      merged = { ...merged, targetRevision: def.revisionPin.revision };
      if (mayContainVariable(def.revisionPin.revision)) mayHaveVariables = true;
    }
    const last = layers[layers.length - 1]!;
    // The layer that set a field last: where a problem with that field is reported.
    const fieldOrigin = (path: readonly (string | number)[]): Origin => {
      for (let i = layers.length - 1; i >= -1; i--) {
        const l = i >= 0 ? layers[i]! : { spec: fleet.defaults, origin: defaultsOrigin };
        if (getPath(l.spec, path) !== undefined) return { file: l.origin.file, path: [...l.origin.path, ...path] };
      }
      return last.origin;
    };
    // Variables in every string field, unless the layout's app fields reach the cluster as written:
    // Flux objects (their ${...} are Flux's post-build variables, docs/adr/0279), helmfile values
    // (what helmfile gives Helm, 0320), Argo CD's own Applications (0344).
    const substituteNow = () =>
      substituteDeep(merged, [], lookup, (path, missing) => {
        findings.push(place(fieldOrigin(path), {
          severity: 'error',
          code: 'undefined-variable',
          message: `\${${missing}} has no value on cluster ${name}`,
          hint: `define ${missing} in clusters/${name}/cluster.yaml or fleet.yaml vars, or write \${${missing}:-default}`,
          app: appName,
        }));
      }) as AppSpec;
    // Without a `${` anywhere, substitution would return `merged` itself and report nothing. An app
    // only the groups define (`merged` is theirs, unchanged) is substituted once per set of values.
    const substituted = !mayHaveVariables || fleet.capabilities.appVariables === false
      ? merged
      : (shared && session && !mine && merged === shared.merged ? sharedSubstitution(shared, lookup, substituteNow) : undefined) ?? substituteNow();
    if (substituted.path === undefined && substituted.chart === undefined) {
      findings.push(place(last.origin, {
        severity: 'error',
        code: 'no-source',
        message: `app "${appName}" has neither path nor chart`,
        hint: 'give it a path to a kustomize directory or a chart with repoURL',
        app: appName,
      }));
    }
    const origins = shared && !mine && session ? shared.origins : [defaultsOrigin, ...layers.map((l) => l.origin)];
    // A layout's view names the file (and line) that writes the app: an Application, an ApplicationSet (ADR 0412).
    const placed = placedAt(fleet, layers[0]!.origin);
    const app = toResolvedApp(appName, substituted, fleet, revision, origins, placed?.file ?? layers[0]!.origin.file, last.origin);
    if (placed?.line !== undefined) app.fromLine = placed.line;
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
      // The repository's own AppProjects (argocd layout) are applied as written, like its Applications.
      if (fleet.capabilities.appVariables === false) {
        projects[p] = spec;
        continue;
      }
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
    gitopsNamespace: def.gitopsNamespace ?? fleet.gitopsNamespace ?? defaultGitopsNamespace(platform, fleet.engine),
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
