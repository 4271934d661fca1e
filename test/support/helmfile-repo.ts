/**
 * A small helmfile + Flux repository (seed 003's pattern), written for the helmfile bootstrap
 * tests: a CRD phase, two releases chained by needs, postsync hooks that hand over to Flux, and
 * three Flux Kustomizations.
 */
import { customResourceDefinition } from './fleet-fixture.js';

const crd = (group: string, kind: string, plural: string): string => customResourceDefinition(kind, group, 'Namespaced', plural);

function deployment(name: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: {{ .Values.replicas | default 1 }}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: main, image: {{ .Values.image | default "example/${name}:1" | quote }}}]}
`;
}

function chart(name: string): string {
  return `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`;
}

/** A small helmfile + Flux repository: a CRD phase, two releases chained by needs, a postsync hook, three Flux Kustomizations. */
export function helmfileRepo(): Record<string, string> {
  return {
    // The environments of seed 003's pattern 4 (infra and apps clusters), shared through bases.
    'bootstrap/environments.yaml': `environments:
  infra:
    values:
      - clusters/infra/values.yaml
  apps:
    values:
      - clusters/apps/values.yaml
`,
    'bootstrap/clusters/infra/values.yaml': 'cluster: infra\n',
    'bootstrap/clusters/apps/values.yaml': 'cluster: apps\n',
    'bootstrap/helmfile.d/00-crds.yaml': `bases: [../environments.yaml]
helmDefaults:
  args: [--include-crds, --no-hooks]
releases:
  - name: widgets
    namespace: widgets
    chart: ../charts/widgets
`,
    'bootstrap/helmfile.d/01-apps.yaml': `bases: [../environments.yaml]
releases:
  - name: podinfo
    namespace: apps
    chart: ../charts/podinfo
    values:
      - ../clusters/{{ .Environment.Name }}/podinfo.yaml
      - replicas: 2
  - name: flux-operator
    namespace: flux-system
    chart: ../charts/flux-operator
    needs:
      - apps/podinfo
    hooks:
      - events: [postsync]
        command: kubectl
        args: [wait, --for=create, crd/kustomizations.kustomize.toolkit.fluxcd.io, --timeout=2m]
      - events: [postsync]
        command: kubectl
        args: [apply, --server-side, --force-conflicts, --filename=../../kubernetes/flux/cluster/ks.yaml]
`,
    'bootstrap/clusters/infra/podinfo.yaml': 'image: example/podinfo:infra\n',
    'bootstrap/clusters/apps/podinfo.yaml': 'image: example/podinfo:apps\n',
    'bootstrap/charts/widgets/Chart.yaml': chart('widgets'),
    'bootstrap/charts/widgets/crds/widgets.yaml': crd('example.com', 'Widget', 'widgets'),
    // Never applied: the CRD phase takes CRDs only.
    'bootstrap/charts/widgets/templates/deployment.yaml': deployment('widgets-controller'),
    'bootstrap/charts/podinfo/Chart.yaml': chart('podinfo'),
    'bootstrap/charts/podinfo/templates/deployment.yaml': deployment('podinfo'),
    'bootstrap/charts/flux-operator/Chart.yaml': chart('flux-operator'),
    'bootstrap/charts/flux-operator/crds/kustomizations.yaml': crd('kustomize.toolkit.fluxcd.io', 'Kustomization', 'kustomizations'),
    'bootstrap/charts/flux-operator/crds/gitrepositories.yaml': crd('source.toolkit.fluxcd.io', 'GitRepository', 'gitrepositories'),
    'bootstrap/charts/flux-operator/templates/deployment.yaml': deployment('flux-operator'),
    'kubernetes/flux/cluster/ks.yaml': `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 1h
  url: https://git.example.com/fleet.git
  ref: {branch: main}
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: cluster-apps
  namespace: flux-system
spec:
  interval: 1h
  path: ./kubernetes/apps
  prune: true
  sourceRef: {kind: GitRepository, name: flux-system}
`,
    'kubernetes/apps/apps/podinfo/ks.yaml': `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: podinfo
  namespace: flux-system
spec:
  interval: 1h
  path: ./kubernetes/apps/apps/podinfo/app
  prune: true
  sourceRef: {kind: GitRepository, name: flux-system}
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: podinfo-config
  namespace: flux-system
spec:
  dependsOn:
    - name: podinfo
  interval: 1h
  path: ./kubernetes/apps/apps/podinfo/config
  prune: true
  sourceRef: {kind: GitRepository, name: flux-system}
`,
  };
}

