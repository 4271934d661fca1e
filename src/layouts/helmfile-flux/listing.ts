/**
 * What `kustomize build` of the directories that list the `ks.yaml` files does to the Flux
 * Kustomizations in them, emulated for the fields these repositories use and checked against the
 * real binary (test/real/layouts/helmfile-flux-listing.test.ts):
 *
 * - the **namespace transformer** (`namespace:` sets `metadata.namespace`, replacing one the file
 *   has);
 * - **patches** (`patches:` with `patch:` or `path:`, strategic merge — for a custom resource a
 *   map merge where lists are replaced and `null` deletes — or JSON 6902 `add`/`replace`/`remove`,
 *   selected by `target` or by the patch's own kind and name), and `patchesStrategicMerge`;
 * - the same for **components** of the listing kustomization (their patches run before the
 *   kustomization's own);
 * - nested listings (a kustomization listing a directory whose kustomization lists the file):
 *   inner first, outer last, as kustomize applies them.
 *
 * Anything else in a listing kustomization that could change the Kustomization objects
 * (`namePrefix`, `commonLabels`, `replacements`, …) is not emulated: it is reported as a finding
 * (`flux-listing-not-emulated`) instead of being silently ignored.
 * Kustomize's own transformer order: patches, then namespace (kusttarget's builtin order).
 */
import type { Finding } from '../../model/finding.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { joinRelative, isObj } from '../../load/manifests.js';
import { parseYamlAll } from '../../yaml/index.js';
import { strategicMergePatch } from '../../appset/smp.js';
import { clone } from '../../model/merge.js';

type Obj = Record<string, unknown>;

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** One patch with its selector. */
export interface ListingPatch {
  /** Strategic merge (an object) or JSON 6902 (a list of operations). */
  patch: Obj | Obj[];
  target?: Obj;
  /** Where it is written: `<kustomization file>` (patches[i]). */
  from: string;
}

/** One kustomization on the way from a ks.yaml up to the top listing. */
export interface ListingStep {
  /** The kustomization file. */
  file: string;
  namespace?: string;
  patches: ListingPatch[];
  /** Fields of that kustomization that change objects and are not emulated. */
  unsupported: string[];
}

interface ParsedKustomization {
  file: string;
  dir: string;
  resources: string[];
  components: string[];
  namespace?: string;
  patches: ListingPatch[];
  /** Fields that transform objects and are not emulated. */
  unsupported: string[];
}

const NOT_EMULATED = ['namePrefix', 'nameSuffix', 'commonLabels', 'labels', 'commonAnnotations', 'replacements', 'transformers', 'patchesJson6902', 'images', 'replicas', 'vars'];

function findKustomizationFile(fs: RepoFileSystem, dir: string): string | undefined {
  for (const f of KUSTOMIZATION_FILES) {
    const p = dir === '.' ? f : `${dir}/${f}`;
    if (fs.exists(p) && !fs.isDirectory(p)) return p;
  }
  return undefined;
}

