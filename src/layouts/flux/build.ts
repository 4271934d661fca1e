/**
 * What `kustomize build` of a Flux Kustomization's `spec.path` gives, as kustomize-controller runs
 * it (fluxcd/pkg kustomize `GenerateManifest`), emulated in Node for the objects the plan reads
 * (Flux Kustomizations, their sources, ConfigMaps and Secrets): docs/adr/0279-flux-clusters-layout.md.
 *
 * - the directory's kustomization.yaml, or — without one — the one Flux generates: every
 *   subdirectory with a kustomization (built, not descended into) and every `.yaml`/`.yml` file
 *   elsewhere, in walk order;
 * - `resources` (files and directories, recursively), `components` (their resources and patches),
 *   `patches`/`patchesStrategicMerge`/`patchesJson6902` (listing.ts), `namespace` (not on
 *   cluster-scoped kinds), `labels`/`commonLabels` and `commonAnnotations` on `metadata`;
 * - the Flux Kustomization's own fields added to that kustomization: `components`, `patches`,
 *   `targetNamespace` (→ namespace), `namePrefix`/`nameSuffix`.
 *
 * Fields that change objects in ways not emulated (`replacements`, generators, `helmCharts`, …) are
 * named in a `flux-build-not-emulated` warning; a missing path is an error, as the build fails.
 * `render --leaves` builds the same paths with the real kustomize.
 */
import type { Finding } from '../../model/finding.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { Built } from './built.js';
import { CLUSTER_SCOPED, isObj, joinRelative } from '../../load/manifests.js';
import { parseYamlAll } from '../../yaml/index.js';
import { clone } from '../../model/merge.js';
import { KUSTOMIZATION_FILES, applyPatches } from '../helmfile-flux/listing.js';
import type { ListingPatch } from '../helmfile-flux/listing.js';
import { readDocs } from '../helmfile-flux/reader.js';
import { DEFAULT_SOURCE_IGNORE } from '../../model/flux-source-ignore.js';
import type { SourceIgnore } from '../../model/flux-source-ignore.js';

type Obj = Record<string, unknown>;

/** One object of a build, with the file and document it was written in. */
export type { Built } from './built.js';

/**
 * Fields of a kustomization that can change Flux objects and that this emulation does not apply.
 * `configMapGenerator`/`secretGenerator` only add ConfigMaps and Secrets (with hashed names), never
 * Flux objects: they are left out, and a `substituteFrom` naming one is reported unresolved.
 */
const NOT_EMULATED = ['transformers', 'generators', 'vars', 'helmCharts', 'helmChartInflationGenerator', 'crds', 'openapi'];

export interface BuildContext {
  fs: RepoFileSystem;
  findings: Finding[];
  /** Kustomization files already reported for fields not emulated (one warning each). */
  reported: Set<string>;
  /** What the artifact of the source being built leaves out; source-controller's defaults when absent. */
  ignore?: SourceIgnore;
}

function findKustomizationFile(fs: RepoFileSystem, dir: string): string | undefined {
  for (const f of KUSTOMIZATION_FILES) {
    const p = dir === '.' ? f : `${dir}/${f}`;
    if (fs.exists(p) && !fs.isDirectory(p)) return p;
  }
  return undefined;
}

const join = (dir: string, name: string) => (dir === '.' ? name : `${dir}/${name}`);

/** Resources of the kustomization Flux generates for a directory without one (scanManifests). */
function generatedResources(fs: RepoFileSystem, dir: string, ignore: SourceIgnore): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 12) return;
    // filepath.Walk: lexical order.
    for (const e of [...fs.list(d)].sort()) {
      const p = join(d, e);
      // What source-controller leaves out of the artifact (`.sops.yaml`, `.github/`, `.sourceignore`
      // and spec.ignore patterns); other dot files are Flux's to build. The artifact's walk matches
      // file by file, so a folder's files are matched even when the folder is.
      if (fs.isDirectory(p)) {
        if (e === '.git') continue;
        const k = findKustomizationFile(fs, p);
        if (k && !ignore.ignored(k)) out.push(p);
        else walk(p, depth + 1);
      } else if (/\.ya?ml$/.test(e) && !ignore.ignored(p)) out.push(p);
    }
  };
  walk(dir, 0);
  return out;
}

