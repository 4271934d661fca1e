/**
 * A gitops-standards bootstrap ArgoCD whose repo-server sidecar carries the config-management
 * plugin's environment (`spec.repo.sidecarContainers[].env`), with the given variables in order.
 * Values are written single-quoted as given (a `${x}` is filled in by envsubst at bootstrap).
 */
export function sidecarArgocd(env: Record<string, string>): string {
  const entries = Object.entries(env).map(([name, value]) => `          - name: ${name}\n            value: '${value}'\n`).join('');
  return `apiVersion: argoproj.io/v1beta1
kind: ArgoCD
metadata:
  name: openshift-gitops
  namespace: openshift-gitops
spec:
  repo:
    sidecarContainers:
      - name: setenv-plugin
        command: [/var/run/argocd/argocd-cmp-server]
        env:
${entries}        image: quay.io/example/envsub:1
`;
}