function parsePatchText(text: string): Obj | Obj[] | undefined {
  try {
    const docs = parseYamlAll(text, { schema: 'kyaml' });
    const v = docs[0];
    if (Array.isArray(v)) return v.filter(isObj);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function readKustomization(fs: RepoFileSystem, file: string, findings: Finding[]): ParsedKustomization | undefined {
  let doc: unknown;
  try {
    doc = parseYamlAll(fs.readText(file), { schema: 'core' })[0];
  } catch {
    return undefined;
  }
  if (!isObj(doc)) return undefined;
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
  const patches: ListingPatch[] = [];
  const addPatch = (p: unknown, i: number, field: string) => {
    let body: Obj | Obj[] | undefined;
    let target: Obj | undefined;
    if (typeof p === 'string') {
      const path = joinRelative(dir, p);
      body = path && fs.exists(path) ? parsePatchText(fs.readText(path)) : undefined;
    } else if (isObj(p)) {
      target = isObj(p.target) ? p.target : undefined;
      if (typeof p.patch === 'string') body = parsePatchText(p.patch);
      else if (typeof p.path === 'string') {
        const path = joinRelative(dir, p.path);
        body = path && fs.exists(path) ? parsePatchText(fs.readText(path)) : undefined;
      } else if (field === 'patchesStrategicMerge' && isObj(p)) body = p;
    }
    if (body) patches.push({ patch: body, ...(target ? { target } : {}), from: `${file} (${field}[${i}])` });
  };
  (Array.isArray(doc.patchesStrategicMerge) ? doc.patchesStrategicMerge : []).forEach((p, i) => addPatch(p, i, 'patchesStrategicMerge'));
  (Array.isArray(doc.patches) ? doc.patches : []).forEach((p, i) => addPatch(p, i, 'patches'));
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  void findings;
  return {
    file,
    dir,
    resources: [...strings(doc.resources), ...strings(doc.bases)],
    components: strings(doc.components),
    ...(typeof doc.namespace === 'string' ? { namespace: doc.namespace } : {}),
    patches,
    unsupported: NOT_EMULATED.filter((k) => doc[k] !== undefined),
  };
}

/** One finding per listing kustomization, among `chains`, that sets fields fleetplan does not emulate. */
export function notEmulated(chains: Iterable<readonly ListingStep[]>): Finding[] {
  const byFile = new Map<string, string[]>();
  for (const chain of chains) for (const step of chain) if (step.unsupported.length) byFile.set(step.file, step.unsupported);
  return [...byFile.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([file, fields]) => ({
    severity: 'warning',
    code: 'flux-listing-not-emulated',
    message: `${file} lists Flux Kustomizations and sets ${fields.join(', ')}, which fleetplan does not apply to them (it applies namespace, patches and components' patches)`,
    file,
    line: 1,
    hint: 'the Kustomizations in plan and render may differ from what kustomize build gives; render --leaves builds their parent with kustomize',
  }));
}

/**
 * For every file listed (directly or through nested kustomizations) by a kustomization under
 * `root`, the listing steps from the innermost kustomization outwards.
 */
export function listingChains(fs: RepoFileSystem, kustomizationFiles: readonly string[], findings: Finding[]): Map<string, ListingStep[]> {
  // Findings of unsupported fields are the reader's: once per kustomization file that a Flux Kustomization goes through.
  const parsed = new Map<string, ParsedKustomization>();
  for (const f of [...kustomizationFiles].sort()) {
    const k = readKustomization(fs, f, findings);
    if (k) parsed.set(k.dir, k);
  }
  const stepOf = (k: ParsedKustomization): ListingStep => {
    // Components' patches run on the kustomization's resources before its own patches.
    const componentPatches: ListingPatch[] = [];
    for (const c of k.components) {
      const cdir = joinRelative(k.dir, c);
      const cf = cdir !== undefined ? findKustomizationFile(fs, cdir) : undefined;
      const ck = cf ? readKustomization(fs, cf, findings) : undefined;
      if (ck) componentPatches.push(...ck.patches);
    }
    return { file: k.file, ...(k.namespace !== undefined ? { namespace: k.namespace } : {}), patches: [...componentPatches, ...k.patches], unsupported: k.unsupported };
  };
  // Who lists a file, and who lists a directory that has a kustomization.
  const fileParent = new Map<string, ParsedKustomization>();
  const dirParent = new Map<string, ParsedKustomization>();
  for (const k of parsed.values()) {
    for (const r of k.resources) {
      const target = joinRelative(k.dir, r.replace(/\/+$/, ''));
      if (target === undefined) continue;
      if (fs.isDirectory(target)) {
        if (parsed.has(target) && !dirParent.has(target)) dirParent.set(target, k);
      } else {
        // Listed twice — by its namespace folder and by its own path (a ks.yaml in the folder its
        // Kustomization builds, which applies itself again): the outermost listing is the build
        // that applies it first, from its parent; the self-listing comes after and agrees with it.
        const known = fileParent.get(target);
        if (!known || k.dir.split('/').length < known.dir.split('/').length) fileParent.set(target, k);
      }
    }
  }
  const out = new Map<string, ListingStep[]>();
  for (const [file, first] of fileParent) {
    const chain: ListingStep[] = [];
    const seen = new Set<string>();
    for (let k: ParsedKustomization | undefined = first; k && !seen.has(k.dir); k = dirParent.get(k.dir)) {
      seen.add(k.dir);
      chain.push(stepOf(k));
    }
    out.set(file, chain);
  }
  return out;
}

/** Regex match anchored as kustomize's selectors are. */
function matches(pattern: unknown, value: string | undefined): boolean {
  if (typeof pattern !== 'string' || pattern === '') return true;
  try {
    return new RegExp(`^(?:${pattern})$`).test(value ?? '');
  } catch {
    return pattern === value;
  }
}

/**
 * A Kubernetes label (or annotation) selector over `labels`, as apimachinery's labels.Parse reads
 * it: `k`, `!k`, `k=v`, `k==v`, `k!=v` (true without k), `k in (a,b)`, `k notin (a,b)` (true
 * without k); terms joined by commas outside parentheses.
 */
function labelsMatch(selector: unknown, labels: unknown): boolean {
  if (typeof selector !== 'string' || selector.trim() === '') return true;
  const l = isObj(labels) ? labels : {};
  return (selector.match(/(?:[^,(]|\([^)]*\))+/g) ?? []).every((term) => {
    const t = term.trim();
    const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(t);
    if (set) {
      const has = Object.hasOwn(l, set[1]!);
      const inSet = has && set[3]!.split(',').map((v) => v.trim()).includes(String(l[set[1]!]));
      return set[2] === 'in' ? inSet : !inSet;
    }
    const ne = /^([^!=]+)!=(.*)$/.exec(t);
    if (ne) return String(l[ne[1]!.trim()] ?? '') !== ne[2]!.trim();
    const eq = /^([^=]+)==?(.*)$/.exec(t);
    if (eq) return String(l[eq[1]!.trim()]) === eq[2]!.trim();
    if (t.startsWith('!')) return !(t.slice(1) in l);
    return t in l;
  });
}

function selects(patch: ListingPatch, obj: Obj): boolean {
  const meta = isObj(obj.metadata) ? obj.metadata : {};
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const t = patch.target;
  if (t) {
    return (
      matches(t.group, group) &&
      matches(t.version, version) &&
      matches(t.kind, String(obj.kind ?? '')) &&
      matches(t.name, typeof meta.name === 'string' ? meta.name : undefined) &&
      matches(t.namespace, typeof meta.namespace === 'string' ? meta.namespace : undefined) &&
      labelsMatch(t.labelSelector, meta.labels) &&
      labelsMatch(t.annotationSelector, meta.annotations)
    );
  }
  // A strategic merge patch without target applies to the object of its own kind and name.
  if (Array.isArray(patch.patch)) return false;
  const pm = isObj(patch.patch.metadata) ? patch.patch.metadata : {};
  return patch.patch.kind === obj.kind && pm.name === meta.name && (pm.namespace === undefined || pm.namespace === meta.namespace);
}

function pointer(path: string): string[] {
  return path.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function applyJson6902(obj: Obj, ops: Obj[]): Obj {
  const out = clone(obj);
  for (const op of ops) {
    const segs = pointer(String(op.path ?? ''));
    const last = segs.pop();
    let parent: unknown = out;
    for (const s of segs) {
      if (Array.isArray(parent)) parent = parent[Number(s)];
      else if (isObj(parent)) {
        if (op.op === 'add' && parent[s] === undefined) parent[s] = {};
        parent = parent[s];
      } else parent = undefined;
    }
    if (last === undefined || parent === undefined || parent === null) throw new Error(`JSON patch ${String(op.op)} ${String(op.path)}: the parent does not exist`);
    if (Array.isArray(parent)) {
      const idx = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(idx, 0, clone(op.value));
      else if (op.op === 'replace') parent[idx] = clone(op.value);
      else if (op.op === 'remove') parent.splice(idx, 1);
      else throw new Error(`JSON patch op ${String(op.op)} is not emulated`);
    } else if (isObj(parent)) {
      if (op.op === 'add' || op.op === 'replace') parent[last] = clone(op.value);
      else if (op.op === 'remove') delete parent[last];
      else throw new Error(`JSON patch op ${String(op.op)} is not emulated`);
    }
  }
  return out;
}

/** Applies the patches that select `obj`, in order. */
export function applyPatches(obj: Obj, patches: readonly ListingPatch[]): Obj {
  let out = obj;
  for (const p of patches) {
    if (!selects(p, out)) continue;
    if (Array.isArray(p.patch)) out = applyJson6902(out, p.patch);
    else {
      // The patch's own apiVersion/kind/metadata.name identify; they are not merged in when a target selects.
      const body = clone(p.patch);
      const meta = isObj(body.metadata) ? body.metadata : undefined;
      if (p.target && meta) {
        delete meta.name;
        if (Object.keys(meta).length === 0) delete body.metadata;
      }
      delete body.apiVersion;
      delete body.kind;
      out = strategicMergePatch(out, body, () => undefined);
    }
  }
  return out;
}

/** The object after the listing steps: each step's patches, then its namespace. */
export function applyListing(obj: Obj, chain: readonly ListingStep[]): Obj {
  let out = clone(obj);
  for (const step of chain) {
    out = applyPatches(out, step.patches);
    if (step.namespace !== undefined) {
      const meta = isObj(out.metadata) ? out.metadata : (out.metadata = {});
      (meta as Obj).namespace = step.namespace;
    }
  }
  return out;
}