const docCache = new WeakMap<RepoFileSystem, Map<string, Built[]>>();

function fileObjects(ctx: BuildContext, file: string): Built[] {
  let cache = docCache.get(ctx.fs);
  if (!cache) docCache.set(ctx.fs, (cache = new Map()));
  let docs = cache.get(file);
  if (!docs) {
    docs = readDocs(ctx.fs, file, ctx.findings).flatMap((d) => (isObj(d.value) && typeof d.value.kind === 'string' ? [{ obj: d.value, file, locate: d.locate }] : []));
    cache.set(file, docs);
  }
  return docs.map((d) => ({ ...d, obj: clone(d.obj) }));
}

/** The parsed fields of one kustomization file that the emulation applies. */
interface Kustomization {
  file?: string;
  dir: string;
  resources: string[];
  components: string[];
  namespace?: string;
  patches: ListingPatch[];
  labels: Record<string, string>;
  annotations: Record<string, string>;
  namePrefix?: string;
  nameSuffix?: string;
  replacements: Obj[];
  /** ConfigMaps and Secrets of configMapGenerator/secretGenerator whose names kustomize keeps (no hash suffix). */
  generated: Built[];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function parsePatchText(text: string): Obj | Obj[] | undefined {
  try {
    const v = parseYamlAll(text, { schema: 'kyaml' })[0];
    if (Array.isArray(v)) return v.filter(isObj);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function readKustomization(ctx: BuildContext, file: string): Kustomization | undefined {
  let doc: unknown;
  try {
    doc = parseYamlAll(ctx.fs.readText(file), { schema: 'core' })[0];
  } catch (e) {
    ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${file} cannot be read: ${(e as Error).message}`, file, line: 1, hint: 'kustomize build fails the same way; fix the YAML' });
    return undefined;
  }
  const k = isObj(doc) ? doc : {};
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
  const patches: ListingPatch[] = [];
  const add = (p: unknown, i: number, field: string) => {
    let body: Obj | Obj[] | undefined;
    let target: Obj | undefined;
    const fromPath = (rel: string) => {
      const path = joinRelative(dir, rel);
      if (path === undefined || !ctx.fs.exists(path)) {
        ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${file} ${field}[${i}] names ${rel}, which does not exist`, file, line: 1, hint: 'kustomize build fails: fix the path' });
        return undefined;
      }
      return parsePatchText(ctx.fs.readText(path));
    };
    if (typeof p === 'string') body = field === 'patchesStrategicMerge' && /\n/.test(p) ? parsePatchText(p) : fromPath(p);
    else if (isObj(p)) {
      target = isObj(p.target) ? p.target : undefined;
      if (typeof p.patch === 'string') body = parsePatchText(p.patch);
      else if (typeof p.path === 'string') body = fromPath(p.path);
      else if (field === 'patchesStrategicMerge') body = p;
    }
    if (body) patches.push({ patch: body, ...(target ? { target } : {}), from: `${file} (${field}[${i}])` });
  };
  (Array.isArray(k.patchesStrategicMerge) ? k.patchesStrategicMerge : []).forEach((p, i) => add(p, i, 'patchesStrategicMerge'));
  (Array.isArray(k.patches) ? k.patches : []).forEach((p, i) => add(p, i, 'patches'));
  (Array.isArray(k.patchesJson6902) ? k.patchesJson6902 : []).forEach((p, i) => add(p, i, 'patchesJson6902'));
  const labels: Record<string, string> = {};
  if (isObj(k.commonLabels)) for (const [a, b] of Object.entries(k.commonLabels)) labels[a] = String(b);
  for (const l of Array.isArray(k.labels) ? k.labels.filter(isObj) : []) if (isObj(l.pairs)) for (const [a, b] of Object.entries(l.pairs)) labels[a] = String(b);
  const annotations: Record<string, string> = {};
  if (isObj(k.commonAnnotations)) for (const [a, b] of Object.entries(k.commonAnnotations)) annotations[a] = String(b);
  const generated: Built[] = [];
  const noHash = isObj(k.generatorOptions) && k.generatorOptions.disableNameSuffixHash === true;
  // `configurations:` with a nameReference from a HelmRelease's valuesFrom (or a Flux Kustomization's
  // substituteFrom) to ConfigMap/Secret: kustomize rewrites those references to the hashed name, so the
  // generated object is the one they name (Flux's documented valuesFrom pattern; ADR 0341).
  const renamedReferences = new Set<string>();
  for (const c of strings(k.configurations)) {
    const path = joinRelative(dir, c);
    let docs: unknown[] = [];
    try {
      docs = path && ctx.fs.exists(path) && !ctx.fs.isDirectory(path) ? parseYamlAll(ctx.fs.readText(path), { schema: 'core' }) : [];
    } catch {
      docs = [];
    }
    for (const d of docs.filter(isObj)) {
      for (const ref of Array.isArray(d.nameReference) ? d.nameReference.filter(isObj) : []) {
        const specs = Array.isArray(ref.fieldSpecs) ? ref.fieldSpecs.filter(isObj) : [];
        if ((ref.kind === 'ConfigMap' || ref.kind === 'Secret') && specs.some((f) => f.kind === 'HelmRelease' || f.kind === 'Kustomization')) renamedReferences.add(ref.kind);
      }
    }
  }
  for (const [field, kind] of [['configMapGenerator', 'ConfigMap'], ['secretGenerator', 'Secret']] as const) {
    (Array.isArray(k[field]) ? k[field] : []).forEach((g: unknown, i: number) => {
      if (!isObj(g) || typeof g.name !== 'string') return;
      // With a hash suffix the name is not the one written: nothing can name it, so it is left out,
      // unless the kustomization's configurations rewrite Flux's references to it.
      if (!(noHash || (isObj(g.options) && g.options.disableNameSuffixHash === true) || renamedReferences.has(kind))) return;
      const data: Record<string, string> = {};
      for (const l of strings(g.literals)) {
        const eq = l.indexOf('=');
        if (eq > 0) data[l.slice(0, eq)] = l.slice(eq + 1).replace(/^(["'])(.*)\1$/, '$2');
      }
      const read = (rel: string) => {
        const path = joinRelative(dir, rel);
        return path && ctx.fs.exists(path) && !ctx.fs.isDirectory(path) ? ctx.fs.readText(path) : undefined;
      };
      for (const f of strings(g.files)) {
        const eq = f.indexOf('=');
        const key = eq > 0 ? f.slice(0, eq) : f.split('/').pop()!;
        const text = read(eq > 0 ? f.slice(eq + 1) : f);
        if (text !== undefined) data[key] = text;
      }
      for (const e of [...strings(g.envs), ...(typeof g.env === 'string' ? [g.env] : [])]) {
        for (const line of (read(e) ?? '').split('\n')) {
          const m = /^\s*([^#=\s][^=]*)=(.*)$/.exec(line);
          if (m) data[m[1]!.trim()] = m[2]!;
        }
      }
      const obj: Obj = { apiVersion: 'v1', kind, metadata: { name: g.name, ...(typeof g.namespace === 'string' ? { namespace: g.namespace } : {}) }, ...(kind === 'Secret' ? { type: 'Opaque', data: Object.fromEntries(Object.entries(data).map(([a, b]) => [a, Buffer.from(b).toString('base64')])) } : { data }) };
      generated.push({ obj, file, locate: () => ({ line: 1, column: 1 }) });
      void i;
    });
  }
  const replacements: Obj[] = [];
  const unsupported = NOT_EMULATED.filter((f) => k[f] !== undefined);
  (Array.isArray(k.replacements) ? k.replacements : []).forEach((r: unknown) => {
    if (isObj(r) && typeof r.path === 'string') {
      const path = joinRelative(dir, r.path);
      let docs: unknown[] = [];
      try {
        docs = path && ctx.fs.exists(path) ? parseYamlAll(ctx.fs.readText(path), { schema: 'kyaml' }) : [];
      } catch {
        docs = [];
      }
      if (!path || !ctx.fs.exists(path)) ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${file} replacements names ${r.path}, which does not exist`, file, line: 1, hint: 'kustomize build fails: fix the path' });
      for (const d of docs) for (const x of Array.isArray(d) ? d : [d]) if (isObj(x)) replacements.push(x);
    } else if (isObj(r)) replacements.push(r);
  });
  if (replacements.some((r) => !replacementSupported(r)) && !unsupported.includes('replacements')) unsupported.push('replacements (with list selectors, delimiter or index)');
  if (unsupported.length && !ctx.reported.has(file)) {
    ctx.reported.add(file);
    ctx.findings.push({
      severity: 'warning',
      code: 'flux-build-not-emulated',
      message: `${file} sets ${unsupported.join(', ')}, which fleetplan does not apply when it reads the Flux objects of this build (it applies resources, components, patches, namespace, labels and annotations)`,
      file,
      line: 1,
      hint: 'the Flux objects plan and render show from this directory may differ from kustomize build; render --leaves builds it with kustomize',
    });
  }
  return {
    file,
    dir,
    resources: [...strings(k.resources), ...strings(k.bases)],
    components: strings(k.components),
    ...(typeof k.namespace === 'string' ? { namespace: k.namespace } : {}),
    patches,
    labels,
    annotations,
    ...(typeof k.namePrefix === 'string' ? { namePrefix: k.namePrefix } : {}),
    ...(typeof k.nameSuffix === 'string' ? { nameSuffix: k.nameSuffix } : {}),
    replacements,
    generated,
  };
}

const SIMPLE_FIELD_PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** Replacements fleetplan applies: dotted field paths without list selectors, no delimiter or index. */
function replacementSupported(r: Obj): boolean {
  const source = isObj(r.source) ? r.source : undefined;
  if (!source || (source.fieldPath !== undefined && !SIMPLE_FIELD_PATH.test(String(source.fieldPath))) || source.options !== undefined) return false;
  return (Array.isArray(r.targets) ? r.targets : []).every((t) => isObj(t) && (!isObj(t.options) || (t.options.delimiter === undefined && t.options.index === undefined)) && strings(t.fieldPaths).every((f) => SIMPLE_FIELD_PATH.test(f)));
}

function anchored(pattern: unknown, value: string | undefined): boolean {
  if (typeof pattern !== 'string' || pattern === '') return true;
  try {
    return new RegExp(`^(?:${pattern})$`).test(value ?? '');
  } catch {
    return pattern === value;
  }
}

function selected(sel: Obj, o: Obj): boolean {
  const meta = isObj(o.metadata) ? o.metadata : {};
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const [group, version] = av.includes('/') ? av.split('/') : ['', av];
  return anchored(sel.kind, String(o.kind)) && anchored(sel.name, typeof meta.name === 'string' ? meta.name : undefined) && anchored(sel.namespace, typeof meta.namespace === 'string' ? meta.namespace : undefined) && anchored(sel.group, group) && anchored(sel.version, version);
}

/** kustomize's replacements (the subset replacementSupported admits): the source field's value set at each target field. */
function applyReplacements(ctx: BuildContext, objects: Built[], k: Kustomization): Built[] {
  if (k.replacements.length === 0) return objects;
  const out = objects.map((b) => ({ ...b, obj: clone(b.obj) }));
  for (const r of k.replacements) {
    if (!replacementSupported(r)) continue;
    const source = r.source as Obj;
    const from = out.filter((b) => selected(source, b.obj));
    if (from.length !== 1) {
      ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${k.file ?? k.dir}: a replacement's source ${JSON.stringify(source)} selects ${from.length} objects; kustomize needs exactly one`, file: k.file ?? k.dir, line: 1, hint: 'kustomize build fails the same way; narrow the source' });
      continue;
    }
    let value: unknown = from[0]!.obj;
    for (const seg of String(source.fieldPath ?? 'metadata.name').split('.')) value = isObj(value) ? value[seg] : undefined;
    if (value === undefined) continue;
    for (const t of (r.targets as unknown[]).filter(isObj)) {
      const sel = isObj(t.select) ? t.select : {};
      const rejects = (Array.isArray(t.reject) ? t.reject : []).filter(isObj);
      const create = isObj(t.options) && t.options.create === true;
      for (const b of out) {
        if (!selected(sel, b.obj) || rejects.some((x) => selected(x, b.obj))) continue;
        for (const fp of strings(t.fieldPaths)) {
          const segs = fp.split('.');
          let at: Obj = b.obj;
          let ok = true;
          for (const seg of segs.slice(0, -1)) {
            if (!isObj(at[seg])) {
              if (!create) {
                ok = false;
                break;
              }
              at[seg] = {};
            }
            at = at[seg] as Obj;
          }
          const last = segs[segs.length - 1]!;
          if (ok && (create || at[last] !== undefined)) at[last] = clone(value);
        }
      }
    }
  }
  return out;
}

function isRemote(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(ref) || /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(ref) || ref.includes('?ref=');
}

/** The kustomization of `dir`: its own, or the one Flux generates. */
export function kustomizationOf(ctx: BuildContext, dir: string): Kustomization | undefined {
  const own = findKustomizationFile(ctx.fs, dir);
  if (own) return readKustomization(ctx, own);
  return { dir, resources: generatedResources(ctx.fs, dir, ctx.ignore ?? DEFAULT_SOURCE_IGNORE).map((p) => (dir === '.' ? p : p.slice(dir.length + 1))), components: [], patches: [], labels: {}, annotations: {}, replacements: [], generated: [] };
}

/** The fields of a Flux Kustomization that kustomize-controller adds to the kustomization of its path. */
export function amend(k: Kustomization, flux: Obj, from: string): Kustomization {
  const spec = isObj(flux.spec) ? flux.spec : {};
  const out: Kustomization = { ...k, components: [...k.components], patches: [...k.patches], replacements: [...k.replacements] };
  if (typeof spec.targetNamespace === 'string' && spec.targetNamespace !== '') out.namespace = spec.targetNamespace;
  if (typeof spec.namePrefix === 'string') out.namePrefix = spec.namePrefix;
  if (typeof spec.nameSuffix === 'string') out.nameSuffix = spec.nameSuffix;
  (Array.isArray(spec.patches) ? spec.patches : []).forEach((p: unknown, i: number) => {
    if (!isObj(p) || typeof p.patch !== 'string') return;
    const body = parsePatchText(p.patch);
    if (body) out.patches.push({ patch: body, ...(isObj(p.target) ? { target: p.target } : {}), from: `${from} (spec.patches[${i}])` });
  });
  const ignoreMissing = spec.ignoreMissingComponents === true;
  for (const c of strings(spec.components)) out.components.push(ignoreMissing ? `?${c}` : c);
  return out;
}

function setMeta(o: Obj, field: 'labels' | 'annotations', values: Record<string, string>): void {
  if (Object.keys(values).length === 0) return;
  const meta = isObj(o.metadata) ? o.metadata : (o.metadata = {});
  const m = meta as Obj;
  m[field] = { ...(isObj(m[field]) ? (m[field] as Obj) : {}), ...values };
}

/**
 * The objects `kustomize build` of kustomization `k` gives (kustomize's order: resources, then
 * components, then patches, namespace, prefixes, labels and annotations).
 */
export function runKustomization(ctx: BuildContext, k: Kustomization, stack: readonly string[] = []): Built[] {
  const where = k.file ?? `${k.dir} (generated by Flux)`;
  if (stack.includes(k.dir) || stack.length > 30) {
    ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${where} includes itself through ${[...stack, k.dir].join(' → ')}`, file: k.file ?? k.dir, line: 1, hint: 'kustomize build fails on a cycle; remove one resource' });
    return [];
  }
  const inner = [...stack, k.dir];
  let out: Built[] = [];
  for (const r of k.resources) out.push(...resourceObjects(ctx, k, r, inner));
  out.push(...k.generated.map((g) => ({ ...g, obj: clone(g.obj) })));
  for (const c of k.components) {
    const optional = c.startsWith('?');
    const name = optional ? c.slice(1) : c;
    const dir = joinRelative(k.dir, name.replace(/\/+$/, ''));
    if (dir === undefined || !ctx.fs.isDirectory(dir)) {
      if (!optional) ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${where}: component ${name} does not exist`, file: k.file ?? k.dir, line: 1, hint: 'kustomize build fails; fix the component path, or set ignoreMissingComponents' });
      continue;
    }
    const ck = kustomizationOf(ctx, dir);
    if (!ck) continue;
    out.push(...ck.resources.flatMap((r) => resourceObjects(ctx, ck, r, inner)));
    out = transform(ctx, out, ck);
  }
  return transform(ctx, out, k);
}

