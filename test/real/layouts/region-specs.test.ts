/**
 * The region-spec layout of seed 000 (openshift-online/bootstrap-hyperfleet): detection, the
 * mapping of each region.yaml to a provisioned spoke, and the generated objects compared object
 * by object with what `kustomize build clusters/<name>` gives from the repository's committed
 * output. Every difference is listed below with the reason it is kept; anything else fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../../src/index.js';
import { writeTree as writeOut } from '../../../src/adapters/output.js';
import { planFleet } from '../../../src/order/plan.js';
import { renderFleet } from '../../../src/render/fleet.js';
import { cli, removeTree } from '../../support/fleet-fixture.js';
import { tempDir } from '../../helpers/tools.js';
import type { Difference } from '../../support/provision.js';
import { decodeYamlSecret, diffObjectSets, kustomizeBuild } from '../../support/provision.js';
import { realRepo } from '../../support/shared.js';
import { resolveFleet } from '../../../src/layering/resolve-fleet.js';

/** The real repository (resolved inside each test). */
const repo = () => realRepo('openshift-online__bootstrap-hyperfleet');
const OCP = 'ocp-01-mturansk-jul29';
const EKS = 'eks-01-mturansk-jul30';

interface Justified extends Difference {
  why: string;
}

const DEFECT = 'defect of the committed output (SOURCE.md):';

