/**
 * Where fleetplan keeps its caches when no directory is given. A module of its own, so that a
 * command that needs only the name (`diff`'s records) does not load the build cache and the
 * output writer behind it (docs/adr/0396-diff-warm-path-fixed-cost.md).
 */
import { join } from 'node:path';

/** The cache directory when none is given: `$XDG_CACHE_HOME/fleetplan`, else `$HOME/.cache/fleetplan`. */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'fleetplan');
  if (env.HOME) return join(env.HOME, '.cache', 'fleetplan');
  return undefined;
}
