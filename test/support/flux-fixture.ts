/** Flux objects for test repositories. */

/** A Flux Kustomization `name` of the flux-system GitRepository at `./path`; `extra` is more of its spec (indented two spaces); `namespace` its metadata.namespace. */
export function fluxKustomization(name: string, path: string, extra = '', namespace?: string): string {
  return `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
${namespace !== undefined ? `  namespace: ${namespace}\n` : ''}spec:
  interval: 1h
  path: ./${path}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
${extra}`;
}

/** `clusters/<cluster>/flux-system/gotk-sync.yaml` as `flux bootstrap` writes it: the GitRepository and the root Kustomization. */
export function gotkSync(cluster: string): string {
  return `---
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 1m0s
  ref:
    branch: main
  url: ssh://git@example.org/fleet
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 10m0s
  path: ./clusters/${cluster}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;
}

/** A Flux Kustomization in flux-system syncing `path` from the flux-system GitRepository, after `deps` (spec.dependsOn). */
export const kustomizationWithDeps = (name: string, path: string, deps: string[] = []) => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: flux-system
spec:
${deps.length ? `  dependsOn:\n${deps.map((d) => `    - name: ${d}\n`).join('')}` : ''}  interval: 1h
  path: ${path}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;
