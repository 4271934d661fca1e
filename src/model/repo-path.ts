/** Repository-relative paths: `a/./b/../c` → `a/c`, never leaving the repository root. */

/** Normalizes `path`; undefined when it leaves the root or is absolute. `.` for the root itself. */
export function normalizeRepoPath(path: string): string | undefined {
  return joinRepoPath('', path);
}

/** `dir` + relative `ref`, normalized; undefined when it leaves the repository or `ref` is absolute. */
export function joinRepoPath(dir: string, ref: string): string | undefined {
  if (ref.startsWith('/')) return undefined;
  const parts = dir === '.' || dir === '' ? [] : dir.split('/').filter((s) => s !== '' && s !== '.');
  for (const seg of ref.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.length ? parts.join('/') : '.';
}
