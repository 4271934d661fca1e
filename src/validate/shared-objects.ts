/**
 * One object applied by several apps of a cluster (the shared-object codes of production-safety),
 * judged as the tools apply it (docs/adr/0390-shared-objects-by-content.md):
 *
 * - Flux: kustomize-controller applies every Kustomization with one field manager, so no conflict
 *   is raised; each apply stamps its own owner labels (`kustomize.toolkit.fluxcd.io/name` and
 *   `/namespace`), and garbage collection deletes an object only while it carries the owner labels
 *   of the Kustomization that stopped listing it (fluxcd/pkg ssa `DeleteOptions.Inclusions`).
 * - Argo CD: an Application whose live object carries another app's tracking label or annotation
 *   gets a `SharedResourceWarning` condition; with `FailOnSharedResource=true` its sync fails.
 *
 * So the same content from every owner is a warning (`shared-object-identical`): nothing fails,
 * the ownership marks flap. Different content, content fleetplan cannot compute, or an owner that
 * fails on shared resources is an error (`shared-object`): the last apply wins.
 *
 * Content is the object as each owner applies it: the real build with `--leaves`, else the static
 * kustomize build of the owner's path (kustomize-static.ts, with a Flux Kustomization's
 * `spec.components` and `spec.patches`), then Flux's `commonMetadata`. Labels a `commonMetadata`
 * stamps are compared apart: they flap like the owner labels and are named in the warning.
 */
import type { Finding } from '../model/finding.js';
import type { ResolvedApp, ResolvedCluster } from '../model/resolved.js';
import type { ManifestObject } from '../load/manifests.js';
import { CLUSTER_SCOPED, isObj } from '../load/manifests.js';
import { substitute } from '../model/substitute.js';
import { locateOrigin } from '../model/fleet.js';
import { isFluxKustomization } from '../model/k8s.js';
import { PHASE_LABEL } from '../model/constants.js';
import { applicationSource } from '../model/argo-source-type.js';
import { applicationFor } from '../generate/argocd.js';
import { at } from './context.js';
import type { RuleContext } from './context.js';
import { StaticKustomize } from './kustomize-static.js';

type Obj = Record<string, unknown>;

const FLUX_GROUP = 'kustomize.toolkit.fluxcd.io/';

/** One app applying the object, with the document it comes from. */
interface Owner {
  app: ResolvedApp;
  object: ManifestObject;
}

/** What one owner applies: the body, the labels its commonMetadata stamps, and what could not be applied. */
interface Applied {
  body: Obj;
  stamped: Record<string, string>;
  unknown: string[];
  /** Why its values cannot be compared when they differ (SOPS ciphertexts differ for the same plaintext). */
  encrypted?: string;
  /** The replacements that may rewrite its name (`file replacements`). */
  renamedBy?: string;
}

export function sharedObjectFindings(ctx: RuleContext): Finding[] {
  const out: Finding[] = [];
  const content = new ContentReader(ctx);
  for (const c of ctx.clusters) {
    const lookup = (n: string) => c.vars[n];
    const groups = new Map<string, { kind: string; ns: string; name: string; owners: Owner[] }>();
    for (const app of c.apps) {
      // A bootstrap phase applies objects that GitOps then takes over (seed 003's hand-off).
      if (app.labels[PHASE_LABEL] !== undefined) continue;
      const fluxSpec = fluxSpecOf(ctx, app);
      if (fluxSpec && (typeof fluxSpec.namePrefix === 'string' || typeof fluxSpec.nameSuffix === 'string')) continue;
      for (const o of ctx.objectsOf(c, app) ?? []) {
        if (!o.name || o.renamed) continue;
        const name = o.name.includes('$') ? substitute(o.name, lookup).text : o.name;
        const clusterScoped = CLUSTER_SCOPED.has(o.kind);
        // A Flux targetNamespace is set on every namespaced object the Kustomization applies.
        const target = fluxSpec && typeof fluxSpec.targetNamespace === 'string' && fluxSpec.targetNamespace !== '' && !o.built ? fluxSpec.targetNamespace : undefined;
        const ns = clusterScoped ? '' : (target ?? o.namespace ?? app.destination.namespace ?? '');
        const nsText = ns.includes('$') ? substitute(ns, lookup).text : ns;
        // Flux's post-build variables are each Kustomization's own (leafVariables: false): `${APP}-env` built by two
        // Kustomizations is two objects once Flux substitutes them, so a name still holding `${` is not compared.
        if (fluxSpec && (name.includes('${') || nsText.includes('${'))) continue;
        const key = `${o.group}/${o.kind}/${nsText}/${name}`;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { kind: o.kind, ns: nsText, name, owners: [] }));
        if (!g.owners.some((x) => x.app === app)) g.owners.push({ app, object: o });
      }
    }
    for (const g of groups.values()) {
      if (g.owners.length < 2) continue;
      g.owners.sort((a, b) => (a.app.name < b.app.name ? -1 : a.app.name > b.app.name ? 1 : 0));
      out.push(judge(ctx, c, g, g.owners.map((o) => content.of(c, o))));
    }
  }
  return out;
}

