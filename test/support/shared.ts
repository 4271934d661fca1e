/**
 * Where the read-only data beside the repository lives: real repositories (realrepos/),
 * upstream CRDs (crds/) and conformance vectors (conformance/). The directory is
 * $FLEETPLAN_SHARED when set, else `shared` beside the repository root. Only the tests under
 * test/real (`npm run test:real`) may read it; `npm test` must pass on a bare clone (ADR 0150).
 * Paths are resolved when a test asks for them, never at import, so a missing directory fails
 * the test that needs it, not the whole file.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is compiled to dist/test/support/shared.js). */
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The shared data directory: $FLEETPLAN_SHARED, else <repository>/../shared. */
export function sharedDir(): string {
  const env = process.env.FLEETPLAN_SHARED;
  return env ? resolve(env) : resolve(REPO_ROOT, '..', 'shared');
}

/** A path inside the shared data directory. */
export function sharedPath(...parts: string[]): string {
  return join(sharedDir(), ...parts);
}

/** A real repository's snapshot: <shared>/realrepos/<owner__name>. */
export function realRepo(name: string, ...parts: string[]): string {
  return sharedPath('realrepos', name, ...parts);
}
