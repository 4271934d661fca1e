/**
 * A static kustomize build, as far as JSON 6902 patches need one: the objects a kustomization's
 * resources, bases and components produce, with the transformations that change which fields
 * exist applied in kustomize's order, and every JSON-patch operation traced against the object
 * it acts on. No kustomize binary and no network: what cannot be known statically (remote
 * resources, Helm charts, generator and transformer plugins, strategic-merge patches, replacements)
 * marks the build incomplete or the objects it may touch uncertain, and nothing is reported on
 * uncertain objects.
 *
 * Semantics follow kustomize 5 (measured with `kubectl kustomize` of kubectl 1.33 / kustomize
 * 5.6, docs/adr/0106-json-patch-semantics.md): per kustomization, resources, then components,
 * then generators, then the transformers in this order — patchesStrategicMerge, patches,
 * namespace, namePrefix/nameSuffix, labels/commonLabels, commonAnnotations, patchesJson6902,
 * replicas. Its JSON-patch library accepts a `replace` of a missing key as an add, copies null
 * from a missing `from`, and fails on everything else that names a missing location.
 *
 * Cost: each directory is built once per validation (cached); its objects are copied, not
 * re-read, by every kustomization that includes it.
 */
import { lineCounter, isScalar, parseAllDocuments, parseDocument, parseYaml, parseYamlAll } from '../yaml/index.js';
import type { Document, LineCounter } from '../yaml/index.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { YamlPath } from '../model/source.js';
import { formatPath } from '../model/source.js';
import type { ManifestIndex } from '../load/manifests.js';
import { CLUSTER_SCOPED, KUSTOMIZATION_FILES, isObj, joinRelative } from '../load/manifests.js';
import { apiGroup } from '../model/catalog/operators.js';

/** Kinds kustomize itself knows to be cluster-scoped: its `namespace:` leaves only these alone. */
export const KUSTOMIZE_CLUSTER_SCOPED = new Set([
  'APIService',
  'CertificateSigningRequest',
  'ClusterRole',
  'ClusterRoleBinding',
  'ComponentStatus',
  'CSIDriver',
  'CSINode',
  'CustomResourceDefinition',
  'IngressClass',
  'MutatingWebhookConfiguration',
  'Namespace',
  'Node',
  'PersistentVolume',
  'PodSecurityPolicy',
  'PriorityClass',
  'RuntimeClass',
  'StorageClass',
  'ValidatingWebhookConfiguration',
  'VolumeAttachment',
]);

/** True for kinds the API server stores without a namespace (fleetplan's list, src/validate/manifests.ts). */
export function isClusterScoped(kind: string, group: string): boolean {
  return CLUSTER_SCOPED.has(kind) || CLUSTER_SCOPED.has(`${kind}.${group}`);
}

export interface StaticObject {
  /** The object as built so far (copied before a kustomization changes it). */
  body: Record<string, unknown>;
  /** Where the object is written. */
  file: string;
  line: number;
  /** Name and namespace before any kustomization changed them (kustomize matches targets on both). */
  origName: string | undefined;
  origNamespace: string | undefined;
  /** Something this reading does not model may have changed it: no finding is reported on it. */
  uncertain: boolean;
  /**
   * The kustomization fields (`file field`) that may change its content and that this reading does
   * not apply (strategic-merge patches, images, selectors of commonLabels, generated names, …):
   * absent when `body` is what kustomize builds.
   */
  unapplied?: string[];
  /** The kustomization field (`file replacements`) whose replacements may rewrite its metadata.name. */
  renamedBy?: string;
}

/** Where a patch operation (or a setting) is written. */
export interface Place {
  file: string;
  line?: number;
  column?: number;
  /** The YAML path in the file, as findings print it (`patches[0].patch[1]` for an inline patch's second operation). */
  path?: string;
}

export type OpOutcome =
  /** `replace` of a key the object lacks: kustomize adds it, RFC 6902 rejects the patch. */
  | 'adds'
  /** `copy` from a location the object lacks: kustomize copies null. */
  | 'copies-null'
  /** kustomize build fails. */
  | 'fails';

export interface OpTrace extends Place {
  /** The kustomization that lists the patch. */
  kustomization: string;
  op: string;
  /** The operation's `path` (a JSON pointer). */
  pointer: string;
  from?: string;
  outcome: OpOutcome;
  /** What is missing, e.g. `it has no /metadata/labels/region`. */
  detail: string;
  /** The object, e.g. `ManagedCluster ocp-01`, and the file it is written in. */
  object: string;
  objectFile: string;
}

export interface NamespaceTrace extends Place {
  kind: string;
  object: string;
  objectFile: string;
  /** How the namespace gets there. */
  how: 'patch' | 'resource' | 'kustomization';
  kustomization: string;
}

