/**
 * Every object fleetplan generates for provisioning validates against the upstream CRD schema of
 * its kind (crds/ of the shared data, the served version fleetplan writes), strictly: a field the
 * CRD does not know fails (the API server would prune it). Built-in kinds are checked for
 * apiVersion, kind and metadata only. Objects nested in policies are checked too when their CRD
 * is known.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../../src/index.js';
import { renderFleet } from '../../../src/render/fleet.js';
import { validateSchema } from '../../../src/load/json-schema.js';
import type { JsonSchema } from '../../../src/load/json-schema.js';
import type { Obj } from '../../support/provision.js';
import { group, kustomizeBuild, loadCrdSchemas } from '../../support/provision.js';
import { realRepo } from '../../support/shared.js';
import { resolveFleet } from '../../../src/layering/resolve-fleet.js';

/** Kubernetes and OpenShift built-in kinds: no CRD to check against. */
const BUILTIN = new Set(['v1/Namespace', 'v1/Secret', 'rbac.authorization.k8s.io/v1/ClusterRoleBinding', 'v1/ConfigMap', 'config.openshift.io/v1/ClusterVersion']);
/** Kinds fleetplan generates whose CRDs are not in the index (policy templates evaluated by ACM's policy framework). */
const NO_CRD = new Set(['policy.open-cluster-management.io/v1beta1/OperatorPolicy', 'policy.open-cluster-management.io/v1/ConfigurationPolicy']);

/** The strict CRD schemas, read once, on first use (never at import). */
let schemas: Map<string, JsonSchema> | undefined;

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
  schemas ??= loadCrdSchemas();
  const schema: JsonSchema | undefined = schemas.get(`${group(o.apiVersion)}/${o.apiVersion.split('/')[1]}/${o.kind}`);
  if (!schema) return [`${where}: no served CRD version for ${id} in the shared crds/`];
  for (const issue of validateSchema(o, schema)) problems.push(`${where} ${issue.path.join('.')}: ${issue.message}`);
  if (o.kind === 'Policy') {
    for (const [i, t] of (((o.spec as Record<string, unknown>)['policy-templates'] ?? []) as { objectDefinition: Obj }[]).entries()) {
      problems.push(...checkObject(t.objectDefinition, `${where} policy-templates[${i}]`));
    }
  }
  return problems;
}

const fleets: [string, () => string][] = [
  ['examples/lab (agent)', () => 'examples/lab'],
  ['bootstrap-hyperfleet region specs (hive-aws, capi-eks)', () => realRepo('openshift-online__bootstrap-hyperfleet')],
];

for (const [label, repo] of fleets) {
  test(`${label}: every generated provisioning object validates against its upstream CRD`, () => {
    const { fleet } = loadFleet(repo());
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

test('the same check finds the committed EKS output\'s defects (so it can fail)', () => {
  const theirs = kustomizeBuild(realRepo('openshift-online__bootstrap-hyperfleet', 'clusters', 'eks-01-mturansk-jul30'));
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
