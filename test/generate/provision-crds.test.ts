/**
 * Every object fleetplan generates for provisioning validates against the upstream CRD schema of
 * its kind (../shared/crds, the served version fleetplan writes), strictly: a field the CRD does
 * not know fails (the API server would prune it). Built-in kinds are checked for apiVersion,
 * kind and metadata only. Objects nested in policies are checked too when their CRD is known.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { loadFleet } from '../../src/index.js';
import { writeTree as writeOut } from '../../src/adapters/output.js';
import { renderFleet } from '../../src/render/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { validateSchema } from '../../src/load/json-schema.js';
import type { JsonSchema } from '../../src/load/json-schema.js';
import { removeTree } from '../support/fleet-fixture.js';
import { tempDir } from '../helpers/tools.js';
import type { Obj } from '../support/provision.js';
import { group, kustomizeBuild, loadCrdSchemas } from '../support/provision.js';

/** Kubernetes and OpenShift built-in kinds: no CRD to check against. */
const BUILTIN = new Set(['v1/Namespace', 'v1/Secret', 'rbac.authorization.k8s.io/v1/ClusterRoleBinding', 'v1/ConfigMap', 'config.openshift.io/v1/ClusterVersion']);
/** Kinds fleetplan generates whose CRDs are not in the index (policy templates evaluated by ACM's policy framework). */
const NO_CRD = new Set(['policy.open-cluster-management.io/v1beta1/OperatorPolicy', 'policy.open-cluster-management.io/v1/ConfigurationPolicy']);

const schemas = loadCrdSchemas();

function checkObject(o: Obj, where: string): string[] {
  const id = `${o.apiVersion}/${o.kind}`;
  const problems: string[] = [];
  if (typeof o.metadata?.name !== 'string' || o.metadata.name === '') problems.push(`${where}: metadata.name missing`);
  if (BUILTIN.has(id)) return problems;
  if (NO_CRD.has(id)) {
    for (const [i, t] of (((o.spec as Record<string, unknown> | undefined)?.['object-templates'] ?? []) as { objectDefinition: Obj }[]).entries()) {
      problems.push(...checkObject(t.objectDefinition, `${where} object-templates[${i}]`));
    }
    return problems;
  }
  const schema: JsonSchema | undefined = schemas.get(`${group(o.apiVersion)}/${o.apiVersion.split('/')[1]}/${o.kind}`);
  if (!schema) return [`${where}: no served CRD version for ${id} in ../shared/crds`];
  for (const issue of validateSchema(o, schema)) problems.push(`${where} ${issue.path.join('.')}: ${issue.message}`);
  if (o.kind === 'Policy') {
    for (const [i, t] of (((o.spec as Record<string, unknown>)['policy-templates'] ?? []) as { objectDefinition: Obj }[]).entries()) {
      problems.push(...checkObject(t.objectDefinition, `${where} policy-templates[${i}]`));
    }
  }
  return problems;
}

const fleets: [string, string][] = [
  ['examples/lab (agent)', 'examples/lab'],
  ['bootstrap-hyperfleet region specs (hive-aws, capi-eks)', resolve('../shared/realrepos/openshift-online__bootstrap-hyperfleet')],
];

for (const [label, repo] of fleets) {
  test(`${label}: every generated provisioning object validates against its upstream CRD`, () => {
    const { fleet } = loadFleet(repo);
    const files = renderFleet(resolveFleet(fleet, { clusters: ['hub'] })).files.filter((f) => f.path.startsWith('hub/provision/'));
    const objects = files.flatMap((f) => f.objects.map((o) => ({ o: o as Obj, where: `${f.path} ${o.kind}/${o.metadata.name}` })));
    assert.ok(objects.length > 20, `${objects.length} objects`);
    const kinds = new Set(objects.map(({ o }) => o.kind));
    for (const k of ['ManagedCluster', 'KlusterletAddonConfig', 'ManagedClusterSetBinding', 'Placement', 'GitOpsCluster', 'Policy', 'PlacementBinding', 'Namespace', 'ExternalSecret']) {
      assert.ok(kinds.has(k), `${label} generates a ${k}`);
    }
    const problems = objects.flatMap(({ o, where }) => checkObject(o, where));
    assert.deepEqual(problems, []);
  });
}

