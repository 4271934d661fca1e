/**
 * Keys and values for property tests of the strings-only YAML subset (cluster Secrets): inside the
 * subset first (the first 9 keys, the first 20 values), then what a core schema reads otherwise or
 * the subset refuses. Shared by test/yaml/subset.test.ts and test/appset/block-mapping.test.ts.
 */
export const KEYS = [
  'name', 'namespace', 'env', 'argocd.argoproj.io/secret-type', 'cluster_type', 'a.b/c-d_e', 'x', 'config', 'server',
  // outside the subset or read otherwise by a core schema
  '1abc', '10', 'true', 'Null', '~', '__proto__', 'a b', '-a', '<<', '.inf', "'q'", '"q"', 'k:', '?k', '&a', 'ü',
];
export const VALUES = [
  'prod', 'cluster', 'https://c.example.com:6443', 'main', 'it\'s', 'a#b', 'a  b', 'x:y', '{}', '=', '<<', 'yes', 'no', 'on',
  'ünïcødé ✓ 𝄞', 'a\\b', '2001-12-14', 'a b :c', 'a,b', 'a]b',
  // read as something else than a string, or outside the subset
  '+.5', '1_000', '0x1F', '0o17', '1e3', '.5', '-.5', '5.', '.inf', '-.Inf', '.NaN', '10', '-1', 'true', 'True', 'FALSE', 'null', '~', '',
  'a #b', 'a: b', 'a:', '- x', '-x', '[a]', '{a: b}', '!t x', '!!str x', '&a x', '*a', '|', '>', '%x', '@x', '`x', '? x', ':x', '#x',
  "'", '"', 'a"b', "a'b", ' lead', 'trail ', 'a\tb', 'a\rb', 'a\u0085b', '\ufeffx',
];

export function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** `v` plain, single-quoted or double-quoted, at random. */
export function scalar(r: () => number, v: string): string {
  const q = r();
  if (q < 0.6) return v;
  if (q < 0.8) return `'${v.replaceAll("'", "''")}'`;
  return `"${v}"`;
}
