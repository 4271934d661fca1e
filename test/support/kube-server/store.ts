/**
 * The object store: every object once (version-agnostic), one global resourceVersion counter,
 * an event history for watches, and the write rules the real API server applies to every kind
 * (names, namespaces, generation, status subresource, finalizers, managed fields, dry-run).
 * Controllers write through the same methods as HTTP clients.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { conflictMessage, formatPath, recordUpdate, serverSideApply } from './fields.js';
import { listKeysFor, type ListKeys } from './list-keys.js';
import { applyDefaults, defaultKeyFields } from './defaults.js';
import { jsonPatch, mergePatch } from './patch.js';
import { strategicMerge } from './strategic.js';
import { BUILTIN_TYPES, isEstablished, typeFromCrd } from './resources.js';
import type { Matcher } from './selectors.js';
import {
  alreadyExists, badRequest, conflict, invalid, MODIFIED, notFound, StatusError, unsupportedMediaType, type FieldCause,
} from './status.js';
import {
  apiVersionOf, clone, deepEqual, isPlainObject, splitApiVersion, timestamp, typeKey, type Clock, type Obj, type ResourceType,
  type StoreEvent, type WriteOptions,
} from './types.js';

/** A rule a test adds to refuse objects (422 Invalid), as an admission webhook would. */
export type Validator = (obj: Obj, rt: ResourceType) => FieldCause[];

export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';

export function patchTypeOf(contentType: string): PatchType {
  const ct = contentType.split(';')[0]!.trim().toLowerCase();
  switch (ct) {
    case 'application/merge-patch+json': return 'merge';
    case 'application/strategic-merge-patch+json': return 'strategic';
    case 'application/json-patch+json': return 'json';
    case 'application/apply-patch+yaml':
    case 'application/apply-patch+json':
    case 'application/apply-patch+cbor':
      return 'apply';
    default: throw unsupportedMediaType(ct);
  }
}

const NAMESPACE_TYPE = BUILTIN_TYPES.find((t) => t.kind === 'Namespace')!;
const CRD_TYPE = BUILTIN_TYPES.find((t) => t.kind === 'CustomResourceDefinition')!;

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

export interface StoreOptions {
  clock: Clock;
  /** How many events watches can resume from; older resourceVersions get 410 Expired. */
  historyLimit: number;
}

export interface ListResult {
  items: Obj[];
  resourceVersion: string;
}

export class ObjectStore {
  private rv = 0;
  private readonly objects = new Map<string, Obj>();
  private history: StoreEvent[] = [];
  /** Watches may start from any resourceVersion at or after this one. */
  private oldestResumable = 0;
  private readonly listeners = new Set<(ev: StoreEvent) => void>();
  private types = new Map<string, ResourceType>();
  readonly validators: Validator[] = [];

  constructor(private readonly opts: StoreOptions) {
    this.refreshTypes();
    for (const ns of ['default', 'kube-system', 'kube-public']) {
      this.create(NAMESPACE_TYPE, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, { fieldManager: 'kube-apiserver' });
    }
  }

  get resourceVersion(): number {
    return this.rv;
  }

  // ---- types -----------------------------------------------------------------------------

  allTypes(): ResourceType[] {
    return [...this.types.values()];
  }

  resolve(group: string, version: string, plural: string): ResourceType | undefined {
    const rt = this.types.get(`${group}/${plural}`);
    return rt && rt.versions.includes(version) ? rt : undefined;
  }

  typeForKind(apiVersion: string, kind: string): ResourceType | undefined {
    const { group, version } = splitApiVersion(apiVersion);
    return this.allTypes().find((t) => t.group === group && t.kind === kind && t.versions.includes(version));
  }