function transform(ctx: BuildContext, objects: Built[], k: Kustomization): Built[] {
  return applyReplacements(ctx, transformEach(ctx, objects, k), k);
}

function transformEach(ctx: BuildContext, objects: Built[], k: Kustomization): Built[] {
  return objects.map((b) => {
    let obj = b.obj;
    try {
      obj = applyPatches(obj, k.patches);
    } catch (e) {
      ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `a patch of ${k.file ?? k.dir} cannot be applied to ${String(obj.kind)} ${String((obj.metadata as Obj | undefined)?.name)}: ${(e as Error).message}`, file: b.file, line: b.locate(['metadata', 'name']).line, hint: 'kustomize build fails the same way; fix the patch' });
    }
    const meta = isObj(obj.metadata) ? obj.metadata : (obj.metadata = {});
    if (k.namespace !== undefined && !CLUSTER_SCOPED.has(String(obj.kind))) (meta as Obj).namespace = k.namespace;
    // kustomize's namespace transformer also names the Namespace objects of the build after it.
    if (k.namespace !== undefined && obj.kind === 'Namespace' && obj.apiVersion === 'v1') (meta as Obj).name = k.namespace;
    if ((k.namePrefix !== undefined || k.nameSuffix !== undefined) && typeof (meta as Obj).name === 'string' && obj.kind !== 'Namespace' && obj.kind !== 'CustomResourceDefinition') {
      (meta as Obj).name = `${k.namePrefix ?? ''}${String((meta as Obj).name)}${k.nameSuffix ?? ''}`;
    }
    setMeta(obj, 'labels', k.labels);
    setMeta(obj, 'annotations', k.annotations);
    return { ...b, obj };
  });
}

