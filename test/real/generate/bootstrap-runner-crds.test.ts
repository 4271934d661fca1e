/**
 * The Tekton objects of `gitops.bootstrapRunner: tekton` (ADR 0239) validate, strictly, against
 * Tekton's own CRDs in the shared crds/tekton (the served version fleetplan writes, v1), as the
 * provisioning objects do against theirs (provision-crds.test.ts): a field the CRD does not know
 * fails. And the check can fail: a misplaced field is caught.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsYaml from 'js-yaml';
import { loadFleet } from '../../../src/index.js';
import { provisionBundle } from '../../../src/generate/provision/index.js';
import { validateSchema, type JsonSchema } from '../../../src/load/json-schema.js';
import type { K8sObject } from '../../../src/model/k8s.js';
import { group, loadCrdSchemas } from '../../support/provision.js';
import { removeTree, writeTree } from '../../support/fleet-fixture.js';

let schemas: Map<string, JsonSchema> | undefined;

function problems(o: K8sObject): string[] {
  schemas ??= loadCrdSchemas();
  const schema = schemas.get(`${group(o.apiVersion)}/${o.apiVersion.split('/')[1]}/${o.kind}`);
  if (!schema) return [`${o.kind}/${o.metadata.name}: no served CRD version for ${o.apiVersion} ${o.kind}`];
  return validateSchema(o, schema).map((i) => `${o.kind}/${o.metadata.name} ${i.path.join('.')}: ${i.message}`);
}

function tektonObjects(installer: 'hive-aws' | 'capi-eks'): K8sObject[] {
  const provision = installer === 'hive-aws'
    ? { installer, version: '4.19', baseDomain: 'example.com', region: 'eu-west-1', credentials: { store: { name: 'vault' }, cloud: { key: 'aws' }, pullSecret: { key: 'pull' } } }
    : { installer, version: '1.30', region: 'us-west-2' };
  const dir = writeTree({
    'fleet.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Fleet', metadata: { name: 't' },
      spec: { repoURL: 'https://git.example.com/fleet.git', revision: 'main', gitops: { bootstrapRunner: { type: 'tekton', image: 'registry.example.com/fleetplan:1' } } } }),
    'clusters/hub/cluster.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name: 'hub' }, spec: { role: 'hub' } }),
    'clusters/s1/cluster.yaml': jsYaml.dump({ apiVersion: 'fleetplan.io/v1alpha1', kind: 'Cluster', metadata: { name: 's1' },
      spec: { role: 'spoke', hub: 'hub', ...(installer === 'capi-eks' ? { platform: 'kubernetes' } : {}), provision } }),
  });
  try {
    const { fleet, findings } = loadFleet(dir);
    assert.deepEqual(findings, []);
    return provisionBundle(fleet, 's1').objects.filter((o) => o.apiVersion.startsWith('tekton.dev/'));
  } finally {
    removeTree(dir);
  }
}

for (const installer of ['hive-aws', 'capi-eks'] as const) {
  test(`bootstrapRunner tekton (${installer}): Task, Pipeline and PipelineRun validate against Tekton's CRDs`, () => {
    const objs = tektonObjects(installer);
    assert.deepEqual(objs.map((o) => o.kind), ['Task', 'Pipeline', 'PipelineRun']);
    assert.deepEqual(objs.flatMap(problems), []);
  });
}

test('the Tekton check fails on a field Tekton v1 does not have (v1beta1\'s PipelineRun serviceAccountName)', () => {
  const run = tektonObjects('hive-aws').find((o) => o.kind === 'PipelineRun')!;
  const bad = { ...run, spec: { ...(run.spec as object), serviceAccountName: 'fleetplan-bootstrap' } } as K8sObject;
  assert.ok(problems(bad).some((p) => /spec\.serviceAccountName: unknown field/.test(p)), problems(bad).join('\n'));
});