export interface UnmatchedTrace extends Place {
  kustomization: string;
  target: string;
}

export interface StaticBuild {
  dir: string;
  /** The kustomization file, or undefined for a directory of plain YAML. */
  file: string | undefined;
  objects: StaticObject[];
  /** Every resource was read: a patch target that matches nothing here matches nothing in kustomize either. */
  complete: boolean;
  ops: OpTrace[];
  namespaces: NamespaceTrace[];
  unmatched: UnmatchedTrace[];
}

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\/|^git@|^github\.com\/|^gitlab\.com\/|^bitbucket\.org\//i;

interface Selector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

interface Located {
  /** The kustomization as data. */
  value: Record<string, unknown>;
  text: string;
  doc(): { doc: Document; lc: LineCounter } | undefined;
}

/** Static kustomize builds of one repository, cached by directory. */
export class StaticKustomize {
  private readonly builds = new Map<string, StaticBuild>();
  private readonly building = new Set<string>();
  /** Files of objects already checked for a namespace on a cluster-scoped kind. */
  private readonly resourceFilesSeen = new Set<string>();

  constructor(
    readonly fs: RepoFileSystem,
    readonly manifests: ManifestIndex,
  ) {}

  /** Every build made so far (the directories asked for and everything they include). */
  all(): StaticBuild[] {
    return [...this.builds.values()];
  }

  build(dir: string): StaticBuild {
    const cached = this.builds.get(dir);
    if (cached) return cached;
    const empty: StaticBuild = { dir, file: undefined, objects: [], complete: false, ops: [], namespaces: [], unmatched: [] };
    if (this.building.has(dir)) return empty;
    this.building.add(dir);
    let result: StaticBuild;
    try {
      result = this.readDirectory(dir);
    } finally {
      this.building.delete(dir);
    }
    this.builds.set(dir, result);
    return result;
  }

  /**
   * The build of `dir` as kustomize-controller makes it for a Flux Kustomization: its
   * `spec.components` (relative to `dir`) and `spec.patches` added to the directory's kustomization.
   * Not cached (each Kustomization has its own).
   */
  buildWith(dir: string, extra: { components?: readonly string[]; patches?: readonly unknown[] }): StaticBuild {
    const components = extra.components ?? [];
    const patches = extra.patches ?? [];
    if (!components.length && !patches.length) return this.build(dir);
    const kfile = KUSTOMIZATION_FILES.map((f) => (dir === '.' ? f : `${dir}/${f}`)).find((f) => this.fs.exists(f));
    const out: StaticBuild = { dir, file: kfile, objects: [], complete: true, ops: [], namespaces: [], unmatched: [] };
    const own = kfile ? this.readKustomization(kfile) : undefined;
    if (kfile && !own) return { ...out, complete: false };
    let value: Record<string, unknown>;
    if (own) {
      value = { ...own.value, components: [...strings(own.value.components), ...components], patches: [...(Array.isArray(own.value.patches) ? own.value.patches : []), ...patches] };
    } else {
      // No kustomization: Flux generates one listing the directory; its objects are the plain ones.
      const plain = this.build(dir);
      out.complete = plain.complete;
      out.objects.push(...plain.objects.map((o) => ({ ...o, body: structuredClone(o.body) })));
      value = { components: [...components], patches: [...patches] };
    }
    const located: Located = { value, text: own?.text ?? '', doc: () => own?.doc() };
    this.process(dir, kfile ?? `${dir}/kustomization.yaml`, located, out, out.objects);
    return out;
  }

  private readDirectory(dir: string): StaticBuild {
    const kfile = KUSTOMIZATION_FILES.map((f) => (dir === '.' ? f : `${dir}/${f}`)).find((f) => this.fs.exists(f));
    const out: StaticBuild = { dir, file: kfile, objects: [], complete: true, ops: [], namespaces: [], unmatched: [] };
    if (!kfile) {
      const listing = this.manifests.directory(dir);
      out.complete = listing.kind === 'plain' || listing.kind === 'empty';
      for (const o of listing.objects) out.objects.push(this.fromFile(o.file, o.body, o.line, out));
      return out;
    }
    const k = this.readKustomization(kfile);
    if (!k) {
      out.complete = false;
      return out;
    }
    this.process(dir, kfile, k, out, out.objects);
    return out;
  }

