/**
 * Stage 4, the bootstrap of a helmfile + Flux repository as data (pure): what
 * `helmfile -f crds.yaml template | kubectl apply` then `helmfile sync` do, then the Flux
 * hand-off. Steps, in order:
 *
 * 1. `crds`: the CRDs of the CRD-phase releases (`helm template --include-crds`, CRDs only),
 *    applied server-side, each awaited Established.
 * 2. one `release` step per apps-phase release in `needs` order (ties in file order): a Helm 3
 *    release of the same name and namespace (`helm upgrade --install`), then its objects awaited;
 *    its presync hooks before, its postsync hooks after (`kubectl apply -f FILE`, `kubectl wait
 *    --for=create crd/NAME`).
 * 3. `flux N`: every Flux Kustomization, by depth of `dependsOn` (and of the Kustomization whose
 *    path creates it), awaited Ready.
 *
 * `{{ .Environment.Name }}` in values files and hook arguments is the helmfile environment chosen;
 * any other template is not executed and is a problem of the plan (bootstrap refuses to run it).
 * Decisions: docs/adr/0231-helmfile-bootstrap.md.
 */
import type { Fleet } from '../model/fleet.js';
import type { FluxKustomization, HelmfileEnvironment, HelmfileRelease } from '../model/graphs.js';
import { releaseBaseDir, releaseId } from '../model/graphs.js';
import type { PlanStage } from '../model/plan.js';
import type { ChartRef, HelmfileBootstrapPlan, HelmfileReleaseSpec, HelmfileStep, HookAction } from '../model/helmfile-bootstrap.js';
import { fluxLevels } from './flux-levels.js';

export type { ChartRef, HelmfileBootstrapPlan, HelmfileReleaseSpec, HelmfileStep, HookAction } from '../model/helmfile-bootstrap.js';

export const DEFAULT_HELMFILE_ENVIRONMENT = 'default';

/**
 * Whether the fleet bootstraps itself with a helmfile that fleetplan runs (`bootstrap` runs the
 * helmfile phases, `plan` prints them): a layout that does not leave the bootstrap to fleetplan
 * (`capabilities.bootstrap` false) and whose reader found helmfile releases.
 */
export function hasHelmfileBootstrap(fleet: Fleet): boolean {
  return !fleet.capabilities.bootstrap && (fleet.graphs?.helmfile.length ?? 0) > 0;
}

/** `base/rel` normalised (`..`, `.`); rel starting with `/` stays absolute. */
export function joinPath(base: string, rel: string): string {
  if (rel.startsWith('/')) return rel;
  const out: string[] = base === '.' ? [] : base.split('/');
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else out.push('..');
    } else out.push(seg);
  }
  return out.join('/') || '.';
}

function fill(text: string, environment: string): string {
  return text.replace(/\{\{\s*\.Environment\.Name\s*\}\}/g, environment);
}

function chartOf(r: HelmfileRelease): ChartRef | undefined {
  const chart = r.chart;
  if (chart === undefined) return undefined;
  const version = r.version !== undefined && !r.version.includes('{{') ? r.version : undefined;
  if (chart.startsWith('./') || chart.startsWith('../') || chart.startsWith('/') || chart === '.') return { kind: 'local', path: joinPath(releaseBaseDir(r), chart) };
  if (chart.startsWith('oci://')) return { kind: 'remote', ref: chart, ...(version ? { version } : {}) };
  if (r.repository) {
    const name = chart.slice(r.repository.name.length + 1);
    return r.repository.oci
      ? { kind: 'remote', ref: `oci://${r.repository.url.replace(/\/+$/, '')}/${name}`, ...(version ? { version } : {}) }
      : { kind: 'remote', ref: name, repo: r.repository.url, ...(version ? { version } : {}) };
  }
  return undefined;
}