function resourceObjects(ctx: BuildContext, k: Kustomization, ref: string, stack: readonly string[]): Built[] {
  const where = k.file ?? `${k.dir} (generated by Flux)`;
  if (isRemote(ref)) {
    ctx.findings.push({ severity: 'warning', code: 'flux-build-remote', message: `${where} includes the remote resource ${ref}, which fleetplan does not fetch: its objects are not in the plan`, file: k.file ?? k.dir, line: 1, hint: 'render --leaves builds it with kustomize (when the network allows)' });
    return [];
  }
  const target = joinRelative(k.dir, ref.replace(/\/+$/, '') || '.');
  if (target === undefined) {
    ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${where}: resource ${ref} leaves the repository`, file: k.file ?? k.dir, line: 1, hint: 'Flux builds inside the source artifact only' });
    return [];
  }
  if (ctx.fs.isDirectory(target)) {
    const sub = findKustomizationFile(ctx.fs, target);
    if (!sub) {
      ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${where}: resource ${ref} is a directory without a kustomization.yaml`, file: k.file ?? k.dir, line: 1, hint: 'kustomize build fails; add a kustomization.yaml there or list its files' });
      return [];
    }
    const sk = readKustomization(ctx, sub);
    return sk ? runKustomization(ctx, sk, stack) : [];
  }
  if (!ctx.fs.exists(target)) {
    ctx.findings.push({ severity: 'error', code: 'flux-build-failed', message: `${where}: resource ${ref} does not exist (${target})`, file: k.file ?? k.dir, line: 1, hint: 'kustomize build fails, and Flux with it; fix the path' });
    return [];
  }
  return fileObjects(ctx, target);
}

/** The objects of a Flux Kustomization's path, with the Kustomization's own fields added. */
export function buildFluxPath(ctx: BuildContext, path: string, flux: Obj, from: string): Built[] | undefined {
  if (!ctx.fs.isDirectory(path)) return undefined;
  const base = kustomizationOf(ctx, path);
  if (!base) return [];
  return runKustomization(ctx, amend(base, flux, from));
}