  private readKustomization(file: string): Located | undefined {
    let text: string;
    let value: unknown;
    try {
      text = this.fs.readText(file);
      value = parseYaml(text);
    } catch {
      return undefined;
    }
    if (!isObj(value)) return undefined;
    let parsed: { doc: Document; lc: LineCounter } | undefined;
    return {
      value,
      text,
      doc: () => {
        if (!parsed) {
          const lc = lineCounter();
          parsed = { doc: parseDocument(text, { lineCounter: lc, uniqueKeys: false }), lc };
        }
        return parsed;
      },
    };
  }

  /** A file's object as a fresh StaticObject; a namespace on a cluster-scoped kind is traced once per file. */
  private fromFile(file: string, body: Record<string, unknown>, line: number, out: StaticBuild): StaticObject {
    const meta = isObj(body.metadata) ? body.metadata : {};
    const name = typeof meta.name === 'string' ? meta.name : undefined;
    const namespace = typeof meta.namespace === 'string' ? meta.namespace : undefined;
    const kind = String(body.kind ?? '');
    const key = `${file}\0${line}`;
    if (namespace !== undefined && isClusterScoped(kind, apiGroup(String(body.apiVersion ?? ''))) && !this.resourceFilesSeen.has(key)) {
      this.resourceFilesSeen.add(key);
      out.namespaces.push({ ...this.placeInObjectFile(file, line, ['metadata', 'namespace']), kind, object: `${kind} ${name ?? '?'}`, objectFile: file, how: 'resource', kustomization: out.file ?? file });
    }
    return { body: structuredClone(body), file, line, origName: name, origNamespace: namespace, uncertain: false };
  }

  private placeInObjectFile(file: string, startLine: number, path: YamlPath): Place {
    let text: string;
    try {
      text = this.fs.readText(file);
    } catch {
      return { file, line: startLine };
    }
    const lc = lineCounter();
    for (const doc of parseAllDocuments(text, { lineCounter: lc, uniqueKeys: false }) as Document[]) {
      const range = doc.contents?.range;
      if (!range) continue;
      if (startLine < lc.linePos(range[0]).line || startLine > lc.linePos(range[2]).line) continue;
      const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
      if (!node?.range) break;
      const pos = lc.linePos(node.range[0]);
      return { file, line: pos.line, column: pos.col, path: path.join('.') };
    }
    return { file, line: startLine };
  }

