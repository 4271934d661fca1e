/**
 * Every validation rule, each with a named failing and passing case: small fleets written to a
 * temporary directory, loaded and validated through the library.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, validateFleet } from '../../src/index.js';
import type { Finding } from '../../src/index.js';
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';
import { ARGOCD_REPOSITORY_CAPABILITIES } from '../../src/model/fleet.js';

function validate(files: Record<string, string>, mutate?: (fleet: ReturnType<typeof loadFleet>['fleet']) => void): Finding[] {
  const dir = writeTree(files);
  try {
    const { fleet } = loadFleet(dir);
    mutate?.(fleet);
    return validateFleet(fleet);
  } finally {
    removeTree(dir);
  }
}

const doc = (o: string) => o.replace(/^\n/, '');
const kustomization = (...resources: string[]) => `resources:\n${resources.map((r) => `  - ${r}\n`).join('')}`;
const group = (apps: string) => ({
  'groups/base/group.yaml': `apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\nspec:\n  apps:\n${apps}`,
});
const app = (name: string, path: string, extra = '') => `    ${name}:\n      path: ${path}\n      namespace: ns\n${extra}`;
const cluster = (name: string, spec: string) => ({
  [`clusters/${name}/cluster.yaml`]: `apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\nspec:\n${spec}`,
});

const subscription = (pkg: string) => doc(`
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata:
  name: ${pkg}
  namespace: ns
spec:
  name: ${pkg}
  channel: stable
  source: redhat-operators
  sourceNamespace: openshift-marketplace
`);
const pool = doc(`
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata:
  name: pool
  namespace: metallb-system
spec:
  addresses: [192.168.1.10-192.168.1.20]
`);

/** The operator app (wave 5) subscribes to MetalLB; the config app uses metallb.io at `wave`. */
const metallb = (configWave: number, extra: Record<string, string> = {}) => baseFleet({
  ...group(app('operator', 'components/operator', '      wave: 5\n') + app('config', 'components/config', `      wave: ${configWave}\n`)),
  'components/operator/kustomization.yaml': kustomization('subscription.yaml'),
  'components/operator/subscription.yaml': subscription('metallb-operator'),
  'components/config/kustomization.yaml': kustomization('pool.yaml'),
  'components/config/pool.yaml': pool,
  ...extra,
});

interface Case {
  name: string;
  files: Record<string, string>;
  mutate?: (fleet: ReturnType<typeof loadFleet>['fleet']) => void;
  /** Codes that must be reported (with a message matching, when given). */
  expect: { code: string; message?: RegExp; file?: string; severity?: string; hint?: RegExp }[];
  /** Codes that must not be reported. */
  absent?: string[];
}

const helmfileFlux = (apps: string, ks: Record<string, string> = {}) => ({
  'bootstrap/helmfile/apps.yaml': `releases:\n${apps}`,
  ...ks,
});
const ks = (name: string, path: string, dependsOn = '') => doc(`
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
spec:
  path: ./${path}
  sourceRef:
    kind: GitRepository
    name: flux-system
${dependsOn}`);

const network = (net: string) => `  role: spoke\n  sector: canary\n  groups: [base]\n  network:\n${net}`;