/** Every difference between fleetplan's objects and the repository's, with its justification. */
const expectedDifferences: Record<string, Justified[]> = {
  [OCP]: [
    {
      object: `cluster.open-cluster-management.io/ManagedCluster/${OCP}`,
      path: '/metadata/namespace',
      ours: undefined,
      theirs: OCP,
      why: `${DEFECT} the patch replaces /metadata/namespace, which the base ManagedCluster lacks; kustomize 5 adds it (so does /metadata/labels/region, which is why the region label is no difference), but ManagedCluster is cluster-scoped; fleetplan writes none (validate: patch-path-missing and namespace-on-cluster-scoped)`,
    },
    {
      object: `cluster.open-cluster-management.io/Placement/${OCP}`,
      path: '/',
      ours: 'present',
      theirs: 'absent',
      why: 'ACM–GitOps hand-off: fleetplan places the spoke\'s root-application policy on it; the repository points ApplicationSets at the spoke API URL instead',
    },
    {
      object: `hive.openshift.io/ClusterDeployment/${OCP}`,
      path: '/spec/provisioning/imageSetRef/name',
      ours: 'img4.15.0-multi-appsub',
      theirs: 'img4.19.0-multi-appsub',
      why: `${DEFECT} the base's image set (4.19) is never patched, so the cluster would not get the 4.15 the region spec asks for`,
    },
    {
      object: `hive.openshift.io/MachinePool/${OCP}-worker`,
      path: '/spec/platform/aws/type',
      ours: 'm5.2xlarge',
      theirs: 't3a.xlarge',
      why: `${DEFECT} the base MachinePool's instance type is never patched; the region spec (and the install-config) say m5.2xlarge`,
    },
    {
      object: `policy.open-cluster-management.io/PlacementBinding/${OCP}-gitops-root`,
      path: '/',
      ours: 'present',
      theirs: 'absent',
      why: 'ACM–GitOps hand-off (binds the root-application policy to the spoke\'s Placement)',
    },
    {
      object: `policy.open-cluster-management.io/Policy/${OCP}-gitops-root`,
      path: '/',
      ours: 'present',
      theirs: 'absent',
      why: 'ACM–GitOps hand-off: creates the spoke\'s Argo CD and root Application once the GitOps operator policy is compliant',
    },
  ],
  [EKS]: [
    {
      object: `agent.open-cluster-management.io/KlusterletAddonConfig/${EKS}`,
      path: '/spec/clusterLabels/region',
      ours: 'us-west-2',
      theirs: undefined,
      why: 'consistency: every provisioned cluster carries its region label (the ocp output has it; the eks output leaves it out)',
    },
    {
      object: `cluster.open-cluster-management.io/ManagedCluster/${EKS}`,
      path: '/metadata/labels/cluster.open-cluster-management.io/clusterset',
      ours: 'default',
      theirs: undefined,
      why: 'consistency: without the cluster-set label the EKS cluster is in no ManagedClusterSet, so no Placement can select it (the ocp output has it)',
    },
    {
      object: `cluster.open-cluster-management.io/ManagedCluster/${EKS}`,
      path: '/metadata/namespace',
      ours: undefined,
      theirs: EKS,
      why: `${DEFECT} ManagedCluster is cluster-scoped`,
    },
    {
      object: `cluster.x-k8s.io/MachinePool/${EKS}`,
      path: '/spec/template/spec/version',
      ours: 'v1.28',
      theirs: 1.28,
      why: `${DEFECT} an unquoted YAML number where the CRD wants a string (and Cluster API a leading v)`,
    },
    {
      object: `controlplane.cluster.x-k8s.io/AWSManagedControlPlane/${EKS}`,
      path: '/spec/baseDomain',
      ours: undefined,
      theirs: 'rosa.mturansk-test.csu2.i3.devshift.org',
      why: `${DEFECT} not a field of AWSManagedControlPlane v1beta2; the API server prunes it`,
    },
    {
      object: `controlplane.cluster.x-k8s.io/AWSManagedControlPlane/${EKS}`,
      path: '/spec/logging',
      ours: undefined,
      theirs: { enable: false },
      why: `${DEFECT} logging has no "enable" (it takes five required booleans); the object is rejected as written. Omitted: logging stays off`,
    },
    {
      object: `controlplane.cluster.x-k8s.io/AWSManagedControlPlane/${EKS}`,
      path: '/spec/vpc',
      ours: undefined,
      theirs: { availabilityZoneSelection: 'Ordered', availabilityZoneUsageLimit: 2 },
      why: `${DEFECT} v1beta2 has these under spec.network.vpc; at spec.vpc they are pruned and CAPA's defaults apply, as they do for fleetplan's object`,
    },
    {
      object: `core/ServiceAccount/cluster-provisioner`,
      path: '/',
      ours: 'absent',
      theirs: 'present',
      why: 'part of the Tekton ACM-import workaround (sleep loops, tools fetched at run time); fleetplan\'s plan waits on the ManagedCluster condition instead (waitsFor)',
    },
    {
      object: 'external-secrets.io/ExternalSecret/pull-secret',
      path: '/spec/target/template',
      ours: { type: 'kubernetes.io/dockerconfigjson' },
      theirs: undefined,
      why: 'the Secret type belongs under target.template (as in the ocp output)',
    },
    {
      object: 'external-secrets.io/ExternalSecret/pull-secret',
      path: '/spec/target/type',
      ours: undefined,
      theirs: 'kubernetes.io/dockerconfigjson',
      why: `${DEFECT} ExternalSecretTarget has no "type"; the Secret would be Opaque`,
    },
    {
      object: `infrastructure.cluster.x-k8s.io/AWSManagedMachinePool/${EKS}`,
      path: '/spec/scaling/desiredSize',
      ours: undefined,
      theirs: 2,
      why: `${DEFECT} scaling has only minSize and maxSize; the size is the MachinePool's replicas (2 in both)`,
    },
    {
      object: `rbac.authorization.k8s.io/ClusterRole/cluster-provisioner-${EKS}`,
      path: '/',
      ours: 'absent',
      theirs: 'present',
      why: 'Tekton ACM-import workaround (see ServiceAccount)',
    },
    {
      object: `rbac.authorization.k8s.io/ClusterRoleBinding/cluster-provisioner-${EKS}`,
      path: '/',
      ours: 'absent',
      theirs: 'present',
      why: 'Tekton ACM-import workaround (see ServiceAccount)',
    },
    {
      object: `tekton.dev/PipelineRun/${EKS}-acm-integration`,
      path: '/',
      ours: 'absent',
      theirs: 'present',
      why: 'Tekton ACM-import workaround (see ServiceAccount)',
    },
    {
      object: `tekton.dev/Task/eks-acm-integration-${EKS}`,
      path: '/',
      ours: 'absent',
      theirs: 'present',
      why: 'Tekton ACM-import workaround (see ServiceAccount)',
    },
  ],
};

function renderHub(): string {
  const { fleet } = loadFleet(repo());
  const out = tempDir('hyperfleet');
  writeOut(out, renderFleet(resolveFleet(fleet, { clusters: ['hub'] })).files, []);
  return out;
}