  private refreshTypes(): void {
    const next = new Map<string, ResourceType>();
    for (const t of BUILTIN_TYPES) next.set(typeKey(t), t);
    for (const [key, crd] of this.objects) {
      if (!key.startsWith(`${typeKey(CRD_TYPE)}|`) || !isEstablished(crd) || crd.metadata?.deletionTimestamp) continue;
      const t = typeFromCrd(crd);
      if (t && !next.has(typeKey(t))) next.set(typeKey(t), t);
    }
    this.types = next;
  }

  // ---- events ----------------------------------------------------------------------------

  subscribe(fn: (ev: StoreEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Events after `rv`, or undefined when that resourceVersion is too old to resume from. */
  eventsSince(rv: number): StoreEvent[] | undefined {
    if (rv < this.oldestResumable) return undefined;
    return this.history.filter((e) => e.rv > rv);
  }

  get oldestResumableVersion(): number {
    return this.oldestResumable;
  }

  /** Forget the event history: watches from any earlier resourceVersion get 410 Expired. */
  compact(): void {
    this.history = [];
    this.oldestResumable = this.rv;
  }

  private emit(ev: StoreEvent): void {
    this.history.push(ev);
    if (this.history.length > this.opts.historyLimit) {
      const dropped = this.history.splice(0, this.history.length - this.opts.historyLimit);
      this.oldestResumable = dropped[dropped.length - 1]!.rv;
    }
    for (const l of [...this.listeners]) l(ev);
  }

  // ---- reads -----------------------------------------------------------------------------

  private key(rt: ResourceType, ns: string | undefined, name: string): string {
    return `${typeKey(rt)}|${rt.namespaced ? (ns ?? '') : ''}|${name}`;
  }

  /** The stored object, or undefined. Returned objects are copies. */
  find(rt: ResourceType, ns: string | undefined, name: string): Obj | undefined {
    return clone(this.objects.get(this.key(rt, ns, name)));
  }

  get(rt: ResourceType, ns: string | undefined, name: string, version?: string): Obj {
    const o = this.objects.get(this.key(rt, ns, name));
    if (!o) throw notFound(rt, name);
    return this.present(rt, o, version);
  }

  list(rt: ResourceType, ns: string | undefined, match: Matcher, version?: string): ListResult {
    const prefix = `${typeKey(rt)}|`;
    const items: Obj[] = [];
    for (const [k, o] of [...this.objects].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!k.startsWith(prefix)) continue;
      if (rt.namespaced && ns !== undefined && o.metadata.namespace !== ns) continue;
      if (match(o)) items.push(this.present(rt, o, version));
    }
    return { items, resourceVersion: String(this.rv) };
  }

  /** A copy with apiVersion set to the version asked for (all versions share one stored form). */
  present(rt: ResourceType, o: Obj, version?: string): Obj {
    const c = clone(o);
    if (version) c.apiVersion = apiVersionOf(rt.group, version);
    return c;
  }

  /** Every stored object, sorted, for tests to compare before and after. */
  snapshot(): Obj[] {
    return [...this.objects.keys()].sort().map((k) => clone(this.objects.get(k)!));
  }

  // ---- writes ----------------------------------------------------------------------------

  create(rt: ResourceType, ns: string | undefined, body: Obj, opts: WriteOptions): Obj {
    const obj = this.checkBody(rt, ns, body, undefined);
    if (!obj.metadata.name) {
      if (typeof obj.metadata.generateName === 'string' && obj.metadata.generateName !== '') {
        do {
          obj.metadata.name = obj.metadata.generateName + [...randomBytes(5)].map((b) => NAME_CHARS[b % NAME_CHARS.length]).join('');
        } while (this.objects.has(this.key(rt, ns, obj.metadata.name)));
      } else {
        throw invalid(rt, '', [{ field: 'metadata.name', message: 'Required value: name or generateName is required', type: 'FieldValueRequired' }]);
      }
    }
    const name = String(obj.metadata.name);
    if (this.objects.has(this.key(rt, ns, name))) throw alreadyExists(rt, name);
    if (rt.statusSubresource && rt.kind !== 'Namespace') delete obj.status;
    delete obj.metadata.managedFields;
    // Create and update decode (and so default) the body before the field manager sees it.
    if (rt.builtin) applyDefaults(rt.kind, obj);
    const manager = this.manager(opts);
    obj.metadata.managedFields = recordUpdate(this.ownership(rt, undefined, manager, obj, opts), obj);
    return this.commit(rt, undefined, obj, opts);
  }

  update(rt: ResourceType, ns: string | undefined, name: string, body: Obj, opts: WriteOptions): Obj {
    const old = this.mustGet(rt, ns, name);
    const incoming = this.checkBody(rt, ns, body, name);
    const rv = incoming.metadata.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== old.metadata.resourceVersion) throw conflict(rt, name, MODIFIED);
    const next = this.mergeSubresource(rt, old, incoming, opts.subresource);
    if (rt.builtin) applyDefaults(rt.kind, next);
    next.metadata.managedFields = recordUpdate(this.ownership(rt, old, this.manager(opts), next, opts), next);
    return this.commit(rt, old, next, opts);
  }