test('the lab hub gets every agent-install kind for each spoke, from the rendered kustomize directories', () => {
  const { fleet } = loadFleet('examples/lab');
  const result = renderFleet(resolveFleet(fleet, { clusters: ['hub'] }));
  const out = tempDir('lab-provision');
  try {
    writeOut(out, result.files, []);
    for (const spoke of ['etl4', 'etl6']) {
      const built = kustomizeBuild(`${out}/hub/provision/${spoke}`);
      const count = (kind: string) => built.filter((o) => o.kind === kind).length;
      assert.deepEqual(
        ['Namespace', 'BareMetalHost', 'ExternalSecret', 'NMStateConfig', 'InfraEnv', 'ClusterDeployment', 'AgentClusterInstall', 'ManagedCluster', 'KlusterletAddonConfig', 'Policy'].map((k) => [k, count(k)]),
        [['Namespace', 1], ['BareMetalHost', 3], ['ExternalSecret', 4], ['NMStateConfig', 3], ['InfraEnv', 1], ['ClusterDeployment', 1], ['AgentClusterInstall', 1], ['ManagedCluster', 1], ['KlusterletAddonConfig', 1], ['Policy', 1]],
      );
      // What kustomize builds from the directory is exactly the objects render lists for it.
      const listed = result.files.filter((f) => f.path.startsWith(`hub/provision/${spoke}/`)).flatMap((f) => f.objects);
      const key = (o: { kind: string; metadata: { name: string; namespace?: string } }) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
      assert.deepEqual(built.map(key).sort(), listed.map(key).sort());
      const aci = built.find((o) => o.kind === 'AgentClusterInstall')!.spec as Record<string, unknown>;
      const octet = spoke === 'etl4' ? 16 : 17;
      assert.deepEqual([aci.apiVIPs, aci.ingressVIPs], [[`192.168.135.${octet}3`], [`192.168.135.${octet}4`]]);
      const bmh = built.find((o) => o.kind === 'BareMetalHost' && o.metadata.name === 'master-0')!.spec as { bmc: { address: string; credentialsName: string } };
      assert.equal(bmh.bmc.address, `redfish-virtualmedia://192.168.135.1:8000/redfish/v1/Systems/${spoke}-master-0`);
      assert.equal(bmh.bmc.credentialsName, 'master-0-bmc');
      // No Secret with data in Git: credentials come from ExternalSecrets.
      assert.equal(count('Secret'), 0);
    }
  } finally {
    removeTree(out);
  }
});

test('the same check finds the committed EKS output\'s defects (so it can fail)', () => {
  const theirs = kustomizeBuild(resolve('../shared/realrepos/openshift-online__bootstrap-hyperfleet/clusters/eks-01-mturansk-jul30'));
  const problems = theirs.filter((o) => !o.apiVersion.startsWith('tekton.dev/')).flatMap((o) => checkObject(o, `${o.kind}/${o.metadata.name}`));
  for (const expected of [
    /^AWSManagedControlPlane\/eks-01-mturansk-jul30 spec\.baseDomain: unknown field "baseDomain"/,
    /^AWSManagedControlPlane\/eks-01-mturansk-jul30 spec\.vpc: unknown field "vpc"/,
    /^AWSManagedControlPlane\/eks-01-mturansk-jul30 spec\.logging\.enable: unknown field "enable"/,
    /^AWSManagedMachinePool\/eks-01-mturansk-jul30 spec\.scaling\.desiredSize: unknown field "desiredSize"/,
    /^MachinePool\/eks-01-mturansk-jul30 spec\.template\.spec\.version: expected a string, got 1\.28/,
    /^ExternalSecret\/pull-secret spec\.target\.type: unknown field "type"/,
  ]) {
    assert.ok(problems.some((p) => expected.test(p)), `${expected} in:\n${problems.join('\n')}`);
  }
});
