/**
 * Argo CD's `utils.SanitizeName` (the `nameNormalized` / `basenameNormalized` params and the
 * goTemplate function `normalize`): lower-case, every code point outside `[-a-z0-9.]` becomes
 * `-` (runs are not collapsed), at most 253 bytes, leading and trailing `-` and `.` trimmed.
 */
export function normalizeName(name: string): string {
  let s = name.toLowerCase().replace(/[^-a-z0-9.]/gu, '-');
  if (s.length > 253) s = s.slice(0, 253);
  return s.replace(/^[-.]+/, '').replace(/[-.]+$/, '');
}
