/**
 * A gitops-standards cluster kustomization applies more than the chart's Applications and
 * AppProjects: here the `cluster-versions` ConfigMap its replacements read. The root Application
 * applies it to the cluster, render writes only Argo CD's objects, and the plan said nothing of it.
 * It is named in the cluster's notes (ADR 0392).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from '../support/fleet-fixture.js';

test('the plan names the objects a cluster kustomization applies besides the Applications', async () => {
  const p = await cli(['plan', '--repo', 'test/fixtures/gitops-standards', '-o', 'json']);
  assert.equal(p.code, 0, p.stderr);
  const clusters = (JSON.parse(p.stdout) as { clusters: { name: string; notes?: string[] }[] }).clusters;
  const hub = clusters.find((c) => c.name === 'hub');
  assert.ok(hub, p.stdout);
  assert.ok(hub.notes?.some((n) => /^kustomize build clusters\/hub also applies 1 object that is not Argo CD's: ConfigMap openshift-gitops\/cluster-versions \(render writes/.test(n)), JSON.stringify(hub.notes));
});
