/**
 * The Application as the ApplicationSet controller stores it (ADR 0410): the rendered template is
 * unmarshalled into Argo CD's Go struct and written back, so a string field tagged `omitempty`
 * that is empty is absent. Only the struct fields a template commonly fills are handled:
 * ApplicationSource (`spec.source`, `spec.sources[]`), ApplicationDestination and
 * ResourceIgnoreDifferences; `repoURL`, `kind` and `project` are not `omitempty` and stay.
 */
import type { Application } from './types.js';

const SOURCE = new Set(['path', 'targetRevision', 'chart', 'ref', 'name']);
const DESTINATION = new Set(['server', 'namespace', 'name']);
const IGNORE = new Set(['group', 'name', 'namespace']);

/** The `omitempty` string fields of the struct at `spec.<key>` (an item of it when a list), or undefined. */
function fieldsAt(key: string): ReadonlySet<string> | undefined {
  return key === 'source' || key === 'sources' ? SOURCE : key === 'destination' ? DESTINATION : key === 'ignoreDifferences' ? IGNORE : undefined;
}

/** True when `path` (dots and `[i]`, relative to the Application) is an `omitempty` string field handled here. */
export function isOmitEmptyString(path: readonly string[]): boolean {
  if (path.length < 3 || path[0] !== 'spec') return false;
  const fields = fieldsAt(path[1]!);
  if (!fields) return false;
  const list = path[1] === 'sources' || path[1] === 'ignoreDifferences';
  return list ? path.length === 4 && /^\d+$/.test(path[2]!) && fields.has(path[3]!) : path.length === 3 && fields.has(path[2]!);
}

function pruned(o: unknown, fields: ReadonlySet<string>): unknown {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return o;
  const rec = o as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const k of Object.keys(rec)) {
    if (rec[k] === '' && fields.has(k)) {
      copy ??= { ...rec };
      delete copy[k];
    }
  }
  return copy ?? o;
}

/**
 * `app` without its empty `omitempty` strings. Copies only the objects it changes (literal
 * subtrees may be shared between generated Applications); returns `app` itself when none.
 */
export function storedApplication(app: Application): Application {
  const spec = app.spec as Record<string, unknown> | undefined;
  if (!spec || typeof spec !== 'object') return app;
  let out: Record<string, unknown> | undefined;
  for (const key of ['source', 'sources', 'destination', 'ignoreDifferences']) {
    const v = spec[key];
    const fields = fieldsAt(key)!;
    let next: unknown = v;
    if (Array.isArray(v)) {
      const items = v.map((x) => pruned(x, fields));
      if (items.some((x, i) => x !== v[i])) next = items;
    } else next = pruned(v, fields);
    if (next !== v) (out ??= { ...spec })[key] = next;
  }
  return out ? { ...app, spec: out as Application['spec'] } : app;
}