test('the region-spec layout is detected and each region spec becomes a provisioned spoke of the hub', () => {
  const { fleet, findings } = loadFleet(repo());
  assert.equal(fleet.layout, 'region-specs');
  assert.deepEqual(findings, []);
  assert.deepEqual(fleet.clusters.map((c) => [c.name, c.spec.role, c.spec.hub ?? null, c.spec.provision?.installer ?? null]), [
    ['hub', 'hub', null, null],
    [EKS, 'spoke', 'hub', 'capi-eks'],
    [OCP, 'spoke', 'hub', 'hive-aws'],
  ]);
  const ocp = fleet.clusters.find((c) => c.name === OCP)!.spec.provision!;
  assert.equal(ocp.version, '4.15');
  assert.equal(ocp.channel, 'stable');
  assert.equal(ocp.baseDomain, 'rosa.mturansk-test.csu2.i3.devshift.org');
  assert.equal(ocp.wave, 1, 'the ApplicationSet puts the cluster element at sync wave 1');
  const plan = planFleet(resolveFleet(fleet));
  const hub = plan.clusters.find((c) => c.name === 'hub')!;
  assert.deepEqual(hub.provisions, [EKS, OCP]);
  for (const name of [EKS, OCP]) {
    const app = hub.apps.find((a) => a.name === name)!;
    assert.equal(app.source.path, `rendered/hub/provision/${name}`);
    assert.equal(app.wave, 1);
    assert.equal(plan.clusters.find((c) => c.name === name)!.waitsFor?.[0]?.description, `ManagedCluster ${name} Available on hub`);
  }
  assert.equal(fleet.repoURL, 'https://github.com/openshift-online/bootstrap');
});

for (const name of [OCP, EKS]) {
  test(`${name}: the generated objects equal kustomize build of the committed output, but for the listed differences`, () => {
    const out = renderHub();
    try {
      const ours = kustomizeBuild(`${out}/hub/provision/${name}`).map(decodeYamlSecret);
      const theirs = kustomizeBuild(`${repo()}/clusters/${name}`).map(decodeYamlSecret);
      const expected = expectedDifferences[name]!;
      for (const d of expected) assert.ok(d.why.length > 20, `difference ${d.object} ${d.path} is justified`);
      const strip = (d: Difference) => JSON.parse(JSON.stringify({ object: d.object, path: d.path, ours: d.ours, theirs: d.theirs })) as unknown;
      assert.deepEqual(diffObjectSets(ours, theirs).map(strip), expected.map(strip));
      // Objects on both sides: everything else is equal, field by field.
      assert.ok(ours.length >= 8 && theirs.length >= 8);
    } finally {
      removeTree(out);
    }
  });
}