  /** Resources, components, generators and transformers of one kustomization, applied to `acc`. */
  private process(dir: string, kfile: string, k: Located, out: StaticBuild, acc: StaticObject[]): void {
    const v = k.value;
    for (const ref of [...strings(v.resources), ...strings(v.bases)]) {
      if (REMOTE.test(ref)) {
        out.complete = false;
        continue;
      }
      const target = joinRelative(dir, ref);
      if (target === undefined) {
        out.complete = false;
      } else if (this.fs.isDirectory(target)) {
        const sub = this.build(target);
        if (!sub.complete) out.complete = false;
        for (const o of sub.objects) acc.push({ ...o, body: structuredClone(o.body) });
      } else if (this.fs.exists(target)) {
        for (const o of this.manifests.file(target)) acc.push(this.fromFile(o.file, o.body, o.line, out));
      } else {
        out.complete = false;
      }
    }
    for (const ref of strings(v.components)) {
      const target = REMOTE.test(ref) ? undefined : joinRelative(dir, ref);
      const ckfile = target === undefined ? undefined : KUSTOMIZATION_FILES.map((f) => `${target}/${f}`).find((f) => this.fs.exists(f));
      const ck = ckfile ? this.readKustomization(ckfile) : undefined;
      if (target === undefined || !ckfile || !ck || this.building.has(target)) {
        out.complete = false;
        continue;
      }
      this.building.add(target);
      try {
        this.process(target, ckfile, ck, out, acc);
      } finally {
        this.building.delete(target);
      }
    }
    // Generators: their objects exist for targets, but their content is not modelled.
    for (const [field, kind] of [['configMapGenerator', 'ConfigMap'], ['secretGenerator', 'Secret']] as const) {
      const entries = Array.isArray(v[field]) ? (v[field] as unknown[]) : [];
      for (const g of entries) {
        if (!isObj(g) || typeof g.name !== 'string') continue;
        const metadata: Record<string, unknown> = { name: g.name };
        if (typeof g.namespace === 'string') metadata.namespace = g.namespace;
        acc.push({ body: { apiVersion: 'v1', kind, metadata }, file: kfile, line: 0, origName: g.name, origNamespace: metadata.namespace as string | undefined, uncertain: true });
      }
    }
    if (nonEmpty(v.helmCharts) || nonEmpty(v.generators)) out.complete = false;
    if (nonEmpty(v.transformers)) {
      out.complete = false;
      for (const o of acc) unapplied(o, `${kfile} transformers`, true);
    }

    // Transformers, in kustomize's order.
    const smp = Array.isArray(v.patchesStrategicMerge) ? (v.patchesStrategicMerge as unknown[]) : [];
    for (const entry of smp) {
      const text = typeof entry === 'string' ? (entry.includes('\n') || entry.includes(':') ? entry : this.readRelative(dir, entry)) : undefined;
      this.markStrategicTargets(text, undefined, acc, `${kfile} patchesStrategicMerge`);
    }
    const patches = Array.isArray(v.patches) ? (v.patches as unknown[]) : [];
    patches.forEach((entry, i) => this.patch(dir, kfile, k, 'patches', i, entry, out, acc));

    if (typeof v.namespace === 'string' && v.namespace !== '') {
      for (const o of acc) {
        const kind = String(o.body.kind ?? '');
        if (KUSTOMIZE_CLUSTER_SCOPED.has(kind)) continue;
        const meta = metadataOf(o);
        if (isClusterScoped(kind, apiGroup(String(o.body.apiVersion ?? ''))) && !o.uncertain) {
          out.namespaces.push({ ...this.placeInKustomization(kfile, k, ['namespace']), kind, object: `${kind} ${String(meta.name ?? '?')}`, objectFile: o.file, how: 'kustomization', kustomization: kfile });
        }
        meta.namespace = v.namespace;
      }
    }
    const prefix = typeof v.namePrefix === 'string' ? v.namePrefix : '';
    const suffix = typeof v.nameSuffix === 'string' ? v.nameSuffix : '';
    if (prefix || suffix) {
      for (const o of acc) {
        const meta = metadataOf(o);
        if (typeof meta.name === 'string') meta.name = `${prefix}${meta.name}${suffix}`;
      }
    }
    const labels: Record<string, unknown> = { ...(isObj(v.commonLabels) ? v.commonLabels : {}) };
    for (const l of Array.isArray(v.labels) ? (v.labels as unknown[]) : []) if (isObj(l) && isObj(l.pairs)) Object.assign(labels, l.pairs);
    if (Object.keys(labels).length) for (const o of acc) Object.assign(mapAt(metadataOf(o), 'labels'), labels);
    if (isObj(v.commonAnnotations) && Object.keys(v.commonAnnotations).length) for (const o of acc) Object.assign(mapAt(metadataOf(o), 'annotations'), v.commonAnnotations);

    const legacy = Array.isArray(v.patchesJson6902) ? (v.patchesJson6902 as unknown[]) : [];
    legacy.forEach((entry, i) => this.patch(dir, kfile, k, 'patchesJson6902', i, entry, out, acc));

    for (const r of Array.isArray(v.replicas) ? (v.replicas as unknown[]) : []) {
      if (!isObj(r) || typeof r.name !== 'string' || typeof r.count !== 'number') continue;
      for (const o of acc) if (metadataOf(o).name === r.name || o.origName === r.name) mapAt(o.body, 'spec').replicas = r.count;
    }
    // Replacements may create fields anywhere.
    if (nonEmpty(v.replacements)) {
      for (const o of acc) {
        unapplied(o, `${kfile} replacements`, true);
        if (replacementsRename(v.replacements as unknown[], o)) o.renamedBy = `${kfile} replacements`;
      }
    }
    // What changes content without changing which fields exist: not applied, only named.
    if (nonEmpty(v.images)) for (const o of acc) if (hasKey(o.body, IMAGE_KEYS)) unapplied(o, `${kfile} images`);
    const selectorLabels = isObj(v.commonLabels) && Object.keys(v.commonLabels).length > 0 ||
      (Array.isArray(v.labels) && v.labels.some((l) => isObj(l) && (l.includeSelectors === true || l.includeTemplates === true)));
    if (selectorLabels) for (const o of acc) if (hasKey(o.body, SELECTOR_KEYS)) unapplied(o, `${kfile} ${isObj(v.commonLabels) ? 'commonLabels' : 'labels'}`);
    const hashed = generatedNames(v);
    if (hashed.size) for (const o of acc) if (mentions(o.body, hashed)) unapplied(o, `${kfile} configMapGenerator/secretGenerator (hashed names)`);
    for (const field of ['vars', 'buildMetadata', 'configurations']) if (nonEmpty(v[field])) for (const o of acc) unapplied(o, `${kfile} ${field}`);
  }

  private readRelative(dir: string, ref: string): string | undefined {
    const path = joinRelative(dir, ref);
    if (path === undefined) return undefined;
    try {
      return this.fs.readText(path);
    } catch {
      return undefined;
    }
  }