function judge(ctx: RuleContext, c: ResolvedCluster, g: { kind: string; ns: string; name: string; owners: Owner[] }, applied: Applied[]): Finding {
  const { owners } = g;
  const flux = owners.every((o) => fluxSpecOf(ctx, o.app) !== undefined);
  const what = flux ? 'Kustomization' : 'app';
  const first = owners[0]!.object;
  const sameDocument = owners.every((o) => o.object.file === first.file && o.object.line === first.line);
  const list = owners.map((o) => {
    const def = locateOrigin(ctx.fleet, o.app.origin);
    const where = def.file ? ` (${def.file}${def.line ? `:${def.line}` : ''})` : '';
    return `"${o.app.name}"${where}${sameDocument ? '' : ` from ${docAt(o.object)}`}`;
  }).join(', ');
  const object = `${g.kind} ${g.ns ? g.ns + '/' : ''}${g.name}${sameDocument ? ` (${docAt(first)})` : ''}`;
  const by = `${owners.length} ${what}s: ${list}`;
  const on = ` on cluster ${c.name}`;
  const error = (message: string, hint: string): Finding => at(first.file, first.line, { cluster: c.name, app: owners[owners.length - 1]!.app.name, severity: 'error', code: 'shared-object', message, hint });

  const failing = flux ? [] : owners.filter((o) => syncOptionsOf(c, o.app).includes('FailOnSharedResource=true'));
  if (failing.length) {
    return error(`${object} is applied by ${by}${on}`,
      `${failing.map((o) => `"${o.app.name}"`).join(', ')} ${failing.length === 1 ? 'syncs' : 'sync'} with FailOnSharedResource=true, so Argo CD fails the sync of ${failing.length === 1 ? 'it' : 'each'} whenever the live object carries another app's tracking ("Shared resource found"); keep the object in one app and let the others depend on it with needs`);
  }
  const keys = new Set(applied.flatMap((a) => Object.keys(a.stamped)));
  const bodies = applied.map((a) => withoutLabels(a.body, keys));
  const differing = bodies.findIndex((b) => !equal(b, bodies[0]));
  const unknown = [...new Set([...applied.flatMap((a) => a.unknown), ...(differing > 0 ? applied.flatMap((a) => (a.encrypted ? [a.encrypted] : [])) : [])])];
  // The name compared is the name as written: replacements that rewrite it (a placeholder such as
  // ROUTE_NAME-public filled per build) may make these different objects (ADR 0421).
  const renamers = [...new Set(applied.flatMap((a) => (a.renamedBy ? [a.renamedBy] : [])))];
  if (renamers.length) {
    return at(first.file, first.line, {
      cluster: c.name,
      app: owners[owners.length - 1]!.app.name,
      severity: 'warning',
      code: 'shared-object',
      message: `${object} is applied by ${by}${on}, by the name as written: ${renamers.join(', ')} rewrite metadata.name, so each build may name it differently`,
      hint: `fleetplan does not apply replacements; validate --leaves with render --leaves output compares the names kustomize builds. If they stay equal: ${fightHint(flux)}`,
    });
  }
  if (unknown.length) {
    return error(`${object} is applied by ${by}${on}`,
      `fleetplan cannot tell whether they apply the same content: ${unknown.join('; ')} may change it and is not applied here (validate --leaves with render --leaves output compares the real builds). ${fightHint(flux)}`);
  }
  if (differing > 0) {
    const paths = differences(bodies[0], bodies[differing], []).slice(0, 3);
    const shown = paths.map((p) => `${p.path || '(the whole object)'} (${show(p.a)} in "${owners[0]!.app.name}", ${show(p.b)} in "${owners[differing]!.app.name}")`).join(', ');
    return error(`${object} is applied with different content by ${by}${on}`, `they differ at ${shown}. ${fightHint(flux)}`);
  }
  const flapping = [...keys].sort().filter((k) => new Set(applied.map((a) => labelOf(a.body, k) ?? '')).size > 1);
  const stamps = flapping.length
    ? `; their commonMetadata labels flip with them (${flapping.map((k) => `${k}: ${[...new Set(applied.map((a) => show(labelOf(a.body, k))))].join(' / ')}`).join(', ')})`
    : '';
  return at(first.file, first.line, {
    cluster: c.name,
    app: owners[owners.length - 1]!.app.name,
    severity: 'warning',
    code: 'shared-object-identical',
    message: `${object} is applied with the same content by ${by}${on}`,
    hint: flux
      ? `nothing fails: kustomize-controller applies every Kustomization with one field manager, but each reconcile rewrites the owner labels kustomize.toolkit.fluxcd.io/name and /namespace to its own${stamps}, and when one Kustomization stops applying the object, its garbage collection (spec.prune: true) deletes it if it applied last (the others re-create it on their next reconcile; a Namespace takes its contents with it). Keep the object in one Kustomization and give the others a dependsOn on it`
      : 'nothing fails: Argo CD gives each Application a SharedResourceWarning condition, each sync rewrites the tracking label or annotation (app.kubernetes.io/instance or argocd.argoproj.io/tracking-id) to its own app so the others show it OutOfSync, and when one app stops listing it, its pruning deletes it if it synced last. Keep the object in one app and let the others depend on it with needs',
  });
}