test('validate reports the known defects of the committed gitops-applications: prune under syncPolicy, kustomizations without apiVersion', async () => {
  const r = await cli(['validate', '--repo', repo(), '-o', 'json']);
  assert.equal(r.code, 1);
  const found = (JSON.parse(r.stdout) as { findings: { severity: string; code: string; file: string; line?: number; path?: string; hint?: string }[] }).findings;
  assert.deepEqual(found.map((f) => `${f.severity} ${f.code} ${f.file}:${f.line ?? ''} ${f.path ?? ''}`.trimEnd()), [    // SOURCE.md: the ocp patches replace /metadata/namespace and /metadata/labels/region on the cluster-scoped
    // ManagedCluster, which has neither (kustomize 5 adds them); the EKS ManagedCluster is written with a namespace.
    'warning namespace-on-cluster-scoped clusters/eks-01-mturansk-jul30/managedcluster.yaml:5 metadata.namespace',
    'warning namespace-on-cluster-scoped clusters/ocp-01-mturansk-jul29/kustomization.yaml:42 patches[1].patch[0]',
    'warning patch-path-missing clusters/ocp-01-mturansk-jul29/kustomization.yaml:42 patches[1].patch[0]',
    'warning patch-path-missing clusters/ocp-01-mturansk-jul29/kustomization.yaml:51 patches[1].patch[3]',
    // Argo CD does not order the Applications of one ApplicationSet by their sync-wave annotations (argo-cd #12444).
    // SOURCE.md: spoke destinations use a server URL that exists only after provisioning and registration.
    // The per-cluster operators/, pipelines/, deployments/ trees are not copied (SOURCE.md): missing paths.
    // SOURCE.md: the ApplicationSet template and global Applications put prune directly under syncPolicy.
    'warning applicationset-waves gitops-applications/eks-01-mturansk-jul30.yaml:6',
    'error missing-path gitops-applications/eks-01-mturansk-jul30.yaml:15 spec.generators[0].list.elements[1].path',
    'warning destination-before-registration gitops-applications/eks-01-mturansk-jul30.yaml:16 spec.generators[0].list.elements[1].destination',
    'error missing-path gitops-applications/eks-01-mturansk-jul30.yaml:19 spec.generators[0].list.elements[2].path',
    'warning destination-before-registration gitops-applications/eks-01-mturansk-jul30.yaml:20 spec.generators[0].list.elements[2].destination',
    'error missing-path gitops-applications/eks-01-mturansk-jul30.yaml:23 spec.generators[0].list.elements[3].path',
    'warning destination-before-registration gitops-applications/eks-01-mturansk-jul30.yaml:24 spec.generators[0].list.elements[3].destination',
    'error missing-path gitops-applications/eks-01-mturansk-jul30.yaml:27 spec.generators[0].list.elements[4].path',
    'warning destination-before-registration gitops-applications/eks-01-mturansk-jul30.yaml:28 spec.generators[0].list.elements[4].destination',
    'error argocd-unknown-field gitops-applications/eks-01-mturansk-jul30.yaml:48 spec.template.spec.syncPolicy.prune',
    // The global Applications' paths (the partial copy leaves those trees out).
    'error missing-path gitops-applications/global/acm-gitops-integration.application.yaml:11 spec.source.path',
    'error argocd-unknown-field gitops-applications/global/acm-gitops-integration.application.yaml:18 spec.syncPolicy.prune',
    'error missing-path gitops-applications/global/advanced-cluster-management.application.yaml:11 spec.source.path',
    'error argocd-unknown-field gitops-applications/global/advanced-cluster-management.application.yaml:18 spec.syncPolicy.prune',
    // Its repoURL ends in .git, unlike the others': the same repository to Argo CD (ADR 0287).
    'error missing-path gitops-applications/global/cluster-provisioning-metrics.application.yaml:17 spec.source.path',
    'error missing-path gitops-applications/global/gitea.application.yaml:12 spec.source.path',
    // SOURCE.md: gitops-applications/kustomization.yaml and global/kustomization.yaml have no apiVersion.
    'warning kustomization-missing-header gitops-applications/global/kustomization.yaml:1',
    'error missing-path gitops-applications/global/openshift-pipelines-operator.application.yaml:11 spec.source.path',
    'error argocd-unknown-field gitops-applications/global/openshift-pipelines-operator.application.yaml:19 spec.syncPolicy.prune',
    'warning kustomization-missing-header gitops-applications/kustomization.yaml:1',
    'warning applicationset-waves gitops-applications/ocp-01-mturansk-jul29.yaml:6',
    'error missing-path gitops-applications/ocp-01-mturansk-jul29.yaml:15 spec.generators[0].list.elements[1].path',
    'warning destination-before-registration gitops-applications/ocp-01-mturansk-jul29.yaml:16 spec.generators[0].list.elements[1].destination',
    'error missing-path gitops-applications/ocp-01-mturansk-jul29.yaml:19 spec.generators[0].list.elements[2].path',
    'warning destination-before-registration gitops-applications/ocp-01-mturansk-jul29.yaml:20 spec.generators[0].list.elements[2].destination',
    'error missing-path gitops-applications/ocp-01-mturansk-jul29.yaml:23 spec.generators[0].list.elements[3].path',
    'warning destination-before-registration gitops-applications/ocp-01-mturansk-jul29.yaml:24 spec.generators[0].list.elements[3].destination',
    'error missing-path gitops-applications/ocp-01-mturansk-jul29.yaml:27 spec.generators[0].list.elements[4].path',
    'warning destination-before-registration gitops-applications/ocp-01-mturansk-jul29.yaml:28 spec.generators[0].list.elements[4].destination',
    'error argocd-unknown-field gitops-applications/ocp-01-mturansk-jul29.yaml:48 spec.template.spec.syncPolicy.prune',
  ]);
  for (const f of found.filter((x) => x.code === 'argocd-unknown-field')) assert.match(f.hint ?? '', /prune is a field of syncPolicy\.automated/);
});

test('the install-config Secret comes from a secret generator over a file without credentials', () => {
  const out = renderHub();
  try {
    const ours = kustomizeBuild(`${out}/hub/provision/${OCP}`);
    const secret = ours.find((o) => o.kind === 'Secret')!;
    assert.equal(secret.metadata.name, 'install-config');
    const config = decodeYamlSecret(secret).data as Record<string, Record<string, unknown>>;
    assert.equal(config['install-config.yaml']!.pullSecret, '');
    assert.equal(ours.filter((o) => o.kind === 'ExternalSecret').length, 2);
  } finally {
    removeTree(out);
  }
});

