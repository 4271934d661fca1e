/**
 * Secrets' values never reach a diff: every value under `data` and `stringData` of a `Secret`
 * is replaced by a marker, compared side by side so that a reviewer still sees which keys
 * changed (`<redacted>` on both sides when equal, `<redacted: changed>` on the new side when not).
 * A helmfile release's `secrets` (sops-encrypted files, each with a digest of its encrypted text:
 * ./helmfile.ts) are marked the same way, so the digest is never shown either.
 */
import { isHelmfileEntry } from './helmfile.js';

export const REDACTED = '<redacted>';
export const REDACTED_CHANGED = '<redacted: changed>';

/** A field whose values (digests, or a Secret's data) are replaced by a marker, and its two markers. */
interface Marked {
  field: string;
  same: string;
  changed: string;
}

const SECRET_FIELDS: readonly Marked[] = [
  { field: 'data', same: REDACTED, changed: REDACTED_CHANGED },
  { field: 'stringData', same: REDACTED, changed: REDACTED_CHANGED },
];
/**
 * A helmfile release's digests: its sops secrets files, its values files not read (a template that
 * failed: compared by the digest of their text) and its local chart's files.
 */
const HELMFILE_FIELDS: readonly Marked[] = [
  { field: 'secrets', same: REDACTED, changed: REDACTED_CHANGED },
  { field: 'valuesNotRead', same: '<not read>', changed: '<not read: changed>' },
  { field: 'chartFiles', same: '<files>', changed: '<files: changed>' },
];

/** The fields of an object whose values are replaced by markers. */
function redactedFields(o: Record<string, unknown> | undefined): readonly Marked[] {
  if (o === undefined) return [];
  if (o.kind === 'Secret' && (o.apiVersion === 'v1' || o.apiVersion === undefined)) return SECRET_FIELDS;
  if (isHelmfileEntry(o)) return HELMFILE_FIELDS;
  return [];
}

function values(o: Record<string, unknown> | undefined, field: string): Record<string, unknown> | undefined {
  const v = o?.[field];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Copies of both objects with their secret values replaced; any other object as it is. */
export function redactPair<T extends Record<string, unknown>>(from: T | undefined, to: T | undefined): [T | undefined, T | undefined] {
  const fa = redactedFields(from);
  const fb = redactedFields(to);
  if (fa.length === 0 && fb.length === 0) return [from, to];
  const a = from && fa.length ? { ...from } : from;
  const b = to && fb.length ? { ...to } : to;
  for (const m of new Set([...fa, ...fb])) {
    const { field } = m;
    const av = values(from, field);
    const bv = values(to, field);
    if (a && fa.includes(m) && av) (a as Record<string, unknown>)[field] = Object.fromEntries(Object.keys(av).map((k) => [k, m.same]));
    if (b && fb.includes(m) && bv) {
      (b as Record<string, unknown>)[field] = Object.fromEntries(Object.keys(bv).map((k) => [k, av && k in av && av[k] !== bv[k] ? m.changed : m.same]));
    }
  }
  return [a, b];
}