function fightHint(flux: boolean): string {
  return flux
    ? 'kustomize-controller applies each Kustomization with the same field manager and raises no conflict: the object holds whichever reconciled last and changes back and forth, and the owner labels and pruning follow the last one. Keep the object in one Kustomization and give the others a dependsOn on it'
    : 'each sync applies its own, so the object holds whichever app synced last and the others show it OutOfSync (Argo CD reports a SharedResourceWarning). Keep the object in one app and let the others depend on it with needs';
}

/** The Flux Kustomization spec an app stands for (flux and helmfile-flux layouts), or undefined. */
/** The spec of a Flux app's Kustomization ({} when it has none); undefined when the app is not a Flux Kustomization. */
export function fluxSpecOf(ctx: RuleContext, app: ResolvedApp): Obj | undefined {
  if (ctx.fleet.engine !== 'flux' || !app.name.startsWith('flux:')) return undefined;
  const m = app.manifest;
  return isFluxKustomization(m) && isObj(m.spec) ? m.spec : {};
}

function syncOptionsOf(c: ResolvedCluster, app: ResolvedApp): string[] {
  const spec = applicationFor(c, app).spec as Obj | undefined;
  const policy = spec && isObj(spec.syncPolicy) ? spec.syncPolicy : undefined;
  const own = policy && Array.isArray(policy.syncOptions) ? policy.syncOptions.filter((s): s is string => typeof s === 'string') : [];
  return [...app.syncOptions, ...own];
}

function docAt(o: ManifestObject): string {
  return o.line ? `${o.file}:${o.line}` : o.file;
}

/** The content of each owner's object, builds cached by path and Flux fields. */
class ContentReader {
  private readonly kustomize: StaticKustomize;
  private readonly builds = new Map<string, ReturnType<StaticKustomize['build']>>();

  constructor(private readonly ctx: RuleContext) {
    this.kustomize = new StaticKustomize(ctx.fs, ctx.manifests);
  }