const cases: Case[] = [
  // 1. CRD before use
  { name: 'crd-order: a custom resource in the same wave as its OLM operator is an error naming both apps and the group', files: metallb(5), expect: [{ code: 'crd-order', message: /"config" at wave 5 applies metallb\.io \(IPAddressPool\) before "operator" \(wave 5\)/ }] },
  { name: 'crd-order: a custom resource in a later wave than its operator passes', files: metallb(6), expect: [], absent: ['crd-order'] },
  {
    name: 'crd-order: a CRD in an app\'s own manifests makes it the provider',
    files: baseFleet({
      ...group(app('crds', 'components/crds', '      wave: 10\n') + app('user', 'components/user', '      wave: 3\n')),
      'components/crds/kustomization.yaml': kustomization('crd.yaml'),
      'components/crds/crd.yaml': 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n',
      'components/user/kustomization.yaml': kustomization('w.yaml'),
      'components/user/w.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n',
    }),
    expect: [{ code: 'crd-order', message: /applies example\.com \(Widget\) before "crds" \(wave 10\)/ }],
  },
  {
    name: 'crd-order: provides: declares a provider; a top-level OperatorPolicy is one too',
    files: baseFleet({
      ...group(
        app('declared', 'components/operator', '      wave: 9\n      provides: [example.com]\n') +
          app('policy', 'components/policy', '      wave: 9\n') +
          app('user', 'components/user', '      wave: 2\n'),
      ),
      'components/operator/kustomization.yaml': 'resources: []\n',
      'components/policy/kustomization.yaml': kustomization('p.yaml'),
      'components/policy/p.yaml': 'apiVersion: policy.open-cluster-management.io/v1beta1\nkind: OperatorPolicy\nmetadata:\n  name: nmstate\nspec:\n  subscription:\n    name: kubernetes-nmstate-operator\n',
      'components/user/kustomization.yaml': kustomization('w.yaml'),
      'components/user/w.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n---\napiVersion: nmstate.io/v1\nkind: NMState\nmetadata:\n  name: nmstate\n',
    }),
    expect: [{ code: 'crd-order', message: /example\.com \(Widget\) before "declared"/ }, { code: 'crd-order', message: /nmstate\.io \(NMState\) before "policy"/ }],
  },
  {
    name: 'crd-order: platform APIs and APIs no app provides are never findings',
    files: baseFleet({
      ...group(app('user', 'components/user', '      wave: 1\n')),
      'components/user/kustomization.yaml': kustomization('r.yaml'),
      'components/user/r.yaml': 'apiVersion: route.openshift.io/v1\nkind: Route\nmetadata:\n  name: r\n---\napiVersion: config.openshift.io/v1\nkind: OAuth\nmetadata:\n  name: cluster\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n',
    }),
    expect: [],
    absent: ['crd-order'],
  },
  {
    name: 'crd-order: KubeDescheduler is the descheduler operator\'s, though operator.openshift.io is a platform group',
    files: baseFleet({
      ...group(app('operator', 'components/operator', '      wave: 5\n') + app('config', 'components/config', '      wave: 5\n')),
      'components/operator/kustomization.yaml': kustomization('s.yaml'),
      'components/operator/s.yaml': subscription('cluster-kube-descheduler-operator'),
      'components/config/kustomization.yaml': kustomization('d.yaml'),
      'components/config/d.yaml': 'apiVersion: operator.openshift.io/v1\nkind: KubeDescheduler\nmetadata:\n  name: cluster\n---\napiVersion: operator.openshift.io/v1\nkind: Console\nmetadata:\n  name: cluster\n',
    }),
    expect: [{ code: 'crd-order', message: /operator\.openshift\.io \(KubeDescheduler\) before "operator"/ }],
  },
  // 2. Waves that do not wait
  {
    name: 'waves-wait: ApplicationSets with sync waves between them are a warning',
    files: baseFleet({
      ...group(app('sets', 'components/sets', '      wave: 1\n')),
      'components/sets/kustomization.yaml': kustomization('a.yaml'),
      'components/sets/a.yaml': ['1', '2'].map((w) => `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: set-${w}\n  annotations:\n    argocd.argoproj.io/sync-wave: "${w}"\nspec:\n  generators: []\n  template:\n    metadata:\n      name: x\n    spec: {}\n`).join('---\n'),
    }),
    expect: [{ code: 'applicationset-waves', severity: 'warning', message: /orders the ApplicationSet object in app "[^"]+"'s sync, not the Applications it generates/ }],
  },
  {
    name: 'waves-wait: a sync wave in an ApplicationSet template is a warning unless RollingSync orders it',
    files: baseFleet({
      ...group(app('sets', 'components/sets', '      wave: 1\n') + app('rolling', 'components/rolling', '      wave: 1\n')),
      'components/sets/kustomization.yaml': kustomization('a.yaml'),
      'components/sets/a.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: per-cluster\nspec:\n  generators: []\n  template:\n    metadata:\n      name: x\n      annotations:\n        argocd.argoproj.io/sync-wave: "{{syncWave}}"\n    spec: {}\n',
      'components/rolling/kustomization.yaml': kustomization('a.yaml'),
      'components/rolling/a.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: rolling\nspec:\n  strategy:\n    type: RollingSync\n  generators: []\n  template:\n    metadata:\n      name: y\n      annotations:\n        argocd.argoproj.io/sync-wave: "1"\n    spec: {}\n',
    }),
    expect: [{ code: 'applicationset-waves', message: /"per-cluster" gives its Applications a sync wave/ }],
  },
  {
    name: 'waves-wait: in another layout, an ApplicationSet anywhere in the repository with template waves is a warning',
    files: baseFleet({
      'gitops-applications/spoke.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: spoke-applications\nspec:\n  generators:\n    - list:\n        elements:\n          - component: operators\n            syncWave: "2"\n  template:\n    metadata:\n      name: \'{{component}}\'\n      annotations:\n        argocd.argoproj.io/sync-wave: \'{{syncWave}}\'\n    spec: {}\n',
    }),
    mutate: (f) => { f.layout = 'region-specs'; f.capabilities = ARGOCD_REPOSITORY_CAPABILITIES; },
    expect: [{ code: 'applicationset-waves', file: 'gitops-applications/spoke.yaml', message: /"spoke-applications" gives its Applications a sync wave/ }],
  },
  {
    name: 'waves-wait: another layout\'s ArgoCD CR without the Application health check is an error',
    files: baseFleet({ '.bootstrap/argocd.yaml': 'apiVersion: argoproj.io/v1beta1\nkind: ArgoCD\nmetadata:\n  name: openshift-gitops\nspec:\n  resourceHealthChecks: []\n' }),
    mutate: (f) => { f.layout = 'gitops-standards'; f.capabilities = ARGOCD_REPOSITORY_CAPABILITIES; },
    expect: [{ code: 'no-application-health', file: '.bootstrap/argocd.yaml' }],
  },
  {
    name: 'waves-wait: another layout\'s ArgoCD CR with the Application health check passes',
    files: baseFleet({ '.bootstrap/argocd.yaml': 'apiVersion: argoproj.io/v1beta1\nkind: ArgoCD\nmetadata:\n  name: openshift-gitops\nspec:\n  resourceHealthChecks:\n    - group: argoproj.io\n      kind: Application\n      check: return {}\n' }),
    mutate: (f) => { f.layout = 'gitops-standards'; f.capabilities = ARGOCD_REPOSITORY_CAPABILITIES; },
    expect: [],
    absent: ['no-application-health'],
  },
  // 3. Graphs (helmfile + Flux layout)
  {
    name: 'graphs: helmfile needs naming a missing release, and a needs cycle, are errors',
    files: helmfileFlux('  - name: a\n    namespace: x\n    chart: oci://e/a\n    needs: [x/b]\n  - name: b\n    namespace: x\n    chart: oci://e/b\n    needs: [x/a]\n  - name: c\n    namespace: x\n    chart: oci://e/c\n    needs: [y/nope]\n'),
    expect: [
      { code: 'helmfile-unknown-need', message: /x\/c needs "y\/nope"/, file: 'bootstrap/helmfile/apps.yaml' },
      { code: 'helmfile-needs-cycle', message: /x\/a → x\/b → x\/a/ },
    ],
  },
  {
    name: 'graphs: a release hook applying an API whose chart it does not need is an error',
    files: {
      ...helmfileFlux('  - name: external-secrets\n    namespace: es\n    chart: oci://ghcr.io/external-secrets/charts/external-secrets\n  - name: store\n    namespace: es\n    chart: oci://e/store\n    hooks:\n      - command: kubectl\n        events: [postsync]\n        args: [apply, --filename=../../store.yaml]\n'),
      'store.yaml': 'apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata:\n  name: s\n',
    },
    expect: [{ code: 'helmfile-crd-order', message: /es\/store applies ClusterSecretStore .* does not need es\/external-secrets/ }],
  },
  {
    name: 'graphs: Flux dependsOn to a missing Kustomization, across namespaces, and in a cycle',
    files: helmfileFlux('  - name: a\n    namespace: x\n    chart: oci://e/a\n', {
      'kubernetes/apps/x/a/ks.yaml': ks('a', 'kubernetes/apps/x/a/app', '  dependsOn:\n    - name: b\n'),
      'kubernetes/apps/x/a/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
      'kubernetes/apps/x/b/ks.yaml': ks('b', 'kubernetes/apps/x/b/app', '  dependsOn:\n    - name: a\n    - name: c\n'),
      'kubernetes/apps/x/b/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
      'kubernetes/apps/y/c/ks.yaml': ks('c', 'kubernetes/apps/y/c/app'),
      'kubernetes/apps/y/c/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
      'kubernetes/apps/y/d/ks.yaml': ks('d', 'kubernetes/apps/y/d/app', '  dependsOn:\n    - name: a\n      namespace: x\n'),
      'kubernetes/apps/y/d/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n',
      'kubernetes/apps/y/e/ks.yaml': ks('e', 'kubernetes/apps/y/e/app', '  components:\n    - ../../../../components/present\n    - ../../../../components/absent\n'),
      'kubernetes/apps/y/e/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: e\n',
      'kubernetes/components/present/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n',
    }),
    expect: [
      { code: 'flux-missing-component', message: /"\.\.\/\.\.\/\.\.\/\.\.\/components\/absent" of Kustomization y\/e names kubernetes\/components\/absent/ },
      { code: 'flux-unknown-dependency', message: /x\/b depends on "x\/c".*/, file: 'kubernetes/apps/x/b/ks.yaml' },
      { code: 'flux-dependency-cycle', message: /x\/a → x\/b → x\/a/ },
    ],
    // y/d depends on x/a across namespaces: fine for a Flux that allows cross-namespace references (the default).
    absent: ['flux-cross-namespace-dependency'],
  },
  {
    name: 'graphs: a cross-namespace dependsOn is an error when the repository runs Flux with --no-cross-namespace-refs, naming where',
    files: helmfileFlux('  - name: a\n    namespace: x\n    chart: oci://e/a\n', {
      'kubernetes/apps/x/a/ks.yaml': ks('a', 'kubernetes/apps/x/a/app'),
      'kubernetes/apps/x/a/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
      'kubernetes/apps/y/d/ks.yaml': ks('d', 'kubernetes/apps/y/d/app', '  dependsOn:\n    - name: a\n      namespace: x\n'),
      'kubernetes/apps/y/d/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n',
      'kubernetes/apps/flux-system/flux-instance/app/instance.yaml': doc(`
apiVersion: fluxcd.controlplane.io/v1
kind: FluxInstance
metadata:
  name: flux
  namespace: flux-system
spec:
  kustomize:
    patches:
      - patch: |
          - op: add
            path: /spec/template/spec/containers/0/args/-
            value: --no-cross-namespace-refs=true
        target:
          kind: Deployment
`),
    }),
    expect: [
      { code: 'flux-cross-namespace-dependency', severity: 'error', message: /y\/d depends on x\/a in another namespace.*kubernetes\/apps\/flux-system\/flux-instance\/app\/instance\.yaml:\d+ sets --no-cross-namespace-refs/ },
    ],
  },
  {
    name: 'graphs: --no-cross-namespace-refs=false does not lock cross-namespace references',
    files: helmfileFlux('  - name: a\n    namespace: x\n    chart: oci://e/a\n', {
      'kubernetes/apps/x/a/ks.yaml': ks('a', 'kubernetes/apps/x/a/app'),
      'kubernetes/apps/x/a/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
      'kubernetes/apps/y/d/ks.yaml': ks('d', 'kubernetes/apps/y/d/app', '  dependsOn:\n    - name: a\n      namespace: x\n'),
      'kubernetes/apps/y/d/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n',
      'kubernetes/flux-args.yaml': 'args:\n  - --no-cross-namespace-refs=false\n',
    }),
    expect: [],
    absent: ['flux-cross-namespace-dependency'],
  },
  {
    name: 'graphs: a well-formed helmfile and Flux graph passes',
    files: helmfileFlux('  - name: a\n    namespace: x\n    chart: oci://e/a\n  - name: b\n    namespace: x\n    chart: oci://e/b\n    needs: [x/a]\n', {
      'kubernetes/apps/x/a/ks.yaml': ks('a', 'kubernetes/apps/x/a/app'),
      'kubernetes/apps/x/a/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
      'kubernetes/apps/x/b/ks.yaml': ks('b', 'kubernetes/apps/x/b/app', '  dependsOn:\n    - name: a\n'),
      'kubernetes/apps/x/b/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
    }),
    expect: [],
    absent: ['helmfile-unknown-need', 'helmfile-needs-cycle', 'flux-unknown-dependency', 'flux-dependency-cycle', 'flux-cross-namespace-dependency'],
  },
  // 4. Network across the fleet
  {
    name: 'network: overlapping CIDRs on one mesh, a duplicate cluster ID, a VIP outside the machine network and a shared VIP',
    files: baseFleet({
      ...cluster('two', network('    mesh: east\n    clusterID: "1"\n    podCIDR: 10.128.0.0/14\n    machineCIDR: 192.168.10.0/24\n    apiVIP: 192.168.10.5\n')),
      ...cluster('three', network('    mesh: east\n    clusterID: "1"\n    podCIDR: 10.130.0.0/16\n    machineCIDR: 192.168.20.0/24\n    apiVIP: 192.168.10.5\n    ingressVIP: 10.0.0.1\n')),
    }),
    expect: [
      { code: 'mesh-cidr-overlap', message: /podCIDR 10\.130\.0\.0\/16 of cluster (two|three) overlaps podCIDR 10\.128\.0\.0\/14 of cluster (two|three) on mesh east|podCIDR 10\.128\.0\.0\/14 of cluster (two|three) overlaps podCIDR 10\.130\.0\.0\/16 of cluster (two|three) on mesh east/ },
      { code: 'duplicate-cluster-id', message: /"1" of cluster two is also used by cluster three/ },
      { code: 'vip-outside-machine-network', message: /ingressVIP 10\.0\.0\.1 of cluster three is outside its machine network/ },
      { code: 'shared-vip', message: /apiVIP 192\.168\.10\.5 of cluster two is also the apiVIP of cluster three/ },
    ],
  },
  {
    name: 'network: disjoint networks pass; overlaps off a shared mesh are not findings; malformed CIDRs are',
    files: baseFleet({
      ...cluster('two', network('    mesh: east\n    podCIDR: 10.128.0.0/16\n    serviceCIDR: fd02::/112\n    machineCIDR: 192.168.10.0/24\n    apiVIP: 192.168.10.5\n')),
      ...cluster('three', network('    mesh: east\n    podCIDR: 10.129.0.0/16\n    serviceCIDR: fd03::/112\n    machineCIDR: 192.168.20.0/24\n')),
      ...cluster('four', network('    podCIDR: 10.128.0.0/16\n    machineCIDR: 192.168.300.0/24\n')),
    }),
    expect: [{ code: 'invalid-cidr', message: /machineCIDR "192\.168\.300\.0\/24" is not a CIDR/ }],
    absent: ['mesh-cidr-overlap', 'duplicate-cluster-id', 'shared-vip', 'vip-outside-machine-network'],
  },
  {
    name: 'network: provision networks count too: a spoke provisioned into another\'s machine network on one mesh overlaps',
    files: baseFleet({
      ...cluster('two', network('    mesh: lab\n    machineCIDR: 192.168.10.0/24\n')),
      ...cluster('three', '  role: spoke\n  sector: canary\n  network:\n    mesh: lab\n  provision:\n    installer: agent\n    networks:\n      machine: 192.168.10.128/25\n      apiVIPs: [192.168.10.200]\n'),
    }),
    expect: [{ code: 'mesh-cidr-overlap', message: /machineCIDR 192\.168\.10\.(0\/24|128\/25) of cluster (two|three) overlaps machineCIDR/ }],
  },
  // 5. Secrets
  {
    name: 'secrets: a Secret with data in Git is an error, a SOPS-encrypted one is not',
    files: baseFleet({
      'components/config/kustomization.yaml': kustomization('secret.yaml', 'sops.yaml'),
      'components/config/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n# the value\nstringData:\n  password: hunter2\n',
      'components/config/sops.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: sealed\ndata:\n  password: ENC[AES256_GCM,data:x]\nsops:\n  version: 3.8.1\n',
    }),
    expect: [{ code: 'secret-in-git', message: /Secret "creds" has stringData/, file: 'components/config/secret.yaml' }],
  },
  {
    name: 'secrets: placeholders filled at sync time and an Argo CD cluster Secret without credentials are not secrets in Git',
    files: baseFleet({
      // render --leaves substitutes ${API_TOKEN} strictly: the fleet defines it (else undefined-variable, ADR 0218).
      'fleet.yaml': baseFleet()['fleet.yaml']!.replace('DOMAIN: example.com', 'DOMAIN: example.com\n    API_TOKEN: from-the-pipeline'),
      'components/config/kustomization.yaml': kustomization('secrets.yaml'),
      'components/config/secrets.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\nstringData:\n  token: ${API_TOKEN}\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: spoke\n  labels:\n    argocd.argoproj.io/secret-type: cluster\nstringData:\n  name: spoke\n  server: https://api.spoke.example.com:6443\n',
    }),
    expect: [],
    absent: ['secret-in-git'],
  },
  {
    name: 'secrets: an Argo CD repository or repo-creds Secret naming a repository without credentials is not a secret in Git',
    files: baseFleet({
      'components/config/kustomization.yaml': kustomization('repos.yaml'),
      'components/config/repos.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: charts\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  name: charts\n  project: k3s\n  type: helm\n  url: ghcr.io/acme/helm-charts2024\n  enableOCI: "true"\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: org\n  labels:\n    argocd.argoproj.io/secret-type: repo-creds\nstringData:\n  type: git\n  url: https://github.com/acme\n',
    }),
    expect: [],
    absent: ['secret-in-git'],
  },
  {
    name: 'secrets: an Argo CD repository Secret with a password, or a password in its url, is a secret in Git',
    files: baseFleet({
      'components/config/kustomization.yaml': kustomization('repos.yaml'),
      'components/config/repos.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: private\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  type: git\n  url: https://github.com/acme/private\n  password: hunter2\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: inline\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  url: https://bot:hunter2@git.acme.example/platform.git\n',
    }),
    expect: [
      { code: 'secret-in-git', message: /Secret "private" has stringData/, file: 'components/config/repos.yaml' },
      { code: 'secret-in-git', message: /Secret "inline" has stringData/, file: 'components/config/repos.yaml' },
    ],
  },
  {
    name: 'secrets: a value whose variable parts are filled at sync time and whose literal text is not secret-looking is not a secret in Git',
    files: baseFleet({
      'components/config/kustomization.yaml': kustomization('secrets.yaml'),
      // The volsync shape: repository URL and bucket path around the variables.
      'components/config/secrets.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: restic\nstringData:\n  RESTIC_REPOSITORY: s3:https://s3.${DOMAIN}/volsync/web\n  RESTIC_PASSWORD: "${DOMAIN}"\n  AWS_ENDPOINT: "https://${DOMAIN}:9000/"\n  DSN: postgres://${DOMAIN}:${DOMAIN}@db/app\n',
    }),
    expect: [],
    absent: ['secret-in-git'],
  },
  {
    name: 'secrets: a value that mixes a variable with a literal credential is still a secret in Git',
    files: baseFleet({
      'components/config/kustomization.yaml': kustomization('secrets.yaml', 'url.yaml'),
      'components/config/secrets.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\nstringData:\n  auth: ${DOMAIN}:Zx9kQ2mP7vL4rT8wY3nB6cD1\n',
      'components/config/url.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: dsn\nstringData:\n  url: postgres://app:hunter2@db.${DOMAIN}/app\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: dsn2\nstringData:\n  url: mysql://${DOMAIN}:hunter2@db/app\n',
    }),
    expect: [
      { code: 'secret-in-git', message: /Secret "token" has stringData/, file: 'components/config/secrets.yaml' },
      { code: 'secret-in-git', message: /Secret "dsn" has stringData/, file: 'components/config/url.yaml' },
      { code: 'secret-in-git', message: /Secret "dsn2" has stringData/, file: 'components/config/url.yaml' },
    ],
  },
  {
    name: 'secrets: an ExternalSecret pointing at a store no app defines is an error; one at a defined store passes',
    files: baseFleet({
      'components/operator/kustomization.yaml': kustomization('store.yaml'),
      'components/operator/store.yaml': 'apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata:\n  name: vault\nspec: {}\n',
      'components/config/kustomization.yaml': kustomization('es.yaml'),
      'components/config/es.yaml': ['vault', 'vualt'].map((s) => `apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata:\n  name: es-${s}\nspec:\n  secretStoreRef:\n    kind: ClusterSecretStore\n    name: ${s}\n`).join('---\n'),
    }),
    expect: [{ code: 'unknown-secret-store', message: /"es-vualt" .* uses ClusterSecretStore "vualt"/ }],
  },
  // 6. Placement
  {
    name: 'placement: storage apps outside infra clusters, and a spoke whose hub lacks the bootstrap policy, are errors',
    files: baseFleet({
      'fleet.yaml': baseFleet()['fleet.yaml']! + '  validation:\n    placement:\n      - name: storage-on-infra\n        apps: ["rook-*", "openebs*"]\n        allowedOn: { roles: [infra] }\n      - name: gitops-bootstrap\n        apps: [gitops-bootstrap-policy]\n        requiredOn: { roles: [spoke] }\n        from: hub\n',
      ...group(app('rook-ceph', 'components/operator')),
      ...cluster('two', '  role: spoke\n  hub: one\n  sector: canary\n'),
    }),
    expect: [
      { code: 'placement-not-allowed', message: /"rook-ceph" runs on cluster one \(role hub\), but placement policy "storage-on-infra" allows it only on role infra/ },
      { code: 'placement-missing', message: /cluster two gets no app matching gitops-bootstrap-policy from its hub one/ },
    ],
  },
  {
    name: 'placement: apps where their policies allow and require them pass',
    files: baseFleet({
      'fleet.yaml': baseFleet()['fleet.yaml']! + '  validation:\n    placement:\n      - name: storage-on-infra\n        apps: ["rook-*"]\n        allowedOn: { roles: [infra] }\n      - name: gitops-bootstrap\n        apps: [gitops-bootstrap-policy]\n        requiredOn: { roles: [spoke] }\n        from: hub\n',
      ...cluster('one', '  role: hub\n  sector: canary\n  apps:\n    gitops-bootstrap-policy:\n      path: components/operator\n'),
      ...cluster('two', '  role: spoke\n  hub: one\n  sector: canary\n'),
      ...cluster('store', '  role: infra\n  sector: canary\n  apps:\n    rook-ceph:\n      path: components/operator\n'),
    }),
    expect: [],
    absent: ['placement-not-allowed', 'placement-missing'],
  },
  // 7. Production safety
  {
    name: 'production-safety: a production sector tracking a branch is an error',
    files: baseFleet({
      'fleet.yaml': baseFleet()['fleet.yaml']!.replace('      revision: 0123456789abcdef0123456789abcdef01234567\n', ''),
      ...cluster('two', '  role: spoke\n  sector: production\n  groups: [base]\n'),
    }),
    expect: [{ code: 'unpinned-protected-sector', message: /protected sector "production" tracks "main" \(the fleet revision\)/, file: 'fleet.yaml' }],
  },
  {
    name: 'production-safety: a pinned production sector passes, and an app overriding the pin is an error',
    files: baseFleet({
      ...cluster('two', '  role: spoke\n  sector: production\n  groups: [base]\n  apps:\n    config:\n      targetRevision: main\n'),
    }),
    expect: [{ code: 'unpinned-protected-sector', message: /app "config" on cluster two \(protected sector production\) tracks "main"/, file: 'clusters/two/cluster.yaml' }],
  },
  {
    name: 'production-safety: two apps applying one object with the same content is a warning naming both',
    files: baseFleet({
      'components/operator/kustomization.yaml': kustomization('cm.yaml'),
      'components/operator/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n',
      'components/config/kustomization.yaml': kustomization('../operator/cm.yaml'),
    }),
    expect: [{ code: 'shared-object-identical', severity: 'warning', message: /ConfigMap op\/settings \(components\/operator\/cm\.yaml:1\) is applied with the same content by 2 apps: "config" .*"operator"/ }],
  },
  {
    name: 'production-safety: two apps applying one object with different content is an error',
    files: baseFleet({
      'components/operator/kustomization.yaml': kustomization('cm.yaml'),
      'components/operator/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n',
      'components/config/kustomization.yaml': kustomization('cm.yaml'),
      'components/config/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "2"\n',
    }),
    expect: [{ code: 'shared-object', severity: 'error', message: /ConfigMap op\/settings is applied with different content by 2 apps/, hint: /data\.a \("2" in "config", "1" in "operator"\)/ }],
  },
  {
    name: 'production-safety: the same name in two namespaces is two objects',
    files: baseFleet({
      'components/operator/kustomization.yaml': kustomization('cm.yaml'),
      'components/operator/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: a\n',
      'components/config/kustomization.yaml': 'namespace: b\n' + kustomization('../operator/cm.yaml'),
    }),
    expect: [],
    absent: ['shared-object'],
  },
  // 8. Repository hygiene
  {
    name: 'repository-hygiene: an app directory with nothing to apply is an error, and a dangling path hints at the nearby directory',
    files: baseFleet({
      'components/config/kustomization.yaml': undefined as unknown as string,
      'components/config/README.md': 'nothing to apply\n',
      ...group(app('operator', 'components/operator') + app('config', 'components/config') + app('moved', 'clusters/one/overlays/extra')),
      'clusters/one/extra/kustomization.yaml': 'resources: []\n',
    }),
    expect: [
      { code: 'empty-source', message: /app "config" path "components\/config" has no kustomization, chart or YAML files/ },
      { code: 'missing-path', message: /clusters\/one\/overlays\/extra/, hint: /there is a directory clusters\/one\/extra/ },
    ],
  },
  {
    name: 'repository-hygiene: an Application manifest named like a generated app in the Argo CD namespace is a duplicate',
    files: baseFleet({
      'components/config/kustomization.yaml': kustomization('app.yaml'),
      'components/config/app.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: operator\n  namespace: openshift-gitops\nspec: {}\n',
    }),
    expect: [{ code: 'duplicate-app', message: /Application "operator" in openshift-gitops on cluster one has the name of app "operator"/ }],
  },
  {
    name: 'repository-hygiene: plain YAML directories and charts are sources',
    files: baseFleet({
      'components/operator/kustomization.yaml': undefined as unknown as string,
      'components/operator/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
      'components/config/kustomization.yaml': undefined as unknown as string,
      'components/config/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
    }),
    expect: [],
    absent: ['empty-source', 'missing-path'],
  },
  {
    name: 'repository-hygiene: with the config-management plugin, plain YAML and bare charts need a kustomization',
    files: baseFleet({
      'fleet.yaml': baseFleet()['fleet.yaml']! + '  gitops:\n    plugin:\n      image: quay.io/example/fleetplan:1\n',
      'components/operator/kustomization.yaml': undefined as unknown as string,
      'components/operator/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
      'components/config/kustomization.yaml': undefined as unknown as string,
      'components/config/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
    }),
    expect: [
      { code: 'plugin-needs-kustomization', message: /app "operator" path "components\/operator" holds plain YAML/, hint: /components\/operator\/kustomization.yaml/ },
      { code: 'plugin-needs-kustomization', message: /app "config" path "components\/config" is a Helm chart/, hint: /helm:/ },
    ],
  },
  {
    name: 'repository-hygiene: with the plugin, kustomize directories and charts rendered by Helm are fine',
    files: baseFleet({
      'fleet.yaml': baseFleet()['fleet.yaml']! + '  gitops:\n    plugin:\n      image: quay.io/example/fleetplan:1\n',
      'groups/base/group.yaml': baseFleet()['groups/base/group.yaml']!.replace('      needs: [operator]\n', '      needs: [operator]\n      helm:\n        values:\n          a: 1\n'),
      'components/config/kustomization.yaml': undefined as unknown as string,
      'components/config/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
    }),
    expect: [],
    absent: ['plugin-needs-kustomization', 'schema', 'empty-source'],
  },
  // Settings
  {
    name: 'settings: a rule turned off reports nothing, a severity override applies, an unknown code is a warning',
    files: metallb(5, {
      'fleet.yaml': baseFleet()['fleet.yaml']! + '  validation:\n    rules:\n      crd-order: warning\n      secret-in-git: off\n      no-such-rule: error\n',
      'components/config/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  k: dg==\n',
      'components/config/kustomization.yaml': kustomization('pool.yaml', 'secret.yaml'),
    }),
    expect: [{ code: 'crd-order', severity: 'warning' }, { code: 'unknown-rule-code', severity: 'warning', message: /"no-such-rule"/ }],
    absent: ['secret-in-git'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const files = Object.fromEntries(Object.entries(c.files).filter(([, v]) => v !== undefined));
    const findings = validate(files, c.mutate);
    const show = findings.map((f) => `${f.severity} ${f.code} ${f.file ?? ''}:${f.line ?? ''} ${f.message}`).join('\n');
    for (const e of c.expect) {
      const hit = findings.find((f) => f.code === e.code && (!e.message || e.message.test(f.message)) && (!e.file || f.file === e.file) && (!e.severity || f.severity === e.severity) && (!e.hint || e.hint.test(f.hint ?? '')));
      assert.ok(hit, `expected ${e.code} ${e.message ?? ''} in:\n${show}`);
      assert.ok(hit.hint, `${e.code} has a hint`);
    }
    for (const code of c.absent ?? []) assert.ok(!findings.some((f) => f.code === code), `unexpected ${code} in:\n${show}`);
    if (c.expect.length === 0) assert.deepEqual(findings.filter((f) => f.severity === 'error'), [], show);
  });
}