  patch(rt: ResourceType, ns: string | undefined, name: string, type: PatchType, patch: unknown, opts: WriteOptions): Obj {
    if (type === 'apply') return this.apply(rt, ns, name, patch, opts);
    if (opts.force !== undefined) throw invalid(rt, name, [{ field: 'force', message: 'Unsupported value: true: may not be specified for non-apply patch' }]);
    const old = this.mustGet(rt, ns, name);
    const patched = type === 'json' ? jsonPatch(old, patch) : type === 'merge' ? mergePatch(old, patch) : strategicMerge(old, patch, this.listKeys(rt));
    if (!isPlainObject(patched)) throw badRequest('the patch does not produce an object');
    const incoming = this.checkBody(rt, ns, patched, name);
    const rv = incoming.metadata.resourceVersion;
    if (rv !== undefined && rv !== old.metadata.resourceVersion) throw conflict(rt, name, MODIFIED);
    const next = this.mergeSubresource(rt, old, incoming, opts.subresource);
    if (rt.builtin) applyDefaults(rt.kind, next);
    next.metadata.managedFields = recordUpdate(this.ownership(rt, old, this.manager(opts), next, opts), next);
    return this.commit(rt, old, next, opts);
  }

  apply(rt: ResourceType, ns: string | undefined, name: string, body: unknown, opts: WriteOptions): Obj {
    if (!opts.fieldManager) {
      throw invalid(rt, name, [{ field: 'fieldManager', message: 'Required value: is required for apply patch', type: 'FieldValueRequired' }]);
    }
    if (!isPlainObject(body)) throw badRequest('an apply configuration must be an object');
    if (!body.apiVersion || !body.kind) throw badRequest('apiVersion and kind are required in an apply configuration');
    const incoming = this.checkBody(rt, ns, body, name);
    const old = this.objects.get(this.key(rt, ns, name));
    const rv = incoming.metadata.resourceVersion;
    if (rv !== undefined && rv !== old?.metadata.resourceVersion) {
      if (!old) throw notFound(rt, name);
      throw conflict(rt, name, MODIFIED);
    }
    const applied = clone(incoming);
    for (const k of ['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields', 'deletionTimestamp', 'selfLink']) {
      delete applied.metadata[k];
    }
    if (opts.subresource === 'status') {
      for (const k of Object.keys(applied)) if (!['apiVersion', 'kind', 'metadata', 'status'].includes(k)) delete applied[k];
      applied.metadata = { name: applied.metadata.name, ...(applied.metadata.namespace ? { namespace: applied.metadata.namespace } : {}) };
    } else if (rt.statusSubresource) {
      delete applied.status;
    }
    // Key fields with a schema default are defaulted before the merge, as structured-merge-diff
    // keys elements; the merged object is defaulted after it (ADR 0258).
    if (rt.builtin) defaultKeyFields(rt.kind, applied);
    const time = timestamp(this.opts.clock);
    const res = serverSideApply(
      { live: old ? clone(old) : undefined, keys: this.listKeys(rt), manager: opts.fieldManager, apiVersion: incoming.apiVersion, time, subresource: opts.subresource },
      applied,
      opts.force === true,
    );
    if (res.conflicts.length > 0) {
      throw new StatusError(409, 'Conflict', conflictMessage(res.conflicts), {
        name, group: rt.group, kind: rt.plural,
        causes: res.conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${c.managerLabel}`, field: formatPath(c.path) })),
      });
    }
    const next = res.object;
    next.apiVersion = incoming.apiVersion;
    next.kind = rt.kind;
    if (rt.builtin) applyDefaults(rt.kind, next);
    if (!old) {
      if (this.objects.has(this.key(rt, ns, name))) throw alreadyExists(rt, name);
      if (rt.statusSubresource && rt.kind !== 'Namespace' && opts.subresource !== 'status') delete next.status;
      return this.commit(rt, undefined, next, opts);
    }
    return this.commit(rt, old, next, opts);
  }

  delete(rt: ResourceType, ns: string | undefined, name: string, opts: WriteOptions): Obj {
    const old = this.mustGet(rt, ns, name);
    const finalizers: unknown = old.metadata.finalizers;
    if (Array.isArray(finalizers) && finalizers.length > 0) {
      if (old.metadata.deletionTimestamp) return clone(old);
      const next = clone(old);
      next.metadata.deletionTimestamp = timestamp(this.opts.clock);
      next.metadata.deletionGracePeriodSeconds = 0;
      return this.commit(rt, old, next, opts, true);
    }
    return this.remove(rt, old, opts);
  }

  // ---- internals -------------------------------------------------------------------------

  private mustGet(rt: ResourceType, ns: string | undefined, name: string): Obj {
    const o = this.objects.get(this.key(rt, ns, name));
    if (!o) throw notFound(rt, name);
    return o;
  }

  private manager(opts: WriteOptions): string {
    return opts.fieldManager ?? 'unknown';
  }

  private ownership(rt: ResourceType, old: Obj | undefined, manager: string, next: Obj, opts: WriteOptions) {
    return { live: old, keys: this.listKeys(rt), manager, apiVersion: String(next.apiVersion ?? apiVersionOf(rt.group, rt.versions[0]!)), time: timestamp(this.opts.clock), subresource: opts.subresource };
  }

  /** Which lists of `rt` merge by key: the built-in table, or the CRD's schema. */
  private listKeys(rt: ResourceType): ListKeys {
    if (rt.builtin) return listKeysFor(rt);
    return listKeysFor(rt, this.find(CRD_TYPE, undefined, `${rt.plural}.${rt.group}`));
  }

  /** Main-resource writes keep the live status; status writes keep everything but the status. */
  private mergeSubresource(rt: ResourceType, old: Obj, incoming: Obj, subresource: string | undefined): Obj {
    if (subresource === 'status') {
      const next = clone(old);
      if (incoming.status === undefined) delete next.status;
      else next.status = clone(incoming.status);
      return next;
    }
    const next = clone(incoming);
    next.metadata.managedFields = clone(old.metadata.managedFields);
    for (const k of ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation']) {
      if (old.metadata[k] === undefined) delete next.metadata[k];
      else next.metadata[k] = old.metadata[k];
    }
    if (rt.statusSubresource) {
      if (old.status === undefined) delete next.status;
      else next.status = clone(old.status);
    }
    return next;
  }

  /** Checks that a body fits the URL it was sent to and returns a normalised copy. */
  private checkBody(rt: ResourceType, ns: string | undefined, body: unknown, urlName: string | undefined): Obj {
    if (!isPlainObject(body)) throw badRequest('the request body must be a JSON object');
    const obj = clone(body);
    const { group, version } = splitApiVersion(String(obj.apiVersion ?? apiVersionOf(rt.group, rt.versions[0]!)));
    if (group !== rt.group || !rt.versions.includes(version)) {
      throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(rt.group, rt.versions[0]!)})`);
    }
    obj.apiVersion = apiVersionOf(group, version);
    if (obj.kind !== undefined && obj.kind !== rt.kind) {
      throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${rt.kind})`);
    }
    obj.kind = rt.kind;
    if (!isPlainObject(obj.metadata)) obj.metadata = {};
    const meta = obj.metadata;
    if (urlName !== undefined) {
      if (meta.name !== undefined && meta.name !== urlName) {
        throw badRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${urlName})`);
      }
      meta.name = urlName;
    }
    if (rt.namespaced) {
      if (meta.namespace !== undefined && meta.namespace !== '' && ns !== undefined && meta.namespace !== ns) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = ns ?? meta.namespace;
      if (!meta.namespace) throw badRequest('the namespace of the object is required for a namespaced resource');
    } else {
      delete meta.namespace;
    }
    return obj;
  }

  private validate(rt: ResourceType, obj: Obj): void {
    const name = String(obj.metadata.name ?? '');
    const causes: FieldCause[] = [];
    const rbac = rt.group === 'rbac.authorization.k8s.io';
    if (rt.kind === 'Namespace') {
      if (!DNS_LABEL.test(name) || name.length > 63) {
        causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character` });
      }
    } else if (rbac) {
      if (name === '.' || name === '..' || /[/%]/.test(name)) causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": may not contain '/' or '%'` });
    } else if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
      causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character` });
    }
    const labels: unknown = obj.metadata.labels;
    if (labels !== undefined && !isPlainObject(labels)) causes.push({ field: 'metadata.labels', message: 'Invalid value: must be a map of strings' });
    if (isPlainObject(labels)) {
      for (const [k, v] of Object.entries(labels)) {
        if (typeof v !== 'string' || v.length > 63) causes.push({ field: `metadata.labels`, message: `Invalid value: "${String(v)}": a valid label must be a string of at most 63 characters (key ${k})` });
      }
    }
    if (rt.kind === 'Secret' && isPlainObject(obj.data)) {
      for (const [k, v] of Object.entries(obj.data)) {
        if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) {
          causes.push({ field: `data[${k}]`, message: 'Invalid value: illegal base64 data' });
        }
      }
    }
    if (rt.kind === 'ConfigMap' && isPlainObject(obj.data)) {
      for (const [k, v] of Object.entries(obj.data)) {
        if (typeof v !== 'string') causes.push({ field: `data[${k}]`, message: 'Invalid value: must be a string' });
      }
    }
    if (rt.kind === 'CustomResourceDefinition') {
      const plural = obj.spec?.names?.plural;
      const group = obj.spec?.group;
      if (typeof plural !== 'string' || typeof group !== 'string' || name !== `${plural}.${group}`) {
        causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": must be spec.names.plural+"."+spec.group` });
      }
    }
    for (const v of this.validators) causes.push(...v(obj, rt));
    if (causes.length > 0) throw invalid(rt, name, causes);
  }

  private commit(rt: ResourceType, old: Obj | undefined, next: Obj, opts: WriteOptions, deleting = false): Obj {
    if (rt.kind === 'Secret' && isPlainObject(next.stringData)) {
      next.data = { ...(isPlainObject(next.data) ? next.data : {}) };
      for (const [k, v] of Object.entries(next.stringData)) next.data[k] = Buffer.from(String(v), 'utf8').toString('base64');
      delete next.stringData;
    }
    if (rt.kind === 'Namespace') {
      next.spec = { finalizers: ['kubernetes'], ...(isPlainObject(next.spec) ? next.spec : {}) };
      next.status = { phase: 'Active', ...(isPlainObject(next.status) ? next.status : {}) };
    }
    this.validate(rt, next);
    const meta = next.metadata;
    if (rt.namespaced && !this.objects.has(this.key(NAMESPACE_TYPE, undefined, String(meta.namespace)))) {
      throw notFound(NAMESPACE_TYPE, String(meta.namespace));
    }
    if (!old) {
      meta.uid = randomUUID();
      meta.creationTimestamp = timestamp(this.opts.clock);
      if (rt.generation) meta.generation = 1;
    } else {
      meta.uid = old.metadata.uid;
      meta.creationTimestamp = old.metadata.creationTimestamp;
      if (rt.generation) {
        const outside = (o: Obj) => Object.fromEntries(Object.entries(o).filter(([k]) => !['metadata', 'status', 'apiVersion', 'kind'].includes(k)));
        const bumped = rt.statusSubresource ? !deepEqual(outside(old), outside(next)) : !deepEqual({ ...old, metadata: {} }, { ...next, metadata: {} });
        meta.generation = Number(old.metadata.generation ?? 1) + (bumped ? 1 : 0);
      }
      meta.resourceVersion = old.metadata.resourceVersion;
      if (!deleting && this.same(old, next)) return this.present(rt, old, splitApiVersion(String(next.apiVersion)).version);
    }
    if (old?.metadata.deletionTimestamp && !(Array.isArray(meta.finalizers) && meta.finalizers.length > 0)) {
      return this.remove(rt, next, opts);
    }
    if (opts.dryRun) {
      if (!old) delete meta.resourceVersion;
      return clone(next);
    }
    this.rv += 1;
    meta.resourceVersion = String(this.rv);
    const key = this.key(rt, meta.namespace, String(meta.name));
    this.objects.set(key, clone(next));
    if (rt === CRD_TYPE || rt.kind === 'CustomResourceDefinition') this.refreshTypes();
    this.emit({ rv: this.rv, type: old ? 'MODIFIED' : 'ADDED', typeKey: typeKey(rt), object: clone(next), ...(old ? { old: clone(old) } : {}) });
    return clone(next);
  }

  /** Two versions are the same write when nothing but managed-field timestamps differ. */
  private same(a: Obj, b: Obj): boolean {
    const strip = (o: Obj) => {
      const c = clone(o);
      for (const e of c.metadata?.managedFields ?? []) delete e.time;
      return c;
    };
    return deepEqual(strip(a), strip(b));
  }

  private remove(rt: ResourceType, obj: Obj, opts: WriteOptions): Obj {
    const key = this.key(rt, obj.metadata.namespace, String(obj.metadata.name));
    const old = this.objects.get(key);
    if (opts.dryRun) return clone(obj);
    if (!old) throw notFound(rt, String(obj.metadata.name));
    this.objects.delete(key);
    this.rv += 1;
    const gone = clone(obj);
    gone.metadata.resourceVersion = String(this.rv);
    this.emit({ rv: this.rv, type: 'DELETED', typeKey: typeKey(rt), object: clone(gone), old: clone(old) });
    if (rt.kind === 'Namespace') this.removeContents(String(obj.metadata.name));
    if (rt.kind === 'CustomResourceDefinition') {
      const t = typeFromCrd(obj);
      this.refreshTypes();
      if (t) this.removeAll(t, undefined);
    }
    return gone;
  }

  private removeContents(ns: string): void {
    for (const rt of this.allTypes()) if (rt.namespaced) this.removeAll(rt, ns);
  }

  private removeAll(rt: ResourceType, ns: string | undefined): void {
    const prefix = `${typeKey(rt)}|`;
    for (const [k, o] of [...this.objects]) {
      if (!k.startsWith(prefix) || (ns !== undefined && o.metadata.namespace !== ns)) continue;
      this.objects.delete(k);
      this.rv += 1;
      const gone = clone(o);
      gone.metadata.resourceVersion = String(this.rv);
      this.emit({ rv: this.rv, type: 'DELETED', typeKey: typeKey(rt), object: gone, old: clone(o) });
    }
  }
}