test('validate on the region-spec repository reports its known defects at their file and line, and nothing else', async () => {
  const r = await cli(['validate', '--repo', repo(), '-o', 'json']);
  assert.equal(r.code, 1);
  const { findings } = JSON.parse(r.stdout) as { findings: { severity: string; code: string; file: string; line?: number; path?: string; message: string }[] };
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.code] = (counts[f.code] ?? 0) + 1;
  assert.deepEqual(counts, {
    'applicationset-waves': 2,
    'argocd-unknown-field': 5,
    'destination-before-registration': 8,
    'kustomization-missing-header': 2,
    'missing-path': 13,
    'namespace-on-cluster-scoped': 2,
    'patch-path-missing': 2,
  });
  const where = (code: string) => findings.filter((f) => f.code === code).map((f) => `${f.severity} ${f.file}:${f.line ?? '-'} ${f.path ?? ''}`);
  // SOURCE.md: the ocp patches replace /metadata/namespace and /metadata/labels/region on the base
  // ManagedCluster, which has neither (kustomize 5 adds them), and ManagedCluster is cluster-scoped.
  const K = `clusters/${OCP}/kustomization.yaml`;
  assert.deepEqual(where('patch-path-missing'), [`warning ${K}:42 patches[1].patch[0]`, `warning ${K}:51 patches[1].patch[3]`]);
  assert.deepEqual(where('namespace-on-cluster-scoped'), [
    `warning clusters/${EKS}/managedcluster.yaml:5 metadata.namespace`,
    `warning ${K}:42 patches[1].patch[0]`,
  ]);
  const replace = findings.find((f) => f.code === 'patch-path-missing' && f.line === 51)!;
  assert.match(replace.message, /replace \/metadata\/labels\/region on ManagedCluster .* it has no \/metadata\/labels\/region\. kustomize 5 adds the field/);
  // SOURCE.md: spoke destinations use a server that exists only after the cluster is provisioned and
  // registered (ocp: the API URL; eks: the bare cluster name in destination.server).
  const lines = [16, 20, 24, 28];
  assert.deepEqual(where('destination-before-registration'), [
    ...lines.map((l, i) => `warning gitops-applications/${EKS}.yaml:${l} spec.generators[0].list.elements[${i + 1}].destination`),
    ...lines.map((l, i) => `warning gitops-applications/${OCP}.yaml:${l} spec.generators[0].list.elements[${i + 1}].destination`),
  ]);
  const dest = findings.find((f) => f.code === 'destination-before-registration' && f.file.includes(OCP))!;
  assert.match(dest.message, new RegExp(`destination https://api\\.${OCP}\\.rosa\\.mturansk-test\\.csu2\\.i3\\.devshift\\.org:6443, the API server of ${OCP}`));
  assert.match(dest.message, new RegExp(`Application "${OCP}-cluster" \\(clusters/${OCP}\\) creates it`));
  // The hub's global Applications and the spokes' list elements name paths this copy leaves out: each
  // is reported at the line that writes the path.
  assert.deepEqual(where('missing-path').slice(0, 4).concat(where('missing-path').slice(9)), [
    `error gitops-applications/${EKS}.yaml:15 spec.generators[0].list.elements[1].path`,
    `error gitops-applications/${EKS}.yaml:19 spec.generators[0].list.elements[2].path`,
    `error gitops-applications/${EKS}.yaml:23 spec.generators[0].list.elements[3].path`,
    `error gitops-applications/${EKS}.yaml:27 spec.generators[0].list.elements[4].path`,
    `error gitops-applications/${OCP}.yaml:15 spec.generators[0].list.elements[1].path`,
    `error gitops-applications/${OCP}.yaml:19 spec.generators[0].list.elements[2].path`,
    `error gitops-applications/${OCP}.yaml:23 spec.generators[0].list.elements[3].path`,
    `error gitops-applications/${OCP}.yaml:27 spec.generators[0].list.elements[4].path`,
  ]);
  assert.deepEqual(where('missing-path').slice(4, 9), [
    'error gitops-applications/global/acm-gitops-integration.application.yaml:11 spec.source.path',
    'error gitops-applications/global/advanced-cluster-management.application.yaml:11 spec.source.path',
    'error gitops-applications/global/cluster-provisioning-metrics.application.yaml:17 spec.source.path',
    'error gitops-applications/global/gitea.application.yaml:12 spec.source.path',
    'error gitops-applications/global/openshift-pipelines-operator.application.yaml:11 spec.source.path',
  ]);
});

test('a spoke\'s apps sent to its own API URL are delivered by its own Argo CD to the in-cluster destination, with a plan note', async () => {
  const r = await cli(['render', '--repo', repo(), '--cluster', OCP, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const text = r.stdout;
  assert.doesNotMatch(text, /"server": "https:\/\/api\./);
  const plan = await cli(['plan', '--repo', repo(), '--cluster', OCP]);
  assert.match(plan.stdout, /note: the ApplicationSet on the hub sends operators, .* to https:\/\/api\.ocp-01-mturansk-jul29\.[^ ]*:6443; fleetplan delivers them through ocp-01-mturansk-jul29's own Argo CD, where that server is the in-cluster destination/);
});