  /** Objects a strategic-merge patch may change become uncertain. */
  private markStrategicTargets(text: string | undefined, target: Selector | undefined, acc: StaticObject[], why: string): void {
    if (target) {
      const sel = selectorMatcher(target);
      for (const o of acc) if (!sel || sel(o)) unapplied(o, why, true);
      return;
    }
    let docs: unknown[] = [];
    try {
      docs = text === undefined ? [] : parseYamlAll(text);
    } catch {
      docs = [];
    }
    const ids = docs.filter(isObj).map((d) => ({ kind: d.kind, name: isObj(d.metadata) ? d.metadata.name : undefined }));
    for (const o of acc) {
      if (ids.length === 0 || ids.some((id) => id.kind === o.body.kind && (id.name === metadataOf(o).name || id.name === o.origName))) unapplied(o, why, true);
    }
  }

  /** One entry of `patches` or `patchesJson6902`. */
  private patch(dir: string, kfile: string, k: Located, field: 'patches' | 'patchesJson6902', index: number, entry: unknown, out: StaticBuild, acc: StaticObject[]): void {
    if (!isObj(entry)) return;
    const target = isObj(entry.target) ? (entry.target as Selector) : undefined;
    let text: string | undefined;
    let placeOf: (line: number, column: number, op: number) => Place;
    if (typeof entry.patch === 'string') {
      text = entry.patch;
      const inline = this.inlinePlaces(kfile, k, [field, index, 'patch']);
      placeOf = (line, column, op) => ({ ...inline(line, column), path: `${field}[${index}].patch[${op}]` });
    } else if (typeof entry.path === 'string') {
      const file = joinRelative(dir, entry.path);
      text = this.readRelative(dir, entry.path);
      placeOf = (line, column, op) => ({ file: file ?? kfile, line, column, path: `[${op}]` });
    } else {
      return;
    }
    if (text === undefined) return;
    const lc = lineCounter();
    const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: false });
    const ops: unknown = doc.errors.length ? undefined : doc.toJS({ maxAliasCount: 100 });
    if (!Array.isArray(ops)) {
      // A strategic-merge patch (or one that does not parse: kustomize says why).
      this.markStrategicTargets(text, target, acc, `${kfile} ${field}[${index}]`);
      return;
    }
    if (!target) return; // kustomize requires a target for a JSON patch; it says so itself
    const matches = selectorMatcher(target);
    if (!matches) {
      for (const o of acc) unapplied(o, `${kfile} ${field}[${index}]`, true);
      return;
    }
    const matched = acc.filter(matches);
    if (matched.length === 0) {
      if (out.complete) out.unmatched.push({ ...this.placeInKustomization(kfile, k, [field, index, 'target']), kustomization: kfile, target: describeSelector(target) });
      return;
    }
    const items = (doc.contents as { items?: { range?: [number, number, number] }[] } | null)?.items ?? [];
    const seen = new Set<string>();
    for (const o of matched) {
      const virtual = ensureAnnotations(o);
      ops.forEach((raw, i) => {
        if (!isObj(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') return;
        const pos = items[i]?.range ? lc.linePos(items[i]!.range![0]) : { line: 1, col: 1 };
        const place = placeOf(pos.line, pos.col, i);
        const kind = String(o.body.kind ?? '');
        const object = `${kind} ${String(metadataOf(o).name ?? '?')}`;
        const result = applyOp(o.body, raw);
        const key = `${place.file}:${place.line}:${i}`;
        if (o.uncertain || seen.has(key)) return;
        if (result) {
          seen.add(key);
          out.ops.push({ ...place, kustomization: kfile, op: raw.op, pointer: raw.path, ...(typeof raw.from === 'string' ? { from: raw.from } : {}), outcome: result.outcome, detail: result.detail, object, objectFile: o.file });
        }
        const setsNamespace = (raw.op === 'add' || raw.op === 'replace' || raw.op === 'copy' || raw.op === 'move') && raw.path === '/metadata/namespace';
        if (setsNamespace && isClusterScoped(kind, apiGroup(String(o.body.apiVersion ?? ''))) && result?.outcome !== 'fails') {
          seen.add(key);
          out.namespaces.push({ ...place, kind, object, objectFile: o.file, how: 'patch', kustomization: kfile });
        }
      });
      if (virtual) dropEmptyAnnotations(o);
    }
  }

  /** Maps a line/column inside an inline patch to the kustomization file. */
  private inlinePlaces(kfile: string, k: Located, path: YamlPath): (line: number, column: number) => Place {
    const parsed = k.doc();
    const node = parsed?.doc.getIn(path, true);
    if (!parsed || !isScalar(node) || !node.range) return () => ({ file: kfile });
    const start = parsed.lc.linePos(node.range[0]);
    const header = k.text[node.range[0]];
    if (header !== '|' && header !== '>') return () => ({ file: kfile, line: start.line, column: start.col });
    // A block scalar: its text starts on the next line, indented.
    const lines = k.text.split('\n');
    let indent = 0;
    for (let l = start.line; l < lines.length; l++) {
      const text = lines[l]!;
      if (text.trim() !== '') {
        indent = text.length - text.trimStart().length;
        break;
      }
    }
    return (line, column) => ({ file: kfile, line: start.line + line, column: indent + column });
  }

  private placeInKustomization(kfile: string, k: Located, path: YamlPath): Place {
    const parsed = k.doc();
    if (!parsed) return { file: kfile };
    let keys = [...path];
    while (keys.length) {
      const node = parsed.doc.getIn(keys, true) as { range?: [number, number, number] } | undefined;
      if (node?.range) {
        const pos = parsed.lc.linePos(node.range[0]);
        return { file: kfile, line: pos.line, column: pos.col, path: formatPath(keys) };
      }
      keys = keys.slice(0, -1);
    }
    return { file: kfile };
  }
}

