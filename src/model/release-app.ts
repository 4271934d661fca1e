/**
 * How a helmfile release is named: its id (`<namespace>/<name>`) and the app it is in the plan.
 * A module of its own so that the diff's notes (src/diff/helmfile.ts) name releases as the plan
 * does without loading ./graphs.ts (test/diff/warm-modules.test.ts).
 */

export function releaseId(r: { namespace: string; name: string }): string {
  return `${r.namespace}/${r.name}`;
}

/**
 * The app name a helmfile release gets in the plan: `helmfile:<ns>/<name>` for the apps phase,
 * `helmfile-crds:<ns>/<name>` for the CRD phase, so that one release in both phases (its CRDs
 * extracted first, the release installed later) stays two apps.
 */
export function releaseApp(r: { namespace: string; name: string; phase?: 'crds' | 'apps' }): string {
  return `${r.phase === 'crds' ? 'helmfile-crds' : 'helmfile'}:${releaseId(r)}`;
}