/** `read`: the environment the fleet was read in, whose values the reader's read values files hold. */
function specOf(r: HelmfileRelease, environment: string, read: string, problems: string[]): HelmfileReleaseSpec | undefined {
  const where = `${r.file}:${r.line}`;
  const chart = chartOf(r);
  if (!chart) {
    const unread = r.notRead?.find((n) => n.startsWith('the chart'));
    problems.push(unread !== undefined ? `${where}: release ${releaseId(r)}: ${unread} is a helmfile template fleetplan could not read` : `${where}: release ${releaseId(r)}: chart "${r.chart ?? ''}" is neither a local directory, oci:// nor a chart of a repositories: entry`);
    return undefined;
  }
  const values: HelmfileReleaseSpec['values'] = [];
  const before = problems.length;
  for (const entry of r.values ?? []) {
    if ('inline' in entry) {
      values.push({ inline: entry.inline, ...(entry.from !== undefined ? { from: entry.from } : {}) });
      continue;
    }
    if ('helmRelease' in entry) {
      values.push({ inline: entry.values, from: `${entry.helmRelease} spec.values` });
      continue;
    }
    const v = entry.file;
    const file = fill(v, environment);
    // A path written as a release template (`{{ .Release.Name }}`) that the reader rendered and read
    // in this environment: its values, as helmfile gives them.
    if (file.includes('{{') && !file.endsWith('.gotmpl') && entry.values !== undefined && environment === read) {
      if (Object.keys(entry.values).length) values.push({ inline: entry.values, from: v });
      continue;
    }
    if (file.includes('{{') || file.endsWith('.gotmpl')) {
      const why = r.notRead?.find((n) => n.startsWith(`values ${v} `));
      problems.push(`${where}: release ${releaseId(r)}: values "${v}" is a helmfile template${why !== undefined ? ` fleetplan could not read: ${why.slice(`values ${v} `.length)}` : ', which fleetplan does not execute; give a plain values file'}`);
      continue;
    }
    values.push({ file: joinPath(releaseBaseDir(r), file) });
  }
  if (problems.length > before) return undefined;
  return { id: releaseId(r), name: r.name, namespace: r.namespace, chart, values, file: r.file, line: r.line };
}

function hookOf(r: HelmfileRelease, h: NonNullable<HelmfileRelease['hooks']>[number], environment: string, problems: string[]): HookAction | undefined {
  const where = `${r.file}:${h.line}`;
  const args = h.args.map((a) => fill(a, environment));
  const templated = args.find((a) => a.includes('{{'));
  if (templated !== undefined) {
    problems.push(`${where}: hook of ${releaseId(r)}: argument "${templated}" is a template fleetplan does not execute`);
    return undefined;
  }
  if (h.command === 'kubectl' && args[0] === 'apply') {
    const files: string[] = [];
    let namespace: string | undefined;
    for (let i = 1; i < args.length; i++) {
      const a = args[i]!;
      const m = /^(?:--filename|-f)=(.+)$/.exec(a);
      if (m) files.push(joinPath(releaseBaseDir(r), m[1]!));
      else if ((a === '-f' || a === '--filename') && args[i + 1] !== undefined) files.push(joinPath(releaseBaseDir(r), args[++i]!));
      else if (/^(?:--namespace|-n)=/.test(a)) namespace = a.slice(a.indexOf('=') + 1);
      else if ((a === '-n' || a === '--namespace') && args[i + 1] !== undefined) namespace = args[++i]!;
      else if (!['--server-side', '--force-conflicts', '--server-side=true', '--force-conflicts=true'].includes(a)) {
        problems.push(`${where}: hook of ${releaseId(r)}: kubectl apply argument "${a}" is not understood by fleetplan`);
        return undefined;
      }
    }
    return { kind: 'apply', files, ...(namespace !== undefined ? { namespace } : {}) };
  }
  if (h.command === 'kubectl' && args[0] === 'wait' && args.some((a) => a === '--for=create')) {
    const crds = args.flatMap((a) => {
      const m = /^(?:crds?|customresourcedefinitions?(?:\.apiextensions\.k8s\.io)?)\/(.+)$/.exec(a);
      return m ? [m[1]!] : [];
    });
    if (crds.length) return { kind: 'wait-crds', crds };
  }
  problems.push(`${where}: hook of ${releaseId(r)}: "${[h.command, ...args].join(' ')}" is not a hook fleetplan runs (kubectl apply -f FILE, kubectl wait --for=create crd/NAME)`);
  return undefined;
}

/** Apps-phase releases in `needs` order; ties keep file order. Edges that name nothing or close a cycle are ignored (the graph rules report them). */
function inNeedsOrder(releases: HelmfileRelease[]): HelmfileRelease[] {
  const byId = new Map(releases.map((r) => [`${r.file}|${releaseId(r)}`, r]));
  const find = (from: HelmfileRelease, n: { name: string; namespace?: string }) => {
    if (n.namespace !== undefined) return byId.get(`${from.file}|${n.namespace}/${n.name}`);
    return byId.get(`${from.file}|${from.namespace}/${n.name}`) ?? releases.filter((x) => x.file === from.file && x.name === n.name).find((_, __, all) => all.length === 1);
  };
  const out: HelmfileRelease[] = [];
  const state = new Map<HelmfileRelease, 1 | 2>();
  const visit = (r: HelmfileRelease) => {
    if (state.get(r) !== undefined) return;
    state.set(r, 1);
    for (const n of r.needs) {
      const d = find(r, n);
      if (d && state.get(d) !== 1) visit(d);
    }
    state.set(r, 2);
    out.push(r);
  };
  for (const r of releases) visit(r);
  return out;
}