/**
 * Whether a replacement may rewrite `o`'s metadata.name: a target whose select fits the object
 * (kind, name, namespace, group as written) and whose fieldPaths hold metadata.name, or a
 * replacement read from a file (`path:`), which this reading does not open.
 */
function replacementsRename(entries: readonly unknown[], o: StaticObject): boolean {
  const meta = metadataOf(o);
  const group = apiGroup(String(o.body.apiVersion ?? ''));
  return entries.some((r) => {
    if (!isObj(r)) return false;
    if (typeof r.path === 'string') return true;
    return (Array.isArray(r.targets) ? r.targets : []).some((t: unknown) => {
      if (!isObj(t) || !(Array.isArray(t.fieldPaths) ? t.fieldPaths : []).some((p: unknown) => p === 'metadata.name')) return false;
      const sel = isObj(t.select) ? t.select : {};
      const fits = (want: unknown, have: unknown) => want === undefined || want === have;
      return fits(sel.kind, o.body.kind) && fits(sel.group, group) && (sel.name === undefined || sel.name === meta.name || sel.name === o.origName) && fits(sel.namespace, meta.namespace);
    });
  });
}

/** Names a kustomization field that may change `o` and is not applied; `uncertain` also keeps findings off it. */
function unapplied(o: StaticObject, what: string, uncertain = false): void {
  if (uncertain) o.uncertain = true;
  if (!o.unapplied) o.unapplied = [what];
  else if (!o.unapplied.includes(what)) o.unapplied.push(what);
}

/** Keys whose values kustomize's images transformer rewrites (container lists, anywhere in an object). */
const IMAGE_KEYS = new Set(['containers', 'initContainers', 'ephemeralContainers']);
/** Keys under which commonLabels (and labels with includeSelectors/includeTemplates) also write. */
const SELECTOR_KEYS = new Set(['selector', 'podSelector', 'template', 'jobTemplate', 'volumeClaimTemplates']);

function hasKey(v: unknown, keys: ReadonlySet<string>): boolean {
  if (Array.isArray(v)) return v.some((x) => hasKey(x, keys));
  if (!isObj(v)) return false;
  return Object.entries(v).some(([k, x]) => keys.has(k) || hasKey(x, keys));
}

/** The generated ConfigMap/Secret names that kustomize suffixes with a hash (and rewrites where they are referenced). */
function generatedNames(v: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const noHash = isObj(v.generatorOptions) && v.generatorOptions.disableNameSuffixHash === true;
  for (const field of ['configMapGenerator', 'secretGenerator']) {
    for (const g of Array.isArray(v[field]) ? (v[field] as unknown[]) : []) {
      if (!isObj(g) || typeof g.name !== 'string') continue;
      const own = isObj(g.options) ? g.options.disableNameSuffixHash : undefined;
      if (own === true || (own === undefined && noHash)) continue;
      out.add(g.name);
    }
  }
  return out;
}