  of(c: ResolvedCluster, owner: Owner): Applied {
    const { app, object: o } = owner;
    const spec = fluxSpecOf(this.ctx, app);
    const unknown: string[] = [];
    let body: Obj = o.body;
    let renamedBy: string | undefined;
    const path = this.ctx.localPath(app);
    if (!o.built && path !== undefined) {
      const extra = spec ? { components: strings(spec.components), patches: Array.isArray(spec.patches) ? spec.patches : [] } : {};
      const key = `${path}\0${JSON.stringify(extra)}`;
      let build = this.builds.get(key);
      if (!build) this.builds.set(key, (build = this.kustomize.buildWith(path, extra)));
      const built = build.objects.find((s) => s.file === o.file && s.line === o.line);
      if (!built) unknown.push(`the kustomize build of ${path}`);
      else {
        body = built.body;
        if (built.renamedBy) renamedBy = built.renamedBy;
        if (built.unapplied) unknown.push(...built.unapplied);
        else if (built.uncertain) unknown.push(`a transformation of ${path}`);
      }
      if (spec) {
        const ks = `${app.origin.file} spec`;
        for (const f of ['images', 'patchesStrategicMerge', 'patchesJson6902']) if (nonEmpty(spec[f]) && mayChange(f, body)) unknown.push(`${ks}.${f}`);
        if (isObj(spec.postBuild) && JSON.stringify(body).includes('${') && !substituteDisabled(body)) unknown.push(`${ks}.postBuild (each Kustomization substitutes its own variables)`);
      } else {
        const source = applicationSource(applicationFor(c, app) as unknown as Obj);
        const overrides = source && isObj(source.kustomize) ? Object.keys(source.kustomize).filter((k) => k !== 'version' && nonEmpty(source.kustomize && (source.kustomize as Obj)[k])) : [];
        for (const k of overrides) unknown.push(`${app.origin.file} spec.source.kustomize.${k}`);
      }
    }
    let encrypted: string | undefined;
    if (spec && isObj(body.sops)) {
      // kustomize-controller decrypts a SOPS document and applies it without its `sops` block.
      const { sops: _sops, ...rest } = body;
      body = rest;
      if (JSON.stringify(body).includes('"ENC[')) encrypted = `the SOPS-encrypted values of ${o.file} (fleetplan does not decrypt them)`;
    }
    const stamped: Record<string, string> = {};
    const meta = spec && isObj(spec.commonMetadata) ? spec.commonMetadata : undefined;
    if (meta) {
      body = structuredClone(body);
      const m = mapAt(body, 'metadata');
      if (isObj(meta.labels)) {
        for (const [k, v] of Object.entries(meta.labels)) {
          mapAt(m, 'labels')[k] = v;
          if (!k.startsWith(FLUX_GROUP)) stamped[k] = String(v);
        }
      }
      if (isObj(meta.annotations)) Object.assign(mapAt(m, 'annotations'), meta.annotations);
    }
    return { body: normalized(body), stamped, unknown, ...(encrypted ? { encrypted } : {}), ...(renamedBy ? { renamedBy } : {}) };
  }
}

function mayChange(field: string, body: Obj): boolean {
  return field !== 'images' || /"(init|ephemeral)?[cC]ontainers"/.test(JSON.stringify(body));
}

function substituteDisabled(body: Obj): boolean {
  const meta = isObj(body.metadata) ? body.metadata : {};
  const flag = `${FLUX_GROUP}substitute`;
  return [meta.labels, meta.annotations].some((m) => isObj(m) && m[flag] === 'disabled');
}

/** The object without what is its identity (name and namespace: equal by construction) and without empty metadata maps. */
function normalized(body: Obj): Obj {
  const copy = structuredClone(body);
  const meta = isObj(copy.metadata) ? copy.metadata : undefined;
  if (meta) {
    delete meta.name;
    delete meta.namespace;
    for (const k of ['labels', 'annotations']) if (isObj(meta[k]) && Object.keys(meta[k]).length === 0) delete meta[k];
  }
  return copy;
}

function withoutLabels(body: Obj, keys: ReadonlySet<string>): Obj {
  if (!keys.size) return body;
  const copy = structuredClone(body);
  const labels = isObj(copy.metadata) && isObj(copy.metadata.labels) ? copy.metadata.labels : undefined;
  if (labels) {
    for (const k of keys) delete labels[k];
    if (Object.keys(labels).length === 0) delete (copy.metadata as Obj).labels;
  }
  return copy;
}

function labelOf(body: Obj, key: string): string | undefined {
  const labels = isObj(body.metadata) && isObj(body.metadata.labels) ? body.metadata.labels : undefined;
  const v = labels?.[key];
  return v === undefined ? undefined : String(v);
}

function equal(a: unknown, b: unknown): boolean {
  return differences(a, b, []).length === 0;
}

/** Where two values differ, as dotted paths (`spec.ref.tag`), first found first. */
function differences(a: unknown, b: unknown, path: (string | number)[]): { path: string; a: unknown; b: unknown }[] {
  if ((isObj(a) || a === undefined) && (isObj(b) || b === undefined) && (isObj(a) || isObj(b))) {
    a = a ?? {};
    b = b ?? {};
  }
  if (isObj(a) && isObj(b)) {
    const out: { path: string; a: unknown; b: unknown }[] = [];
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) out.push(...differences(a[k], b[k], [...path, k]));
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((x, i) => differences(x, b[i], [...path, i]));
  if (a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b))) return [];
  const text = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : /^[\w-]+$/.test(p) ? `${i ? '.' : ''}${p}` : `[${JSON.stringify(p)}]`)).join('');
  return [{ path: text, a, b }];
}

function show(v: unknown): string {
  if (v === undefined) return 'absent';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function nonEmpty(v: unknown): boolean {
  return Array.isArray(v) ? v.length > 0 : isObj(v) ? Object.keys(v).length > 0 : v !== undefined && v !== null && v !== '';
}

function mapAt(parent: Obj, key: string): Obj {
  const v = parent[key];
  if (isObj(v)) return v;
  const m: Obj = {};
  parent[key] = m;
  return m;
}
