/**
 * Shapes shared by the Kubernetes API test server. Objects are plain JSON: the server is
 * schema-less apart from the few rules real API servers apply to every object.
 */

/** A Kubernetes object as JSON. `any` keeps the test server short; the HTTP edge is untyped anyway. */
export type Obj = Record<string, any>;

/** One servable resource: what discovery lists and what the router resolves a URL to. */
export interface ResourceType {
  group: string;
  /** Versions served; the first is the preferred one. Objects are stored once, version-agnostic. */
  versions: string[];
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  /** Whether `/status` is a subresource (then main-resource writes ignore `.status`). */
  statusSubresource: boolean;
  /** Whether `metadata.generation` is kept (bumped on every change outside metadata and status). */
  generation: boolean;
  /** Built-in list items carry no apiVersion/kind, as with the real server; custom resources do. */
  builtin: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change in the store, with the global resourceVersion it produced. */
export interface StoreEvent {
  rv: number;
  type: WatchEventType;
  /** `group/plural` of the resource type. */
  typeKey: string;
  object: Obj;
  /** The object before the change (MODIFIED and DELETED). */
  old?: Obj;
}

/** What a write request asks for beyond its body. */
export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  force?: boolean;
  subresource?: 'status' | undefined;
}

/** Anything that tells the time; tests may pass a fixed or stepping clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** RFC 3339 with second precision, as Kubernetes writes timestamps. */
export function timestamp(clock: Clock): string {
  return clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function typeKey(rt: Pick<ResourceType, 'group' | 'plural'>): string {
  return `${rt.group}/${rt.plural}`;
}

export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export function isPlainObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}