function mentions(v: unknown, names: ReadonlySet<string>): boolean {
  if (typeof v === 'string') return names.has(v);
  if (Array.isArray(v)) return v.some((x) => mentions(x, names));
  return isObj(v) && Object.entries(v).some(([k, x]) => k !== 'metadata' && mentions(x, names));
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function nonEmpty(v: unknown): boolean {
  return Array.isArray(v) ? v.length > 0 : isObj(v) ? Object.keys(v).length > 0 : false;
}

function metadataOf(o: StaticObject): Record<string, unknown> {
  return mapAt(o.body, 'metadata');
}

function mapAt(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = parent[key];
  if (isObj(v)) return v;
  const m: Record<string, unknown> = {};
  parent[key] = m;
  return m;
}

/** kustomize keeps internal annotations on every object while it builds, so metadata.annotations always exists for a patch. */
function ensureAnnotations(o: StaticObject): boolean {
  const meta = metadataOf(o);
  if (meta.annotations !== undefined) return false;
  meta.annotations = {};
  return true;
}

function dropEmptyAnnotations(o: StaticObject): void {
  const meta = metadataOf(o);
  if (isObj(meta.annotations) && Object.keys(meta.annotations).length === 0) delete meta.annotations;
}

function describeSelector(t: Selector): string {
  return (['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'] as const)
    .filter((f) => typeof t[f] === 'string')
    .map((f) => `${f}=${t[f]!}`)
    .join(', ');
}

/** kustomize's target fields are anchored regular expressions. */
function fieldMatcher(pattern: string | undefined): ((v: string | undefined) => boolean) | undefined {
  if (pattern === undefined || pattern === '') return () => true;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`);
  } catch {
    return (v) => v === pattern;
  }
  return (v) => re.test(v ?? '');
}

/** `a=b,c!=d,e` label selectors; undefined when the selector uses set syntax (`in`, `notin`). */
function labelMatcher(selector: string | undefined): ((labels: Record<string, unknown>) => boolean) | undefined {
  if (selector === undefined || selector.trim() === '') return () => true;
  const terms: ((l: Record<string, unknown>) => boolean)[] = [];
  for (const raw of selector.split(',')) {
    const t = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^([\w./-]+)\s*!=\s*([\w.-]*)$/.exec(t))) {
      const [, key, value] = m as unknown as [string, string, string];
      terms.push((l) => l[key] !== value);
    } else if ((m = /^([\w./-]+)\s*==?\s*([\w.-]*)$/.exec(t))) {
      const [, key, value] = m as unknown as [string, string, string];
      terms.push((l) => l[key] === value);
    } else if ((m = /^!([\w./-]+)$/.exec(t))) {
      const key = m[1]!;
      terms.push((l) => !(key in l));
    } else if ((m = /^([\w./-]+)$/.exec(t))) {
      const key = m[1]!;
      terms.push((l) => key in l);
    } else {
      return undefined;
    }
  }
  return (l) => terms.every((f) => f(l));
}

/** The objects a target selects (current or original name and namespace, as kustomize does); undefined when it cannot be evaluated. */
function selectorMatcher(t: Selector): ((o: StaticObject) => boolean) | undefined {
  const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
  const group = fieldMatcher(str(t.group));
  const version = fieldMatcher(str(t.version));
  const kind = fieldMatcher(str(t.kind));
  const name = fieldMatcher(str(t.name));
  const namespace = fieldMatcher(str(t.namespace));
  const labels = labelMatcher(str(t.labelSelector));
  const annotations = labelMatcher(str(t.annotationSelector));
  if (!group || !version || !kind || !name || !namespace || !labels || !annotations) return undefined;
  return (o) => {
    const apiVersion = String(o.body.apiVersion ?? '');
    const slash = apiVersion.lastIndexOf('/');
    const meta = metadataOf(o);
    const curName = typeof meta.name === 'string' ? meta.name : undefined;
    const curNs = typeof meta.namespace === 'string' ? meta.namespace : undefined;
    return (
      group(slash < 0 ? '' : apiVersion.slice(0, slash)) &&
      version(slash < 0 ? apiVersion : apiVersion.slice(slash + 1)) &&
      kind(String(o.body.kind ?? '')) &&
      (name(o.origName) || name(curName)) &&
      (t.namespace === undefined || namespace(o.origNamespace ?? '') || namespace(curNs ?? '')) &&
      labels(isObj(meta.labels) ? meta.labels : {}) &&
      annotations(isObj(meta.annotations) ? meta.annotations : {})
    );
  };
}

/** RFC 6901 pointer → segments; undefined when it is not a pointer. */
export function pointer(path: string): string[] | undefined {
  if (path === '') return [];
  if (!path.startsWith('/')) return undefined;
  return path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

/** The container a pointer's last segment lives in, or what is missing on the way. */
function parentOf(doc: unknown, segs: string[]): { parent: Container; key: string } | { missing: string } {
  let node: unknown = doc;
  for (let i = 0; i < segs.length - 1; i++) {
    const seg = segs[i]!;
    const next = Array.isArray(node) ? (/^\d+$/.test(seg) ? node[Number(seg)] : undefined) : isObj(node) ? node[seg] : undefined;
    if (next === undefined || (typeof next !== 'object' || next === null)) {
      return { missing: `/${segs.slice(0, i + 1).map(escape).join('/')}` };
    }
    node = next;
  }
  return { parent: node as Container, key: segs[segs.length - 1]! };
}

function escape(seg: string): string {
  return seg.replace(/~/g, '~0').replace(/\//g, '~1');
}

function getAt(doc: unknown, segs: string[]): { value: unknown } | undefined {
  let node: unknown = doc;
  for (const seg of segs) {
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(seg) || Number(seg) >= node.length) return undefined;
      node = node[Number(seg)];
    } else if (isObj(node)) {
      if (!(seg in node)) return undefined;
      node = node[seg];
    } else {
      return undefined;
    }
  }
  return { value: node };
}

function arrayIndex(arr: unknown[], key: string, allowEnd: boolean): number | undefined {
  if (key === '-' && allowEnd) return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
  const i = Number(key);
  return i < arr.length || (allowEnd && i === arr.length) ? i : undefined;
}

/** Adds like evanphx/json-patch: the parent must exist. Returns what is missing, if anything. */
function addAt(doc: unknown, segs: string[], value: unknown): string | undefined {
  if (segs.length === 0) return undefined;
  const p = parentOf(doc, segs);
  if ('missing' in p) return `it has no ${p.missing}`;
  if (Array.isArray(p.parent)) {
    const i = arrayIndex(p.parent, p.key, true);
    if (i === undefined) return `${parentPath(segs)} has ${p.parent.length} item${p.parent.length === 1 ? '' : 's'}`;
    p.parent.splice(i, 0, structuredClone(value));
    return undefined;
  }
  p.parent[p.key] = structuredClone(value);
  return undefined;
}

function parentPath(segs: string[]): string {
  return `/${segs.slice(0, -1).map(escape).join('/')}`;
}

/**
 * Applies one operation as kustomize 5 does and says how it differs from RFC 6902, or undefined
 * when it applies cleanly (or when its outcome depends on values, which this reading does not
 * judge: a `test` on a present field).
 */
export function applyOp(doc: Record<string, unknown>, op: Record<string, unknown>): { outcome: OpOutcome; detail: string } | undefined {
  const segs = pointer(String(op.path));
  if (!segs) return undefined;
  const path = String(op.path);
  switch (op.op) {
    case 'add': {
      const missing = addAt(doc, segs, op.value);
      return missing ? { outcome: 'fails', detail: missing } : undefined;
    }
    case 'replace': {
      if (segs.length === 0) return undefined;
      const p = parentOf(doc, segs);
      if ('missing' in p) return { outcome: 'fails', detail: `it has no ${p.missing}` };
      if (Array.isArray(p.parent)) {
        const i = arrayIndex(p.parent, p.key, false);
        if (i === undefined) return { outcome: 'fails', detail: `${parentPath(segs)} has ${p.parent.length} item${p.parent.length === 1 ? '' : 's'}` };
        p.parent[i] = structuredClone(op.value);
        return undefined;
      }
      const had = p.key in p.parent;
      p.parent[p.key] = structuredClone(op.value);
      return had ? undefined : { outcome: 'adds', detail: `it has no ${path}` };
    }
    case 'remove': {
      const p = segs.length ? parentOf(doc, segs) : undefined;
      if (!p) return undefined;
      if ('missing' in p) return { outcome: 'fails', detail: `it has no ${p.missing}` };
      if (Array.isArray(p.parent)) {
        const i = arrayIndex(p.parent, p.key, false);
        if (i === undefined) return { outcome: 'fails', detail: `${parentPath(segs)} has ${p.parent.length} item${p.parent.length === 1 ? '' : 's'}` };
        p.parent.splice(i, 1);
        return undefined;
      }
      if (!(p.key in p.parent)) return { outcome: 'fails', detail: `it has no ${path}` };
      delete p.parent[p.key];
      return undefined;
    }
    case 'test': {
      if (getAt(doc, segs) === undefined && op.value !== null) return { outcome: 'fails', detail: `it has no ${path}` };
      return undefined;
    }
    case 'copy':
    case 'move': {
      const from = typeof op.from === 'string' ? pointer(op.from) : undefined;
      if (!from) return undefined;
      const got = getAt(doc, from);
      if (got === undefined && op.op === 'move') return { outcome: 'fails', detail: `it has no ${String(op.from)}` };
      if (op.op === 'move') {
        const p = parentOf(doc, from);
        if (!('missing' in p)) {
          if (Array.isArray(p.parent)) p.parent.splice(Number(p.key), 1);
          else delete p.parent[p.key];
        }
      }
      const missing = addAt(doc, segs, got === undefined ? null : got.value);
      if (missing) return { outcome: 'fails', detail: missing };
      return got === undefined ? { outcome: 'copies-null', detail: `it has no ${String(op.from)}` } : undefined;
    }
    default:
      return undefined;
  }
}