/** The Flux Kustomizations by level: dependsOn, and the Kustomization whose path holds the file (ADR 0102). */
function helmfileFluxLevels(flux: FluxKustomization[]): FluxKustomization[][] {
  const parentOf = (k: FluxKustomization) => flux.filter((p) => p !== k && p.path !== undefined && (p.path === '.' || k.file.startsWith(p.path + '/'))).sort((a, b) => b.path!.length - a.path!.length)[0];
  return fluxLevels(flux, parentOf);
}

/** The bootstrap of a helmfile + Flux fleet (`fleet.graphs`), for one helmfile environment. */
export function planHelmfileBootstrap(fleet: Fleet, cluster: string, chosen?: string): HelmfileBootstrapPlan {
  const graphs = fleet.graphs ?? { helmfile: [], flux: [] };
  // The environment the fleet was read in, unless the caller names another.
  const environment = chosen ?? graphs.helmfileEnvironment ?? DEFAULT_HELMFILE_ENVIRONMENT;
  const problems: string[] = [];
  const steps: HelmfileStep[] = [];
  const { releases, notes, problem } = selectEnvironment(graphs, environment);
  if (problem) problems.push(problem);
  const read = graphs.helmfileEnvironment ?? DEFAULT_HELMFILE_ENVIRONMENT;
  const crds = releases.filter((r) => r.phase === 'crds').map((r) => specOf(r, environment, read, problems)).filter((x): x is HelmfileReleaseSpec => x !== undefined);
  if (crds.length) steps.push({ kind: 'crds', name: 'crds', releases: crds });
  for (const r of inNeedsOrder(releases.filter((x) => x.phase === 'apps'))) {
    const spec = specOf(r, environment, read, problems);
    const hooks = (r.hooks ?? []).flatMap((h) => {
      const event = h.events.includes('presync') ? 'presync' : h.events.includes('postsync') ? 'postsync' : undefined;
      if (!event) {
        problems.push(`${r.file}:${h.line}: hook of ${releaseId(r)} runs on ${h.events.join(', ') || 'no event'}: fleetplan runs presync and postsync hooks only`);
        return [];
      }
      const action = hookOf(r, h, environment, problems);
      return action ? [{ event, action, text: [h.command, ...h.args.map((a) => fill(a, environment))].join(' ') }] : [];
    });
    const hookStep = (event: 'presync' | 'postsync') => hooks.filter((h) => h.event === event).map((h, i): HelmfileStep => ({ kind: 'hook', name: `${event} ${releaseId(r)}${i ? ` #${i + 1}` : ''}`, release: releaseId(r), event, action: h.action, text: h.text }));
    steps.push(...hookStep('presync'));
    if (spec) steps.push({ kind: 'release', name: `release ${spec.id}`, release: spec, needs: r.needs.map((n) => (n.namespace !== undefined ? `${n.namespace}/${n.name}` : n.name)) });
    steps.push(...hookStep('postsync'));
  }
  helmfileFluxLevels(graphs.flux).forEach((level, depth) => {
    steps.push({ kind: 'flux', name: `flux ${depth}`, depth, kustomizations: level.map((k) => ({ namespace: k.namespace, name: k.name, file: k.file, line: k.line })) });
  });
  return { cluster, environment, steps, problems, notes };
}

/**
 * The releases helmfile runs in `environment`, as helmfile does: `default` runs every helmfile;
 * another environment runs the helmfiles that define it (their own `environments:`, their bases',
 * or their parent's) and skips the others; none at all is helmfile's error. Notes say which
 * environment, where it is defined, and what is skipped.
 */
export function selectEnvironment(graphs: NonNullable<Fleet['graphs']>, environment: string): { releases: HelmfileRelease[]; notes: string[]; problem?: string } {
  const envs = graphs.helmfileEnvironments ?? [];
  const defined = (file: string) => envs.find((e) => e.file === file)?.environments.filter((x) => x.name === environment) ?? [];
  const selects = (file: string) => environment === DEFAULT_HELMFILE_ENVIRONMENT || defined(file).length > 0;
  const files = [...new Set(graphs.helmfile.map((r) => r.file))];
  const releases = graphs.helmfile.filter((r) => selects(r.file));
  const where = [...new Map(files.flatMap(defined).map((e) => [`${e.file}:${e.line}`, e])).values()];
  const read = graphs.helmfileEnvironment ?? DEFAULT_HELMFILE_ENVIRONMENT;
  const valuesNote = (e: HelmfileEnvironment): string => {
    const skipped = new Set(e.skipped ?? []);
    const used = e.values.filter((v) => !skipped.has(v));
    const parts = [
      ...(used.length ? [`values ${used.join(', ')}: ${environment === read ? 'read into the helmfile templates' : `they feed helmfile templates, which fleetplan read with environment ${read}'s values (pass -e ${environment} to read them)`}`] : []),
      ...(skipped.size ? [`values ${[...skipped].join(', ')}: not in the repository, skipped as helmfile skips them (missingFileHandler: ${e.missingFileHandler})`] : []),
      ...(e.secrets?.length ? [`secrets ${e.secrets.join(', ')}: not read (sops, decrypted by helmfile and merged over the values), so the templates that read the values are not read: see helmfile-value-not-read and helmfile-template-not-read`] : []),
    ];
    return parts.length ? ` (${parts.join('; ')})` : '';
  };
  const notes = [`helmfile environment ${environment}${where.length ? `: ${where.map((e) => `${e.file}:${e.line}${valuesNote(e)}`).join('; ')}` : environment === DEFAULT_HELMFILE_ENVIRONMENT ? " (helmfile's default)" : ''}`];
  if (graphs.helmfileStateValues?.length) notes.push(`helmfile state values ${graphs.helmfileStateValues.join(' ')}: merged over the environment values of the top-level helmfiles, as helmfile merges them (not passed to their helmfiles:)`);
  for (const f of files.filter((x) => !selects(x))) {
    notes.push(`${f} does not define environment ${environment}: helmfile skips its releases (${graphs.helmfile.filter((r) => r.file === f).map(releaseId).join(', ')})`);
  }
  if (graphs.helmfile.length > 0 && releases.length === 0) {
    const names = [...new Set(envs.flatMap((e) => e.environments.map((x) => x.name)))].sort();
    return {
      releases,
      notes,
      problem: `no releases found that matches specified selector() and environment(${environment}), in any helmfile (helmfile's error): ${names.length ? `the helmfiles define ${names.join(', ')}; pass one of those or default` : 'the helmfiles define no environments; leave --environment out (default)'}, or add environments: {${environment}: {}} to ${files.join(', ')}`,
    };
  }
  return { releases, notes };
}

function chartText(c: ChartRef): string {
  return c.kind === 'local' ? c.path : `${c.repo ? `${c.repo} ` : ''}${c.ref}${c.version ? ` ${c.version}` : ''}`;
}

/** The steps as `plan` prints them. */
export function helmfilePlanStages(plan: HelmfileBootstrapPlan): PlanStage[] {
  return plan.steps.map((s): PlanStage => {
    switch (s.kind) {
      case 'crds':
        return {
          name: s.name,
          description: `the CRDs of ${s.releases.map((r) => r.id).join(', ')} (helm template --include-crds, CustomResourceDefinitions only), applied server-side`,
          objects: [],
          files: [...new Set(s.releases.map((r) => r.file))],
          wait: ['every CustomResourceDefinition Established'],
          notes: [],
        };
      case 'release':
        return {
          name: s.name,
          description: `helm upgrade --install ${s.release.name} ${chartText(s.release.chart)} -n ${s.release.namespace}${s.release.values.length ? ` (${s.release.values.map((v) => ('file' in v ? v.file : v.from ?? 'inline values')).join(', ')})` : ''}${s.needs.length ? `, after ${s.needs.join(', ')}` : ''}`,
          objects: [],
          files: [s.release.file],
          wait: ['its Deployments and StatefulSets available, its CRDs Established'],
          notes: [],
        };
      case 'hook':
        return {
          name: s.name,
          description: s.action.kind === 'apply' ? `apply ${s.action.files.join(', ')} server-side` : `wait for ${s.action.crds.map((c) => `CRD ${c}`).join(', ')}`,
          objects: [],
          files: s.action.kind === 'apply' ? s.action.files : [],
          wait: s.action.kind === 'wait-crds' ? s.action.crds.map((c) => `CustomResourceDefinition ${c} Established`) : [],
          notes: [`helmfile hook: ${s.text}`],
        };
      case 'flux':
        return {
          name: s.name,
          description: `Flux Kustomizations at dependsOn depth ${s.depth}`,
          objects: [],
          files: [],
          wait: s.kustomizations.map((k) => `Kustomization ${k.namespace}/${k.name} Ready`),
          notes: [],
        };
    }
  });
}
