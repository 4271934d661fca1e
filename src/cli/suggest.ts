/**
 * "did you mean …?" for a mistyped command or flag, as cobra does it: a candidate is suggested
 * when its Damerau–Levenshtein distance (optimal string alignment: insert, delete, substitute,
 * swap two neighbours) to what was typed is at most 2, or when it starts with what was typed.
 * Case is ignored. Best first: smaller distance, then name.
 */

/** The optimal-string-alignment distance between a and b. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[rows - 1]![cols - 1]!;
}

export const MAX_SUGGESTION_DISTANCE = 2;

export function suggestions(typed: string, candidates: readonly string[]): string[] {
  const t = typed.toLowerCase();
  if (t === '') return [];
  return candidates
    .map((c) => ({ c, d: editDistance(t, c.toLowerCase()), prefix: c.toLowerCase().startsWith(t) }))
    .filter((x) => x.d <= MAX_SUGGESTION_DISTANCE || x.prefix)
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0))
    .map((x) => x.c);
}

/** `did you mean plan?` / `did you mean one of plan, promote?`; undefined when nothing is close. */
export function didYouMean(typed: string, candidates: readonly string[], show: (c: string) => string = (c) => c): string | undefined {
  const s = suggestions(typed, candidates).slice(0, 3).map(show);
  if (s.length === 0) return undefined;
  return s.length === 1 ? `did you mean ${s[0]}?` : `did you mean one of ${s.join(', ')}?`;
}
