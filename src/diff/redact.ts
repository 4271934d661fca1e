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

/** The fields of an object whose values are replaced by markers. */
function redactedFields(o: Record<string, unknown> | undefined): readonly string[] {
  if (o === undefined) return [];
  if (o.kind === 'Secret' && (o.apiVersion === 'v1' || o.apiVersion === undefined)) return ['data', 'stringData'];
  if (isHelmfileEntry(o)) return ['secrets'];
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
  for (const field of new Set([...fa, ...fb])) {
    const av = values(from, field);
    const bv = values(to, field);
    if (a && fa.includes(field) && av) (a as Record<string, unknown>)[field] = Object.fromEntries(Object.keys(av).map((k) => [k, REDACTED]));
    if (b && fb.includes(field) && bv) {
      (b as Record<string, unknown>)[field] = Object.fromEntries(Object.keys(bv).map((k) => [k, av && k in av && av[k] !== bv[k] ? REDACTED_CHANGED : REDACTED]));
    }
  }
  return [a, b];
}
