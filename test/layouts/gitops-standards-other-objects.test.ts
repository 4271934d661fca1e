/**
 * A gitops-standards cluster kustomization applies more than the chart's Applications and
 * AppProjects: here the `cluster-versions` ConfigMap its replacements read. The root Application
 * applies it to the cluster; the plan names and counts it and render writes it under objects/, as
 * for an argocd root (ADR 0398, 0407).
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
  assert.ok(hub.notes?.some((n) => /^kustomize build clusters\/hub also applies 1 object that is not Argo CD's: ConfigMap openshift-gitops\/cluster-versions \(render writes them under objects\//.test(n)), JSON.stringify(hub.notes));
});

test('plan lists and render writes the objects a cluster kustomization applies besides the Applications', async () => {
  const p = await cli(['plan', '--repo', 'test/fixtures/gitops-standards', '-o', 'json']);
  const hub = (JSON.parse(p.stdout) as { clusters: { name: string; objects?: { kind: string; name: string; namespace?: string; via: string }[] }[] }).clusters.find((c) => c.name === 'hub');
  assert.deepEqual(hub?.objects?.map((o) => [o.kind, o.namespace, o.name, o.via]), [['ConfigMap', 'openshift-gitops', 'cluster-versions', 'kustomize build clusters/hub']]);
  const r = await cli(['render', '--repo', 'test/fixtures/gitops-standards', '--cluster', 'hub']);
  assert.equal(r.code, 0, r.stderr);
  const docs = r.stdout.split(/^---$/m).filter((d) => /kind: ConfigMap/.test(d) && /name: cluster-versions/.test(d));
  assert.equal(docs.length, 1, r.stdout.slice(0, 2000));
  assert.match(docs[0]!, /namespace: openshift-gitops/);
});
